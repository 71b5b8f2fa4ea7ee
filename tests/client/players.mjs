#!/usr/bin/env node
// Real-browser scenarios for the players' side of the client (who you are, profiles,
// challenges, rematches, presence): Debian's Chromium driven by playwright-core at a
// phone viewport with touch, against a running server.
//
//   node tests/client/players.mjs BASE_URL SCENARIO [SCREENSHOT_DIR]
//
// Prints one JSON line with the outcome ({problems: [...]} among it); exits non-zero on
// failure.  The play screens' scenarios are in browser.mjs.
import { createRequire } from "node:module";
import path from "node:path";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(path.join(ROOT, "client", "package.json"));
const { chromium, devices } = require("playwright-core");

const [base, scenario, shotDir = path.join(ROOT, "artifacts", "screenshots")] = process.argv.slice(2);
mkdirSync(shotDir, { recursive: true });
const CHROME_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const PHONE = { ...devices["Pixel 7"], viewport: { width: 390, height: 844 } };
delete PHONE.defaultBrowserType;

const RUN = Math.random().toString(36).slice(2, 6); // names are unique on a server
let named = 0;
const uniqueName = (name) => `${name} ${RUN}${++named}`;

async function shot(page, name) {
  await page.screenshot({ path: path.join(shotDir, `${name}.png`), fullPage: false });
}

const pages = []; // every page opened, for the report when a scenario fails

// What a page shows, in brief (for a failure's report).
async function glance(page) {
  try {
    return await page.evaluate(() => {
      const a = window.__kickline;
      const m = a.match;
      return { hash: location.hash, conn: a.link && a.link.state, name: a.welcome && a.welcome.name, queued: a.queued,
        match: m && { id: m.id, status: m.prompt && m.prompt.status, over: !!m.over },
        toast: document.querySelector("#toast").hidden ? null : document.querySelector("#toast").textContent,
        main: document.querySelector("#main").innerText.slice(0, 300) };
    });
  } catch (e) { return String(e); }
}

const problems = []; // what went wrong, the scenario's and the pages' own errors

async function phone(browser) {
  const ctx = await browser.newContext(PHONE);
  const page = await ctx.newPage();
  pages.push(page);
  page.on("pageerror", (e) => problems.push(`page error: ${e}`));
  page.on("response", (r) => { if (r.status() >= 400) problems.push(`${r.status()} for ${r.url()}`); });
  page.on("requestfailed", (r) => {
    const why = r.failure() && r.failure().errorText;
    if (why !== "net::ERR_ABORTED") problems.push(`request failed: ${r.url()} ${why}`); // aborted: the page closed
  });
  return { ctx, page };
}

const welcomed = (page) => page.waitForFunction(() => window.__kickline.welcome !== null, null, { timeout: 15000 });
const me = (page) => page.evaluate(() => ({ player: window.__kickline.welcome.player, name: window.__kickline.welcome.name }));

// Choose a name on the name screen; returns it.
async function setName(page, name) {
  await page.goto(base + "/");
  const full = uniqueName(name);
  await page.locator("#name").fill(full);
  await page.locator("#save-name").tap();
  await welcomed(page);
  return full;
}

// The name screen's refusal, once shown.
async function refusal(page) {
  await page.waitForSelector("#name-problem", { timeout: 10000 });
  return page.locator("#name-problem").textContent();
}

