#!/usr/bin/env node
// Real-browser scenarios for the Kickline client: Debian's Chromium driven by
// playwright-core at a phone viewport with touch, against a running server.
//
//   node tests/client/browser.mjs BASE_URL SCENARIO [SCREENSHOT_DIR]
//
// Scenarios: two-players, vs-bot, reload, offline, secret.  Prints one JSON line with
// the outcome; exits non-zero on failure.  The UI is driven by real taps; only the
// choice of *which* legal decision to make is read from the page (window.__kickline),
// the way a player reads the screen.
import { createRequire } from "node:module";
import path from "node:path";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { axeSettled, shot as shotInto } from "./fit.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(path.join(ROOT, "client", "package.json"));
const { chromium, devices } = require("playwright-core");

const [base, scenario, shotDir = path.join(ROOT, "artifacts", "screenshots")] = process.argv.slice(2);
mkdirSync(shotDir, { recursive: true });
const CHROME_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const PHONE = { ...devices["Pixel 7"], viewport: { width: 390, height: 800 } };
delete PHONE.defaultBrowserType;
const PHONE_844 = { ...PHONE, viewport: { width: 390, height: 844 } };

let seed = 12345;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };

// Every screenshot also checks the screen fits the phone's width (tests/client/fit.mjs).
const layout = [];
async function shot(page, name) {
  layout.push(...await shotInto(page, shotDir, name));
}

// Names are unique on a server: each run's players get a suffix of their own.
const RUN = Math.random().toString(36).slice(2, 6);
let named = 0;

async function setName(page, name, { speed = "instant" } = {}) {
  // Playback at "instant" unless a scenario watches it: the others drive the game.
  await page.goto(base + "/sw.js");
  await page.evaluate((speed) => localStorage.setItem("kickline.settings", JSON.stringify({ speed })), speed);
  await page.goto(base + "/");
  // Names may be as long as the server allows (20): a long one must fit every screen.
  const tail = `-${RUN}${++named}`;
  const full = name.slice(0, 20 - tail.length) + tail;
  await page.locator("#name").fill(full);
  await page.locator("#save-name").tap();
  await page.waitForFunction(() => window.__kickline.welcome !== null, null, { timeout: 15000 });
  return full;
}

async function snapshot(page) {
  return page.evaluate(() => {
    const a = window.__kickline;
    const m = a.match;
    const c = a.chooser;
    return {
      over: !!(m && m.over), status: m && m.prompt ? m.prompt.status : null,
      legal: m && m.prompt && !m.pending && !m.play && !m.over ? m.prompt.legal : [], version: m && m.prompt ? m.prompt.version : null,
      pending: !!(m && m.pending), conn: a.link ? a.link.state : null,
      kind: c.kind, args: c.args, complete: c.complete(),
    };
  });
}

function choose(legal) {
  for (const pref of ["finish", "skip", "shot take", "action shoot"]) if (legal.includes(pref)) return pref;
  const noCoach = legal.filter((d) => !/^(sub|move|swap|formation) /.test(d));
  const pool = noCoach.length ? noCoach : legal;
  return pool[Math.floor(rand() * pool.length)];
}

// Make one decision through the UI.  Returns the decision text.
async function playOne(page, legal, snap = snapshot) {
  const d = choose(legal);
  const parts = d.split(" ");
  const start = (await snap(page)).version;
  for (let guard = 0; guard < 30; guard++) {
    const s = await snap(page);
    // Sent: at once after the last tap, or by Confirm where the settings ask for it.
    if (s.pending || s.version !== start || s.over) return d;
    if (s.complete === d) { await page.locator("#confirm").tap(); return d; }
    if (s.complete && s.complete !== d) { await page.locator("#back").tap(); continue; }
    if (!s.kind) { await page.locator(`#panel [data-kind="${parts[0]}"]`).tap(); continue; }
    if (s.kind !== parts[0]) { await page.locator("#back").tap(); continue; }
    const want = parts[1 + s.args.length];
    if (s.args.some((a, i) => a !== parts[1 + i])) { await page.locator("#back").tap(); continue; }
    // Tap on the board when the value is a highlighted meeple or space (half the time),
    // else the button in the panel; a number goes through the stepper.
    const onBoard = page.locator(`#boardbox .m.pick[data-pid="${want}"], #boardbox .lbl.pick[data-space-btn="${want}"]`);
    if (rand() < 0.5 && await onBoard.count()) {
      try { await onBoard.first().tap({ timeout: 3000 }); continue; } catch (e) { /* covered: use the button */ }
    }
    const btn = page.locator(`#panel [data-arg="${want}"]`);
    if (await btn.count()) { await btn.first().tap(); continue; }
    const val = Number(await page.locator("#panel .stepper .val").textContent());
    await page.locator(`#panel [data-step="${Number(want) > val ? 1 : -1}"]`).tap();
  }
  throw new Error(`could not enter ${d}`);
}

// A choice goes with its last tap unless the settings ask to confirm it.
async function confirmIfAsked(page) {
  // Sent (pending, or already answered: the chooser has nothing complete) or asked.
  await page.waitForFunction(() => window.__kickline.match.pending || document.querySelector("#confirm") || !window.__kickline.chooser.complete(), null, { timeout: 10000 });
  if (await page.locator("#confirm").count()) await page.locator("#confirm").tap();
}

async function waitTurn(page, lastVersion, timeout = 30000) {
  await page.waitForFunction((v) => {
    const m = window.__kickline.match;
    if (!m) return false;
    if (m.over) return true;
    return m.prompt && !m.pending && m.prompt.legal.length > 0 && (m.prompt.version !== v || true);
  }, lastVersion, { timeout, polling: 50 });
}

