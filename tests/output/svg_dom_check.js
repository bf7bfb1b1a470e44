// svg_dom_check.js — runs the script embedded in a flamegraph SVG written by
// scprof against a small stand-in DOM (no browser is installed in CI) and
// checks hover, zoom, reset, search and the URL state.  Expects the
// out_fixture.h fixture (tests/output/gen_out.c).  Prints PASS/FAIL lines.
//   usage: node svg_dom_check.js FILE.svg
"use strict";
const fs = require("fs");
const svg = fs.readFileSync(process.argv[2], "utf8");
const NS = "urn:scprof:flamegraph";
let failures = 0;
function check(name, ok, detail) {
  console.log((ok ? "PASS " : "FAIL ") + "svg script: " + name + (ok || detail === undefined ? "" : " (" + detail + ")"));
  if (!ok) failures++;
}
function unxml(s) {
  return s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, "\"").replace(/&amp;/g, "&");
}

// ---- the stand-in DOM: just what the script touches ----
class Node {
  constructor(tag, attrs, parent) {
    this.tag = tag;
    this.attrs = Object.assign({}, attrs || {});
    this.parentNode = parent || null;
    this.children = [];
    this.listeners = {};
    this.text = "";
    const self = this;
    this.firstChild = {
      get nodeValue() { return self.text; },
      set nodeValue(v) { self.text = v; },
    };
    if (parent) parent.children.push(this);
  }
  get textContent() { return this.text; }
  set textContent(v) { this.text = v; }
  getAttribute(a) { return a in this.attrs ? this.attrs[a] : null; }
  getAttributeNS(ns, a) { return ns === NS ? this.getAttribute("scp:" + a) : null; }
  setAttribute(a, v) { this.attrs[a] = String(v); }
  removeAttribute(a) { delete this.attrs[a]; }
  hasAttribute(a) { return a in this.attrs; }
  getElementsByTagName(tag) {
    const out = [];
    const walk = (n) => n.children.forEach((c) => { if (c.tag === tag) out.push(c); walk(c); });
    walk(this);
    return out;
  }
  addEventListener(type, fn) { (this.listeners[type] = this.listeners[type] || []).push(fn); }
  fire(type, target) { (this.listeners[type] || []).forEach((fn) => fn({ target, preventDefault() {} })); }
}
function attrsOf(s) {
  const a = {};
  s.replace(/([\w:]+)="([^"]*)"/g, (_, k, v) => { a[k] = unxml(v); });
  return a;
}

function load(search) {
  const root = new Node("svg");
  const byId = {};
  // the fixed text elements
  svg.replace(/<text id="(\w+)"([^>]*)>([^<]*)<\/text>/g, (_, id, rest, body) => {
    const n = new Node("text", attrsOf(rest), root);
    n.attrs.id = id;
    n.text = unxml(body);
    byId[id] = n;
  });
  const frames = new Node("g", { id: "frames" }, root);
  byId.frames = frames;
  const re = /<g (scp:x="[^"]*" scp:w="[^"]*" scp:d="[^"]*")><title>([^<]*)<\/title><rect ([^>]*)\/><text ([^>]*)>([^<]*)<\/text><\/g>/g;
  let m;
  while ((m = re.exec(svg))) {
    const g = new Node("g", attrsOf(m[1]), frames);
    new Node("title", {}, g).text = unxml(m[2]);
    new Node("rect", attrsOf(m[3]), g);
    new Node("text", attrsOf(m[4]), g).text = unxml(m[5]);
  }
  const script = svg.match(/<!\[CDATA\[([\s\S]*?)\]\]>/)[1];
  const env = {
    document: { getElementById: (id) => byId[id] || null },
    window: new Node("window"),
    location: { search: search || "", pathname: "/f.svg" },
    history: { state: null, url: null, replaceState(s, t, url) { this.url = url; } },
    prompt: () => env.answer,
    answer: null,
  };
  const api = new Function("document", "window", "location", "history", "prompt",
    script + "\nreturn { init: init, zoom: zoom };")(env.document, env.window, env.location,
      env.history, () => env.answer);
  api.init({});
  return { env, frames, byId, api };
}

