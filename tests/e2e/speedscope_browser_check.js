// speedscope_browser_check.js — opens a speedscope file written by
// `scprof profile` in the real speedscope app (the release build shipped in
// the speedscope npm package) in headless Chromium, the way a person would:
// "Browse" to the file, look at the Sandwich view (a table of functions with
// total and self cost), switch to the next profile (memory).  Expected
// numbers come from the run's report.json.
//   usage: node speedscope_browser_check.js CHROMIUM SPEEDSCOPE_DIR FILE.speedscope.json REPORT.json PROFILE_DIR
// SPEEDSCOPE_DIR holds speedscope's index.html.  Prints PASS/FAIL lines.
"use strict";
const fs = require("fs");
const path = require("path");
const cdp = require("./cdp_pipe.js");

const [chromium, appDir, filePath, reportPath, userDir] = process.argv.slice(2);
const report = JSON.parse(fs.readFileSync(reportPath, "utf8"));

function check(name, ok, detail) {
  console.log((ok ? "PASS " : "FAIL ") + "speedscope app: " + name +
              (ok || detail === undefined ? "" : " (" + detail + ")"));
}

// Does every stack of the file start at the root frame?  When not, the
// root is implied (as in flamegraph.pl's folded stacks) and only its own
// cost is a sample of it.
const sfile = JSON.parse(fs.readFileSync(filePath, "utf8"));
const rootName = report.frames[report.nodes[0].frame].name;
const rootInStacks = sfile.profiles[0].samples.every((st) => sfile.shared.frames[st[0]].name === rootName);

// Per function name: self cost summed over its nodes, total cost counted
// once per path (a recursive call is inside its outer call), as a
// "sandwich" view shows them.
function perFunction(metric) {
  const out = new Map();
  const { nodes, frames } = report;
  for (const n of nodes) {
    const name = frames[n.frame].name;
    const e = out.get(name) || { self: 0, total: 0 };
    e.self += n.self[metric];
    let nested = false;
    for (let a = n.parent; a >= (rootInStacks ? 0 : 1); a = nodes[a].parent) if (frames[nodes[a].frame].name === name) nested = true;
    if (n.parent < 0 && !rootInStacks) e.total += n.self[metric];
    else if (!nested) e.total += n.total[metric];
    out.set(name, e);
  }
  return out;
}

// The sandwich table as { name: {total, self} } from the page's text:
// rows of "TOTAL (P%)", "SELF (P%)", "NAME".
function parseSandwich(text) {
  const rows = new Map();
  const cells = text.split("\n").map((s) => s.trim()).filter((s) => s.length);
  const start = cells.findIndex((c) => /^Total\s+Self\s+Symbol Name$/.test(c));
  for (let i = start + 1; start >= 0 && i + 2 < cells.length + 1; i += 3) {
    const t = /^([\d,.]+ ?\w*) \(([^)]*)\)$/.exec(cells[i] || "");
    const s = /^([\d,.]+ ?\w*) \(([^)]*)\)$/.exec(cells[i + 1] || "");
    if (!t || !s || cells[i + 2] === undefined) break;
    rows.set(cells[i + 2], { total: t[1], self: s[1], totalPct: t[2] });
  }
  return rows;
}

// The sandwich table once it holds at least n rows: the view draws its
// heading before its rows, so one read right after the heading may see none.
async function sandwichRows(page, n) {
  let rows = new Map();
  for (let i = 0; i < 100 && rows.size < n; i++) {
    if (i) await new Promise((r) => setTimeout(r, 100));
    rows = parseSandwich(await page.evaluate("document.body.innerText"));
  }
  return rows;
}

const key = async (page, k, code, vk) => {
  await page.send("Input.dispatchKeyEvent", { type: "keyDown", key: k, code, text: k, windowsVirtualKeyCode: vk });
  await page.send("Input.dispatchKeyEvent", { type: "keyUp", key: k, code, windowsVirtualKeyCode: vk });
};

async function main(browser) {
  const page = await browser.open();
  await page.load("file://" + path.resolve(appDir, "index.html"));
  const welcome = await page.until('document.body.innerText.includes("Browse") && document.querySelector("input[type=file]") !== null');
  check("the app loads from file: with its Browse button", welcome);

  // "Browse" and pick the file, as the file chooser would.
  const doc = await page.send("DOM.getDocument", {});
  const input = await page.send("DOM.querySelector", { nodeId: doc.root.nodeId, selector: "input[type=file]" });
  await page.send("DOM.setFileInputFiles", { files: [path.resolve(filePath)], nodeId: input.nodeId });
  const cpuName = "CPU (" + report.metrics[0].unit + ")";
  const loaded = await page.until(`document.body.innerText.includes(${JSON.stringify(cpuName + " (1/" + report.metrics.length + ")")})`);
  check("imports the file and shows \"" + cpuName + " (1/" + report.metrics.length + ")\"", loaded,
        (await page.evaluate("document.body.innerText")).slice(0, 200));
  const title = await page.evaluate("document.title");
  // the file's name is the profile's title ("demo.wasm run(u32:200)"), or "scprof"
  const wantTitle = (report.title || "scprof") + " - speedscope";
  check("window title names the profile", title === wantTitle, title + " (want " + wantTitle + ")");

  // Sandwich view ("3"): every function's total and self CPU.
  await key(page, "3", "Digit3", 51);
  await page.until('document.body.innerText.includes("Symbol Name")');
  const want = perFunction(0);
  const rows = await sandwichRows(page, want.size);
  const fmt = (v) => v.toLocaleString("en-US");
  let wrong = [];
  for (const [name, e] of want) {
    const r = rows.get(name);
    if (!r || r.total !== fmt(e.total) || r.self !== fmt(e.self))
      wrong.push(name + ": " + (r ? r.total + "/" + r.self : "missing") + " want " + fmt(e.total) + "/" + fmt(e.self));
  }
  check("sandwich view: total and self CPU of all " + want.size + " functions match report.json",
        wrong.length === 0 && rows.size === want.size, wrong.slice(0, 3).join("; ") + " rows " + rows.size);

  // Next profile ("n"): memory, in bytes.
  await key(page, "n", "KeyN", 78);
  const memName = "Memory (bytes) (2/" + report.metrics.length + ")";
  const mem = await page.until(`document.body.innerText.includes(${JSON.stringify(memName)})`);
  check('"n" switches to "' + memName + '"', mem);
  const memWant = perFunction(1);
  const memRows = await sandwichRows(page, memWant.size);
  let top = null;
  for (const [name, e] of memWant) if (!top || e.self > memWant.get(top).self) top = name;
  const pct = (100 * memWant.get(top).total) / report.metrics[1].total;
  const r = memRows.get(top);
  check("memory view: " + top + " with " + pct.toFixed(0) + "% of the bytes",
        r !== undefined && r.totalPct === pct.toFixed(0) + "%", r && JSON.stringify(r));
  check("no network request was made", page.networkRequests() === 0, page.networkRequests());
}

cdp.run(chromium, userDir, "speedscope app", main);
