#!/usr/bin/env node
// The browser side of bench/client.py: one cold and one warm load of the client in
// headless Chromium against a running server, through a byte-counting loopback proxy.
//
//   node bench/client_run.mjs SERVER_PORT [PREVIEW_PROMPTS]
//
// Prints one JSON object.  "cold" starts from an empty profile; "warm" reopens the same
// profile (HTTP cache and the service worker's cache kept), like a second visit.
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(path.join(ROOT, "client", "package.json"));
const { chromium } = require("playwright-core");
const [serverPort, promptsArg = "30"] = process.argv.slice(2);
const PROMPTS = Number(promptsArg);
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

// Every byte between browser and server, both directions, HTTP and websocket alike.
let bytesIn = 0;
let bytesOut = 0;
const proxy = net.createServer((c) => {
  const s = net.connect(Number(serverPort), "127.0.0.1");
  c.on("data", (d) => { bytesOut += d.length; });
  s.on("data", (d) => { bytesIn += d.length; });
  c.pipe(s); s.pipe(c);
  c.on("error", () => s.destroy()); s.on("error", () => c.destroy());
  c.on("close", () => s.destroy()); s.on("close", () => c.destroy());
});
await new Promise((r) => proxy.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${proxy.address().port}`;
const profile = mkdtempSync(path.join(os.tmpdir(), "kickline-bench-"));

async function load(label) {
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium", args: ARGS, headless: true,
    viewport: { width: 390, height: 800 }, hasTouch: true, isMobile: true,
  });
  const encodings = {};
  ctx.on("response", (r) => {
    const u = new URL(r.url());
    if (u.pathname.endsWith(".wasm")) encodings.wasm = r.headers()["content-encoding"] || "identity";
  });
  // "Play against the bot" is tapped from inside the page the moment it is enabled, so
  // the figure is the app's time, not the harness's polling (100-300 ms at load 15).
  await ctx.addInitScript(() => {
    const tapWhenReady = new MutationObserver(() => {
      const b = document.querySelector("#vs-bot");
      if (!b || b.disabled) return;
      tapWhenReady.disconnect();
      window.__benchEnabledAt = performance.now();
      b.click();
    });
    tapWhenReady.observe(document, { subtree: true, childList: true, attributes: true });
  });
  const page = ctx.pages()[0] || await ctx.newPage();
  if (label !== "cold") {
    await page.goto(base + "/sw.js"); // same origin: forget the last match without loading the app
    await page.evaluate(() => localStorage.removeItem("kickline.match"));
  }
  bytesIn = 0; bytesOut = 0;
  await page.goto(base + "/");
  // A first visit chooses a name (the server makes no account from a kept name alone);
  // later visits are signed in by their token and go straight to the lobby.
  if (label === "cold") {
    await page.locator("#name").fill(`Bench${process.pid}`);
    await page.evaluate(() => { window.__benchNameAt = performance.now(); });
    await page.locator("#save-name").tap();
  }
  await page.waitForFunction(() => window.__kickline.stats.firstPromptAt !== null && document.querySelector("#panel button"), null, { timeout: 20000, polling: 5 });
  const { firstPrompt, lobbyAt, nameAt } = await page.evaluate(() => ({ firstPrompt: window.__kickline.stats.firstPromptAt, lobbyAt: window.__benchEnabledAt, nameAt: window.__benchNameAt || null }));
  await page.waitForFunction(() => window.__kickline.preview.ready || window.__kickline.preview.failed, null, { timeout: 60000, polling: 10 });
  const pv = await page.evaluate(() => ({ readyMs: window.__kickline.preview.readyMs, pyodideMs: window.__kickline.preview.pyodideMs, failed: window.__kickline.preview.failed, at: performance.now() }));
  // Let the service worker finish caching before counting.
  await page.waitForTimeout(1500);
  const bytes = { in: bytesIn, out: bytesOut };
  // Preview timing over real prompts: play decisions (random legal) until enough
  // prompts have been previewed.
  let guard = 0;
  while (guard++ < PROMPTS * 20) {
    const st = await page.evaluate(() => {
      const a = window.__kickline; const m = a.match;
      return { n: a.preview.timings.length, over: !!(m && m.over), legal: m && m.prompt && !m.pending ? m.prompt.legal : [] };
    });
    if (st.n >= PROMPTS || st.over) break;
    if (!st.legal.length) { await page.waitForTimeout(20); continue; }
    const pref = ["finish", "skip"].find((d) => st.legal.includes(d));
    const d = pref || st.legal[Math.floor(Math.random() * st.legal.length)];
    await page.waitForTimeout(30); // give the preview its turn on this prompt
    await page.evaluate((d) => window.__kickline.chooser.hooks.confirm(d), d);
    await page.waitForFunction(() => { const m = window.__kickline.match; return !m.pending; }, null, { timeout: 20000, polling: 10 });
  }
  const timings = await page.evaluate(() => ({ renderMs: window.__kickline.stats.renderMs, t: window.__kickline.preview.timings, mismatches: window.__kickline.preview.mismatches, unsupported: window.__kickline.preview.unsupported }));
  await page.close();
  // A bare loadPyodide in a module worker, in a fresh page of the same profile (same
  // cache state), with nothing else running: the floor the preview is compared with.
  const bp = await ctx.newPage();
  await bp.goto(base + "/sw.js");
  const bare = await bp.evaluate(async () => {
    const m = await (await fetch("/build/manifest.json")).json();
    const src = `import { loadPyodide } from "${location.origin}${m.pyodide}pyodide.mjs";
      const t0 = performance.now();
      await loadPyodide({ indexURL: "${location.origin}${m.pyodide}", lockFileContents: ${JSON.stringify(JSON.stringify({ info: m.lock_info, packages: {} }))} });
      postMessage(performance.now() - t0);`;
    const w = new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })), { type: "module" });
    return new Promise((res) => { w.onmessage = (e) => res(e.data); w.onerror = () => res(null); });
  });
  await ctx.close();
  const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : null; };
  return {
    first_prompt_ms: firstPrompt,
    lobby_ready_ms: lobbyAt,
    name_typed_at_ms: nameAt,
    preview_ready_ms: pv.at ? pv.readyMs : null,
    preview_failed: pv.failed,
    preview_loadpyodide_part_ms: pv.pyodideMs,
    bare_loadpyodide_ms: bare,
    bytes_in: bytes.in, bytes_out: bytes.out,
    wasm_encoding: encodings.wasm || "not fetched",
    preview_prompts: timings.t.length, preview_unsupported_prompts: timings.unsupported,
    preview_mismatches: timings.mismatches,
    preview_median_python_ms: med(timings.t.map((x) => x.python)),
    preview_median_roundtrip_ms: med(timings.t.map((x) => x.roundTrip)),
    preview_median_worker_ms: med(timings.t.map((x) => x.worker)),
    last_render_ms: timings.renderMs,
  };
}

const out = {};
try {
  out.cold = await load("cold");
  out.warm = await load("warm");
  // A third visit: Chromium keeps compiled wasm code only from the second load on.
  out.hot = await load("hot");
} finally {
  proxy.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(JSON.stringify(out));
process.exit(0);
