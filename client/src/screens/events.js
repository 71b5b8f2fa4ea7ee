// #/events: the server's events; #/events/new: an organiser creates one.  Also the
// "Events" link in the top bar and, in the lobby, "your match is ready".
import { html, nothing } from "lit-html";
import { update, go, online } from "../app.js";
import { addScreen } from "../router.js";
import { addToSlot } from "../slots.js";
import { W } from "../words.js";
import { E, loadList, command, busy, readyMatches, openMatch, canNotify, askNotify } from "../events.js";

const FORMATS = ["swiss", "round_robin", "double_round_robin", "knockout"];
const TIEBREAKS = ["buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter", "wins", "goal_difference", "goals_for", "performance"];
const DEFAULT_TB = {
  swiss: ["buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter"],
  round_robin: ["direct_encounter", "sonneborn_berger", "wins", "goal_difference"],
  double_round_robin: ["direct_encounter", "sonneborn_berger", "wins", "goal_difference"],
  knockout: [],
};
const TEAMS = ["own", "fire-demons", "cyborgs", "telekinetics", "oozes"];

function freshForm() {
  return {
    name: "", format: "swiss", rounds: 5, mode: "standard", board: 7, teams: "own", preset: "chess",
    shootout_win: "1", shootout_loss: "0", tiebreaks: [...DEFAULT_TB.swiss], rated: false, start_at: "",
    entry_cap: "", open_entry: true, check_in: false, late_entry_until: "", late_byes: "half",
    self_withdraw: true, no_show_minutes: 10, round_minutes: "", decision: 30, bank_minutes: 5,
    third_place: false, annul_withdrawn: false, no_show_pauses: false,
  };
}
let form = freshForm();
let editing = null; // {id, started, base: the settings as the server has them}

// The form filled from an event's settings, to edit them.
function formFrom(s) {
  const f = freshForm();
  const football = Number(s.scoring.win) === 3;
  Object.assign(f, {
    name: s.name, format: s.format, rounds: s.rounds, mode: s.match.mode, board: s.match.board,
    teams: s.match.teams, preset: football ? "football" : "chess", shootout_win: s.scoring.shootout_win,
    shootout_loss: s.scoring.shootout_loss, tiebreaks: [...s.tiebreaks], rated: s.rated,
    entry_cap: s.entry_cap ?? "", open_entry: s.open_entry, check_in: s.check_in,
    late_entry_until: s.late_entry_until ?? "", late_byes: s.late_byes, self_withdraw: s.self_withdraw,
    no_show_minutes: s.no_show_minutes ?? "", round_minutes: s.round_minutes ?? "",
    decision: s.match.decision, bank_minutes: s.match.bank / 60, third_place: !!s.third_place,
    annul_withdrawn: !!s.annul_withdrawn, no_show_pauses: !!s.no_show_pauses,
    start_at: s.start_at ? new Date(s.start_at * 1000 - new Date().getTimezoneOffset() * 60000).toISOString().slice(0, 16) : "",
  });
  return f;
}

// What an edit sends: the fields that differ from the event's settings (once round 1
// is paired, only those the server still lets change).
const EDITABLE_AFTER_START = ["name", "tiebreaks", "start_at", "entry_cap", "late_entry_until", "late_byes",
  "open_entry", "self_withdraw", "no_show_minutes", "round_minutes", "rounds", "no_show_pauses"];
function changes(next, base, started) {
  const out = {};
  for (const [k, v] of Object.entries(next)) {
    if (started && !EDITABLE_AFTER_START.includes(k)) continue;
    if (JSON.stringify(v) !== JSON.stringify(base[k])) out[k] = v;
  }
  for (const k of ["start_at", "entry_cap", "late_entry_until", "round_minutes"]) {
    if (base[k] !== null && base[k] !== undefined && !(k in next) && (!started || EDITABLE_AFTER_START.includes(k))) out[k] = null;
  }
  return out;
}

