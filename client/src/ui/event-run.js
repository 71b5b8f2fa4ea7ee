// The organiser's tools on the event page ("Run"), and the board list every page
// shares: pair and start rounds, edit a draft (tap two players to swap), watch the live
// boards, decide a board, re-pair no-shows, the roster with entry links and check-in,
// withdraw or bring back a player, close the event.  Thumb-sized controls, one column.
import { html, nothing } from "lit-html";
import { update, flash, online } from "../app.js";
import { W } from "../words.js";
import { command, busy, nameOf, exportsOf, joinLink } from "../events.js";

const pick = { round: null, pid: null }; // draft editing: the first player tapped
const repair = { round: null, boards: new Set(), chosen: [] };
let decideOpen = null; // "round/board" whose decision buttons are open

function resultWords(b) {
  const T = W.UI.events;
  const r = b.result;
  if (!r) return null;
  if (r.kind === "forfeit") return T.result[{ home: "+/-", away: "-/+" }[r.winner] || "-/-"];
  const base = r.winner === "home" ? T.result["1-0"] : r.winner === "away" ? T.result["0-1"] : T.result["1/2-1/2"];
  const goals = r.goals ? ` ${r.goals[0]}–${r.goals[1]}` : "";
  return `${base}${goals}${r.shootout ? `, ${T.shootout}` : ""}${r.kind === "adjudicated" ? ` (${T.adjudicated})` : ""}`;
}

function liveWords(b) {
  const T = W.UI.events;
  const l = b.live;
  if (!l) return "";
  if (l.status === "waiting") return T.live.waiting(l.seated[0], l.seated[1]);
  return l.status === "playing" ? T.live.playing(l.score) : T.live.over;
}

// A draft's player as a button: tap one, tap another, they swap places.
function draftName(v, id, rnd, pid) {
  const picked = pick.round === rnd.round && pick.pid === pid;
  return html`<button class="btn small name${picked ? " on" : ""}" type="button" data-swap=${pid}
    aria-pressed=${picked ? "true" : "false"} @click=${async () => {
      if (pick.round !== rnd.round || pick.pid === null) { pick.round = rnd.round; pick.pid = pid; update(); return; }
      if (pick.pid === pid) { pick.pid = null; update(); return; }
      const a = pick.pid;
      pick.pid = null;
      await command(id, "swap", { round: rnd.round, a, b: pid });
    }}>${nameOf(v, pid)}</button>`;
}

function repairName(v, pid) {
  const i = repair.chosen.indexOf(pid);
  return html`<button class="btn small name${i >= 0 ? " on" : ""}" type="button" data-repair-pick=${pid}
    @click=${() => { if (i >= 0) repair.chosen.splice(i, 1); else repair.chosen.push(pid); update(); }}>
    ${i >= 0 ? `${i + 1}. ` : ""}${nameOf(v, pid)}</button>`;
}

function decideButtons(id, rnd, b) {
  const T = W.UI.events;
  const send = (result) => { decideOpen = null; command(id, "adjudicate", { round: rnd.round, board: b.board, result }); };
  const absent = (who) => { decideOpen = null; command(id, "forfeit", { round: rnd.round, board: b.board, absent: who }); };
  return html`<div class="grid decide" data-decide=${b.board}>
    <button class="btn small" type="button" @click=${() => send({ winner: "home" })}>${T.homeWins}</button>
    <button class="btn small" type="button" @click=${() => send({ winner: "away" })}>${T.awayWins}</button>
    <button class="btn small" type="button" @click=${() => send({ winner: null })}>${T.draw}</button>
    ${b.result ? nothing : html`
      <button class="btn small" type="button" @click=${() => absent("home")}>${T.homeAbsent}</button>
      <button class="btn small" type="button" @click=${() => absent("away")}>${T.awayAbsent}</button>
      <button class="btn small" type="button" @click=${() => absent("both")}>${T.bothAbsent}</button>`}
  </div>`;
}

