// N phones (one Chromium context each) load the page at once; prints one JSON line:
// {phones, failed (requests that failed or answered >= 400), seconds}.
//   node bench/page_loads.mjs BASE_URL N
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(path.join(ROOT, "client", "package.json"));
const { chromium, devices } = require("playwright-core");

const [base, n] = [process.argv[2], Number(process.argv[3] || 1)];
const PHONE = { ...devices["Pixel 7"] };
delete PHONE.defaultBrowserType;
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium", headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
});
const t0 = Date.now();
const failed = await Promise.all(Array.from({ length: n }, async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  let bad = 0;
  page.on("requestfailed", () => bad++);
  page.on("response", (r) => { if (r.status() >= 400) bad++; });
  await page.goto(base, { waitUntil: "networkidle", timeout: 180000 });
  return bad;
}));
console.log(JSON.stringify({ phones: n, failed: failed.reduce((a, b) => a + b, 0),
  seconds: (Date.now() - t0) / 1000 }));
await browser.close();