// Play until the match is over (or `stopAfter` decisions); returns the decision count.
async function autoplay(pages, { stopAfter = Infinity, deadline = Date.now() + 200000, each = null } = {}) {
  let n = 0;
  const busy = new Set();
  while (n < stopAfter) {
    if (Date.now() > deadline) throw new Error(`match not over in time after ${n} decisions`);
    let progressed = false;
    let allOver = true;
    for (const page of pages) {
      const s = await snapshot(page);
      if (!s.over) allOver = false;
      if (s.over || !s.legal.length || s.pending) continue;
      if (each) await each(page, s);
      await playOne(page, s.legal);
      n++;
      progressed = true;
      await page.waitForFunction((v) => { const m = window.__kickline.match; return !m || m.over || !m.pending; }, s.version, { timeout: 20000, polling: 20 });
    }
    if (allOver) return n;
    if (!progressed) await new Promise((r) => setTimeout(r, 30));
    busy.clear();
  }
  return n;
}

async function matchOver(page, name) {
  await page.waitForSelector("#over", { timeout: 30000 });
  await page.locator("#verify").tap();
  await page.waitForFunction(() => { const m = window.__kickline.match; return m && m.verified; }, null, { timeout: 60000 });
  const text = await page.locator("#fair").textContent();
  await shot(page, name);
  return text;
}

async function newContext(browser) {
  const ctx = await browser.newContext(PHONE);
  return ctx;
}