// The boards of one round; with ``manage``, the organiser's controls on each.
export function roundBoards(v, id, rnd, manage) {
  const T = W.UI.events;
  const latest = rnd.round === v.rounds.length;
  const draft = rnd.status === "draft";
  const swiss = v.settings.format === "swiss";
  const editing = manage && draft && swiss;
  const repairing = manage && repair.round === rnd.round;
  const deadline = v.settings.round_minutes && rnd.started_at
    ? rnd.started_at + v.settings.round_minutes * 60 : null;
  const overdue = deadline && rnd.status === "live" && Date.now() / 1000 > deadline;
  return html`
    ${draft ? html`<p class="status">${T.draft}</p>` : nothing}
    ${editing ? html`<p class="hint">${pick.pid && pick.round === rnd.round ? T.picked(nameOf(v, pick.pid)) : T.swapHint}</p>` : nothing}
    ${overdue ? html`<p class="status warn">${T.overdue}</p>` : nothing}
    <ol class="boards">${rnd.boards.map((b) => {
      const mine = v.you && (b.home === v.you || b.away === v.you);
      const key = `${rnd.round}/${b.board}`;
      const unplayed = !b.result || b.result.kind === "forfeit";
      return html`<li class=${`board-row${mine ? " me" : ""}`} data-board=${b.board}>
        <span class="bno">${b.board}</span>
        <span class="pair">
          ${repairing && repair.boards.has(b.board) ? html`${repairName(v, b.home)} ${repairName(v, b.away)}`
            : editing ? html`${draftName(v, id, rnd, b.home)} <span class="vs">${T.vs}</span> ${draftName(v, id, rnd, b.away)}`
            : html`<b>${nameOf(v, b.home)}</b> <span class="vs">${T.vs}</span> <b>${nameOf(v, b.away)}</b>`}
          <small class="res">${rnd.third_place === b.board ? `${T.thirdPlace} · ` : ""}${resultWords(b) || liveWords(b)}${mine ? ` · ${T.yourBoard}` : ""}</small>
        </span>
        ${editing ? html`<button class="btn small" type="button" aria-label=${`${T.flip} ${b.board}`} data-flip=${b.board}
          @click=${() => command(id, "flip", { round: rnd.round, board: b.board })}>${T.flip}</button>` : nothing}
        ${manage && !draft && latest && !repairing ? html`<button class="btn small" type="button" data-open-decide=${b.board}
          aria-expanded=${decideOpen === key ? "true" : "false"}
          @click=${() => { decideOpen = decideOpen === key ? null : key; update(); }}>${T.decide}</button>` : nothing}
        ${repairing && unplayed && swiss ? html`<label class="check"><input type="checkbox" .checked=${repair.boards.has(b.board)}
          @change=${(e) => { if (e.target.checked) repair.boards.add(b.board); else repair.boards.delete(b.board); update(); }}> ✓</label>` : nothing}
        ${decideOpen === key && manage ? decideButtons(id, rnd, b) : nothing}
      </li>`;
    })}</ol>
    ${rnd.byes.length ? html`<ul class="byes">${rnd.byes.map((x) => html`<li data-bye=${x.pid}>
      ${editing && x.kind === "pab" ? draftName(v, id, rnd, x.pid) : html`<b>${nameOf(v, x.pid)}</b>`}: ${T.bye[x.kind]}</li>`)}</ul>` : nothing}`;
}

// What a withdrawal or pause did to the round in hand (the reply says), in words.
function leftWords(reply, name) {
  const T = W.UI.events;
  if (!reply) return;
  const said = [];
  if (reply.repaired) said.push(T.leftRepaired(name, reply.repaired));
  for (const f of reply.forfeited || []) said.push(T.leftForfeited(name, f.round, f.board));
  if (said.length) flash(said.join(" "));
}

function rosterPanel(v, id) {
  const T = W.UI.events;
  const ex = exportsOf(id);
  const registration = v.status === "registration";
  return html`<h3>${T.tabs.players}</h3>
    <form class="row add-line" @submit=${async (e) => {
      e.preventDefault();
      const f = e.target;
      const name = f.elements.name.value.trim();
      const rating = Number(f.elements.rating.value) || null;
      if (!name) return;
      const reply = await command(id, "add_entry", { name, rating });
      if (reply) f.reset();
    }}>
      <input name="name" placeholder=${T.addName} aria-label=${T.addName} maxlength="24">
      <input name="rating" placeholder=${T.addRating} aria-label=${T.addRating} inputmode="numeric" style="max-width:8em">
      <button class="btn" type="submit" ?disabled=${!online()}>${T.add}</button>
    </form>
    <a class="btn" href=${ex.sheet} target="_blank" rel="noopener" id="ev-sheet">${T.sheet}</a>
    <ul class="plist">${v.entries.map((e) => html`<li data-pid=${e.pid}>
      <span class="num">${e.number || "–"}</span>
      <span class="who"><b>${e.name}</b><small>${T.statuses[e.status]}${e.annulled ? ` · ${T.annulled}` : ""}${e.claimed ? "" : ` · ${T.unclaimed}`}${registration && e.checked_in ? ` · ${T.checkedIn}` : ""}</small>
        ${e.token ? html`<small class="small">${T.entryLink}: <button class="link" type="button"
          @click=${() => navigator.clipboard.writeText(joinLink(id, e.token)).then(() => flash(T.copied))}>${joinLink(id, e.token)}</button></small>` : nothing}</span>
      <span class="acts">
        ${registration && !e.checked_in && e.status !== "withdrawn" ? html`<button class="btn small" type="button" data-checkin=${e.pid}
          @click=${() => command(id, "check_in", { pid: e.pid }, `p${e.pid}`)}>${T.checkInPlayer}</button>` : nothing}
        ${e.status === "active" ? html`<button class="btn small" type="button" data-pause=${e.pid}
          @click=${() => command(id, "pause", { pid: e.pid }).then((r) => leftWords(r, e.name))}>${T.pausePlayer}</button>` : html`<button class="btn small" type="button"
          data-resume=${e.pid} @click=${() => command(id, "resume", { pid: e.pid })}>${T.resumePlayer}</button>`}
        ${e.status !== "withdrawn" ? html`<button class="btn small" type="button" data-withdraw=${e.pid}
          @click=${() => { if (confirm(`${T.withdrawPlayer}: ${e.name}?`)) command(id, "withdraw", { pid: e.pid }).then((r) => leftWords(r, e.name)); }}>${T.withdrawPlayer}</button>` : nothing}
      </span></li>`)}</ul>`;
}

