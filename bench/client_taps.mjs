#!/usr/bin/env node
// The taps a player needs per decision, and how long the other side's reply takes to
// play back, over a whole advanced match against the bot at the default settings.
//
//   node bench/client_taps.mjs SERVER_URL [SEED]
//
// The player's side follows a fixed script a person might: a seeded choice among the
// legal decisions (finishing a Coaching Choice at once, declining the rare offers and
// switching each off with "Don't ask again" the first time).  Every tap goes through the
// real UI (the panel, the board), and is counted.  Prints one JSON object.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(path.join(ROOT, "client", "package.json"));
const { chromium, devices } = require("playwright-core");
const [base, seedArg = "7"] = process.argv.slice(2);
let seed = Number(seedArg);
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const OFFERS = /^(pull|smooth|fly|declare|join|scorch) /;

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
const phone = { ...devices["Pixel 7"], viewport: { width: 390, height: 844 } };
delete phone.defaultBrowserType;
const ctx = await browser.newContext(phone);
const page = await ctx.newPage();
let taps = 0;
const tap = async (loc) => { await loc.tap(); taps++; };
await page.goto(base + "/sw.js");
await page.evaluate(() => localStorage.clear());
await page.goto(base + "/");
await page.locator("#name").fill(`Taps${Math.floor(rand() * 1e6)}`);
await page.locator("#save-name").tap();
await page.waitForSelector("#vs-bot:not([disabled])", { timeout: 30000 });
await page.locator('[data-mode="advanced"]').tap();
await page.selectOption("#team", "telekinetics");
await page.selectOption("#opponent", "cyborgs");
await page.locator("#vs-bot").tap();
let decisions = 0;
const t0 = Date.now();
for (;;) {
  if (Date.now() - t0 > 900000) throw new Error("the match did not end in 15 minutes");
  const st = await page.evaluate(() => {
    const m = window.__kickline.match;
    const c = window.__kickline.chooser;
    return { over: !!(m && m.over), ready: !!(m && m.prompt && !m.pending && !m.play && c.legal.length), legal: c.legal, v: m && m.prompt ? m.prompt.version : null };
  });
  if (st.over) break;
  if (!st.ready) { await page.waitForTimeout(25); continue; }
  const legal = st.legal;
  let d;
  if (legal.includes("finish")) d = "finish";
  else if (legal.includes("skip")) d = "skip";
  else if (legal.every((x) => OFFERS.test(x))) {
    if (await page.locator("#never").count()) { await tap(page.locator("#never")); decisions++; await page.waitForFunction((v) => { const m = window.__kickline.match; return m.over || m.pending || m.prompt.version !== v; }, st.v); continue; }
    d = legal.find((x) => / (none|no|accept)$/.test(x)) || legal[0];
  } else {
    const pool = legal.filter((x) => !/^(sub|move|swap|formation) /.test(x));
    d = (pool.length ? pool : legal)[Math.floor(rand() * (pool.length ? pool.length : legal.length))];
  }
  const parts = d.split(" ");
  for (let g = 0; g < 20; g++) {
    const s = await page.evaluate((v) => { const c = window.__kickline.chooser; const m = window.__kickline.match;
      return { kind: c.kind, args: c.args, complete: c.complete(), sent: !!m.pending || !!m.over || (m.prompt && m.prompt.version !== v) }; }, st.v);
    if (s.sent) break;
    if (s.complete === d) { await tap(page.locator("#confirm")); continue; }
    if (s.complete || (s.kind && s.kind !== parts[0]) || s.args.some((a, i) => a !== parts[1 + i])) { await tap(page.locator("#back")); continue; }
    if (!s.kind) { await tap(page.locator(`#panel [data-kind="${parts[0]}"]`)); continue; }
    await tap(page.locator(`#panel [data-arg="${parts[1 + s.args.length]}"]`).first());
  }
  decisions++;
}
const stats = await page.evaluate(() => window.__kickline.stats);
// Every decision of the player's seat: those tapped here and those the client answered
// "no" by itself (the offers switched off).
const all = decisions + (stats.autoAnswers || 0);
const pb = (stats.playbackMs || []).slice().sort((a, b) => a - b);
const q = (f) => (pb.length ? pb[Math.min(pb.length - 1, Math.floor(f * pb.length))] : null);
console.log(JSON.stringify({ decisions: all, tapped: decisions, auto: stats.autoAnswers || 0, taps,
  taps_per_decision: all ? taps / all : null, playbacks: pb.length, playback_median_ms: q(0.5), playback_p90_ms: q(0.9),
  playback_max_ms: pb.length ? pb[pb.length - 1] : null }));
await browser.close();
