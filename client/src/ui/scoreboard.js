// The scoreboard: names and score in one order everywhere (home : visitors), the
// period and "minute 13 of 15", both clocks with a low-time warning, whose turn it is.
// It sticks to the top of the screen through the whole match.
import { html, nothing } from "lit-html";
import { W } from "../words.js";

export const LOW_TIME = 30; // seconds left at which a clock turns red

// Names by seat, and which seat is home (seat 0 before the toss).
export function seating(prompt) {
  const view = prompt.view;
  const names = (prompt.players || []).map((x) => (x ? x.name : null));
  const homeSeat = view && view.home_seat >= 0 ? view.home_seat : 0;
  return { names, homeSeat, visSeat: 1 - homeSeat, decided: !!(view && view.home_seat >= 0) };
}

// Seconds left on a seat's clock: counting down while it is their move, else the bank.
export function secondsLeft(clock, seat, now = Date.now() / 1000) {
  if (!clock) return null;
  const dl = clock.deadline && clock.deadline[seat];
  if (dl) return Math.max(0, Math.round(dl - now));
  const bank = clock.bank && clock.bank[seat];
  return typeof bank === "number" ? Math.max(0, Math.round(bank)) : null;
}

export const mmss = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;

export function periodText(view) {
  const S = W.UI.score;
  if (view.period === 3) return S.shootout(view.shootout);
  if (!view.period) return S.beforeKickoff;
  const end = view.period === 1 ? 15 : 30;
  return S.period(view.period, view.minute, end, !!view.last_possession);
}

export function turnText(mm, prompt, names) {
  const S = W.UI.score;
  const ta = prompt.view.to_act || prompt.to_act;
  if (!ta || ta.kind === "over") return "";
  if (ta.kind === "chance") return S.dice;
  const me = mm.seat;
  if (ta.secret && ta.seats.length > 1) return S.bothSecret;
  const seat = ta.seats[0];
  if (me !== null && me !== undefined && ta.seats.includes(me)) return S.yourTurn;
  return S.theirTurn(names[seat] || S.opponent);
}

export function scoreboard(mm, prompt, { mySide, you }) {
  const S = W.UI.score;
  const view = prompt.view;
  const { names, homeSeat, visSeat } = seating(prompt);
  const clock = prompt.clock;
  const toAct = (view.to_act || prompt.to_act || { seats: [] }).seats || [];
  const clockCell = (seat) => {
    const left = secondsLeft(clock, seat);
    if (left === null) return nothing;
    const running = !!(clock.deadline && clock.deadline[seat]);
    const low = running && left <= LOW_TIME;
    const who = seat === mm.seat ? S.you : names[seat] || S.opponent;
    return html`<span class="clk${running ? " run" : ""}${low ? " low" : ""}" data-seat=${String(seat)}
      aria-label=${S.clockLabel(who, mmss(left), low)}>${mmss(left)}${low ? html` <b>${S.low}</b>` : nothing}</span>`;
  };
  const side = (seat, cls, label) => html`<div class="team ${cls}${mySide === cls ? " me" : ""}${toAct.includes(seat) ? " acting" : ""}">
      <span class="nm">${names[seat] || "…"}${seat === mm.seat ? you : ""}</span>
      <span class="sd">${label}</span>${clockCell(seat)}</div>`;
  const turn = turnText(mm, prompt, names);
  return html`<header class="score" id="scoreboard" aria-label=${S.label}>
    <div class="line">
      ${side(homeSeat, "home", S.home)}
      <span class="sc" id="score" role="img" aria-label=${S.scoreLabel(names[homeSeat] || S.home, view.score[0], names[visSeat] || S.visitors, view.score[1])}>${view.score[0]} : ${view.score[1]}</span>
      ${side(visSeat, "visitors", S.visitors)}
    </div>
    <div class="meta"><span id="clock">${periodText(view)}</span><span id="turn" class="turn${turn === S.yourTurn ? " go" : ""}">${turn}</span></div>
  </header>`;
}
