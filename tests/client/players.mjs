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
import { mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { axeSettled, shot as shotInto } from "./fit.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(path.join(ROOT, "client", "package.json"));
const { chromium, devices } = require("playwright-core");
const AXE = readFileSync(path.join(ROOT, "client", "node_modules", "axe-core", "axe.min.js"), "utf8");

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
  problems.push(...await shotInto(page, shotDir, name)); // the screen fits the phone's width
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
  await shot(b.page, "name");
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

  // A's profile makes a "use on another device" link: a third phone opens it and is A.
  await page.locator("#to-profile").tap();
  await page.waitForSelector("#profile-name", { timeout: 10000 });
  if ((await text(page, "#profile-name")) !== name) problems.push(`profile shows ${await text(page, "#profile-name")}`);
  await axe(page, "own profile");
  await page.locator("#make-transfer").tap();
  await page.waitForSelector("#transfer-qr", { timeout: 10000 });
  const link = await page.locator("#transfer-link").inputValue();
  if (!await page.locator("#transfer-qr").evaluate((img) => img.complete && img.naturalWidth > 0)) problems.push("the QR code is not drawn");
  await shot(page, "profile-transfer");
  const c = await phone(browser);
  await c.page.goto(link);
  await welcomed(c.page);
  const moved = await me(c.page);
  if (moved.player !== first.player || moved.name !== name) problems.push(`after the link: ${JSON.stringify(moved)}`);
  await c.page.waitForFunction(() => location.hash === "#/" || location.hash === "", null, { timeout: 10000 });
  // The second phone (playing as someone else) opens the same link: used, and it says so.
  await b.page.goto(link);
  await b.page.locator("#use-transfer").tap();
  await b.page.waitForSelector("#transfer-problem", { timeout: 15000 });
  const used = await text(b.page, "#transfer-problem");
  if (!/already used/.test(used)) problems.push(`a used link says: ${used}`);
  await axe(b.page, "used transfer link");
  await shot(b.page, "transfer-used");
  // A sets a password; the second phone signs in with it (a wrong one first).
  await page.locator("#new-password").fill("correct horse battery");
  await page.locator("#save-password").tap();
  await page.waitForSelector("#remove-password", { timeout: 10000 });
  await b.page.locator("button", { hasText: "Choose a name instead" }).tap();
  await b.page.locator("#toggle-signin").tap();
  await b.page.locator("#name").fill(name.toLowerCase());
  await b.page.locator("#password").fill("wrong password");
  await b.page.locator("#save-name").tap();
  const wrong = await refusal(b.page);
  if (!/not right/.test(wrong)) problems.push(`a wrong password says: ${wrong}`);
  await b.page.locator("#password").fill("correct horse battery");
  await b.page.locator("#save-name").tap();
  await welcomed(b.page);
  const signedIn = await me(b.page);
  if (signedIn.player !== first.player) problems.push(`signed in as ${JSON.stringify(signedIn)}`);
  // A shared phone signs out here: the cookie goes and the name screen asks who is here.
  await b.page.goto(`${base}/#/profile`);
  b.page.once("dialog", (d) => d.accept());
  await b.page.locator("#signout-here").tap();
  await b.page.waitForSelector("#name-form", { timeout: 15000 });
  if ((await b.ctx.cookies()).some((k) => k.name === "kickline_token" && k.value)) problems.push("the cookie outlived signing out here");
  for (const p of [a, b, c]) await p.ctx.close();
  return { name, other, sockets, used, problems };
}

// axe-core's WCAG 2 A and AA rules on what the page shows now.
async function axe(page, where) {
  await page.evaluate(AXE);
  const r = await axeSettled(page, { runOnly: ["wcag2a", "wcag2aa"] });
  const found = r.map((v) => `${v.id}: ${v.nodes.slice(0, 2).map((n) => n.target.join(" ")).join(", ")}`);
  for (const v of found) problems.push(`axe on ${where}: ${v}`);
}

const text = async (page, selector) => (await page.locator(selector).first().textContent()) || "";
const inMatch = (page, seatless = false) => page.waitForFunction((any) => {
  const m = window.__kickline.match;
  return m && m.prompt && m.prompt.status === "playing" && (any || m.seat !== null);
}, seatless, { timeout: 20000 });
const matchOf = (page) => page.evaluate(() => ({ id: window.__kickline.match.id, seat: window.__kickline.match.seat,
  players: window.__kickline.match.prompt.players.map((p) => p.name), rated: window.__kickline.match.prompt.rated }));

