#!/usr/bin/env node
// Open the client at BASE_URL in Debian's Chromium at a phone viewport and wait until
// its rules worker has started Pyodide with the rules wheel (the page's preview says
// "ready").  Prints one JSON line; exits non-zero if it does not within 60 s.
//
//   node tests/client/pyodide_page.mjs BASE_URL
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(path.join(ROOT, "client", "package.json"));
const { chromium } = require("playwright-core");

const [base] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const failed = [];
try {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true,
    hasTouch: true });
  page.on("response", (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
  const t0 = Date.now();
  await page.goto(base + "/");
  await page.waitForFunction(() => window.__kickline && window.__kickline.preview
    && window.__kickline.preview.ready, null, { timeout: 60000 });
  const title = await page.title();
  console.log(JSON.stringify({ ready: true, ms: Date.now() - t0, title, failed }));
} catch (e) {
  console.log(JSON.stringify({ ready: false, error: String(e), failed }));
  process.exitCode = 1;
} finally {
  await browser.close();
}