async function scenarioVsBot(browser) {
  // Reduced motion, as some players ask: moves show at once, nothing animates.
  const ctx = await browser.newContext({ ...PHONE_844, reducedMotion: "reduce" });
  const page = await ctx.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  // Normal playback speed, but the device asks for reduced motion: moves show at once.
  const ann = await setName(page, "Annemarie Longfellow", { speed: "normal" });
  // Advanced mode, so the whole of Part II (blind declarations, pulls, gambits) goes
  // through the UI, the Pyodide preview and the dice check.
  await page.locator('[data-mode="advanced"]').tap();
  await page.selectOption("#team", "telekinetics");
  await page.selectOption("#opponent", "cyborgs");
  // The level picked is the bot that sits down (the beginner: the quickest to play out).
  await page.locator('[data-level="beginner"]').tap();
  await shot(page, "home");
  await page.locator("#vs-bot").tap();
  await page.waitForFunction(() => { const m = window.__kickline.match; return m && m.prompt && m.prompt.legal.length; }, null, { timeout: 20000 });
  const seated = await page.evaluate(() => (window.__kickline.match.prompt.players || []).map((p) => p && p.bot));
  if (!seated.includes("beginner")) problems.push(`the bot seated: ${JSON.stringify(seated)}`);
  await shot(page, "first-prompt");
  // Every kind of decision: it fits the screen, and axe finds nothing serious.
  const kinds = new Set();
  const each = async (p, st) => {
    const frame = await p.evaluate(() => window.__kickline.match.prompt.view.prompt.frame);
    if (kinds.has(frame)) return;
    kinds.add(frame);
    await fitCheck(p, `decision ${frame}`, problems);
    await axeCheck(p, `decision ${frame}`, problems);
    await shot(p, `decision-${frame}`);
  };
  const n = await autoplay([page], { stopAfter: 12, each });
  await shot(page, "mid-match");
  // The last move stays marked on the board.
  if (!(await page.evaluate(() => !window.__kickline.match.lastMove || !!document.querySelector("#boardbox .last")))) problems.push("the last move is not marked on the board");
  // Away from the match (the settings), the top bar leads back to it, and fits with
  // the long name, "Back to your match" and the other links.
  await page.evaluate(() => { location.hash = "#/settings"; });
  await page.waitForSelector("#settings");
  await shot(page, "settings-during-a-match");
  await page.locator("#back-to-match").tap();
  await page.waitForFunction(() => location.hash.startsWith("#/m/") && document.querySelector("#scoreboard"), null, { timeout: 10000 });
  const rest = await autoplay([page], { each });
  const fair = await matchOver(page, "over-vs-bot");
  // The end screen names both players and offers the record, which must verify.
  const end = await page.evaluate(() => ({ final: (document.querySelector("#final-score") || {}).textContent || "", href: (document.querySelector("#download") || {}).getAttribute ? document.querySelector("#download").getAttribute("href") : null }));
  if (!end.final.includes(ann) || !/bot/i.test(end.final)) problems.push(`end screen score line: ${end.final}`);
  // One order everywhere (home : visitors): the end screen's line, the scoreboard's
  // last score and the log's "Full time".
  const order = await page.evaluate(() => {
    const m = window.__kickline.match;
    const v = m.prompt.view;
    const home = v.home_seat >= 0 ? v.home_seat : 0;
    const names = (m.prompt.players || []).map((p) => p && p.name);
    // (After a shootout the score counts its goals too, so "Full time" said less.)
    const ft = (m.kicks || []).length ? null : m.lines.filter((l) => l.t === "full-time").pop();
    return { fullTime: m.fullTime, reasonLine: (document.querySelector("#final-score + p") || {}).textContent || "", kicks: (m.kicks || []).length, listed: document.querySelectorAll("#kicks li").length, score: v.score, home: names[home], final: document.querySelector("#final-score").textContent.replace(/\s+/g, " ").trim(), ft: ft ? ft.text : null };
  });
  const hv = `${order.score[0]} : ${order.score[1]}`;
  if (!order.final.includes(hv) || (order.home && !order.final.startsWith(order.home))) problems.push(`end screen ${order.final} against the scoreboard's ${order.home} ${hv}`);
  if (order.kicks && order.fullTime && !order.reasonLine.includes(`${order.fullTime[0]} : ${order.fullTime[1]} at full time`)) problems.push(`after a shootout the end screen says: ${order.reasonLine}`);
  if (order.kicks !== order.listed) problems.push(`the end screen lists ${order.listed} of the shootout's ${order.kicks} kicks`);
  if (order.ft && !order.ft.includes(hv)) problems.push(`the log's ${order.ft} against the scoreboard's ${hv}`);
  let recordFile = null;
  if (!end.href) problems.push("no Download the match record link");
  else {
    const res = await page.request.get(base + end.href);
    recordFile = path.join(shotDir, "vs-bot-record.json");
    writeFileSync(recordFile, await res.body());
  }
  await page.locator("#replay-next").tap().catch(() => {});
  const lastFrame = await page.evaluate(() => (document.querySelector("#replay-label") || {}).textContent || "");
  if (!/final position/i.test(lastFrame)) problems.push(`the replay does not end on the final position: ${lastFrame}`);
  await axeCheck(page, "end screen", problems);
  const motion = await page.evaluate(() => ({ playbacks: window.__kickline.stats.playbacks || 0, moments: window.__kickline.stats.moments || {} }));
  if (!motion.playbacks || Object.keys(motion.moments).length) problems.push(`under reduced motion a playback showed moments: ${JSON.stringify(motion)}`);
  const stats = await page.evaluate(() => ({ mismatches: window.__kickline.preview.mismatches, ready: window.__kickline.preview.ready, timings: window.__kickline.preview.timings.length, config: window.__kickline.match.prompt.view.config }));
  if (stats.config.mode !== "advanced" || stats.config.teams.join() !== "telekinetics,cyborgs") problems.push(`vs-bot config ${JSON.stringify(stats.config)}`);
  if (!/✓ The revealed seed matches/.test(fair) || !/✓ Every die/.test(fair)) problems.push(`fairness check: ${fair}`);
  // The dice were mixed with this browser's own random number (dice.js), and it says so.
  if (!/✓ Your device's random number is the one mixed/.test(fair)) problems.push(`own dice contribution: ${fair}`);
  if (stats.mismatches) problems.push(`${stats.mismatches} preview mismatches`);
  await ctx.close();
  return { decisions: n + rest, fair, stats, recordFile, kinds: [...kinds], problems };
}

async function startVsBot(browser, name) {
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  await setName(page, name);
  await page.locator("#vs-bot").tap();
  await page.waitForFunction(() => { const m = window.__kickline.match; return m && m.prompt && m.prompt.legal.length; }, null, { timeout: 20000 });
  return { ctx, page };
}

async function position(page) {
  return page.evaluate(() => {
    const m = window.__kickline.match;
    const v = m.prompt.view;
    return { match: m.id, version: m.prompt.version, legal: m.prompt.legal, score: v.score, ball: v.ball,
      players: v.players.map((p) => [p.id, p.status, p.space, p.tokens]), board: document.querySelector(".board").innerText };
  });
}

async function scenarioTwoPlayers(browser) {
  const problems = [];
  const a = await newContext(browser);
  const b = await newContext(browser);
  const pa = await a.newPage();
  const pb = await b.newPage();
  const ann = await setName(pa, "Ann");
  const ben = await setName(pb, "Benedikt Vanderbilt");
  await pa.locator("#create").tap();
  await pa.waitForSelector("#waiting #invite-link");
  await pa.waitForFunction(() => /join\/[A-Z0-9]{4,}/.test(document.querySelector("#invite-link").value));
  await shot(pa, "invite");
  const link = await pa.locator("#invite-link").inputValue();
  await pb.goto(link);
  for (const p of [pa, pb]) {
    await p.waitForFunction(() => { const m = window.__kickline.match; return m && m.prompt && m.prompt.status === "playing"; }, null, { timeout: 20000 });
  }
  const n = await autoplay([pa, pb], { stopAfter: 6 });
  await shot(pa, "two-players-a");
  await shot(pb, "two-players-b");
  // A spectator watches by the private match's watch code and sees the board, with no
  // controls.
  const code = await pa.locator("#watch-code").textContent();
  const c = await newContext(browser);
  const pc = await c.newPage();
  await setName(pc, "Sam");
  await pc.locator("#code").fill(code);
  await pc.locator("#watch").tap();
  await pc.waitForSelector(".board", { timeout: 20000 });
  const watching = await pc.evaluate(() => ({ seat: window.__kickline.match.seat, panel: document.querySelector("#panel").innerText, hash: location.hash }));
  if (watching.seat !== null || !/watching/i.test(watching.panel) || !watching.hash.startsWith("#/w/")) problems.push(`spectator: ${JSON.stringify(watching)}`);
  // A spectator reads the players' names, never seats or "your opponent".
  const seen = await pc.evaluate(() => document.querySelector("#main").innerText);
  if (!seen.includes(ann) || !seen.includes(ben) || /\bseat \d|opponent|\(you\)/i.test(seen)) problems.push(`the spectator reads: ${seen.slice(0, 400)}`);
  await axeCheck(pc, "watching a match", problems);
  await shot(pc, "spectator");
  await c.close();
  const rest = await autoplay([pa, pb], { deadline: Date.now() + 240000 });
  const fa = await matchOver(pa, "over-two-a");
  const resA = await pa.locator("#result").textContent();
  const resB = await pb.waitForSelector("#result").then((e) => e.textContent());
  if (!/✓ Every die/.test(fa)) problems.push(`fairness: ${fa}`);
  const both = [resA, resB].sort().join("|");
  if (!(both === "You lose|You win!" || both === "A draw|A draw")) problems.push(`results disagree: ${both}`);
  await a.close();
  await b.close();
  return { decisions: n + rest, results: [resA, resB], problems };
}

async function scenarioReload(browser) {
  const problems = [];
  const { ctx, page } = await startVsBot(browser, "Rita");
  await autoplay([page], { stopAfter: 8 });
  await page.waitForFunction(() => { const m = window.__kickline.match; return m.over || (!m.pending && m.prompt.legal.length); }, null, { timeout: 20000 });
  const before = await position(page);
  await page.reload();
  await page.waitForFunction((v) => { const m = window.__kickline.match; return m && m.prompt && m.prompt.version === v; }, before.version, { timeout: 20000 });
  const after = await position(page);
  await shot(page, "after-reload");
  for (const k of ["match", "version", "legal", "score", "ball", "players", "board"]) {
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) problems.push(`after reload ${k} differs`);
  }
  // A refused move (here: one the rules do not know) is reported in plain words and
  // the screen stays on the server's position.
  await page.evaluate(() => window.__kickline.chooser.hooks.confirm("card bicycle-kick"));
  await page.waitForFunction(() => !window.__kickline.match.pending && !document.querySelector("#toast").hidden, null, { timeout: 10000 });
  const toast = await page.locator("#toast").textContent();
  if (!/not played|not allowed|could not be read/.test(toast)) problems.push(`refused move message: ${toast}`);
  const afterError = await position(page);
  if (afterError.version !== before.version || afterError.board !== before.board) problems.push("the board changed after a refused move");
  await shot(page, "refused-move");
  const more = await autoplay([page], { stopAfter: 3 });
  await ctx.close();
  return { version: before.version, toast, more, problems };
}

