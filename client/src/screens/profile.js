// A player's profile: #/profile (yours) and #/player/<name> (anyone's).  Name, ratings
// per mode with their history, win/draw/loss counts, recent matches (with their replay
// and downloadable record on your own), a Challenge button; on your own also your
// recent opponents, your profile link, "use on another device" (a one-time link and its
// QR code), an optional password and "sign out everywhere".
import { html, nothing } from "lit-html";
import { LS, update, request, flash, errorWords, go, online, on } from "../app.js";
import { addScreen, currentScreen, route } from "../router.js";
import { addToSlot } from "../slots.js";
import { signOutHere } from "../identity.js";
import { W } from "../words.js";

const MODES = ["training", "standard", "advanced"];
const state = { key: null, data: null, error: null, transfer: null, busy: false };

function load(r) {
  const key = r.what === "player" && r.arg ? `name:${r.arg}` : "me";
  if (state.key !== key) Object.assign(state, { key, data: null, error: null, transfer: null });
  const msg = { t: "profile" };
  if (key !== "me") msg.name = r.arg;
  request(msg).then((m) => {
    if (state.key !== key) return;
    if (m.t === "error") state.error = m.code === "not_found" ? W.UI.profile.notFound : errorWords(m);
    else state.data = m;
    update();
  }).catch(() => {});
}

export const profileLink = (name) => `#/player/${encodeURIComponent(name)}`;

// A rating's history as a small line: the numbers are also said in words.
function spark(mode, points) {
  const P = W.UI.profile;
  if (points.length < 2) return nothing;
  const ys = points.map((p) => p[1]);
  const lo = Math.min(...ys) - 10;
  const hi = Math.max(...ys) + 10;
  const w = 300;
  const h = 60;
  const xy = points.map((p, i) => `${((i / (points.length - 1)) * (w - 8) + 4).toFixed(1)},${(h - 4 - ((p[1] - lo) / (hi - lo)) * (h - 8)).toFixed(1)}`).join(" ");
  const label = `${P.historyLabel(W.MODES[mode])}: ${P.historyText(Math.round(ys[0]), Math.round(ys[ys.length - 1]), ys.length)}`;
  return html`<svg class="spark" viewBox="0 0 ${w} ${h}" role="img" aria-label=${label} preserveAspectRatio="none">
    <polyline points=${xy} fill="none" stroke="currentColor" stroke-width="2"></polyline></svg>`;
}

function matchLine(e, mine) {
  const P = W.UI.profile;
  const X = W.UI.players;
  const opp = e.opponent ? (e.opponent.bot ? X.bot(e.opponent.name) : e.opponent.name) : "—";
  const oppLink = e.opponent && !e.opponent.bot && e.opponent.name
    ? html`<a href=${profileLink(e.opponent.name)}>${opp}</a>` : opp;
  const score = e.score ? X.score(e.score[0], e.score[1]) : null;
  const change = e.change !== null && e.change !== undefined ? ` ${X.change(e.change)}` : "";
  return html`<li class="match-line" data-match=${e.match}>
    <b>${X.result[e.result] || e.result}</b> ${P.against} ${oppLink}
    <span class="hint">· ${W.MODES[e.mode] || e.mode}, ${e.board} · ${score ? html`${score} · ` : nothing}${X.reason[e.reason] || e.reason}
      · ${e.rated ? P.rated : P.casual}${change} · ${X.date(e.at)}</span>
    ${mine ? html`<span class="links"><a href=${`#/m/${e.match}`}>${P.replay}</a>
      <a href=${e.record} download>${P.record}</a></span>` : nothing}
  </li>`;
}

function ratingsView(d) {
  const P = W.UI.profile;
  const X = W.UI.players;
  const modes = MODES.filter((m) => d.ratings[m]).concat(Object.keys(d.ratings).filter((m) => !MODES.includes(m)));
  const rated = modes.filter((m) => d.ratings[m].rated > 0);
  return html`<h3>${P.ratings}</h3>
    ${rated.length ? html`<ul class="ratings">${rated.map((m) => {
      const r = d.ratings[m];
      return html`<li data-mode=${m}>${P.ratingLine(W.MODES[m] || m, X.rating(r.rating, r.provisional), r.rated, r.wins, r.draws, r.losses)}
        ${spark(m, r.history)}</li>`;
    })}</ul><p class="hint">${X.provisionalNote}</p>` : html`<p>${P.noRating}</p>`}`;
}

async function makeTransfer() {
  state.busy = true;
  update();
  try {
    const m = await request({ t: "transfer", origin: location.origin });
    if (m.t === "error") flash(errorWords(m), "error");
    else state.transfer = m;
  } catch (e) { flash(W.UI.home.notConnected, "error"); }
  state.busy = false;
  update();
}

async function savePassword(e, remove) {
  e.preventDefault();
  const P = W.UI.profile;
  const form = e.target.closest("form");
  const msg = { t: "set_password" };
  const pw = form.querySelector("#new-password");
  const old = form.querySelector("#old-password");
  if (!remove) {
    if (!pw.value) return;
    msg.password = pw.value;
  }
  if (old && old.value) msg.old = old.value;
  try {
    const m = await request(msg);
    if (m.t === "error") { flash(errorWords(m), "error"); return; }
    state.data.has_password = m.has_password;
    flash(remove ? P.passwordRemoved : P.passwordSaved);
    form.reset();
    update();
  } catch (err) { flash(W.UI.home.notConnected, "error"); }
}

