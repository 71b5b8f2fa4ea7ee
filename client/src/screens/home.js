// The lobby: who you are, your running matches, the match settings, and the ways to
// start or find a match.
import { html, nothing } from "lit-html";
import { app, LS, update, go, flash, errorWords, online, request, on } from "../app.js";
import { newMatch } from "../match-model.js";
import { addScreen } from "../router.js";
import { slot } from "../slots.js";
import { quick } from "../queue.js";
import { W } from "../words.js";

const MODES = ["training", "standard", "advanced"];
const TEAMS = ["training", "fire-demons", "cyborgs", "telekinetics", "oozes"];
export const BOT_LEVELS = ["beginner", "casual", "strong", "strongest"];

// The bot level the player last picked (casual, the rules-of-thumb bot, at first).
export function botLevel() {
  const v = LS.get("botLevel");
  return BOT_LEVELS.includes(v) ? v : "casual";
}

// The lobby's choices, kept between visits.  teams[0] is always the player's own team:
// they take seat 0 when creating, and a quick match reads teams[0] as theirs.
export function config() {
  const b = Number(LS.get("board") || 7);
  const pick = (k, list, dflt) => { const v = LS.get(k); return list.includes(v) ? v : dflt; };
  return { mode: pick("mode", MODES, "training"), board: b === 9 ? 9 : 7, teams: [pick("team", TEAMS, "training"), pick("opponent", TEAMS, "training")] };
}

function teamSelect(id, label, current, key) {
  return html`<label class="team-pick">${label}
    <select id=${id} @change=${(e) => { LS.set(key, e.target.value); update(); }}>
      ${TEAMS.map((v) => html`<option value=${v} ?selected=${v === current}>${W.TEAMS[v]}</option>`)}
    </select></label>`;
}

function lobby(msg) {
  request(msg).then((m) => {
    if (m.t === "error") { flash(errorWords(m), "error"); return; }
    if (m.match) { app.match = newMatch(m.match); app.match.seat = m.seat; app.match.code = m.code; go(`#/m/${m.match}`); }
  }).catch(() => flash(W.UI.home.notConnected, "error"));
}

// Open tables to join and live matches to watch, asked of the server while the lobby
// is on screen.
const lists = { open: [], live: [], at: 0 };
function refreshLists() {
  if (!online()) return;
  request({ t: "list", game: "kickline" }).then((m) => {
    if (m.t !== "ack") return;
    lists.open = m.matches || [];
    lists.live = m.live || [];
    lists.at = Date.now();
    update();
  }).catch(() => {});
}
let listTimer = null;

function tableLine(m) {
  const c = m.config || {};
  const names = (m.players || []).filter(Boolean).join(" – ");
  return W.UI.home.table(names, W.MODES[c.mode] || c.mode, c.board);
}