function forbiddenPanel(v, id) {
  const T = W.UI.events;
  if (v.settings.format !== "swiss" || v.status === "finished") return nothing;
  const people = v.entries.filter((e) => e.status !== "withdrawn");
  return html`<h3>${T.forbiddenPairs}</h3>
    <ul class="byes">${v.forbidden.map(([a, b]) => html`<li>${nameOf(v, a)} – ${nameOf(v, b)}
      <button class="btn small" type="button" @click=${() => command(id, "allow", { a, b })}>${T.allow}</button></li>`)}</ul>
    <form class="row" @submit=${(e) => {
      e.preventDefault();
      const a = Number(e.target.elements.a.value);
      const b = Number(e.target.elements.b.value);
      if (a && b && a !== b) command(id, "forbid", { a, b });
    }}>
      <select name="a" aria-label=${T.forbid}>${people.map((x) => html`<option value=${x.pid}>${x.name}</option>`)}</select>
      <select name="b" aria-label=${T.forbidWith}>${people.map((x, i) => html`<option value=${x.pid} ?selected=${i === 1}>${x.name}</option>`)}</select>
      <button class="btn" type="submit">${T.forbid}</button>
    </form>`;
}

export function runView(v, id, r) {
  const T = W.UI.events;
  const cur = v.rounds[v.rounds.length - 1];
  const next = v.rounds.length + 1;
  const canPair = v.status !== "finished" && next <= v.total_rounds && (!cur || cur.status === "done");
  const open = cur && cur.status === "live" ? cur.boards.filter((b) => !b.result).length : 0;
  return html`
    ${v.pairing ? html`<p class="status" role="status">${T.pairing}</p>` : nothing}
    <div class="sticky-actions">
      ${canPair ? html`<button class="btn primary wide" type="button" id="ev-pair" ?disabled=${!online() || busy(`pair:r${next}`) || v.pairing}
        @click=${() => command(id, "pair", { round: next }, `r${next}`)}>${T.pair(next)}</button>` : nothing}
      ${cur && cur.status === "draft" ? html`<button class="btn primary wide" type="button" id="ev-start" ?disabled=${!online() || busy(`start:r${cur.round}`)}
        @click=${() => command(id, "start", { round: cur.round }, `r${cur.round}`)}>${T.start(cur.round)}</button>` : nothing}
    </div>
    ${cur ? html`<h3>${T.roundOf(cur.round, v.total_rounds)}${cur.status === "live" ? html` · <small>${T.boardsLive(open, cur.boards.length)}</small>` : nothing}</h3>
      ${roundBoards(v, id, cur, true)}
      ${cur.status === "live" && v.settings.format === "swiss" ? (repair.round === cur.round ? html`
        <p class="hint">${T.repairHint}</p>
        <div class="row"><button class="btn primary" type="button" id="ev-repair-go" ?disabled=${repair.chosen.length < 2 || repair.chosen.length % 2}
          @click=${async () => {
            const pairs = [];
            for (let i = 0; i + 1 < repair.chosen.length; i += 2) pairs.push([repair.chosen[i], repair.chosen[i + 1]]);
            const reply = await command(id, "repair", { round: cur.round, boards: [...repair.boards], pairs });
            if (reply) { repair.round = null; repair.boards.clear(); repair.chosen = []; }
          }}>${T.repairGo}</button>
          <button class="btn" type="button" @click=${() => { repair.round = null; repair.boards.clear(); repair.chosen = []; update(); }}>${W.UI.home.cancel}</button></div>`
        : html`<button class="btn" type="button" id="ev-repair" @click=${() => { repair.round = cur.round; update(); }}>${T.repair}</button>`) : nothing}` : nothing}
    ${rosterPanel(v, id)}
    ${forbiddenPanel(v, id)}
    <h3>${T.exports}</h3>
    <div class="row"><a class="btn" href=${`#/big/${id}`}>${T.big}</a>
      ${v.status !== "finished" ? html`<a class="btn" id="ev-edit" href=${`#/events/edit/${id}`}>${T.editSettings}</a>` : nothing}
      ${v.status !== "finished" ? html`<button class="btn" type="button" id="ev-close"
        @click=${() => { if (confirm(T.closeAsk)) command(id, "close"); }}>${T.close}</button>` : nothing}</div>`;
}