async function scenarioOffline(browser) {
  const problems = [];
  const { ctx, page } = await startVsBot(browser, "Otto");
  await autoplay([page], { stopAfter: 5 });
  await page.waitForFunction(() => { const m = window.__kickline.match; return m.over || (!m.pending && m.prompt.legal.length); }, null, { timeout: 20000 });
  const before = await position(page);
  await ctx.setOffline(true);
  await page.waitForFunction(() => document.querySelector("#conn").dataset.state === "offline", null, { timeout: 10000 });
  const connText = await page.locator("#conn").textContent();
  // A move made while offline is refused on the spot and the board stays as it was.
  const s = await snapshot(page);
  const d = await playOne(page, s.legal).catch((e) => String(e));
  const toast = await page.locator("#toast").textContent();
  if (!/offline/i.test(toast)) problems.push(`no offline message after a move: ${toast}`);
  const during = await position(page);
  if (during.version !== before.version || during.board !== before.board) problems.push("the board changed while offline");
  await shot(page, "offline");
  await ctx.setOffline(false);
  await page.waitForFunction(() => document.querySelector("#conn").dataset.state === "online", null, { timeout: 20000 });
  await page.waitForFunction(() => { const m = window.__kickline.match; return m.prompt && !m.pending; }, null, { timeout: 20000 });
  const after = await position(page);
  if (after.version !== before.version) problems.push(`version moved: ${before.version} -> ${after.version}`);
  const more = await autoplay([page], { stopAfter: 3 });
  await shot(page, "back-online");
  await ctx.close();
  return { connText, tried: d, more, problems };
}

// ---- offline play: a match on the device, no server (screens/local.js) -------------

async function localSnapshot(page) {
  return page.evaluate(() => {
    const a = window.__kickline;
    const lm = a.local;
    const c = a.localChooser || null;
    const cur = lm && lm.current;
    const mine = !!(cur && !lm.busy && !lm.over && lm.passTo === null && cur.legal.length);
    return {
      over: !!(lm && lm.over), pass: !!(lm && lm.passTo !== null && lm.passTo !== undefined),
      legal: mine ? cur.legal : [], version: cur ? cur.view.version : null,
      secret: !!(cur && cur.view.to_act.secret), seat: cur ? cur.seat : null,
      kind: c ? c.kind : null, args: c ? c.args : [], complete: c ? c.complete() : null,
    };
  });
}

// Wait until the local match asks a person (or hands the phone over, or is over).
async function localTurn(page) {
  await page.waitForFunction(() => {
    const lm = window.__kickline.local;
    return lm && !lm.busy && (lm.over || (lm.passTo !== null && lm.passTo !== undefined) || (lm.current && lm.current.legal.length));
  }, null, { timeout: 60000, polling: 50 });
}

async function localPlay(page, n, seen = {}, untilSecretPasses = Infinity) {
  let made = 0;
  while (made < n && (seen.secretPasses || 0) < untilSecretPasses) {
    await localTurn(page);
    const s = await localSnapshot(page);
    if (s.over) break;
    if (s.pass) {
      // The hand-over screen hides the board, the report and the choice just made.
      if (await page.locator("#boardbox, #log, #panel").count()) seen.boardOnPass = true;
      if (s.secret) seen.secretPasses = (seen.secretPasses || 0) + 1;
      await page.locator("#take-phone").tap();
      continue;
    }
    await playOne(page, s.legal, localSnapshot);
    made++;
    await page.waitForFunction((v) => { const lm = window.__kickline.local; return lm && (lm.busy || !lm.current || lm.current.view.version !== v || lm.over); }, s.version, { timeout: 20000, polling: 20 });
  }
  return made;
}

