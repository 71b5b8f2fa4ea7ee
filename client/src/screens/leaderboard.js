// #/leaderboard/<mode>: the best settled ratings of one mode among players who played a
// rated match in the last 90 days (the server decides who is listed).
import { html, nothing } from "lit-html";
import { update, request, errorWords, go, on } from "../app.js";
import { addScreen, currentScreen, route } from "../router.js";
import { profileLink } from "./profile.js";
import { W } from "../words.js";

const MODES = ["training", "standard", "advanced"];
const state = { mode: null, rows: null, error: null };

const modeOf = (r) => (MODES.includes(r.arg) ? r.arg : "standard");

function load(r) {
  const mode = modeOf(r);
  if (state.mode !== mode) Object.assign(state, { mode, rows: null, error: null });
  request({ t: "leaderboard", mode }).then((m) => {
    if (state.mode !== mode) return;
    if (m.t === "error") state.error = errorWords(m);
    else state.rows = m.players;
    update();
  }).catch(() => {});
}

function view(r) {
  const L = W.UI.leaderboard;
  const mode = modeOf(r);
  return html`<section class="leaderboard" id="leaderboard">
    <h2>${L.title}</h2>
    <div class="seg" role="radiogroup" aria-label=${L.mode}>${MODES.map((m) => html`
      <button class="btn${m === mode ? " on" : ""}" type="button" role="radio" aria-checked=${m === mode ? "true" : "false"}
        data-board-mode=${m} @click=${() => go(`#/leaderboard/${m}`)}>${W.MODES[m]}</button>`)}</div>
    <p class="hint">${L.why}</p>
    ${state.error ? html`<p class="problem" role="alert">${state.error}</p>` : nothing}
    ${!state.rows ? html`<p>${L.loading}</p>` : !state.rows.length ? html`<p id="leaders-empty">${L.empty}</p>` : html`
      <table class="leaders">
        <caption class="sr-only">${L.caption(W.MODES[mode])}</caption>
        <thead><tr><th scope="col">${L.rank}</th><th scope="col">${L.name}</th><th scope="col">${L.rating}</th><th scope="col">${L.record}</th></tr></thead>
        <tbody>${state.rows.map((p) => html`<tr data-player=${p.player}>
          <td>${p.rank}</td><td><a href=${profileLink(p.name)}>${p.name}</a></td><td>${Math.round(p.rating)}</td>
          <td>${p.wins} · ${p.draws} · ${p.losses}</td></tr>`)}</tbody>
      </table>`}
  </section>`;
}

addScreen({
  id: "leaderboard",
  paths: ["leaderboard"],
  title: () => W.UI.leaderboard.title,
  enter: (r) => load(r),
  view,
});

on("welcome", () => { const s = currentScreen(); if (s && s.id === "leaderboard") load(route()); });
