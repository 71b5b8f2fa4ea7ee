// The explanation sheet: a player's card (role, skills, species trait, personal ability,
// advanced skill, condition) or the maneuver cards, opened by tapping or long-pressing.
// No information lives only in a hover tooltip.
import { html, nothing } from "lit-html";
import { W } from "../words.js";

const ROLE_SKILLS = { FB: [1, 6], D: [2, 5], MF: [3, 4], PM: [4, 3], W: [5, 2], S: [6, 1] };

export function playerInfo(p, ctx) {
  const I = W.UI.info;
  const side = p.side === "home" ? 0 : 1;
  const lines = [[I.role(W.ROLES[p.role]), W.ROLE_INFO[p.role]], [I.skills, I.skillLine(p.off, p.def)]];
  const base = ROLE_SKILLS[p.role];
  if (base && p.def !== base[1]) lines.push([I.advanced, I.advancedLine(p.def, base[1])]);
  const sp = p.species && W.SPECIES_INFO[p.species];
  if (sp && sp[0] && ctx.view && ctx.view.config && ctx.view.config.mode !== "training") lines.push([I.species(p.species, sp[0]), sp[1]]);
  if (p.ability && W.ABILITIES[p.ability]) lines.push([I.ability(p.name), W.ABILITIES[p.ability]]);
  lines.push([I.condition, I.conditionLine(p, ctx.mySide === side)]);
  return { title: `${p.name ? p.name.replace(/^Trainee /, "") : W.ROLES[p.role]}`, sub: W.team(ctx, side), lines };
}

export function cardsInfo(ids) {
  const I = W.UI.info;
  return { title: I.cardsTitle, sub: I.cardsSub, lines: ids.map((id) => [W.cardName(id), W.CARD_LONG[id] || ""]) };
}

export function sheetView(info, onClose) {
  if (!info) return nothing;
  return html`<div class="sheet-back" @click=${onClose}>
    <div class="sheet" role="dialog" aria-modal="true" aria-labelledby="sheet-title" @click=${(e) => e.stopPropagation()}
      @keydown=${(e) => { if (e.key === "Escape") onClose(); }}>
      <h2 id="sheet-title" tabindex="-1">${info.title}</h2>${info.sub ? html`<p class="muted">${info.sub}</p>` : nothing}
      <dl>${info.lines.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
      <button class="btn primary" type="button" id="sheet-close" @click=${onClose}>${W.UI.info.close}</button>
    </div></div>`;
}
