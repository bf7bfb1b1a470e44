// svg_browser_check.js — loads a flamegraph SVG written by `scprof profile`
// in a real headless Chromium and uses it as a person would: counts the
// frames, presses Ctrl-F and types a regex into the prompt, clicks a frame
// to zoom and "Reset Zoom" to go back, and reloads the URL the page saved.
// Expected values come from the run's report.json, not from the SVG.
//
// The browser is driven by cdp_pipe.js (DevTools protocol over a pipe).
//
//   usage: node svg_browser_check.js CHROMIUM FLAMEGRAPH.svg REPORT.json PROFILE_DIR
// Prints one PASS/FAIL line per check; exits 1 when the browser itself
// could not be driven.
"use strict";
const fs = require("fs");
const path = require("path");
const cdp = require("./cdp_pipe.js");

const [chromium, svgPath, reportPath, userDir] = process.argv.slice(2);
const report = JSON.parse(fs.readFileSync(reportPath, "utf8"));
const MIN_PCT = 0.01;  // the SVG writer's default --min-width
const SEARCH = "^mix";
const ZOOM_TO = "collect";

function check(name, ok, detail) {
  console.log((ok ? "PASS " : "FAIL ") + "chromium: " + name +
              (ok || detail === undefined ? "" : " (" + detail + ")"));
}

// ---- what the page should show, from the JSON report ----
const nodes = report.nodes, frames = report.frames;
const total = nodes[0].total[0];
const shown = nodes.filter((n) => n.total[0] > 0 && (100 * n.total[0]) / total >= MIN_PCT);
const label = (n) => frames[n.frame].label;
// Matched share: nodes whose label matches and that have no matching
// ancestor (a nested match is already inside its ancestor's width).
const re = new RegExp(SEARCH);
let covered = 0, nmatched = 0;
for (const n of shown) {
  if (!re.test(label(n))) continue;
  nmatched++;
  let inside = false;
  for (let a = n.parent; a >= 0; a = nodes[a].parent) if (re.test(label(nodes[a]))) inside = true;
  if (!inside) covered += n.total[0];
}
const wantMatched = "Matched: " + ((100 * covered) / total).toFixed(2) + "%";
const zoomNode = shown.find((n) => frames[n.frame].name === ZOOM_TO);
// Frames drawn after zooming into zoomNode: its ancestors and its subtree.
const isUnder = (n, anc) => { for (let a = n.id; a >= 0; a = nodes[a].parent) if (a === anc.id) return true; return false; };
const wantVisible = shown.filter((n) => isUnder(n, zoomNode) || isUnder(zoomNode, n)).length;