async function scenarioLocal(browser) {
  const problems = [];
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  page.on("pageerror", (e) => problems.push(String(e)));
  await setName(page, "Lou");
  // One online visit: the service worker keeps the app, Pyodide and the rules.
  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  await page.waitForFunction(() => window.__kickline.preview.ready, null, { timeout: 120000 });
  await ctx.setOffline(true);
  await page.reload();
  await page.waitForFunction(() => window.__kickline.preview && window.__kickline.preview.ready, null, { timeout: 120000 });
  if (await page.evaluate(() => window.__kickline.link && window.__kickline.link.online)) problems.push("online while the network is off");
  // Against the bot, on the device.
  await page.locator('[data-level="beginner"]').tap();
  await page.locator("#local-bot").tap();
  const made = await localPlay(page, 8);
  await shot(page, "local-vs-bot");
  await localTurn(page); // the bot's reply to the last move may still be on its way
  const before = await localSnapshot(page);
  await page.reload(); // still offline: the match comes back from the page's storage
  await localTurn(page);
  const after = await localSnapshot(page);
  if (after.version !== before.version) problems.push(`the kept match moved: ${before.version} -> ${after.version}`);
  const more = await localPlay(page, 4);
  // Two people, one phone.
  await page.goto(base + "/#/");
  await page.locator("#local-pass").tap();
  const seen = {};
  const passMade = await localPlay(page, 60, seen, 2); // through two secret hand-overs
  await shot(page, "pass-and-play");
  if (!seen.secretPasses) problems.push("no hand-over screen before a secret choice");
  if (seen.boardOnPass) problems.push("the board or the report showed on the hand-over screen");
  await ctx.close();
  return { made, more, passMade, secretPasses: seen.secretPasses || 0, problems };
}

// Frames a page receives on its websockets, decoded.
async function tapFrames(page, sink) {
  const { decode } = await import(path.join(ROOT, "client", "src", "msgpack.js"));
  page.on("websocket", (ws) => ws.on("framereceived", (f) => {
    // One entry per message (the server may batch several into one frame).
    try { const d = decode(new Uint8Array(f.payload)); for (const m of Array.isArray(d) ? d : [d]) sink.push(JSON.stringify(m)); } catch (e) { sink.push(String(f.payload)); }
  }));
}

async function scenarioSecret(browser) {
  const problems = [];
  const a = await newContext(browser);
  const b = await newContext(browser);
  const pa = await a.newPage();
  const pb = await b.newPage();
  const framesB = [];
  await tapFrames(pb, framesB);
  await setName(pa, "Ann");
  await setName(pb, "Ben");
  await pa.locator("#create").tap();
  await pa.waitForFunction(() => /join\/[A-Z0-9]{4,}/.test((document.querySelector("#invite-link") || {}).value || ""));
  await pb.goto(await pa.locator("#invite-link").inputValue());
  const secretNow = (p) => p.evaluate(() => {
    const m = window.__kickline.match;
    return !!(m && m.prompt && m.prompt.view && m.prompt.view.prompt.frame === "cards_secret" && m.prompt.legal.length && !m.pending);
  });
  const deadline = Date.now() + 120000;
  let found = false;
  while (!found && Date.now() < deadline) {
    if (await secretNow(pa) && await secretNow(pb)) { found = true; break; }
    const before = [await snapshot(pa), await snapshot(pb)];
    if (before[0].over || before[1].over) break;
    await autoplay([pa, pb], { stopAfter: 1 });
  }
  if (!found) return { problems: ["no secret card choice came up"] };
  const legalA = (await snapshot(pa)).legal;
  const card = legalA[Math.floor(rand() * legalA.length)].split(" ")[1];
  const NAMES = { "low-pass": "Low Pass", dribble: "Dribble", "high-pass": "High Pass", deflect: "Deflect", steal: "Steal", pressure: "Pressure" };
  // B's own choice lists every card (and B's odds name them once B's rules load): count
  // the card's name everywhere else on B's page, once B's page has settled.
  await pb.waitForFunction(() => window.__kickline.preview && window.__kickline.preview.ready, null, { timeout: 120000 });
  const count = async (p, word) => (await p.evaluate(() => {
    const panel = document.querySelector("#panel");
    const mine = panel ? panel.innerText : "";
    return document.body.innerText.replace(mine, "");
  })).split(word).length - 1;
  const shownBefore = await count(pb, NAMES[card]);
  const mark = framesB.length;
  await pa.locator(`#panel [data-arg="${card}"]`).tap();
  await confirmIfAsked(pa);
  await pa.waitForFunction(() => /Waiting for your opponent/.test(document.querySelector("#status").textContent), null, { timeout: 10000 });
  await pb.waitForFunction(() => window.__kickline.match.lines.some((l) => l.t === "chosen"), null, { timeout: 10000 });
  await pb.waitForTimeout(300);
  await shot(pa, "secret-waiting");
  await shot(pb, "secret-opponent");
  // The odds the server computes for B (before B's rules load) list every card A may
  // play, from B's own view: they are B's question, not A's secret.
  const leaked = framesB.slice(mark).filter((f) => f.includes(card) && !f.startsWith('{"t":"ack","re":"odds:'));
  if (leaked.length) problems.push(`opponent's frames carry the card before the reveal: ${leaked[0].slice(0, 300)}`);
  const shownAfter = await count(pb, NAMES[card]);
  if (shownAfter !== shownBefore) problems.push(`opponent's page shows ${NAMES[card]} before the reveal`);
  const viewB = await pb.evaluate(() => JSON.stringify(window.__kickline.match.prompt.view));
  if (viewB.includes(card)) problems.push("opponent's view holds the card");
  // Now B chooses; both see the reveal with both cards.
  const legalB = (await snapshot(pb)).legal;
  const cardB = legalB[0].split(" ")[1];
  // B watches the reveal played back slowly, then taps it away.
  await pb.evaluate(() => localStorage.setItem("kickline.settings", JSON.stringify({ speed: "slow" })));
  await pb.locator(`#panel [data-arg="${cardB}"]`).tap();
  await confirmIfAsked(pb);
  // B's board plays the reveal back; a tap on it skips the rest of the playback.
  await pb.waitForFunction(() => { const m = window.__kickline.match; return m.play && m.play.current && m.play.current.event.t === "reveal"; }, null, { timeout: 15000, polling: 20 });
  await pb.locator("#overlay").tap({ force: true, timeout: 2000 }).catch(() => problems.push("the reveal's playback was gone before it could be tapped"));
  await pb.waitForFunction(() => !window.__kickline.match.play, null, { timeout: 5000 }).catch(() => {});
  const skipped = await pb.evaluate(() => ({ taps: window.__kickline.stats.skipped || 0, playing: !!window.__kickline.match.play }));
  if (skipped.taps !== 1 || skipped.playing) problems.push(`a tap on the playback: ${JSON.stringify(skipped)}`);
  for (const p of [pa, pb]) {
    await p.waitForFunction(() => window.__kickline.match.lines.some((l) => l.t === "reveal"), null, { timeout: 10000 });
  }
  const reveal = await pb.evaluate(() => window.__kickline.match.lines.filter((l) => l.t === "reveal").pop().text);
  if (!reveal.includes(NAMES[card]) || !reveal.includes(NAMES[cardB])) problems.push(`reveal lacks a card: ${reveal}`);
  await shot(pb, "secret-reveal");
  await a.close();
  await b.close();
  return { card, cardB, reveal, framesChecked: framesB.length - mark, problems };
}

