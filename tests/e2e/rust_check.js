// rust_check.js — checks a profile of a Rust fixture against the module
// itself and against llvm-symbolizer (Debian's llvm):
//  - Σ self == total for every metric, and every node's total is its self
//    plus its children's totals;
//  - every host-call node sits under the inline chain llvm-symbolizer gives
//    for a call site of that import: the same functions (demangled names,
//    the legacy hash left out), innermost first, each entered at the same
//    line, up to the first function that is not inlined.
//   usage: node rust_check.js MODULE.wasm REPORT.json LABEL
// Prints one PASS/FAIL line per check.
"use strict";
const fs = require("fs");
const { execFileSync } = require("child_process");
const [wasm, reportPath, label] = process.argv.slice(2);
const report = JSON.parse(fs.readFileSync(reportPath, "utf8"));

// kind: "" for llvm-symbolizer's evidence (tests/e2e/rust.sh tags it
// [viewer]), "[other] " for the profile's own consistency
function check(name, ok, detail, kind) {
  console.log((ok ? "PASS " : "FAIL ") + (kind || "") + label + ": " + name +
              (ok || detail === undefined ? "" : " (" + detail + ")"));
}

// ---- sums: every metric's self values add up to its Budget total (the
// one sum check of a run: rust.sh does not repeat it on the folded file)
const nodes = report.nodes, frames = report.frames;
const nm = report.metrics.length;
const sums = report.metrics.map((mt, m) => nodes.reduce((a, n) => a + n.self[m], 0));
check("self values add up to the Budget's totals (" +
      report.metrics.map((mt) => mt.name + " " + mt.total).join(", ") + ")",
      sums.every((s, m) => s === report.metrics[m].total), sums.join(", "), "[other] ");
const kids = new Map();
for (const n of nodes) {
  if (n.parent < 0) continue;
  if (!kids.has(n.parent)) kids.set(n.parent, []);
  kids.get(n.parent).push(n);
}
let inclusiveOk = true;
for (const n of nodes)
  for (let m = 0; m < nm; m++) {
    const t = n.self[m] + (kids.get(n.id) || []).reduce((a, c) => a + c.total[m], 0);
    if (t !== n.total[m]) inclusiveOk = false;
  }
check("total = self + children's totals at every node", inclusiveOk, undefined, "[other] ");

// ---- host-call sites: the import each call targets, from the disassembly
// llvm-symbolizer 14 demangles legacy Rust names as C++ and leaves rustc's
// escapes ($LT$, $u20$, "..") in; undo those, and drop the legacy hash.
const LEGACY = { SP: "@", BP: "*", RF: "&", LT: "<", GT: ">", LP: "(", RP: ")", C: "," };
const strip = (s) => s.replace(/::h[0-9a-f]{16}$/, "")
  .replace(/(^|::)_\$/g, "$1$")
  .replace(/\$(SP|BP|RF|LT|GT|LP|RP|C)\$/g, (_, k) => LEGACY[k])
  .replace(/\$u([0-9a-f]+)\$/g, (_, h) => String.fromCharCode(parseInt(h, 16)))
  .replace(/\.\./g, "::");
const hdr = execFileSync("wasm-objdump", ["-h", wasm], { encoding: "utf8" });
const code = parseInt(/Code start=0x([0-9a-f]+)/.exec(hdr)[1], 16);
const imp = execFileSync("wasm-objdump", ["-x", "-j", "Import", wasm], { encoding: "utf8" });
const nimports = (imp.match(/^ - func\[/mg) || []).length;
const dis = execFileSync("wasm-objdump", ["-d", wasm], { encoding: "utf8", maxBuffer: 1 << 26 });
const sites = [];   // {pc, sym}
for (const line of dis.split("\n")) {
  const m = /^ ([0-9a-f]+):[^|]*\|\s*call (\d+) <([^>]*)>/.exec(line);
  if (m && Number(m[2]) < nimports) sites.push({ pc: parseInt(m[1], 16) - code, sym: m[3] });
}
check("the module calls host functions", sites.length > 0, wasm);
const input = sites.map((s) => "0x" + s.pc.toString(16)).join("\n") + "\n";
const sym = execFileSync("llvm-symbolizer", ["--obj=" + wasm, "--inlining", "--functions=linkage"],
                         { input, encoding: "utf8" });
const blocks = sym.trim().split(/\n\n/);
check("llvm-symbolizer answers every call site", blocks.length === sites.length,
      blocks.length + " of " + sites.length);
const chains = new Set();
blocks.forEach((b, i) => {
  const lines = b.split("\n");
  const chain = [];
  for (let k = 0; k + 1 < lines.length; k += 2) {
    const line = /:(\d+):\d+$/.exec(lines[k + 1]);
    chain.push(strip(lines[k]) + "@" + (line ? line[1] : "?"));
  }
  chains.add(sites[i].sym + "|" + chain.join(" < "));
});

// ---- host nodes called from guest code, with their chain in the profile
let placed = 0, misplaced = [];
for (const n of nodes) {
  const f = frames[n.frame];
  if (f.kind !== "host" || n.parent < 0) continue;
  let p = nodes[n.parent];
  if (frames[p.frame].kind !== "guest" && frames[p.frame].kind !== "inlined") continue;
  const chain = [];
  let line = n.call_site ? n.call_site.line : 0;
  for (;;) {
    const pf = frames[p.frame];
    chain.push(pf.name + "@" + line);
    if (pf.kind !== "inlined") break;
    line = p.call_site ? p.call_site.line : 0;
    p = nodes[p.parent];
  }
  const host = f.name.replace(/^host:/, "");
  const key = chain.join(" < ");
  const ok = [...chains].some((c) => c.endsWith("|" + key) && c.split("|")[0].includes(host));
  if (ok) placed++; else misplaced.push(f.name + ": " + key);
}
check("every host call sits under llvm-symbolizer's inline chain (" + placed + " nodes)",
      misplaced.length === 0, misplaced.join("; ") + " not in " + [...chains].join("; "));
