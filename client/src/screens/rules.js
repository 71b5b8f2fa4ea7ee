// How to play: the game in a few paragraphs, then one short entry per law the engine
// cites, in our own words.  #/rules/<section> (e.g. #/rules/6.4, from a law number in
// the match log) opens with that entry in view and marked.
import { html, nothing } from "lit-html";
import { addScreen } from "../router.js";
import { W } from "../words.js";

// The entry a law number belongs to: "6.4.3" -> "6.4", "19.10.4" -> "19.10", "6" -> "6".
export function lawSection(law) {
  const parts = String(law || "").split(".");
  return parts.length >= 2 ? `${parts[0]}.${parts[1]}` : parts[0];
}

const known = () => new Set(W.LAWS.flatMap(([, , sections]) => sections.map(([id]) => id)));

// A law number as a link to its entry, or plain text when there is no entry for it.
export function lawLink(law) {
  if (!law) return nothing;
  const sec = lawSection(law);
  if (!known().has(sec)) return nothing;
  return html`<a class="law" href=${`#/rules/${sec}`} aria-label=${W.UI.rules.lawLink(law)}>${W.UI.rules.lawShort(law)}</a>`;
}

function view(r) {
  const R = W.UI.rules;
  const want = r.arg;
  return html`<section class="rules" id="rules">
    <h2>${R.title}</h2>
    ${R.intro.map((p) => html`<p>${p}</p>`)}
    <p><a class="btn primary" href="#/tutorial" id="rules-tutorial">${R.tryTutorial}</a></p>
    <h3>${R.cycleTitle}</h3>
    <table class="cycle"><caption class="sr">${R.cycleCaption}</caption>
      <thead><tr><th scope="col">${R.rank}</th><th scope="col">${R.offense}</th><th scope="col">${R.defense}</th></tr></thead>
      <tbody>${[["low-pass", "deflect"], ["dribble", "steal"], ["high-pass", "pressure"]].map(([o, d], i) => html`
        <tr><th scope="row">${i + 1}</th><td>${W.cardName(o)}</td><td>${W.cardName(d)}</td></tr>`)}</tbody></table>
    <p class="hint">${R.cycleText}</p>
    <h3>${R.lawsTitle}</h3>
    ${W.LAWS.map(([n, title, sections]) => html`<section class="law-group" aria-labelledby=${`law-${n}`}>
      <h4 id=${`law-${n}`}>${R.law(n, title)}</h4>
      <dl>${sections.map(([id, name, text]) => html`<div class="entry${want === id ? " want" : ""}" id=${`rule-${id}`}>
        <dt>${id} ${name}</dt><dd>${text}</dd></div>`)}</dl></section>`)}
  </section>`;
}

addScreen({
  id: "rules",
  paths: ["rules"],
  needsName: false,
  title: () => W.UI.rules.title,
  enter: (r) => {
    if (!r.arg) return;
    // Once drawn, bring the asked-for entry into view.
    queueMicrotask(() => requestAnimationFrame(() => {
      const e = document.getElementById(`rule-${r.arg}`);
      if (e) { e.setAttribute("tabindex", "-1"); e.scrollIntoView({ block: "center" }); e.focus({ preventScroll: true }); }
    }));
  },
  view,
});