async function scenarioQuickResign(browser) {
  const problems = [];
  const a = await newContext(browser);
  const b = await newContext(browser);
  const pa = await a.newPage();
  const pb = await b.newPage();
  await setName(pa, "Quin");
  await setName(pb, "Rae");
  for (const p of [pa, pb]) { await p.locator('[data-board="9"]').tap(); await p.locator('[data-mode="advanced"]').tap(); }
  await pa.selectOption("#team", "fire-demons");
  await pb.selectOption("#team", "oozes");
  await pa.locator("#quick").tap();
  await pa.waitForSelector("#cancel-quick", { timeout: 10000 });
  await shot(pa, "quick-waiting");
  await pb.locator("#quick").tap();
  for (const p of [pa, pb]) {
    await p.waitForFunction(() => { const m = window.__kickline.match; return m && m.prompt && m.prompt.status === "playing"; }, null, { timeout: 20000 });
  }
  const spaces = await pa.locator(".board .sp").count();
  if (spaces !== 9) problems.push(`a 9-space board shows ${spaces} spaces`);
  const config = await pb.evaluate(() => window.__kickline.match.prompt.view.config);
  if (config.mode !== "advanced" || config.teams.join() !== "fire-demons,oozes") problems.push(`quick match config ${JSON.stringify(config)}`);
  await autoplay([pa, pb], { stopAfter: 4 });
  await shot(pb, "board-9");
  pa.once("dialog", (d) => d.accept());
  await pa.locator("#resign").tap();
  const ra = await pa.waitForSelector("#result", { timeout: 15000 }).then((e) => e.textContent());
  const rb = await pb.waitForSelector("#result", { timeout: 15000 }).then((e) => e.textContent());
  if (ra !== "You lose" || rb !== "You win!") problems.push(`after resigning: ${ra} / ${rb}`);
  await a.close();
  await b.close();
  return { spaces, config, results: [ra, rb], problems };
}

// ---- checks a user would notice ----------------------------------------------------

const AXE = path.join(ROOT, "client", "node_modules", "axe-core", "axe.min.js");

// axe-core on the page as it is now: no serious or critical finding.
async function axeCheck(page, name, problems) {
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ path: AXE });
  const r = await axeSettled(page, { resultTypes: ["violations"] });
  const found = r.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
  if (found.length) problems.push(`axe on ${name}: ${JSON.stringify(found)}`);
  return found.length;
}

// The scoreboard is on screen, and every control of the decision panel is inside the
// viewport with the page scrolled to the top: nothing to choose is below the fold.
async function fitCheck(page, name, problems) {
  const r = await page.evaluate(() => {
    const panel = document.querySelector("#panel");
    const score = document.querySelector("#scoreboard");
    const out = [];
    for (const el of panel ? panel.querySelectorAll("button, a, input") : []) {
      const b = el.getBoundingClientRect();
      if (b.bottom > innerHeight + 1 || b.top < 0 || b.height < 24) out.push(`${el.textContent.trim().slice(0, 24)} @${Math.round(b.top)}-${Math.round(b.bottom)}`);
    }
    const sb = score ? score.getBoundingClientRect() : null;
    return { out, scrolled: scrollY, score: sb ? [Math.round(sb.top), Math.round(sb.bottom)] : null, height: innerHeight };
  });
  if (r.out.length) problems.push(`${name}: decision controls outside the screen: ${r.out.join(", ")}`);
  if (!r.score || r.score[0] < 0 || r.score[1] > 200) problems.push(`${name}: scoreboard not in view ${JSON.stringify(r.score)}`);
  return r;
}

