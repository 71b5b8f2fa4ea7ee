// #/e/<id>[/<tab>]: one event: info, players, rounds and pairings, live standings;
// organisers also get the "Run" tab (ui/event-run.js).  #/e/<id>/p/<pid>: a player's
// score card.  The page watches the event, so it follows every change live.
import { html, nothing } from "lit-html";
import { go, online, flash } from "../app.js";
import { addScreen } from "../router.js";
import { W } from "../words.js";
import {
  E, watch, unwatch, command, busy, me, nameOf, exportsOf, joinLink, loadCard, readyMatches, openMatch,
} from "../events.js";
import { runView, roundBoards } from "../ui/event-run.js";

const TABS = ["info", "players", "rounds", "standings"];

function tabOf(r) {
  const t = r.rest[1];
  return TABS.includes(t) || t === "run" ? t : "standings";
}

function header(v) {
  const T = W.UI.events;
  const cur = v.rounds.length;
  return html`<header class="ev-head">
    <h2>${v.settings.name}</h2>
    <p class="muted">${T.formats[v.settings.format]} · ${T.status[v.status]}${cur ? html` · ${T.roundOf(cur, v.total_rounds)}` : nothing}</p>
  </header>`;
}

function tabs(v, id, current) {
  const T = W.UI.events;
  const list = v.organiser ? [...TABS, "run"] : TABS;
  return html`<nav class="seg tabs" aria-label=${v.settings.name}>${list.map((t) => html`<a
    class="btn${t === current ? " on" : ""}" aria-current=${t === current ? "page" : "false"} data-tab=${t}
    href=${`#/e/${id}/${t}`}>${T.tabs[t]}</a>`)}</nav>`;
}

function readyCard(id) {
  const T = W.UI.events;
  const mine = readyMatches().filter((m) => m.tournament.id === id);
  return mine.map((m) => html`<div class="panel ready-card" role="status"><h3>${T.ready}</h3>
    <p>${T.readyLine(m)}</p><button class="btn primary" type="button" data-ready=${m.match} @click=${() => openMatch(m)}>${T.play}</button></div>`);
}