export function settingsOf(f) {
  const s = {
    name: f.name.trim(), format: f.format,
    match: { mode: f.mode, board: Number(f.board), teams: f.teams, decision: Number(f.decision) || 30,
      bank: Math.round((Number(f.bank_minutes) || 0) * 60) },
    tiebreaks: f.tiebreaks, rated: f.rated, open_entry: f.open_entry, check_in: f.check_in,
    late_byes: f.late_byes, self_withdraw: f.self_withdraw, no_show_pauses: !!f.no_show_pauses, no_show_minutes: f.no_show_minutes === "" && f.round_minutes ? null : Number(f.no_show_minutes) || 10,
  };
  if (f.format === "swiss") s.rounds = Number(f.rounds) || 5;
  if (f.format === "knockout") s.third_place = !!f.third_place;
  if (f.format.endsWith("round_robin")) s.annul_withdrawn = !!f.annul_withdrawn;
  const win = f.preset === "football" ? 3 : 1;
  s.scoring = f.preset === "football"
    ? { win: "3", draw: "1", loss: "0", bye: "3", shootout_win: String(f.shootout_win), shootout_loss: String(f.shootout_loss), forfeit_loss: "0" }
    : { win: "1", draw: "0.5", loss: "0", bye: "1", shootout_win: String(f.shootout_win), shootout_loss: String(f.shootout_loss), forfeit_loss: "0" };
  if (Number(f.shootout_win) > win) s.scoring.shootout_win = String(win);
  if (f.start_at) s.start_at = Math.floor(new Date(f.start_at).getTime() / 1000);
  if (f.entry_cap) s.entry_cap = Number(f.entry_cap);
  if (f.late_entry_until) s.late_entry_until = Number(f.late_entry_until);
  if (f.round_minutes) s.round_minutes = Number(f.round_minutes);
  return s;
}

const set = (k) => (e) => {
  const t = e.target;
  form[k] = t.type === "checkbox" ? t.checked : t.value;
  if (k === "format") form.tiebreaks = [...DEFAULT_TB[form.format]];
  update();
};

function field(label, id, control) {
  return html`<label class="field" for=${id}><span>${label}</span>${control}</label>`;
}

function check(label, id, key) {
  return html`<label class="check" for=${id}><input type="checkbox" id=${id} .checked=${form[key]} @change=${set(key)}> ${label}</label>`;
}

export function tiebreakPicker(list, onChange) {
  const T = W.UI.events;
  const chosen = list;
  const rest = TIEBREAKS.filter((t) => !chosen.includes(t));
  return html`<ol class="tb-order">${chosen.map((t, i) => html`<li>
      <span>${T.tiebreakNames[t]}</span>
      <button class="btn small" type="button" aria-label=${`${T.up}: ${T.tiebreakNames[t]}`} ?disabled=${i === 0}
        @click=${() => { const l = [...chosen]; [l[i - 1], l[i]] = [l[i], l[i - 1]]; onChange(l); }}>↑</button>
      <button class="btn small" type="button" aria-label=${`✕ ${T.tiebreakNames[t]}`}
        @click=${() => onChange(chosen.filter((x) => x !== t))}>✕</button></li>`)}</ol>
    <div class="row">${rest.map((t) => html`<button class="btn small" type="button" data-tb=${t}
      @click=${() => onChange([...chosen, t])}>+ ${T.tiebreakNames[t]}</button>`)}</div>`;
}