// Wait for the next thing to do in a local or server match, watching playback moments.
async function nextTurn(page, seen, shots, problems) {
  for (;;) {
    const st = await page.evaluate(() => {
      const m = window.__kickline.match;
      const c = window.__kickline.chooser;
      const cur = m && m.play && m.play.current;
      return { over: !!(m && m.over && !m.play), moment: cur ? cur.event.t + (cur.event.t === "injury-check" && cur.event.injured ? ":injured" : "") : null,
        ready: !!(m && m.prompt && !m.pending && !m.play && c.legal.length), jump: !!document.querySelector("#tutorial-jump") };
    });
    if (st.moment && !seen.has(st.moment)) {
      seen.add(st.moment);
      if (await page.locator("#overlay").count()) await shot(page, `moment-${st.moment.replace(":", "-")}`);
      if (st.moment === "reveal") await axeCheck(page, "a card reveal", problems);
    }
    if (st.over || st.ready || st.jump) return st;
    await new Promise((r) => setTimeout(r, 40));
  }
}

// Enter `d` through the panel and the board, the way a player taps.
async function enter(page, d) {
  const parts = d.split(" ");
  const v0 = await page.evaluate(() => window.__kickline.match.prompt.version);
  for (let g = 0; g < 20; g++) {
    const s = await page.evaluate((v0) => { const c = window.__kickline.chooser; const m = window.__kickline.match; return { kind: c.kind, args: c.args, complete: c.complete(), sent: !!m.pending || !!m.over || m.prompt.version !== v0 }; }, v0);
    if (s.sent) return;
    if (s.complete === d) { await page.locator("#confirm").tap(); continue; }
    if (!s.kind) { await page.locator(`#panel [data-kind="${parts[0]}"]`).tap(); continue; }
    const want = parts[1 + s.args.length];
    const onBoard = page.locator(`#boardbox .m.pick[data-pid="${want}"], #boardbox .lbl.pick[data-space-btn="${want}"]`);
    if (g % 2 && await onBoard.count()) { await onBoard.first().tap(); continue; }
    await page.locator(`#panel [data-arg="${want}"]`).first().tap();
  }
  throw new Error(`could not enter ${d}`);
}

// What a screen reader and a curious thumb get from the board: the live region says
// whose turn it is, the board names the ball's space and every meeple, and tapping a
// meeple that is not a choice opens its card (no tooltips), which closes back to it.
async function explainedOnTheBoard(page, problems) {
  const said = await page.evaluate(() => {
    const v = window.__kickline.match.prompt.view;
    return { announce: document.querySelector("#announce").textContent, summary: (document.querySelector(".board > .sr") || {}).textContent || "",
      ball: v.ball.space, unnamed: [...document.querySelectorAll("#boardbox .m")].filter((b) => !(b.querySelector(".sr") || {}).textContent).length };
  });
  if (!/Your turn/.test(said.announce)) problems.push(`the live region says: ${said.announce}`);
  if (!said.summary.includes(said.ball)) problems.push(`the board's summary lacks the ball's space ${said.ball}: ${said.summary}`);
  if (said.unnamed) problems.push(`${said.unnamed} meeples have no name for a screen reader`);
  const other = page.locator("#boardbox .m:not(.pick)").first();
  const pid = await other.getAttribute("data-pid");
  await other.tap();
  await page.waitForSelector("#sheet-title", { timeout: 5000 }).catch(() => problems.push("tapping a meeple opened no card"));
  const card = await page.evaluate(() => (document.querySelector(".sheet") || {}).innerText || "");
  if (!/Skills/.test(card) || !/Attack \d/.test(card)) problems.push(`a meeple's card reads: ${card.slice(0, 200)}`);
  await shot(page, "player-card");
  await axeCheck(page, "a player's card", problems);
  await page.locator("#sheet-close").tap();
  await page.waitForFunction((pid) => !document.querySelector(".sheet") && document.activeElement && document.activeElement.dataset.pid === pid, pid, { timeout: 5000 })
    .catch(() => problems.push("closing the card did not put the focus back on its meeple"));
}