function infoTab(v, id) {
  const T = W.UI.events;
  const s = v.settings;
  const mine = me(v);
  const next = v.rounds.length + 1;
  const ex = exportsOf(id);
  const link = joinLink(id);
  return html`
    ${mine ? html`<div class="panel"><p>${T.joined} ${mine.number ? T.joinedAs(mine.number) : nothing}
        (${T.statuses[mine.status]})</p>
      <div class="row">
        ${v.status === "registration" && s.check_in && !mine.checked_in ? html`<button class="btn primary" type="button" id="ev-checkin"
          @click=${() => command(id, "check_in", { pid: mine.pid }, "self")}>${T.checkIn}</button>` : nothing}
        ${mine.checked_in && v.status === "registration" ? html`<span class="tag">${T.checkedIn}</span>` : nothing}
        ${s.format === "swiss" && mine.status === "active" && next <= v.total_rounds && v.status !== "finished" ? (
          mine.byes[String(next)] ? html`<button class="btn" type="button" @click=${() => command(id, "request_bye", { pid: mine.pid, round: next, kind: null })}>${T.cancelBye(next)}</button>`
            : html`<button class="btn" type="button" id="ev-bye" @click=${() => command(id, "request_bye", { pid: mine.pid, round: next, kind: "half" })}>${T.askBye(next)}</button>`) : nothing}
        ${mine.status === "active" && v.status !== "finished" ? html`<button class="btn" type="button" @click=${() => command(id, "pause", { pid: mine.pid })}>${T.pause}</button>` : nothing}
        ${mine.status === "paused" ? html`<button class="btn" type="button" @click=${() => command(id, "resume", { pid: mine.pid })}>${T.resume}</button>` : nothing}
        ${mine.status !== "withdrawn" && s.self_withdraw && v.status !== "finished" ? html`<button class="btn" type="button" id="ev-withdraw"
          @click=${() => { if (confirm(T.withdrawAsk)) command(id, "withdraw", { pid: mine.pid }); }}>${T.withdraw}</button>` : nothing}
      </div></div>`
    : (s.open_entry && v.status !== "finished" ? html`<button class="btn primary wide" type="button" id="ev-join" ?disabled=${!online() || busy("join:self")}
        @click=${() => command(id, "join", {}, "self")}>${T.join}</button>` : nothing)}
    <dl class="facts">
      <dt>${T.format}</dt><dd>${T.formats[s.format]}${s.format === "swiss" ? ` · ${s.rounds} ${T.rounds.toLowerCase()}` : ""}</dd>
      <dt>${T.match}</dt><dd>${W.MODES[s.match.mode]} · ${W.UI.home.spaces(s.match.board)} · ${s.match.teams === "own" ? T.ownTeams : W.TEAMS[s.match.teams]}</dd>
      <dt>${T.scoring}</dt><dd>${s.scoring.win} / ${s.scoring.draw} / ${s.scoring.loss} · ${T.shootoutWin.toLowerCase()} ${s.scoring.shootout_win}</dd>
      <dt>${T.tiebreaks}</dt><dd>${s.tiebreaks.map((t) => T.tiebreakNames[t]).join(", ") || "—"}</dd>
      ${s.start_at ? html`<dt>${T.startAt}</dt><dd>${new Date(s.start_at * 1000).toLocaleString()}</dd>` : nothing}
      ${s.rated ? html`<dt>${T.rated}</dt><dd>✓</dd>` : nothing}
    </dl>
    ${s.open_entry && v.status !== "finished" ? html`<h3>${T.shareLink}</h3>
      <p class="small" id="ev-link">${link}</p>
      <div class="row"><button class="btn" type="button" @click=${() => navigator.clipboard.writeText(link).then(() => flash(T.copied))}>${T.copyLink}</button></div>
      <img class="qr" src=${ex.qr} alt=${T.qrAlt} width="180" height="180">` : nothing}
    <h3>${T.exports}</h3>
    <ul class="links">
      <li><a href=${ex.trf} download>${T.trf}</a></li><li><a href=${ex.csvStandings} download>${T.csvStandings}</a></li>
      <li><a href=${ex.jsonStandings} download>${T.jsonStandings}</a></li><li><a href=${ex.csvPairings} download>${T.csvPairings}</a></li>
      <li><a href=${ex.jsonPairings} download>${T.jsonPairings}</a></li><li><a href=${`#/big/${id}`}>${T.big}</a></li>
    </ul>`;
}

function playersTab(v, id) {
  const T = W.UI.events;
  const rows = [...v.entries].sort((a, b) => (a.number || 1e9) - (b.number || 1e9) || a.pid - b.pid);
  return html`<p class="muted">${T.players(rows.filter((e) => e.status !== "withdrawn").length)}</p>
    <ul class="plist">${rows.map((e) => html`<li class=${e.pid === v.you ? "me" : ""} data-pid=${e.pid}>
      <span class="num">${e.number || "–"}</span>
      <span class="who"><b>${e.name}</b><small>${e.rating || T.unrated}${e.team && e.team !== "training" ? ` · ${W.TEAMS[e.team]}` : ""}
        · ${T.statuses[e.status]}${e.annulled ? ` · ${T.annulled}` : ""}${e.late ? ` · ${T.late}` : ""}${e.claimed ? "" : ` · ${T.unclaimed}`}${e.checked_in && v.status === "registration" ? ` · ${T.checkedIn}` : ""}</small></span>
      <a class="btn small" href=${`#/e/${id}/p/${e.pid}`} aria-label=${`${T.card}: ${e.name}`}>${T.card}</a>
    </li>`)}</ul>`;
}

function roundsTab(v, id, r) {
  const T = W.UI.events;
  if (!v.rounds.length) return html`<p class="muted">${T.noRounds}</p>`;
  const n = Number(r.rest[2]) || v.rounds.length;
  const rnd = v.rounds[Math.min(n, v.rounds.length) - 1];
  return html`<nav class="seg" aria-label=${T.tabs.rounds}>${v.rounds.map((x) => html`<a class="btn small${x.round === rnd.round ? " on" : ""}"
      href=${`#/e/${id}/rounds/${x.round}`} data-round=${x.round} aria-current=${x.round === rnd.round ? "page" : "false"}>${x.round}</a>`)}</nav>
    ${roundBoards(v, id, rnd, false)}`;
}

function standingsTab(v, id) {
  const T = W.UI.events;
  const tbs = v.settings.format === "knockout" ? [] : v.settings.tiebreaks;
  if (!v.standings.length) return html`<p class="muted">${T.noRounds}</p>`;
  return html`<div class="scroll-x"><table class="standings">
    <thead><tr><th scope="col">#</th><th scope="col">${T.name}</th><th scope="col">${T.points}</th>
      ${tbs.map((t) => html`<th scope="col"><abbr title=${T.tiebreakNames[t]}>${T.tiebreakShort[t]}</abbr></th>`)}</tr></thead>
    <tbody>${v.standings.map((row) => html`<tr class=${row.pid === v.you ? "me" : ""} @click=${() => go(`#/e/${id}/p/${row.pid}`)}>
      <td>${row.rank}</td><td><a href=${`#/e/${id}/p/${row.pid}`}>${row.name}</a>${row.status === "withdrawn" ? html` <small>(${T.statuses.withdrawn})</small>` : nothing}</td>
      <td><b>${row.points}</b></td>${tbs.map((t) => html`<td>${row.tiebreaks[t] ?? "–"}</td>`)}</tr>`)}</tbody>
  </table></div>`;
}

function cardView(v, id, pid) {
  const T = W.UI.events;
  const c = E.cards.get(`${id}/${pid}`);
  if (!c) return html`<p>${W.UI.loading}</p>`;
  return html`<h3>${T.card}: ${c.name}</h3>
    <p>${c.rank ? T.rank(c.rank) : ""} · ${T.total}: <b>${c.points}</b> · ${T.statuses[c.status]}</p>
    <ol class="card-rounds">${c.rounds.map((x) => html`<li>
      <b>${T.roundOf(x.round, v.total_rounds)}</b>:
      ${x.kind === "game" ? html`${T.against(x.opponent_name)} (${x.side === "home" ? T.home : T.away})
          — ${x.pending ? T.pending : x.forfeit ? (x.outcome === "win" ? T.forfeitWin : T.forfeitLoss)
            : `${T.outcome[x.outcome]}${x.goals ? ` ${x.goals[0]}–${x.goals[1]}` : ""}${x.shootout ? ` ${T.shootout}` : ""}`}`
        : T.bye[x.kind]}
      <span class="pts">${x.pending ? "" : `+${x.points} = ${x.total}`}</span></li>`)}</ol>
    <a class="btn" href=${`#/e/${id}/standings`}>${T.tabs.standings}</a>`;
}

function view(r) {
  const id = r.arg;
  const v = E.views.get(id);
  const T = W.UI.events;
  if (!v) return html`<section class="card-screen"><p>${T.loading}</p></section>`;
  if (v.missing) return html`<section class="card-screen"><p>${T.notFound}</p><a class="btn" href="#/events">${T.title}</a></section>`;
  if (r.rest[1] === "p") {
    return html`<section class="event">${header(v)}${cardView(v, id, Number(r.rest[2]))}</section>`;
  }
  const tab = tabOf(r);
  const body = tab === "info" ? infoTab(v, id) : tab === "players" ? playersTab(v, id)
    : tab === "rounds" ? roundsTab(v, id, r) : tab === "run" && v.organiser ? runView(v, id, r) : standingsTab(v, id);
  return html`<section class="event">${header(v)}${readyCard(id)}${tabs(v, id, tab)}<div class="tab-body">${body}</div></section>`;
}

// A tab change leaves and re-enters this screen: stop watching only if the next route
// is not this event (enter runs right after leave, before the timer).
let stopWatching = null;

addScreen({
  id: "event",
  paths: ["e"],
  title: (r) => { const v = E.views.get(r.arg); return v && v.settings ? v.settings.name : W.UI.events.title; },
  enter: (r) => {
    clearTimeout(stopWatching);
    if (E.watching !== r.arg) { unwatch(); watch(r.arg); }
    if (r.rest[1] === "p" && r.rest[2]) loadCard(r.arg, Number(r.rest[2]));
  },
  leave: () => { stopWatching = setTimeout(unwatch, 0); },
  view,
});