// B challenges A from A's profile (rated); A accepts from the lobby; A resigns; on the
// end screen A asks for a rematch and B says yes: seats swapped; both profiles show it.
async function scenarioChallenge(browser) {
  const a = await phone(browser);
  const b = await phone(browser);
  const an = await setName(a.page, "Cleo");
  await setName(b.page, "Dev");
  await b.page.goto(`${base}/#/player/${encodeURIComponent(an)}`);
  await shot(b.page, "player-profile");
  await b.page.locator("#challenge-player").tap();
  await b.page.waitForSelector("#challenge-form", { timeout: 10000 });
  await b.page.selectOption("#ch-board", "9");
  await b.page.selectOption("#ch-mode", "standard");
  await b.page.selectOption("#ch-mine", "oozes");
  await b.page.selectOption("#ch-theirs", "cyborgs");
  await b.page.locator("#ch-rated").check();
  await axe(b.page, "challenge form");
  await shot(b.page, "challenge-form");
  await b.page.locator("#send-challenge").tap();
  await b.page.waitForSelector("[data-withdraw]", { timeout: 10000 });
  await a.page.waitForSelector("#incoming [data-accept]", { timeout: 10000 });
  const offer = await text(a.page, "#incoming .offer");
  if (!/challenges you/.test(offer) || !/Standard, 9 spaces, Cyborgs against Oozes, rated/.test(offer)) problems.push(`the lobby shows: ${offer}`);
  await shot(a.page, "challenge-incoming");
  await axe(a.page, "lobby with a challenge");
  await a.page.locator("#incoming [data-accept]").tap();
  await inMatch(a.page);
  await inMatch(b.page);
  const first = await matchOf(a.page);
  const cfg = await a.page.evaluate(() => window.__kickline.match.prompt.view.config);
  if (first.seat !== 1 || !first.rated || cfg.board !== 9 || cfg.teams.join() !== "oozes,cyborgs") problems.push(`challenge match: ${JSON.stringify({ first, cfg })}`);
  a.page.once("dialog", (d) => d.accept());
  await a.page.locator("#resign").tap();
  await a.page.waitForSelector("#rematch", { timeout: 15000 });
  await b.page.waitForSelector("#rematch", { timeout: 15000 });
  await a.page.locator("#rematch").tap();
  await a.page.waitForSelector("#rematch-status", { timeout: 10000 });
  await b.page.waitForSelector("#rematch-accept", { timeout: 10000 });
  await shot(b.page, "rematch-offer");
  await axe(b.page, "end screen with a rematch offer");
  await b.page.locator("#rematch-accept").tap();
  await a.page.waitForFunction((old) => { const m = window.__kickline.match; return m && m.id !== old && m.prompt && m.prompt.status === "playing"; }, first.id, { timeout: 20000 });
  const second = await matchOf(a.page);
  const cfg2 = await a.page.evaluate(() => window.__kickline.match.prompt.view.config);
  if (second.seat !== 0 || second.players.join() !== [...first.players].reverse().join() || cfg2.teams.join() !== "cyborgs,oozes" || !second.rated) {
    problems.push(`rematch: ${JSON.stringify({ first, second, cfg2 })}`);
  }
  // The rated result is in both profiles.
  for (const p of [a, b]) {
    await p.page.goto(`${base}/#/profile`);
    await p.page.waitForSelector("#recent .match-line", { timeout: 15000 });
    const line = await text(p.page, "#recent .match-line");
    if (!/rated/.test(line) || !/(Won|Lost)/.test(line)) problems.push(`profile line: ${line}`);
    const ratings = await text(p.page, ".ratings");
    if (!/Standard: \d+\? after 1 rated match/.test(ratings)) problems.push(`profile ratings: ${ratings}`);
  }
  await axe(a.page, "profile after a rated match");
  await shot(a.page, "profile-after-match");
  await a.page.goto(`${base}/#/leaderboard/standard`);
  await a.page.waitForSelector("#leaders-empty", { timeout: 10000 });  // provisional players are not listed
  await axe(a.page, "leaderboard");
  await shot(a.page, "leaderboard");
  await a.ctx.close();
  await b.ctx.close();
  return { problems };
}

