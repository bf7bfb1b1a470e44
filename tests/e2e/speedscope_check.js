// speedscope_check.js — checks a speedscope file written by scprof:
// against speedscope's own file-format schema (JSON Schema, draft 07) when
// one is given, and by hand against the run's report.json either way.
// The validator knows the keywords that schema uses (type, $ref,
// properties, required, items, enum, const, anyOf) and fails on any other,
// so a schema change cannot pass unchecked.
//   usage: node speedscope_check.js SCHEMA.json|- FILE.speedscope.json REPORT.json
// Prints one PASS/FAIL line per check.
"use strict";
const fs = require("fs");
const [schemaPath, filePath, reportPath] = process.argv.slice(2);
const doc = JSON.parse(fs.readFileSync(filePath, "utf8"));
const report = JSON.parse(fs.readFileSync(reportPath, "utf8"));

function check(name, ok, detail) {
  console.log((ok ? "PASS " : "FAIL ") + "speedscope: " + name +
              (ok || detail === undefined ? "" : " (" + detail + ")"));
}

const KNOWN = new Set(["$schema", "definitions", "title", "type", "$ref", "properties",
                       "required", "items", "enum", "const", "anyOf", "description"]);

function typeOk(type, v) {
  switch (type) {
    case "object": return v !== null && typeof v === "object" && !Array.isArray(v);
    case "array": return Array.isArray(v);
    case "string": return typeof v === "string";
    case "number": return typeof v === "number" && isFinite(v);
    case "integer": return Number.isInteger(v);
    case "boolean": return typeof v === "boolean";
    case "null": return v === null;
    default: throw new Error("schema type " + type + " not supported");
  }
}

// Returns a list of "path: problem" strings (empty when v is valid).
function validate(schema, v, root, where) {
  for (const k of Object.keys(schema))
    if (!KNOWN.has(k)) throw new Error("schema keyword " + k + " not supported (at " + where + ")");
  if (schema.$ref) {
    const m = /^#\/definitions\/(.+)$/.exec(schema.$ref);
    if (!m || !root.definitions[m[1]]) throw new Error("bad $ref " + schema.$ref);
    return validate(root.definitions[m[1]], v, root, where);
  }
  const errs = [];
  if (schema.type) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => typeOk(t, v))) return [where + ": not of type " + types.join("|")];
  }
  if ("const" in schema && v !== schema.const) errs.push(where + ": not " + JSON.stringify(schema.const));
  if (schema.enum && !schema.enum.includes(v)) errs.push(where + ": not one of " + schema.enum.join(","));
  if (schema.anyOf && !schema.anyOf.some((s) => validate(s, v, root, where).length === 0))
    errs.push(where + ": matches none of anyOf");
  if (schema.required && typeOk("object", v))
    for (const r of schema.required) if (!(r in v)) errs.push(where + ": missing " + r);
  if (schema.properties && typeOk("object", v))
    for (const [k, s] of Object.entries(schema.properties))
      if (k in v) errs.push(...validate(s, v[k], root, where + "." + k));
  if (schema.items && Array.isArray(v))
    v.forEach((x, i) => errs.push(...validate(schema.items, x, root, where + "[" + i + "]")));
  return errs;
}

if (schemaPath !== "-") {
  const schema = JSON.parse(fs.readFileSync(schemaPath, "utf8"));
  let errs;
  try {
    errs = validate(schema, doc, schema, "$");
  } catch (e) {
    errs = [e.message];
  }
  check("valid against speedscope's file-format schema", errs.length === 0, errs.slice(0, 5).join("; "));
}

// ---- by hand, against the run ----
check("$schema names the speedscope file format",
      doc.$schema === "https://www.speedscope.app/file-format-schema.json", doc.$schema);
const frames = doc.shared && doc.shared.frames;
check("shared frames are named", Array.isArray(frames) && frames.every((f) => typeof f.name === "string"));
check("one profile per metric", Array.isArray(doc.profiles) && doc.profiles.length === report.metrics.length,
      doc.profiles && doc.profiles.length);
doc.profiles.forEach((p, i) => {
  const m = report.metrics[i];
  const what = "profile " + i + " (" + p.name + ")";
  check(what + " is sampled", p.type === "sampled", p.type);
  check(what + " has one weight per sample", p.samples.length === p.weights.length);
  check(what + " samples point at frames",
        p.samples.every((s) => s.length > 0 && s.every((f) => Number.isInteger(f) && f >= 0 && f < frames.length)));
  const sum = p.weights.reduce((a, b) => a + b, 0);
  check(what + " weights add up to the run's " + m.name + " (" + m.total + ")", sum === m.total, sum);
  check(what + " endValue is the total", p.endValue === m.total && p.startValue === 0, p.endValue);
  const unitOk = m.unit === "bytes" ? p.unit === "bytes" : p.unit === "none" && p.name.includes(m.unit);
  check(what + " unit", unitOk, p.unit);
});
check("activeProfileIndex is CPU", doc.activeProfileIndex === 0, doc.activeProfileIndex);
const mix = frames.find((f) => f.name === "mix");
check("frames carry file and line", mix && mix.file === "examples/demo.c" && mix.line === 16, JSON.stringify(mix));
