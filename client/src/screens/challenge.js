// #/challenge/<name>: challenge a player with chosen settings (board, mode, both teams,
// rated or not); then wait for their answer.  #/challenges: the open challenges, to you
// and from you.  The offers and notices are challenges.js.
import { html, nothing } from "lit-html";
import { update, request, flash, errorWords, online, on, go } from "../app.js";
import { addScreen, currentScreen, route } from "../router.js";
import { challenge, challengeItem, challengeLists, offers } from "../challenges.js";
import { config } from "./home.js";
import { W } from "../words.js";

const MODES = ["training", "standard", "advanced"];
const TEAMS = ["training", "fire-demons", "cyborgs", "telekinetics", "oozes"];
const state = { name: null, who: null, error: null, cfg: null, rated: false, sending: false };

function load(r) {
  if (r.what !== "challenge" || !r.arg) return;
  if (state.name !== r.arg) Object.assign(state, { name: r.arg, who: null, error: null, cfg: config(), rated: false });
  request({ t: "profile", name: r.arg }).then((m) => {
    if (state.name !== r.arg) return;
    if (m.t === "error") state.error = m.code === "not_found" ? W.UI.profile.notFound : errorWords(m);
    else state.who = { player: m.player, name: m.name, me: m.me };
    update();
  }).catch(() => {});
}

async function send() {
  state.sending = true;
  update();
  try {
    const m = await challenge(state.who, state.cfg, state.rated);
    if (m.t === "error") flash(errorWords(m), "error");
  } catch (e) { flash(W.UI.home.notConnected, "error"); }
  state.sending = false;
  update();
}

function choice(label, id, list, current, words, set) {
  return html`<label class="team-pick" for=${id}>${label}</label>
    <select id=${id} @change=${(e) => { set(e.target.value); update(); }}>
      ${list.map((v) => html`<option value=${v} ?selected=${String(v) === String(current)}>${words(v)}</option>`)}
    </select>`;
}

function form() {
  const C = W.UI.challenge;
  const cfg = state.cfg;
  const set = (k, i) => (v) => { if (i === undefined) cfg[k] = k === "board" ? Number(v) : v; else { cfg.teams = [...cfg.teams]; cfg.teams[i] = v; } };
  const open = offers.outgoing.find((c) => c.to.player === state.who.player);
  if (open) return html`<ul class="offers">${challengeItem(open, false)}</ul>`;
  return html`<form class="challenge-form" id="challenge-form" @submit=${(e) => { e.preventDefault(); send(); }}>
    ${choice(C.board, "ch-board", [7, 9], cfg.board, (n) => W.UI.home.spaces(n), set("board"))}
    ${choice(C.mode, "ch-mode", MODES, cfg.mode, (m) => W.MODES[m], set("mode"))}
    <p class="hint">${W.MODE_HINTS[cfg.mode]}</p>
    ${choice(C.yourTeam, "ch-mine", TEAMS, cfg.teams[0], (t) => W.TEAMS[t], set("teams", 0))}
    ${choice(C.theirTeam, "ch-theirs", TEAMS, cfg.teams[1], (t) => W.TEAMS[t], set("teams", 1))}
    <label class="check"><input type="checkbox" id="ch-rated" .checked=${state.rated} @change=${(e) => { state.rated = e.target.checked; }}> ${C.rated}</label>
    <button class="btn primary" type="submit" id="send-challenge" ?disabled=${!online() || state.sending}>${state.sending ? C.sending : C.send}</button>
  </form>`;
}

function view(r) {
  const C = W.UI.challenge;
  if (r.what === "challenges" || !r.arg) {
    const lists = challengeLists();
    return html`<section class="challenges" id="challenges"><h2>${C.title}</h2>
      ${lists === nothing ? html`<p>${C.none}</p>` : lists}
      <p class="hint">${C.pick}</p>
      <p><a href="#/leaderboard">${W.UI.players.menuLeaders}</a> · <a href="#/profile">${W.UI.players.menuProfile}</a></p></section>`;
  }
  if (state.error) return html`<section class="card-screen"><h2>${C.title}</h2><p class="problem" role="alert">${state.error}</p></section>`;
  if (!state.who) return html`<section class="card-screen"><h2>${C.title}</h2><p>${W.UI.loading}</p></section>`;
  if (state.who.me) { go("#/profile"); return nothing; }
  return html`<section class="card-screen" id="challenge"><h2>${C.titleTo(state.who.name)}</h2>${form()}</section>`;
}

addScreen({
  id: "challenge",
  paths: ["challenge", "challenges"],
  title: () => W.UI.challenge.title,
  enter: (r) => load(r),
  view,
});

on("welcome", () => { const s = currentScreen(); if (s && s.id === "challenge") load(route()); });