// Two phones meet in the rated queue.  One sleeps (its socket closed) while its opponent
// thinks: the opponent sees it
// away with the claim countdown; the opponent moves; the phone wakes, reconnects by
// itself and plays on, having lost nothing.
async function scenarioSleep(browser) {
  const a = await phone(browser);
  const b = await phone(browser);
  await setName(a.page, "Sol");
  await setName(b.page, "Tam");
  // Through the rated queue: it says how it stands, and the other lobby counts who waits.
  await a.page.locator("#quick-rated").tap();
  await a.page.waitForSelector("#queue-status", { timeout: 10000 });
  const status = await a.page.locator("#queue-status").textContent();
  if (!/Rated queue: only you so far/.test(status)) problems.push(`queue status: ${status}`);
  await b.page.reload(); // the lobby asks how many wait when it opens (and every 10 s)
  await b.page.waitForFunction(() => /1 rated/.test((document.querySelector("#queue-counts") || {}).textContent || ""), null, { timeout: 25000 });
  await shot(b.page, "lobby-queue-counts");
  await b.page.locator("#quick-rated").tap();
  await inMatch(a.page);
  await inMatch(b.page);
  const rated = await Promise.all([a.page, b.page].map((p) => p.evaluate(() => window.__kickline.match.prompt.rated)));
  if (!rated.every((x) => x === true)) problems.push(`the match is not rated: ${rated}`);
  const legal = (p) => p.evaluate(() => { const m = window.__kickline.match; return m.prompt && !m.pending ? m.prompt.legal : []; });
  const decide = async (p, ls) => {
    const v = await p.evaluate(() => window.__kickline.match.prompt.version);
    await p.evaluate((d) => window.__kickline.chooser.hooks.confirm(d), ls[0]);
    await p.waitForFunction((v0) => { const m = window.__kickline.match; return m.over || (m.prompt.version !== v0 && !m.pending); }, v, { timeout: 15000 });
  };
  // Play (the first legal decision each time) until it is B's turn alone.
  for (let i = 0; i < 40; i++) {
    const [la, lb] = [await legal(a.page), await legal(b.page)];
    if (lb.length && !la.length) break;
    if (la.length) await decide(a.page, la);
    else if (lb.length) await decide(b.page, lb);
    else await b.page.waitForFunction(() => { const m = window.__kickline.match; return m.over || (m.prompt.legal.length && !m.pending); }, null, { timeout: 15000 });
  }
  const before = await a.page.evaluate(() => ({ version: window.__kickline.match.prompt.version, bank: window.__kickline.match.prompt.clock.bank, seat: window.__kickline.match.seat }));
  await a.ctx.setOffline(true); // the phone sleeps: its socket closes
  await b.page.waitForSelector("#opp-presence", { timeout: 20000 });
  await b.page.waitForFunction(() => /claim the win in \d:\d\d/.test(document.querySelector("#opp-presence").textContent), null, { timeout: 15000 });
  const notice = await text(b.page, "#opp-presence");
  await shot(b.page, "opponent-away");
  await axe(b.page, "match with the opponent away");
  await decide(b.page, await legal(b.page)); // the opponent moves meanwhile
  await a.ctx.setOffline(false); // the phone wakes
  await a.page.evaluate(() => dispatchEvent(new PageTransitionEvent("pageshow", { persisted: false })));
  await a.page.waitForFunction((v) => { const m = window.__kickline.match; return m.prompt.version > v && document.querySelector("#conn").dataset.state === "online"; }, before.version, { timeout: 20000 });
  await b.page.waitForFunction(() => !document.querySelector("#opp-presence"), null, { timeout: 20000 });
  const after = await a.page.evaluate(() => ({ over: !!window.__kickline.match.over, bank: window.__kickline.match.prompt.clock.bank, status: window.__kickline.match.prompt.status }));
  if (after.over || after.status !== "playing") problems.push(`after sleeping: ${JSON.stringify(after)}`);
  if (after.bank[before.seat] !== before.bank[before.seat]) problems.push(`the sleeper's bank moved: ${before.bank} -> ${after.bank}`);
  await a.ctx.close();
  await b.ctx.close();
  return { status, notice, problems };
}

const scenarios = { identity: scenarioIdentity, challenge: scenarioChallenge, sleep: scenarioSleep };

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