function newEventView() {
  const T = W.UI.events;
  if (!E.organiser) return html`<section class="card-screen"><h2>${T.createTitle}</h2><p>${T.onlyOrganisers}</p></section>`;
  const f = form;
  const fixed = !!(editing && editing.started); // the game's settings no longer change
  return html`<section class="event-form">
    <h2>${editing ? T.editTitle : T.createTitle}</h2>
    ${fixed ? html`<p class="hint">${T.fixedAfterStart}</p>` : nothing}
    <fieldset class="plain">
    ${field(T.eventName, "ev-name", html`<input id="ev-name" maxlength="60" .value=${f.name} @input=${set("name")}>`)}
    </fieldset>
    <fieldset class="plain" ?disabled=${fixed}>
    <h3>${T.format}</h3>
    <div class="seg" role="radiogroup" aria-label=${T.format}>${FORMATS.map((x) => html`<button type="button" role="radio"
      class="btn${f.format === x ? " on" : ""}" aria-checked=${f.format === x ? "true" : "false"} data-format=${x}
      @click=${() => { form.format = x; form.tiebreaks = [...DEFAULT_TB[x]]; update(); }}>${T.formats[x]}</button>`)}</div>
    <h3>${T.match}</h3>
    <div class="row">
      ${field(W.UI.home.mode, "ev-mode", html`<select id="ev-mode" @change=${set("mode")}>${["training", "standard", "advanced"].map((m) => html`<option value=${m} ?selected=${f.mode === m}>${W.MODES[m]}</option>`)}</select>`)}
      ${field(W.UI.home.board, "ev-board", html`<select id="ev-board" @change=${(e) => { form.board = Number(e.target.value); update(); }}>${[7, 9].map((n) => html`<option value=${n} ?selected=${f.board === n}>${W.UI.home.spaces(n)}</option>`)}</select>`)}
      ${field(T.teams, "ev-teams", html`<select id="ev-teams" @change=${set("teams")}>${TEAMS.map((t) => html`<option value=${t} ?selected=${f.teams === t}>${t === "own" ? T.ownTeams : W.TEAMS[t]}</option>`)}</select>`)}
    </div>
    <h3>${T.scoring}</h3>
    <div class="seg" role="radiogroup" aria-label=${T.scoring}>${["chess", "football"].map((p) => html`<button type="button" role="radio"
      class="btn${f.preset === p ? " on" : ""}" aria-checked=${f.preset === p ? "true" : "false"}
      @click=${() => { form.preset = p; form.shootout_win = p === "football" ? "2" : "1"; form.shootout_loss = p === "football" ? "1" : "0"; update(); }}>${T.scoringPresets[p]}</button>`)}</div>
    <div class="row">
      ${field(T.shootoutWin, "ev-sow", html`<input id="ev-sow" inputmode="decimal" .value=${f.shootout_win} @input=${set("shootout_win")}>`)}
      ${field(T.shootoutLoss, "ev-sol", html`<input id="ev-sol" inputmode="decimal" .value=${f.shootout_loss} @input=${set("shootout_loss")}>`)}
    </div>
    <div class="row">
      ${field(T.decision, "ev-decision", html`<input id="ev-decision" type="number" min="5" max="3600" inputmode="numeric" .value=${String(f.decision)} @input=${set("decision")}>`)}
      ${field(T.bank, "ev-bank", html`<input id="ev-bank" type="number" min="0" max="600" inputmode="numeric" .value=${String(f.bank_minutes)} @input=${set("bank_minutes")}>`)}
    </div>
    ${check(T.rated, "ev-rated", "rated")}
    ${check(T.checkInNeeded, "ev-checkin", "check_in")}
    </fieldset>
    ${f.format === "knockout" ? check(T.thirdPlaceMatch, "ev-third", "third_place") : nothing}
    ${f.format.endsWith("round_robin") ? check(T.annulWithdrawn, "ev-annul", "annul_withdrawn") : nothing}
    ${f.format === "swiss" ? field(T.rounds, "ev-rounds", html`<input id="ev-rounds" type="number" min="1" max="30" inputmode="numeric" .value=${String(f.rounds)} @input=${set("rounds")}>`) : nothing}
    <h3>${T.tiebreaks}</h3>
    ${tiebreakPicker(f.tiebreaks, (l) => { form.tiebreaks = l; update(); })}
    <h3>${T.entriesTitle}</h3>
    ${check(T.openEntry, "ev-open", "open_entry")}
    ${check(T.selfWithdraw, "ev-selfwd", "self_withdraw")}
    ${field(T.entryCap, "ev-cap", html`<input id="ev-cap" type="number" min="2" inputmode="numeric" .value=${f.entry_cap} @input=${set("entry_cap")}>`)}
    ${f.format === "swiss" ? html`
      ${field(T.lateUntil, "ev-late", html`<input id="ev-late" type="number" min="1" inputmode="numeric" placeholder=${String(Math.max(1, Math.floor(Number(f.rounds) / 2)))} .value=${f.late_entry_until} @input=${set("late_entry_until")}>`)}
      ${field(T.lateByes, "ev-latebyes", html`<select id="ev-latebyes" @change=${set("late_byes")}><option value="half" ?selected=${f.late_byes === "half"}>${T.half}</option><option value="zero" ?selected=${f.late_byes === "zero"}>${T.zero}</option></select>`)}` : nothing}
    ${field(T.startAt, "ev-start", html`<input id="ev-start" type="datetime-local" .value=${f.start_at} @input=${set("start_at")}>`)}
    ${field(T.noShow, "ev-noshow", html`<input id="ev-noshow" type="number" min="1" max="240" inputmode="numeric" .value=${String(f.no_show_minutes)} @input=${set("no_show_minutes")}>`)}
    ${check(T.noShowPauses, "ev-noshowpause", "no_show_pauses")}
    ${field(T.roundMinutes, "ev-deadline", html`<input id="ev-deadline" type="number" min="5" inputmode="numeric" .value=${f.round_minutes} @input=${set("round_minutes")}>`)}
    <div class="sticky-actions">
      ${editing ? html`<button class="btn primary wide" type="button" id="ev-save" ?disabled=${!online() || !f.name.trim() || busy("edit")}
        @click=${async () => {
          const diff = changes(settingsOf(form), editing.base, editing.started);
          const id = editing.id;
          if (Object.keys(diff).length && !(await command(id, "edit", { settings: diff }))) return;
          editing = null;
          form = freshForm();
          go(`#/e/${id}/run`);
        }}>${T.save}</button>`
      : html`<button class="btn primary wide" type="button" id="ev-create" ?disabled=${!online() || !f.name.trim() || busy("create")}
        @click=${async () => {
          const reply = await command(null, "create", { settings: settingsOf(form) });
          if (reply) { form = freshForm(); go(`#/e/${reply.tournament}`); }
        }}>${T.create}</button>`}
    </div>
  </section>`;
}