function tables(H) {
  const mine = new Set(((app.welcome && app.welcome.matches) || []).map((m) => m.match));
  const open = lists.open.filter((m) => !mine.has(m.match));
  const live = lists.live.filter((m) => !mine.has(m.match));
  return html`<h3>${H.openTables}</h3>
    ${open.length ? html`<ul class="tables" id="open-tables">${open.slice(0, 8).map((m) => html`<li>${tableLine(m)}
      <button class="btn small" type="button" data-join=${m.match} @click=${() => go(`#/join/${encodeURIComponent(m.code)}`)}>${H.join}</button></li>`)}</ul>`
      : html`<p class="hint">${H.noTables}</p>`}
    <h3>${H.liveMatches}</h3>
    ${live.length ? html`<ul class="tables" id="live-matches">${live.slice(0, 8).map((m) => html`<li>${tableLine(m)}
      <button class="btn small" type="button" data-watch=${m.match} @click=${() => go(`#/w/${encodeURIComponent(m.match)}`)}>${H.watch}</button></li>`)}</ul>`
      : html`<p class="hint">${H.noLive}</p>`}`;
}

function view() {
  const H = W.UI.home;
  const name = (app.welcome && app.welcome.name) || LS.get("name");
  const cfg = config();
  const on = online();
  const mine = ((app.welcome && app.welcome.matches) || []).filter((m) => m.status !== "over");
  const codeValue = () => (document.querySelector("#code").value || "").trim().toUpperCase();
  return html`<section class="home">
    <p>${H.playingAs} <b>${name || "…"}</b>
      <a class="link" id="to-profile-name" href="#/profile">${W.UI.players.menuProfile}</a></p>
    ${mine.length ? html`<div class="resume"><h2>${H.yourMatches}</h2>${mine.map((m) => html`
      <button class="btn primary" type="button" data-resume=${m.match} @click=${() => go(`#/m/${m.match}`)}>${H.resume(m.status)}</button>`)}</div>` : nothing}
    <div class="row learn">
      <a class="btn${LS.get("tutorial.done") ? "" : " primary"}" href="#/tutorial" id="lobby-tutorial">${LS.get("tutorial.step") && !LS.get("tutorial.done") ? W.TUTORIAL.resume : W.TUTORIAL.start}</a>
      <a class="btn" href="#/rules" id="lobby-rules">${W.UI.nav.rules}</a>
    </div>
    <h3>${H.board}</h3>
    ${boardSeg(cfg)}
    <h3>${H.mode}</h3>
    ${modeSeg(cfg)}
    <p class="hint">${W.MODE_HINTS[cfg.mode]}</p>
    <div class="row teams">${teamSelect("team", H.yourTeam, cfg.teams[0], "team")}${teamSelect("opponent", H.opponentTeam, cfg.teams[1], "opponent")}</div>
    <h3>${H.botLevel}</h3>
    ${levelSeg()}
    <p class="hint">${W.BOT_LEVEL_HINTS[botLevel()]}</p>
    <div class="grid actions">
      <button class="btn primary" type="button" id="vs-bot" ?disabled=${!on} @click=${() => lobby({ t: "create", game: "kickline", config: config(), bot: botLevel() })}>${H.vsBot}</button>
      <button class="btn" type="button" id="quick" ?disabled=${!on} @click=${() => quick(config(), false)}>${H.quick}</button>
      <button class="btn" type="button" id="create" ?disabled=${!on} @click=${() => lobby({ t: "create", game: "kickline", config: config(), private: true })}>${H.create}</button>
    </div>
    ${app.queued ? html`<div class="waiting"><p>${H.looking}</p>
      <button class="btn" type="button" id="cancel-quick" @click=${() => { request({ t: "cancel" }).catch(() => {}); app.queued = false; update(); }}>${H.cancel}</button></div>` : nothing}
    ${tables(H)}
    ${slot("lobby", cfg)}
    <h3>${H.haveCode}</h3>
    <input id="code" placeholder=${H.code} autocapitalize="characters" maxlength="24" aria-label=${H.code}>
    <div class="row">
      <button class="btn" type="button" id="join" @click=${() => codeValue() && go(`#/join/${encodeURIComponent(codeValue())}`)}>${H.join}</button>
      <button class="btn" type="button" id="watch" @click=${() => codeValue() && go(`#/watch/${encodeURIComponent(codeValue())}`)}>${H.watch}</button>
    </div>
  </section>`;
}

function boardSeg(cfg) {
  const H = W.UI.home;
  return html`<div class="seg" role="radiogroup" aria-label=${H.boardSize}>${[7, 9].map((n) => {
    const sel = cfg.board === n;
    return html`<button class="btn${sel ? " on" : ""}" type="button" role="radio" aria-checked=${sel ? "true" : "false"}
      data-board=${String(n)} @click=${() => { LS.set("board", String(n)); update(); }}>${H.spaces(n)}</button>`;
  })}</div>`;
}

function levelSeg() {
  const level = botLevel();
  return html`<div class="seg" role="radiogroup" aria-label=${W.UI.home.botLevel}>${BOT_LEVELS.map((lv) => {
    const sel = level === lv;
    return html`<button class="btn${sel ? " on" : ""}" type="button" role="radio" aria-checked=${sel ? "true" : "false"}
      data-level=${lv} @click=${() => { LS.set("botLevel", lv); update(); }}>${W.BOT_LEVELS[lv]}</button>`;
  })}</div>`;
}

function modeSeg(cfg) {
  return html`<div class="seg" role="radiogroup" aria-label=${W.UI.home.mode}>${MODES.map((m) => {
    const sel = cfg.mode === m;
    return html`<button class="btn${sel ? " on" : ""}" type="button" role="radio" aria-checked=${sel ? "true" : "false"}
      data-mode=${m} @click=${() => { LS.set("mode", m); update(); }}>${W.MODES[m]}</button>`;
  })}</div>`;
}

addScreen({
  id: "home",
  paths: ["", "home"],
  view,
  enter: () => { refreshLists(); clearInterval(listTimer); listTimer = setInterval(refreshLists, 10000); },
  leave: () => clearInterval(listTimer),
});
on("welcome", () => refreshLists());

// Queue updates from the server.
on("ack", (m) => { if (m.queued === true) { app.queued = true; update(); } });
