#!/usr/bin/env node
// The tournament screens in a real browser (Debian's Chromium, phone viewport, touch):
// an organiser creates an event, two players join (one by the event's open link, one by
// the entry link of a roster line the organiser entered), the organiser pairs and
// starts round 1, both players are told their match is ready and open it, the match is
// played (a few decisions, then a resignation), and the standings show the result on
// the organiser's phone and on the big standings page.  axe checks every event screen.
//
//   node tests/client/tournament.mjs BASE_URL [SCREENSHOT_DIR]
//
// The server must be fresh: its first account (the organiser here) holds the
// organiser role.  Prints one JSON line; exits non-zero on a problem.
import { createRequire } from "node:module";
import path from "node:path";
import { mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { axeSettled, shot as shotInto } from "./fit.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(path.join(ROOT, "client", "package.json"));
const { chromium, devices } = require("playwright-core");
const AXE = readFileSync(path.join(ROOT, "client", "node_modules", "axe-core", "axe.min.js"), "utf8");

const [base, shotDir = path.join(ROOT, "artifacts", "screenshots")] = process.argv.slice(2);
mkdirSync(shotDir, { recursive: true });
const CHROME_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const PHONE = { ...devices["Pixel 7"], viewport: { width: 390, height: 844 } };
delete PHONE.defaultBrowserType;
const RUN = Math.random().toString(36).slice(2, 6);
const problems = [];

async function shot(page, name) {
  problems.push(...await shotInto(page, shotDir, name)); // the screen fits the phone's width
}

async function axe(page, where) {
  await page.evaluate(AXE);
  const r = await axeSettled(page, { runOnly: ["wcag2a", "wcag2aa"] });
  const found = r.map((v) => `${v.id}: ${v.nodes.slice(0, 2).map((n) => n.target.join(" ")).join(", ")}`);
  for (const v of found) problems.push(`axe on ${where}: ${v}`);
}

async function person(browser, name) {
  const ctx = await browser.newContext(PHONE);
  const page = await ctx.newPage();
  page.on("pageerror", (e) => problems.push(`${name}: page error ${e.message}`));
  await page.goto(base + "/");
  await page.locator("#name").fill(`${name}${RUN}`);
  await page.locator("#save-name").tap();
  await page.waitForFunction(() => window.__kickline.welcome !== null, null, { timeout: 20000 });
  return { ctx, page };
}

async function text(page, selector) {
  return (await page.locator(selector).first().textContent()) || "";
}

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROME_ARGS, headless: true });
let out = {};
try {
  const org = await person(browser, "Ora");
  const po = org.page;
  // The organiser creates the event from the Events page.
  await po.locator("#nav-events").tap();
  await po.locator("#ev-new").tap();
  await po.locator("#ev-name").fill(`Friday night ${RUN}`);
  await po.locator("#ev-rounds").fill("3");
  await po.selectOption("#ev-mode", "training");
  await axe(po, "new event");
  await shot(po, "event-new");
  await po.locator("#ev-create").tap();
  await po.waitForFunction(() => /#\/e\/[a-z0-9]+/.test(location.hash), null, { timeout: 15000 });
  const id = (await po.evaluate(() => location.hash)).split("/")[2];
  await po.goto(`${base}/#/e/${id}/info`);
  await po.waitForSelector("#ev-link", { timeout: 10000 });
  const link = await text(po, "#ev-link");
  if (!link.endsWith(`/#/ej/${id}`)) problems.push(`join link ${link}`);
  await axe(po, "event info");
  await shot(po, "event-info");

  // The organiser enters Quy on the roster: the line's entry link is on the Run tab.
  await po.goto(`${base}/#/e/${id}/run`);
  await po.locator("form.add-line input[name=name]").fill(`Quy${RUN}`);
  await po.locator("form.add-line button[type=submit]").tap();
  const lineLink = po.locator(`.plist li:has-text("Quy${RUN}") button.link`);
  await lineLink.waitFor({ timeout: 10000 });
  const entryLink = ((await lineLink.textContent()) || "").trim();
  if (!entryLink.includes(`/#/ej/${id}/`)) problems.push(`entry link ${entryLink}`);

  // Pia opens the event's join link on her phone, Quy his entry link; both join.
  const players = [];
  for (const [name, url] of [["Pia", link], ["Quy", entryLink]]) {
    const p = await person(browser, name);
    await p.page.goto(url);
    await p.page.locator("#ej-go").tap();
    await p.page.waitForFunction(() => location.hash.endsWith("/info"), null, { timeout: 15000 });
    await p.page.waitForSelector("text=You are in this event.", { timeout: 10000 });
    players.push(p);
  }
  await axe(players[0].page, "joined");

  // The organiser renames the event from its settings page (the form, prefilled).
  await po.goto(`${base}/#/e/${id}/run`);
  await po.locator("#ev-edit").tap();
  await po.locator("#ev-name").fill(`Friday night ${RUN} (club)`);
  await axe(po, "edit settings");
  await po.locator("#ev-save").tap();
  await po.waitForFunction(() => location.hash.endsWith("/run"), null, { timeout: 15000 });
  await po.waitForSelector(`text=Friday night ${RUN} (club)`, { timeout: 10000 });

  // The organiser pairs and starts round 1 from the Run tab.
  await po.locator("#ev-pair").tap();
  await po.waitForSelector("#ev-start", { timeout: 60000 });
  await shot(po, "event-draft");
  await axe(po, "run: draft");
  await po.locator("#ev-start").tap();
  await po.waitForFunction(() => !document.querySelector("#ev-start"), null, { timeout: 20000 });

  // Each player is told the match is ready, and opens it.
  for (const p of players) {
    await p.page.goto(`${base}/#/`);
    await p.page.waitForSelector("[data-ready]", { timeout: 20000 });
  }
  await shot(players[0].page, "event-ready");
  await axe(players[0].page, "lobby: your match is ready");
  for (const p of players) await p.page.locator("[data-ready]").first().tap();
  for (const p of players) {
    await p.page.waitForFunction(() => { const m = window.__kickline.match; return m && m.prompt && m.prompt.status === "playing"; }, null, { timeout: 30000 });
  }
  const homeSeat = await players[0].page.evaluate(() => window.__kickline.match.prompt.view.home_seat);
  // The match is played out: the first player resigns, as a player may.
  players[0].page.once("dialog", (d) => d.accept());
  await players[0].page.locator("#resign").tap();
  for (const p of players) await p.page.waitForSelector("#result", { timeout: 20000 });
  const results = [await text(players[0].page, "#result"), await text(players[1].page, "#result")];

  // The standings show the winner on top, on the organiser's phone and the big screen.
  await po.goto(`${base}/#/e/${id}/standings`);
  await po.waitForFunction(() => {
    const rows = document.querySelectorAll(".standings tbody tr");
    // Wait for the result itself (the winner's point), not for the table: before the
    // result arrives the table already has two rows, in entry order.
    const points = (r) => r.querySelector("td:nth-child(3)")?.textContent.trim();
    return rows.length === 2 && points(rows[0]) === "1" && points(rows[1]) === "0";
  }, null, { timeout: 20000 });
  const top = await text(po, ".standings tbody tr td:nth-child(2)");
  if (!top.startsWith("Quy")) problems.push(`standings top row ${top}`);
  await axe(po, "standings");
  await shot(po, "event-standings");
  await po.setViewportSize({ width: 1280, height: 720 });
  await po.goto(`${base}/#/big/${id}`);
  await po.waitForSelector(".big-table tbody tr", { timeout: 10000 });
  await shot(po, "event-big");
  out = { event: id, results, top, homeSeat };
} catch (e) {
  problems.push(String(e && e.stack ? e.stack : e));
} finally {
  await browser.close();
}
console.log(JSON.stringify({ ...out, problems }));
process.exit(problems.length ? 1 : 0);