function listView() {
  const T = W.UI.events;
  return html`<section class="events">
    <h2>${T.title}</h2>
    ${E.organiser ? html`<button class="btn primary" type="button" id="ev-new" @click=${() => go("#/events/new")}>${T.newEvent}</button>` : nothing}
    ${E.list === null ? html`<p>${W.UI.loading}</p>` : E.list.length === 0 ? html`<p class="muted">${T.none}</p>` : html`
      <ul class="ev-list">${E.list.map((e) => html`<li><a class="card ev-card" href=${`#/e/${e.tournament}`} data-event=${e.tournament}>
        <b>${e.name}</b><span>${T.formats[e.format]} · ${T.status[e.status]}</span><small>${T.summary(e)}</small></a></li>`)}</ul>`}
  </section>`;
}

addScreen({
  id: "events",
  paths: ["events"],
  title: (r) => (r.arg === "new" ? W.UI.events.createTitle : r.arg === "edit" ? W.UI.events.editTitle : W.UI.events.title),
  enter: (r) => {
    loadList();
    if (r.arg === "new" && editing) { editing = null; form = freshForm(); }
    if (r.arg === "edit") {
      const v = E.views.get(r.rest[1]);
      if (v && v.settings) {
        editing = { id: r.rest[1], started: v.rounds.length > 0, base: v.settings };
        form = formFrom(v.settings);
      }
    }
  },
  view: (r) => (r.arg === "new" || (r.arg === "edit" && editing) ? newEventView() : listView()),
});

addToSlot("menu", () => html`<a class="navlink" id="nav-events" href="#/events">${W.UI.events.menu}</a>`, 5);

// The lobby: a tournament match made for you that you have not opened yet.
addToSlot("lobby", () => {
  const ready = readyMatches();
  if (!ready.length) return null;
  const T = W.UI.events;
  return html`<div class="ready" role="status">${ready.map((m) => html`<div class="panel ready-card">
      <h3>${T.ready}</h3><p>${m.tournament.name ? html`<b>${m.tournament.name}</b> · ` : nothing}${T.readyLine(m)}</p>
      <button class="btn primary" type="button" data-ready=${m.match} @click=${() => openMatch(m)}>${T.play}</button>
    </div>`)}
    ${canNotify() ? html`<button class="btn small" type="button" @click=${askNotify}>${T.notifyOn}</button>` : nothing}</div>`;
}, -10);