async function scenarioIdentity(browser) {
  const a = await phone(browser);
  const { page } = a;
  const name = await setName(page, "Ida");
  const first = await me(page);
  // The server's HttpOnly cookie is set from the welcome's ticket.
  const cookieSet = async () => (await a.ctx.cookies()).find((c) => c.name === "kickline_token");
  for (let i = 0; i < 50 && !(await cookieSet()); i++) await page.waitForTimeout(100);
  const cookie = await cookieSet();
  if (!cookie || !cookie.httpOnly) problems.push(`no HttpOnly cookie after welcome: ${JSON.stringify(cookie)}`);
  // Page storage wiped (Safari after 7 days without a visit): the cookie still says who.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await welcomed(page);
  const again = await me(page);
  if (again.player !== first.player || again.name !== name) problems.push(`after storage was wiped: ${JSON.stringify(again)} not ${JSON.stringify(first)}`);
  const shownName = await page.locator(".home b").first().textContent();
  if (shownName !== name) problems.push(`the lobby says playing as ${shownName}`);

  // A second phone whose page kept a name but no token (an older client did that): it
  // is asked for a name instead of being refused over and over.
  const b = await phone(browser);
  let sockets = 0;
  b.page.on("websocket", () => sockets++);
  await b.page.goto(base + "/");
  await b.page.evaluate((n) => localStorage.setItem("kickline.name", n), name);
  await b.page.reload();
  await b.page.waitForSelector("#name", { timeout: 15000 });
  const asked = await b.page.evaluate(() => window.__kickline.identity.code);
  if (asked !== "no_identity") problems.push(`a kept name without a token got ${asked}`);
  if (await b.page.locator("#name-problem").count()) problems.push("a problem shown before any name was tried");
  // A taken name (in other letters case and spacing), then a bad one, then a good one.
  await b.page.locator("#name").fill(name.toUpperCase().replace(" ", "  "));
  await b.page.locator("#save-name").tap();
  const taken = await refusal(b.page);
  if (!/already plays under that name/.test(taken)) problems.push(`taken name: ${taken}`);
  await shot(b.page, "name-taken");
  await b.page.locator("#name").fill("!?");
  await b.page.locator("#save-name").tap();
  await b.page.waitForFunction(() => window.__kickline.identity.code === "bad_name", null, { timeout: 10000 });
  const bad = await refusal(b.page);
  if (!/cannot be used/.test(bad)) problems.push(`bad name: ${bad}`);
  const other = uniqueName("Ida");
  await b.page.locator("#name").fill(other);
  await b.page.locator("#save-name").tap();
  await welcomed(b.page);
  const second = await me(b.page);
  if (second.name !== other || second.player === first.player) problems.push(`second player: ${JSON.stringify(second)}`);
  // No reconnect loop: each refused hello stopped the link until the player answered
  // (two bare hellos, the page loaded twice; then three names).
  if (sockets > 6) problems.push(`${sockets} websockets for 5 hellos: a reconnect loop`);
  await a.ctx.close();
  await b.ctx.close();
  return { name, other, sockets, problems };
}

// Two phones in the rated queue: the lobby counts who waits, the queue says how it
// stands, and the two are paired into a rated match.
async function scenarioRatedQueue(browser) {
  const a = await phone(browser);
  const b = await phone(browser);
  await setName(a.page, "Rana");
  await setName(b.page, "Rolf");
  await a.page.locator("#quick-rated").tap();
  await a.page.waitForSelector("#queue-status", { timeout: 10000 });
  const status = await a.page.locator("#queue-status").textContent();
  if (!/Rated queue: only you so far/.test(status)) problems.push(`queue status: ${status}`);
  // B's lobby counts A (asked when the lobby opens, and every 10 s).
  await b.page.reload();
  await b.page.waitForFunction(() => /1 rated/.test((document.querySelector("#queue-counts") || {}).textContent || ""), null, { timeout: 25000 });
  await shot(b.page, "lobby-queue-counts");
  await b.page.locator("#quick-rated").tap();
  for (const p of [a.page, b.page]) {
    await p.waitForFunction(() => { const m = window.__kickline.match; return m && m.prompt && m.prompt.status === "playing"; }, null, { timeout: 20000 });
  }
  const rated = await Promise.all([a.page, b.page].map((p) => p.evaluate(() => window.__kickline.match.prompt.rated)));
  if (!rated.every((x) => x === true)) problems.push(`the match is not rated: ${rated}`);
  await a.ctx.close();
  await b.ctx.close();
  return { status, problems };
}

const scenarios = { identity: scenarioIdentity, "rated-queue": scenarioRatedQueue };

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROME_ARGS, headless: true });
let out;
try {
  out = await scenarios[scenario](browser);
} catch (e) {
  problems.push(String(e && e.stack ? e.stack : e));
  out = { problems, pages: await Promise.all(pages.map(glance)) };
} finally {
  await browser.close();
}
console.log(JSON.stringify({ scenario, ...out }));
process.exit(out.problems && out.problems.length ? 1 : 0);
