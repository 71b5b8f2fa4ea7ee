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

export function meepleLabel(p, ball) {
  const B = W.UI.board;
  // In standard and advanced mode the species (and in advanced the personal ability)
  // matter to the rules, so a screen reader names them.
  const kind = p.species && p.species !== "Trainee" ? ` (${p.species}${p.ability ? ", " + p.ability : ""})` : "";
  return `${W.sideName(p.side)} ${W.ROLES[p.role] || p.role}${p.name ? " " + p.name : ""}${kind} ${p.id}` +
    `${p.tokens ? B.tokens(p.tokens) : ""}${p.injured ? B.injured : p.exhausted ? B.exhausted : ""}${ball ? B.hasBall : ""}`;
}

export function chip(p, { pick, selected, moved, ball, onPick, back }) {
  const label = meepleLabel(p, ball);
  const cls = `m ${p.side}${pick ? " pick" : ""}${selected ? " sel" : ""}${moved ? " moved" : ""}${p.injured ? " inj" : ""}${back ? " back" : ""}`;
  return html`<button class=${cls} data-pid=${p.id} aria-label=${label} aria-pressed=${selected ? "true" : nothing}
    ?disabled=${!pick} type="button" @click=${pick ? () => onPick(p.id) : null}
    ><span class="r">${p.role}</span><span class="i">${p.id + (ball ? " ◉" : "")}</span><span class="c">${condition(p)}</span></button>`;
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
      ball: view.ball.carrier === p.id, onPick: opts.onPick,
    }))}</div>`;
    return html`<div class="sp z${s[0]}${ballHere ? " ball" : ""}" data-space=${s}>
      <button class="lbl${pickSpace ? " pick" : ""}${opts.selected.has(s) ? " sel" : ""}" type="button"
        data-space-btn=${s} ?disabled=${!pickSpace} aria-label=${B.space(s, B.zones[s[0]])}
        @click=${pickSpace ? () => opts.onPick(s) : null}><b>${s}</b><small>${B.zoneShort[s[0]]}</small></button>
      ${side("home")}
      <div class="bcell">${ballHere ? html`<span class="ballmark" role="img" aria-label=${B.ballHere(view.ball.speed)}>◉ ${view.ball.speed}</span>` : nothing}</div>
      ${side("visitors")}
    </div>`;
  };
  return html`<div class="board b${n}" role="group" aria-label=${B.group(n)}>${order.map(row)}</div>`;
}

export function benchView(view, opts) {
  const B = W.UI.board;
  return html`<div class="bench">${["home", "visitors"].map((side) => {
    const off = view.players.filter((p) => p.side === side && p.status !== "field");
    return html`<div class="bside ${side}"><h4>${B.bench(W.sideName(side))}</h4><div class="chips">
      ${off.length ? off.map((p) => chip(p, { pick: opts.pickPlayers.has(p.id), selected: opts.selected.has(p.id), onPick: opts.onPick, back: p.status === "back-bench" }))
        : html`<span class="muted">${B.empty}</span>`}</div></div>`;
  })}</div>`;
}
