// Drawing the board: the row of spaces runs up the screen, your own goal at the bottom
// (the way you hold a phone), home meeples on the left of each space, visitors on the
// right, the ball in the middle.  Meeples and spaces are buttons, so a decision that
// wants a player or a space is answered by tapping it.
import { ROLES } from "./words.js";

const ROLE_SHORT = { FB: "FB", D: "D", MF: "MF", PM: "PM", W: "W", S: "S" };

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of kids) if (c) e.append(c);
  return e;
}
export { el };

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
  if (p.injured) bits.push("INJ");
  else if (p.exhausted) bits.push("EXH");
  return bits.join(" ");
}

export function chip(p, { pick, selected, moved, ball, onPick }) {
  // In standard and advanced mode the species (and in advanced the personal ability)
  // matter to the rules, so a screen reader and a long-press tooltip name them.
  const kind = p.species && p.species !== "Trainee" ? ` (${p.species}${p.ability ? ", " + p.ability : ""})` : "";
  const label = `${p.side === "home" ? "Home" : "Visitors"} ${ROLES[p.role] || p.role}${p.name ? " " + p.name : ""}${kind} ${p.id}` +
    `${p.tokens ? `, ${p.tokens} exhaustion tokens` : ""}${p.injured ? ", injured" : p.exhausted ? ", exhausted" : ""}` +
    `${ball ? ", has the ball" : ""}`;
  return el("button", {
    class: `m ${p.side}${pick ? " pick" : ""}${selected ? " sel" : ""}${moved ? " moved" : ""}${p.injured ? " inj" : ""}`,
    "data-pid": p.id, "aria-label": label, title: label, "aria-pressed": selected ? "true" : undefined,
    disabled: pick ? undefined : true, type: "button",
    onclick: pick ? () => onPick(p.id) : undefined,
  },
  el("span", { class: "r", text: ROLE_SHORT[p.role] || p.role }),
  el("span", { class: "i", text: p.id + (ball ? " ◉" : "") }),
  el("span", { class: "c", text: condition(p) }));
}

// opts: {mySide: "home"|"visitors"|null, pickPlayers: Set, pickSpaces: Set,
//        selected: Set, onPick(value), prev: Map(id -> space) for the moved animation}
export function renderBoard(root, view, opts, benchRoot = null) {
  const n = view.config.board;
  const names = spaceNames(n);
  // Your own goal at the bottom: home defends H, so home sees V at the top.
  const order = opts.mySide === "visitors" ? names : [...names].reverse();
  const bySpace = new Map(names.map((s) => [s, { home: [], visitors: [] }]));
  for (const p of view.players) if (p.status === "field" && p.space) bySpace.get(p.space)[p.side].push(p);
  const board = el("div", { class: `board b${n}`, role: "group", "aria-label": `The board, ${n} spaces` });
  for (const s of order) {
    const here = bySpace.get(s);
    const ballHere = view.ball.space === s;
    const pickSpace = opts.pickSpaces.has(s);
    const zone = s[0] === "H" ? "home goal zone" : s[0] === "V" ? "visitors goal zone" : "midfield";
    const row = el("div", { class: `sp z${s[0]}${ballHere ? " ball" : ""}`, "data-space": s });
    row.append(el("button", {
      class: `lbl${pickSpace ? " pick" : ""}${opts.selected.has(s) ? " sel" : ""}`, type: "button",
      "data-space-btn": s, disabled: pickSpace ? undefined : true,
      "aria-label": `Space ${s}, ${zone}`, onclick: pickSpace ? () => opts.onPick(s) : undefined,
    }, el("b", { text: s }), el("small", { text: s[0] === "M" ? "mid" : s[0] === "H" ? "H goal" : "V goal" })));
    for (const side of ["home", "visitors"]) {
      const cell = el("div", { class: `side ${side}` });
      for (const p of here[side]) {
        cell.append(chip(p, {
          pick: opts.pickPlayers.has(p.id), selected: opts.selected.has(p.id),
          moved: opts.prev && opts.prev.has(p.id) && opts.prev.get(p.id) !== p.space,
          ball: view.ball.carrier === p.id, onPick: opts.onPick,
        }));
      }
      row.append(cell);
      if (side === "home") {
        row.append(el("div", { class: "bcell", "aria-label": ballHere ? `Ball here, speed ${view.ball.speed}` : undefined },
          ballHere ? el("span", { class: "ballmark", text: `◉ ${view.ball.speed}` }) : null));
      }
    }
    board.append(row);
  }
  const bench = el("div", { class: "bench" });
  for (const side of ["home", "visitors"]) {
    const off = view.players.filter((p) => p.side === side && p.status !== "field");
    const box = el("div", { class: `bside ${side}` }, el("h4", { text: `${side === "home" ? "Home" : "Visitors"} bench` }));
    const list = el("div", { class: "chips" });
    for (const p of off) {
      list.append(chip(p, { pick: opts.pickPlayers.has(p.id), selected: opts.selected.has(p.id), onPick: opts.onPick }));
      if (p.status === "back-bench") list.lastChild.classList.add("back");
    }
    if (!off.length) list.append(el("span", { class: "muted", text: "empty" }));
    box.append(list);
    bench.append(box);
  }
  if (benchRoot) { root.replaceChildren(board); benchRoot.replaceChildren(bench); }
  else root.replaceChildren(board, bench);
}