function frameByTitle(frames, prefix) {
  return frames.children.find((g) => g.getElementsByTagName("title")[0].text.startsWith(prefix + " ("));
}
function rect(g) { return g.getElementsByTagName("rect")[0]; }
function label(g) { return g.getElementsByTagName("text")[0].text; }

// ---- checks ----
let s = load("");
check("one frame per <g>", s.frames.children.length === 8, s.frames.children.length);
const compute = frameByTitle(s.frames, "compute (src/math.rs:5)");
const main = frameByTitle(s.frames, "main (src/lib.rs:10)");
const vm = frameByTitle(s.frames, "vm:instantiate");
const helper = frameByTitle(s.frames, "helper (src/util.rs:20)");

s.frames.fire("mouseover", rect(compute));
check("hover shows the details line", s.byId.details.text.startsWith("Function: compute (src/math.rs:5) (230 instructions, 16.31%"), s.byId.details.text);
s.frames.fire("mouseout", rect(compute));
check("details cleared on mouse out", s.byId.details.text === " ");

s.frames.fire("click", label(compute) === "" ? rect(compute) : rect(compute));
check("zoom: clicked frame fills the width", rect(compute).attrs.x === "10.00" && rect(compute).attrs.width === "1180.00", JSON.stringify(rect(compute).attrs));
check("zoom: ancestors stay, faded, full width", main.attrs.class === "parent" && rect(main).attrs.width === "1180.00");
check("zoom: other subtrees hidden", vm.attrs.class === "hide" && helper.attrs.class === "hide");
check("zoom: label re-fitted", label(compute) === "compute (src/math.rs:5)", label(compute));
check("zoom: Reset Zoom shown", s.byId.unzoom.attrs.class === "");
check("zoom: state in the URL", s.env.history.url === "?x=0&d=2", s.env.history.url);
const inner = s.frames.children.filter((g) => g.getElementsByTagName("title")[0].text.startsWith("compute (src/math.rs:5) (30 "))[0];
check("zoom: children rescaled", rect(inner).attrs.width === (30 * 1180 / 230).toFixed(2), rect(inner).attrs.width);

s.byId.unzoom.fire("click", s.byId.unzoom);
check("reset zoom", vm.attrs.class === "" && rect(compute).attrs.width === (230 * 1180 / 1410).toFixed(2) && s.byId.unzoom.attrs.class === "hide");
check("reset zoom: URL cleared", s.env.history.url === "/f.svg", s.env.history.url);

s.env.answer = "^host:";
s.byId.search.fire("click", s.byId.search);
const hosts = s.frames.children.filter((g) => g.getElementsByTagName("title")[0].text.startsWith("host:"));
check("search highlights matches", hosts.length === 2 && hosts.every((g) => rect(g).attrs.fill === "rgb(230,0,230)"));
check("search: matched share", s.byId.matched.text === "Matched: 2.84%", s.byId.matched.text);
check("search: button becomes Reset Search", s.byId.search.text === "Reset Search");
check("search: state in the URL", s.env.history.url === "?s=%5Ehost%3A", s.env.history.url);
s.env.answer = "compute";
s.byId.search.fire("click", s.byId.search);  // resets
check("reset search restores colours", hosts.every((g) => rect(g).attrs.fill !== "rgb(230,0,230)") && s.byId.matched.text === " ");
// nested matches are counted once: "compute" matches outer and inner
s.env.window.fire("keydown", s.env.window);  // not Ctrl-F: ignored
s.env.window.listeners.keydown[0]({ keyCode: 70, key: "f", ctrlKey: true, preventDefault() {} });
check("Ctrl-F searches, nested matches counted once", s.byId.matched.text === "Matched: 16.31%", s.byId.matched.text);

s = load("?x=0&d=2&s=%5Ehost%3A");
const c2 = frameByTitle(s.frames, "compute (src/math.rs:5)");
check("URL restores zoom", rect(c2).attrs.width === "1180.00" && frameByTitle(s.frames, "vm:instantiate").attrs.class === "hide");
check("URL restores search", s.byId.matched.text === "Matched: 2.84%", s.byId.matched.text);

process.exit(failures ? 1 : 0);
