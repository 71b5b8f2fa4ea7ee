// Challenges and rematches on the client: the open offers, the notices wherever the
// player is (the top bar's menu, the lobby) and the end screen's rematch button.  The
// screens to send and list challenges are screens/challenge.js; the server's side is
// docs/PROTOCOL.md (`challenge`, `rematch`).  A match either makes arrives as `matched`,
// which the match model follows.
import { html, nothing } from "lit-html";
import { app, update, on, request, flash, errorWords, online } from "./app.js";
import { addToSlot } from "./slots.js";
import { W } from "./words.js";

export const offers = {
  incoming: [], // challenges to me (the server's plain form)
  outgoing: [], // challenges from me
  rematch: {}, // finished match id -> {mine, theirs: {player, name} | null, closed: why | null}
};
app.offers = offers;

const drop = (list, id) => list.filter((c) => c.challenge !== id);

function refresh() {
  request({ t: "challenges" }).then((m) => {
    if (m.t !== "ack") return;
    offers.incoming = m.incoming;
    offers.outgoing = m.outgoing;
    update();
  }).catch(() => {});
}

on("welcome", refresh);
on("challenged", (m) => {
  offers.incoming = [...drop(offers.incoming, m.challenge), m];
  flash(W.UI.challenge.from(m.from.name));
  update();
});
on("challenge_closed", (m) => {
  const C = W.UI.challenge.closed;
  const mine = offers.outgoing.find((c) => c.challenge === m.challenge);
  const theirs = offers.incoming.find((c) => c.challenge === m.challenge);
  offers.outgoing = drop(offers.outgoing, m.challenge);
  offers.incoming = drop(offers.incoming, m.challenge);
  if (m.why !== "accepted" && C[m.why]) {
    if (mine && m.why !== "withdrawn") flash(C[m.why](mine.to.name));
    else if (theirs && m.why !== "declined") flash(C[m.why](theirs.from.name));
  }
  update();
});

// Challenge `who` ({player, name}) with these settings; resolves with the ack or error.
export function challenge(who, config, rated) {
  return request({ t: "challenge", player: who.player, game: "kickline", config, rated }).then((m) => {
    if (m.t === "ack") { offers.outgoing = [...drop(offers.outgoing, m.challenge), m]; update(); }
    return m;
  });
}

function say(promise) {
  promise.then((m) => { if (m.t === "error") flash(errorWords(m), "error"); update(); })
    .catch(() => flash(W.UI.home.notConnected, "error"));
}

export function accept(c) { say(request({ t: "accept", challenge: c.challenge })); }
export function decline(c) { say(request({ t: "decline", challenge: c.challenge })); }
export function withdraw(c) { say(request({ t: "withdraw", challenge: c.challenge })); }

// One challenge as a list item: who, the settings, and what the player can do.
export function challengeItem(c, incoming) {
  const C = W.UI.challenge;
  const cfg = c.config;
  const teams = cfg.teams || [];
  const mineTeam = incoming ? teams[1] : teams[0];
  const theirTeam = incoming ? teams[0] : teams[1];
  return html`<li class="offer" data-challenge=${c.challenge}>
    <p><b>${incoming ? C.from(c.from.name) : C.to(c.to.name)}</b><br>
      <span class="hint">${C.settings(W.MODES[cfg.mode] || cfg.mode, cfg.board, W.TEAMS[mineTeam] || mineTeam, W.TEAMS[theirTeam] || theirTeam, c.rated)}</span></p>
    <div class="row">${incoming ? html`
      <button class="btn primary" type="button" data-accept=${c.challenge} ?disabled=${!online()} @click=${() => accept(c)}>${C.accept}</button>
      <button class="btn" type="button" data-decline=${c.challenge} ?disabled=${!online()} @click=${() => decline(c)}>${C.decline}</button>`
    : html`<span class="hint" role="status">${C.waiting(c.to.name)}</span>
      <button class="btn" type="button" data-withdraw=${c.challenge} ?disabled=${!online()} @click=${() => withdraw(c)}>${C.withdraw}</button>`}
    </div></li>`;
}

export function challengeLists() {
  const C = W.UI.challenge;
  if (!offers.incoming.length && !offers.outgoing.length) return nothing;
  return html`
    ${offers.incoming.length ? html`<h3>${C.incoming}</h3><ul class="offers" id="incoming">${offers.incoming.map((c) => challengeItem(c, true))}</ul>` : nothing}
    ${offers.outgoing.length ? html`<h3>${C.outgoing}</h3><ul class="offers" id="outgoing">${offers.outgoing.map((c) => challengeItem(c, false))}</ul>` : nothing}`;
}

// The lobby lists open challenges; the top bar says how many wait for an answer.
addToSlot("lobby", () => challengeLists(), -1);
addToSlot("menu", () => (offers.incoming.length
  ? html`<a class="navlink" id="challenges-link" href="#/challenges">${W.UI.players.challenges(offers.incoming.length)}</a>` : nothing), -1);

// ---- rematch: the end screen ------------------------------------------------------

function rematchOf(id) { return offers.rematch[id] || (offers.rematch[id] = { mine: false, theirs: null, closed: null }); }

on("rematch_offer", (m) => { Object.assign(rematchOf(m.match), { theirs: m.from, closed: null }); update(); });
on("rematch_closed", (m) => { Object.assign(rematchOf(m.match), { mine: false, theirs: null, closed: m.why }); update(); });

function askRematch(mm, yes = true) {
  const r = rematchOf(mm.id);
  request({ t: "rematch", match: mm.id, accept: yes }).then((m) => {
    if (m.t === "error") { flash(errorWords(m), "error"); return; }
    if (m.offered !== undefined) { r.mine = m.offered; if (!yes) r.theirs = null; r.closed = null; }
    update();
  }).catch(() => flash(W.UI.home.notConnected, "error"));
}

const NOT_PLAYED = ["cancelled", "expired", "no_show_both"];

addToSlot("end-actions", (mm) => {
  if (!mm || !mm.over || mm.seat === null || mm.seat === undefined) return nothing;
  const players = (mm.prompt && mm.prompt.players) || [];
  const reason = mm.over.result && mm.over.result.reason;
  if (players.length !== 2 || players.some((p) => !p || p.bot) || NOT_PLAYED.includes(reason)) return nothing;
  const R = W.UI.rematch;
  const opp = players[1 - mm.seat].name;
  const r = rematchOf(mm.id);
  if (r.theirs && !r.mine) {
    return html`<div class="rematch" role="group" aria-label=${R.ask}><p role="status">${R.offered(opp)}</p>
      <button class="btn primary" type="button" id="rematch-accept" @click=${() => askRematch(mm)}>${R.accept}</button>
      <button class="btn" type="button" id="rematch-decline" @click=${() => askRematch(mm, false)}>${R.decline}</button></div>`;
  }
  if (r.mine) {
    return html`<div class="rematch"><p role="status" id="rematch-status">${R.waiting(opp)}</p>
      <button class="btn" type="button" id="rematch-cancel" @click=${() => askRematch(mm, false)}>${R.takeBack}</button></div>`;
  }
  return html`${r.closed ? html`<p role="status">${R.closed[r.closed] || ""}</p>` : nothing}
    <button class="btn" type="button" id="rematch" ?disabled=${!online()} @click=${() => askRematch(mm)}>${R.ask}</button>`;
});
