// cdp_pipe.js — starts a headless Chromium and drives it through the
// DevTools protocol over a pipe (--remote-debugging-pipe: requests on the
// browser's fd 3, replies on fd 4, each message JSON ending in a NUL byte),
// so no port is opened and no npm package is needed.  The browser is told
// never to resolve a host name or reach a proxy: the tests load file: URLs.
// Used by svg_browser_check.js and speedscope_browser_check.js.
"use strict";
const { spawn } = require("child_process");

const FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check",
  "--disable-extensions", "--disable-default-apps", "--disable-breakpad", "--no-pings",
  "--disable-domain-reliability", "--disable-client-side-phishing-detection",
  "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
  "--proxy-bypass-list=<-loopback>", "--remote-debugging-pipe", "--window-size=1300,800",
];

// Starts the browser with a fresh profile folder.  Returns
//   { open(url) -> page, close() -> Promise<void>, stderr() -> string }
// where page = { send(method, params), once(event, ms), on(fn), evaluate(expr),
// load(url), networkRequests() }.
function launch(chromium, userDir) {
  const browser = spawn(chromium, FLAGS.concat(["--user-data-dir=" + userDir, "about:blank"]),
                        { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
  let stderr = "", inbox = "", nextId = 1, exited = false;
  const waiting = new Map(), listeners = [];
  browser.stderr.on("data", (d) => { stderr += d; });
  browser.on("exit", () => {
    exited = true;
    for (const w of waiting.values()) w.reject(new Error("the browser exited: " + stderr.split("\n").slice(-3).join(" ")));
    waiting.clear();
  });
  browser.stdio[4].on("data", (chunk) => {
    inbox += chunk.toString("utf8");
    let end;
    while ((end = inbox.indexOf("\0")) >= 0) {
      const msg = JSON.parse(inbox.slice(0, end));
      inbox = inbox.slice(end + 1);
      if (msg.id && waiting.has(msg.id)) {
        const w = waiting.get(msg.id);
        waiting.delete(msg.id);
        if (msg.error) w.reject(new Error(w.method + ": " + msg.error.message)); else w.resolve(msg.result);
      } else if (msg.method) {
        for (const l of listeners.slice()) l(msg);
      }
    }
  });
  browser.stdio[3].on("error", () => {});  // a write after exit: reported by the exit handler
  function send(method, params, sessionId) {
    if (exited) return Promise.reject(new Error("the browser is not running"));
    const id = nextId++;
    const msg = { id, method, params: params || {} };
    if (sessionId) msg.sessionId = sessionId;
    browser.stdio[3].write(JSON.stringify(msg) + "\0");
    return new Promise((resolve, reject) => waiting.set(id, { resolve, reject, method }));
  }

  async function open() {
    const { targetId } = await send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
    let network = 0;
    const page = {
      send: (method, params) => send(method, params, sessionId),
      on(fn) { listeners.push((m) => { if (m.sessionId === sessionId) fn(m); }); },
      once(method, ms) {
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error("timed out waiting for " + method)), ms || 10000);
          const l = (m) => {
            if (m.method !== method || m.sessionId !== sessionId) return;
            listeners.splice(listeners.indexOf(l), 1);
            clearTimeout(timer);
            resolve(m.params);
          };
          listeners.push(l);
        });
      },
      async evaluate(expr) {
        const r = await page.send("Runtime.evaluate", { expression: expr, returnByValue: true, awaitPromise: true });
        if (r.exceptionDetails) throw new Error("page script: " + r.exceptionDetails.text + " in " + expr.slice(0, 80));
        return r.result.value;
      },
      async load(url) {
        const loaded = page.once("Page.loadEventFired");
        await page.send("Page.navigate", { url });
        await loaded;
      },
      // Requests for anything but file:, data: and about: URLs seen so far.
      networkRequests: () => network,
      // Polls expr until it is truthy (or ms pass); returns its last value.
      async until(expr, ms) {
        const stop = Date.now() + (ms || 10000);
        for (;;) {
          const v = await page.evaluate(expr);
          if (v || Date.now() > stop) return v;
          await new Promise((r) => setTimeout(r, 100));
        }
      },
    };
    page.on((m) => {
      if (m.method === "Network.requestWillBeSent" && !/^(file|data|about|blob):/.test(m.params.request.url)) network++;
    });
    await page.send("Page.enable");
    await page.send("Runtime.enable");
    await page.send("Network.enable");
    return page;
  }

  function close() {
    return new Promise((resolve) => {
      if (exited) return resolve();
      const killer = setTimeout(() => browser.kill("SIGKILL"), 5000);
      browser.on("exit", () => { clearTimeout(killer); resolve(); });
      send("Browser.close").catch(() => {});
    });
  }

  return { open, close, stderr: () => stderr, kill: () => browser.kill("SIGKILL") };
}

// Runs body(browser) with a deadline; prints FAIL lines for errors and
// exits with 0 (checks ran) or 1 (the browser could not be driven).
function run(chromium, userDir, prefix, body) {
  const b = launch(chromium, userDir);
  const deadline = setTimeout(() => {
    console.log("FAIL " + prefix + ": timed out driving the browser");
    b.kill();
    process.exit(1);
  }, 60000);
  body(b).then(() => 0, (err) => {
    console.log("FAIL " + prefix + ": " + err.message);
    return 1;
  }).then(async (code) => {
    await b.close();
    clearTimeout(deadline);
    process.exit(code);
  });
}

module.exports = { launch, run };