// A newcomer: How to play, the tutorial end to end through the UI (every overlay kind
// appears for its event, the scoreboard stays in view, no decision needs scrolling, axe
// is clean on each kind of screen), a hidden page gets "your turn" in its title, then the
// lobby and the settings.
async function scenarioNewcomer(browser) {
  const problems = [];
  // Notifications allowed, and a phone's vibration motor that remembers its buzzes.
  const ctx = await browser.newContext({ ...PHONE_844, permissions: ["notifications"] });
  await ctx.addInitScript(() => { navigator.vibrate = (p) => { (window.__vibrated = window.__vibrated || []).push(p); return true; }; });
  const page = await ctx.newPage();
  page.on("pageerror", (e) => problems.push(String(e)));
  await page.goto(base + "/sw.js");
  await page.evaluate(() => localStorage.setItem("kickline.settings", JSON.stringify({ speed: "fast", notify: true })));
  await page.goto(base + "/#/rules");
  await page.waitForSelector("#rules");
  await shot(page, "rules");
  await axeCheck(page, "how to play", problems);
  await page.locator("#rules-tutorial").tap();
  await page.waitForFunction(() => { const m = window.__kickline.match; return m && m.tutorial && m.prompt; }, null, { timeout: 120000 });
  const seen = new Set();
  const frames = new Set();
  const steps = [];
  let hiddenChecked = false;
  for (let i = 0; i < 60; i++) {
    const st = await nextTurn(page, seen, null, problems);
    if (st.over) break;
    if (st.jump) { await shot(page, "tutorial-jump"); await page.locator("#tutorial-jump").tap(); await page.waitForFunction(() => !document.querySelector("#tutorial-jump"), null, { timeout: 20000 }); continue; }
    const info = await page.evaluate(() => ({ frame: window.__kickline.match.prompt.view.prompt.frame, legal: window.__kickline.chooser.legal,
      coach: (document.querySelector("#coach .say") || {}).textContent || "", focus: document.activeElement && document.activeElement.id }));
    steps.push(info.frame);
    if (!info.coach) problems.push(`tutorial step ${i} (${info.frame}) has no coach text`);
    if (!frames.has(info.frame)) {
      frames.add(info.frame);
      await fitCheck(page, `tutorial ${info.frame}`, problems);
      await shot(page, `tutorial-${info.frame}`);
      if (frames.size <= 4) await axeCheck(page, `tutorial ${info.frame}`, problems);
      if (info.focus !== "prompt-title") problems.push(`focus after the move is on ${info.focus}, not the new prompt`);
      if (info.frame === "action") await explainedOnTheBoard(page, problems);
    }
    if (!hiddenChecked && info.frame === "action") {
      // Look away: the next turn shows in the tab's title.
      hiddenChecked = true;
      await page.evaluate(async () => { await navigator.serviceWorker.ready; }); // as on any later visit
      await page.evaluate(() => { Object.defineProperty(document, "hidden", { value: true, configurable: true }); });
      await enter(page, info.legal[0]);
      await page.waitForFunction(() => /Your turn/.test(document.title), null, { timeout: 30000 }).catch(() => problems.push("a hidden page did not get the your-turn title"));
      // ... and the phone buzzes, and a notification shows (through the service worker,
      // the only way a phone's browser allows).
      // The notification shows a moment after the title (the worker is asked for it
      // asynchronously): wait until the worker has shown it.  "Shown" is the worker's
      // showNotification resolving (it resolves once the notification is displayed):
      // headless Chromium has no notification centre and may close a shown one at once,
      // so getNotifications() sometimes no longer lists it (a whole-suite run: shown by
      // the worker, listed 0 times in 30 s).  Either one counts.
      const read = async () => {
        const reg = await navigator.serviceWorker.getRegistration();
        return { buzzes: (window.__vibrated || []).length, notes: reg ? (await reg.getNotifications({ tag: "kickline-turn" })).length : -1,
          how: window.__kickline.stats.notified, worker: reg && reg.active ? reg.active.state : null };
      };
      await page.waitForFunction(async () => {
        if (!(window.__vibrated || []).length) return false;
        if (window.__kickline.stats.notified === "by the worker") return true;
        const reg = await navigator.serviceWorker.getRegistration();
        return !!reg && (await reg.getNotifications({ tag: "kickline-turn" })).length > 0;
      }, null, { timeout: 30000, polling: 100 }).catch(() => null);
      const told = await page.evaluate(read);
      if (!told.buzzes || (told.how !== "by the worker" && told.notes < 1)) problems.push(`a hidden page's turn: ${JSON.stringify(told)}`);
      await page.evaluate(() => { Object.defineProperty(document, "hidden", { value: false, configurable: true }); document.dispatchEvent(new Event("visibilitychange")); });
      continue;
    }
    await enter(page, info.legal[0]);
  }
  await page.waitForSelector("#tutorial-done", { timeout: 30000 });
  await shot(page, "tutorial-done");
  await axeCheck(page, "tutorial end", problems);
  // Every overlay kind was drawn for its event (the app counts what it drew; the
  // screenshots above caught most of them on screen).
  const drawn = await page.evaluate(() => window.__kickline.stats.moments || {});
  for (const k of ["reveal", "skill-test", "score-attempt", "goal", "steal-turnover", "injury-check:injured", "shootout-test"]) {
    if (!drawn[k]) problems.push(`no ${k} moment was shown`);
  }
  // The lessons, the lobby and the settings.
  await page.goto(base + "/#/tutorial/standard");
  await page.waitForSelector("#lesson-standard");
  await axeCheck(page, "standard lesson", problems);
  await shot(page, "lesson-standard");
  await page.evaluate(() => { location.hash = "#/tutorial/advanced"; });
  await page.waitForSelector("#lesson-advanced");
  await axeCheck(page, "advanced lesson", problems);
  await shot(page, "lesson-advanced");
  await setName(page, "Nia", { speed: "fast" });
  await shot(page, "lobby");
  await axeCheck(page, "lobby", problems);
  await page.goto(base + "/#/settings");
  await page.waitForSelector("#settings");
  await axeCheck(page, "settings", problems);
  await shot(page, "settings");
  await ctx.close();
  return { steps: steps.length, moments: [...seen], frames: [...frames], problems };
}

const scenarios = { newcomer: scenarioNewcomer, local: scenarioLocal, "quick-resign": scenarioQuickResign, "vs-bot": scenarioVsBot, "two-players": scenarioTwoPlayers, reload: scenarioReload, offline: scenarioOffline, secret: scenarioSecret };

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROME_ARGS, headless: true });
let out;
try {
  out = await scenarios[scenario](browser);
} catch (e) {
  out = { problems: [String(e && e.stack ? e.stack : e)] };
} finally {
  await browser.close();
}
out.problems = [...(out.problems || []), ...layout];
console.log(JSON.stringify({ scenario, ...out }));
process.exit(out.problems && out.problems.length ? 1 : 0);