async function signOutEverywhere() {
  const P = W.UI.profile;
  if (!confirm(P.signoutAsk)) return;
  try {
    const m = await request({ t: "signout_everywhere" });
    if (m.t === "error") { flash(errorWords(m), "error"); return; }
    LS.set("token", m.token);
    fetch(`/session?ticket=${encodeURIComponent(m.cookie)}`, { credentials: "same-origin", cache: "no-store" }).catch(() => {});
    flash(P.signedOut);
  } catch (e) { flash(W.UI.home.notConnected, "error"); }
}

function ownView(d) {
  const P = W.UI.profile;
  const link = `${location.origin}/${profileLink(d.name)}`;
  const t = state.transfer;
  return html`
    ${d.opponents.length ? html`<h3>${P.opponents}</h3><ul class="opponents">${d.opponents.map((o) => html`<li>
      <a href=${profileLink(o.name)}>${o.name}</a>
      <button class="btn small" type="button" data-challenge-player=${o.name} @click=${() => go(`#/challenge/${encodeURIComponent(o.name)}`)}>${P.challenge}</button></li>`)}</ul>` : nothing}
    <h3>${P.share}</h3>
    <div class="row"><input id="profile-link" readonly .value=${link} aria-label=${P.share} @click=${(e) => e.target.select()}>
      <button class="btn" type="button" @click=${() => navigator.clipboard.writeText(link).then(() => flash(P.copied), () => {})}>${P.copy}</button></div>
    <h3>${P.device}</h3>
    <p class="hint">${P.deviceWhy}</p>
    ${t ? html`<input id="transfer-link" readonly .value=${t.link} aria-label=${P.device} @click=${(e) => e.target.select()}>
      <img id="transfer-qr" class="qr" src=${t.qr_uri} alt=${P.deviceQr} width="232" height="232">
      <p class="hint">${P.deviceUntil(t.expires)}</p>` : nothing}
    <button class="btn" type="button" id="make-transfer" ?disabled=${!online() || state.busy} @click=${makeTransfer}>${P.deviceMake}</button>
    <h3>${P.password}</h3>
    <p class="hint">${P.passwordWhy} ${d.has_password ? P.passwordSet : P.passwordNone}</p>
    <form class="password" @submit=${(e) => savePassword(e, false)}>
      <input type="text" name="username" autocomplete="username" .value=${d.name} hidden>
      ${d.has_password ? html`<label for="old-password">${P.passwordOld}</label>
        <input id="old-password" type="password" autocomplete="current-password" maxlength="256">` : nothing}
      <label for="new-password">${P.passwordNew}</label>
      <input id="new-password" type="password" autocomplete="new-password" minlength="8" maxlength="256">
      <div class="row"><button class="btn" type="submit" id="save-password">${P.passwordSave}</button>
        ${d.has_password ? html`<button class="btn" type="button" id="remove-password" @click=${(e) => savePassword(e, true)}>${P.passwordRemove}</button>` : nothing}</div>
    </form>
    <h3>${P.signout}</h3>
    <p class="hint">${P.signoutWhy}</p>
    <button class="btn" type="button" id="signout-everywhere" ?disabled=${!online()} @click=${signOutEverywhere}>${P.signout}</button>
    <h3>${P.signoutHere}</h3>
    <p class="hint">${d.has_password ? P.signoutHereWhy : P.signoutHereWarn}</p>
    <button class="btn" type="button" id="signout-here" @click=${() => { if (confirm(P.signoutHereAsk)) signOutHere(); }}>${P.signoutHere}</button>`;
}

function view(r) {
  const P = W.UI.profile;
  if (state.error) return html`<section class="card-screen"><h2>${P.title}</h2><p class="problem" role="alert">${state.error}</p></section>`;
  const d = state.data;
  if (!d) return html`<section class="card-screen"><h2>${P.title}</h2><p>${P.loading}</p></section>`;
  const mine = d.me;
  return html`<section class="profile" id="profile">
    <h2 id="profile-name">${d.name}</h2>
    <p class="hint">${mine ? P.mine : ""}${mine ? " · " : ""}${P.since(d.created)}</p>
    <p id="profile-totals">${P.totals(d.totals.wins, d.totals.draws, d.totals.losses)}</p>
    ${mine ? nothing : html`<button class="btn primary" type="button" id="challenge-player" ?disabled=${!online()}
      @click=${() => go(`#/challenge/${encodeURIComponent(d.name)}`)}>${P.challengeThem(d.name)}</button>`}
    ${ratingsView(d)}
    <h3>${P.recent}</h3>
    ${d.recent.length ? html`<ul class="matches" id="recent">${d.recent.map((e) => matchLine(e, mine))}</ul>` : html`<p>${P.none}</p>`}
    ${mine ? ownView(d) : nothing}
  </section>`;
}

addScreen({
  id: "profile",
  paths: ["profile", "player"],
  title: (r) => (state.data ? state.data.name : W.UI.profile.title),
  enter: (r) => load(r),
  view,
});

// Ask again once connected (the screen may open before the link is up, or after a drop).
on("welcome", () => { const s = currentScreen(); if (s && s.id === "profile") load(route()); });

// The way here: the lobby's links to the players' screens.  (The top bar stays for what
// needs the player now: their running match, a challenge waiting for an answer.)
addToSlot("lobby", () => html`<p class="players-links"><a id="to-profile" href="#/profile">${W.UI.players.menuProfile}</a> ·
  <a href="#/leaderboard">${W.UI.players.menuLeaders}</a> · <a href="#/challenges">${W.UI.challenge.title}</a></p>`, 5);