async function main(browser) {
  const page = await browser.open();
  const evaluate = page.evaluate;
  const url = "file://" + path.resolve(svgPath);
  await page.load(url);

  // 1. the frames drawn
  const nframes = await evaluate('document.querySelectorAll("#frames > g").length');
  check("frame count " + nframes + " == nodes of at least " + MIN_PCT + "% in report.json",
        nframes === shown.length, "want " + shown.length);
  const title = await evaluate('document.querySelector("title") ? document.querySelector("title").textContent : ""');
  check("document has a title", title.length > 0);

  // 2. search: Ctrl-F opens the prompt, the regex goes in, Matched: shows
  const dialog = page.once("Page.javascriptDialogOpening");
  const keyDown = page.send("Input.dispatchKeyEvent", { type: "keyDown", key: "f", code: "KeyF",
                                                   windowsVirtualKeyCode: 70, modifiers: 2 });
  const d = await dialog;
  check("Ctrl-F opens a search prompt", d.type === "prompt", d.type);
  await page.send("Page.handleJavaScriptDialog", { accept: true, promptText: SEARCH });
  await keyDown;
  await page.send("Input.dispatchKeyEvent", { type: "keyUp", key: "f", code: "KeyF", windowsVirtualKeyCode: 70, modifiers: 2 });
  const matched = await evaluate('document.getElementById("matched").textContent');
  check("search " + SEARCH + ' shows "' + wantMatched + '"', matched === wantMatched, matched);
  const pink = await evaluate('Array.from(document.querySelectorAll("#frames rect")).filter(r => r.getAttribute("fill") === "rgb(230,0,230)").length');
  check("search highlights the " + nmatched + " matching frames", pink === nmatched, pink);
  const searchBtn = await evaluate('document.getElementById("search").textContent');
  check('search button turns into "Reset Search"', searchBtn === "Reset Search", searchBtn);

  // 3. zoom: a real mouse click on the frame's rectangle
  const box = await evaluate(`(() => {
    const g = Array.from(document.querySelectorAll("#frames > g")).find(g =>
      g.querySelector("title").textContent.startsWith(${JSON.stringify(ZOOM_TO + " (")}));
    const r = g.querySelector("rect").getBoundingClientRect();
    return {x: r.x + r.width / 2, y: r.y + r.height / 2, w: r.width};
  })()`);
  const rootWidth = await evaluate('document.querySelector("#frames > g rect").getBoundingClientRect().width');
  const click = async (x, y) => {
    await page.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
    await page.send("Input.dispatchMouseEvent", { type: "mousePressed", x, y, button: "left", clickCount: 1 });
    await page.send("Input.dispatchMouseEvent", { type: "mouseReleased", x, y, button: "left", clickCount: 1 });
  };
  const hover = await (async () => {
    await page.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: box.x, y: box.y });
    return evaluate('document.getElementById("details").textContent');
  })();
  check("hover shows the frame's details", hover.startsWith("Function: " + ZOOM_TO + " ("), hover);
  await click(box.x, box.y);
  const zoomed = await evaluate(`(() => {
    const gs = Array.from(document.querySelectorAll("#frames > g"));
    const g = gs.find(g => g.querySelector("title").textContent.startsWith(${JSON.stringify(ZOOM_TO + " (")}));
    return {w: g.querySelector("rect").getBoundingClientRect().width,
            visible: gs.filter(g => g.getAttribute("class") !== "hide").length,
            unzoom: document.getElementById("unzoom").getAttribute("class"),
            search: location.search};
  })()`);
  check("click zooms: the frame gets the full width", Math.abs(zoomed.w - rootWidth) < 0.5,
        zoomed.w + " vs " + rootWidth);
  check("zoom shows only the frame, its callees and its callers (" + wantVisible + ")",
        zoomed.visible === wantVisible, zoomed.visible);
  check("Reset Zoom appears", zoomed.unzoom === "", zoomed.unzoom);
  check("the URL keeps zoom and search", /x=\d+/.test(zoomed.search) && /d=\d+/.test(zoomed.search) &&
        /s=%5Emix/.test(zoomed.search), zoomed.search);

  // 4. the saved URL restores both on a fresh load
  await page.load(url + zoomed.search);
  const restored = await evaluate(`({visible: Array.from(document.querySelectorAll("#frames > g")).filter(g => g.getAttribute("class") !== "hide").length,
                                     matched: document.getElementById("matched").textContent})`);
  check("reloading the saved URL restores zoom and search",
        restored.visible === wantVisible && restored.matched === wantMatched, JSON.stringify(restored));

  // 5. Reset Zoom, clicked
  const ub = await evaluate('(() => { const r = document.getElementById("unzoom").getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()');
  await click(ub.x, ub.y);
  const after = await evaluate(`({visible: Array.from(document.querySelectorAll("#frames > g")).filter(g => g.getAttribute("class") !== "hide").length,
                                  unzoom: document.getElementById("unzoom").getAttribute("class")})`);
  check("Reset Zoom shows every frame again", after.visible === shown.length && after.unzoom === "hide",
        JSON.stringify(after));
  check("no network request was made", page.networkRequests() === 0, page.networkRequests());
}

cdp.run(chromium, userDir, "chromium", main);
