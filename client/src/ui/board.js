// Drawing the board: the row of spaces runs up the screen, your own goal at the bottom
// (the way you hold a phone), home meeples on the left of each space, visitors on the
// right, the ball in the middle.  Meeples and spaces are buttons, so a decision that
// wants a player or a space is answered by tapping it.
import { html, nothing } from "lit-html";
import { W } from "../words.js";

export function spaceNames(n) {
  const g = (n - 3) / 2;
  const out = [];
  for (let i = 1; i <= n; i++) {
    if (i <= g) out.push(`H${i}`);
    else if (i <= g + 3) out.push(`M${i - g}`);
    else out.push(`V${i - g - 3}`);
  }
  return out;
}

function condition(p) {
  const bits = [];
  if (p.tokens) bits.push(`${"●".repeat(Math.min(p.tokens, 6))}`);
  if (p.injured) bits.push(W.UI.board.injShort);
  else if (p.exhausted) bits.push(W.UI.board.exhShort);
  return bits.join(" ");
}

export function meepleLabel(p, ball, ctx) {
  const B = W.UI.board;
  const c = ctx || {};
  const side = p.side === "home" ? 0 : 1;
  const whose = c.mySide === side ? B.yours : c.sideNames && c.sideNames[side] ? B.theirs(c.sideNames[side]) : W.sideName(p.side);
  // In standard and advanced mode the species (and in advanced the personal ability)
  // matter to the rules, so a screen reader names them.
  const kind = p.species && p.species !== "Trainee" ? ` (${p.species}${p.ability ? ", " + p.ability : ""})` : "";
  return `${W.playerLabel({ view: { players: [p] } }, p.id)}${kind}, ${whose}${p.space ? B.onSpace(p.space) : ""}` +
    `${p.tokens ? B.tokens(p.tokens) : ""}${p.injured ? B.injured : p.exhausted ? B.exhausted : ""}${ball ? B.hasBall : ""}`;
}

// The few letters under the role on a meeple: a training card's letter, a name's start.
function tag(p) {
  if (!p.name) return "";
  const m = p.name.match(/^Trainee .* ([AB])$/);
  if (p.name.startsWith("Trainee ")) return m ? m[1] : "";
  return p.name.slice(0, 5);
}

// Long-press (or a tap on a player who is not a choice now) opens the player's card.
const PRESS_MS = 450;
function pressable(id, onPick, onInfo, pick) {
  let timer = null;
  let long = false;
  return {
    down: () => { long = false; clearTimeout(timer); timer = setTimeout(() => { long = true; onInfo && onInfo(id); }, PRESS_MS); },
    up: () => clearTimeout(timer),
    click: (ev) => {
      clearTimeout(timer);
      if (long) { ev.preventDefault(); long = false; return; }
      if (pick) onPick(id);
      else if (onInfo) onInfo(id);
    },
  };
}

export function chip(p, { pick, selected, moved, ball, onPick, onInfo, back, last, ctx }) {
  const label = meepleLabel(p, ball, ctx);
  const cls = `m ${p.side}${pick ? " pick" : ""}${selected ? " sel" : ""}${moved ? " moved" : ""}${p.injured ? " inj" : ""}${back ? " back" : ""}${last ? " last" : ""}${ball ? " ball" : ""}`;
  const h = pressable(p.id, onPick, onInfo, pick);
  // The name is the words a screen reader says (the letters on the meeple are a picture
  // of them), so the visible letters are hidden from it rather than mislabelled.
  return html`<button class=${cls} data-pid=${p.id} aria-pressed=${selected ? "true" : nothing}
    aria-disabled=${pick || onInfo ? nothing : "true"} type="button"
    @pointerdown=${h.down} @pointerup=${h.up} @pointerleave=${h.up} @contextmenu=${(e) => e.preventDefault()} @click=${h.click}
    ><span class="r" aria-hidden="true">${p.role}</span><span class="i" aria-hidden="true">${tag(p) + (ball ? " ◉" : "")}</span><span class="c" aria-hidden="true">${condition(p)}</span><span class="sr">${label}</span></button>`;
}

// opts: {mySide: "home"|"visitors"|null, pickPlayers: Set, pickSpaces: Set,
//        selected: Set, onPick(value), prev: Map(id -> space) for the moved animation}
export function boardView(view, opts) {
  const B = W.UI.board;
  const n = view.config.board;
  const names = spaceNames(n);
  // Your own goal at the bottom: home defends H, so home sees V at the top.
  const order = opts.mySide === "visitors" ? names : [...names].reverse();
  const bySpace = new Map(names.map((s) => [s, { home: [], visitors: [] }]));
  for (const p of view.players) if (p.status === "field" && p.space) bySpace.get(p.space)[p.side].push(p);
  const row = (s) => {
    const here = bySpace.get(s);
    const ballHere = view.ball.space === s;
    const pickSpace = opts.pickSpaces.has(s);
    const side = (which) => html`<div class="side ${which}">${here[which].map((p) => chip(p, {
      pick: opts.pickPlayers.has(p.id), selected: opts.selected.has(p.id),
      moved: opts.prev && opts.prev.has(p.id) && opts.prev.get(p.id) !== p.space,
      ball: view.ball.carrier === p.id, onPick: opts.onPick, onInfo: opts.onInfo, ctx: opts.ctx,
      last: opts.last && opts.last.players.includes(p.id),
    }))}</div>`;
    const last = opts.last && opts.last.to === s;
    return html`<div class="sp z${s[0]}${ballHere ? " ball" : ""}${last ? " last" : ""}" data-space=${s}>
      <button class="lbl${pickSpace ? " pick" : ""}${opts.selected.has(s) ? " sel" : ""}" type="button"
        data-space-btn=${s} ?disabled=${!pickSpace}
        @click=${pickSpace ? () => opts.onPick(s) : null}><b aria-hidden="true">${s}</b><small aria-hidden="true">${B.zoneShort[s[0]]}</small><span class="sr">${B.space(s, B.zones[s[0]], ballHere ? view.ball.speed : null, here.home.length + here.visitors.length)}</span></button>
      ${side("home")}
      <div class="bcell">${ballHere ? html`<span class="ballmark" role="img" aria-label=${B.ballHere(view.ball.speed)}>◉ ${view.ball.speed}</span>` : nothing}</div>
      ${side("visitors")}
    </div>`;
  };
  const carrier = view.ball.carrier ? view.players.find((q) => q.id === view.ball.carrier) : null;
  const summary = B.summary(view.ball.space, view.ball.speed, carrier ? meepleLabel(carrier, false, opts.ctx).split(",")[0] : null);
  return html`<div class="board b${n}" role="group" aria-label=${B.group(n)}><p class="sr">${summary}</p>${order.map(row)}</div>`;
}

export function benchView(view, opts) {
  const B = W.UI.board;
  return html`<div class="bench">${["home", "visitors"].map((side) => {
    const off = view.players.filter((p) => p.side === side && p.status !== "field");
    return html`<div class="bside ${side}"><h4>${B.bench(W.sideName(side))}</h4><div class="chips">
      ${off.length ? off.map((p) => chip(p, { pick: opts.pickPlayers.has(p.id), selected: opts.selected.has(p.id), onPick: opts.onPick, onInfo: opts.onInfo, ctx: opts.ctx, back: p.status === "back-bench" }))
        : html`<span class="muted">${B.empty}</span>`}</div></div>`;
  })}</div>`;
}
