// #/big/<id>: the standings for a projector or a big screen: large type, the whole
// width, the current round's boards beside them; it follows the event live.
import { html, nothing } from "lit-html";
import { addScreen } from "../router.js";
import { W } from "../words.js";
import { E, watch, unwatch, nameOf } from "../events.js";

function view(r) {
  const v = E.views.get(r.arg);
  const T = W.UI.events;
  if (!v || v.missing) return html`<section class="big"><p>${v ? T.notFound : T.loading}</p></section>`;
  const tbs = v.settings.format === "knockout" ? [] : v.settings.tiebreaks.slice(0, 3);
  const cur = v.rounds[v.rounds.length - 1];
  return html`<section class="big">
    <h2>${v.settings.name}${cur ? html` · ${T.roundOf(cur.round, v.total_rounds)}` : nothing}</h2>
    <div class="big-cols">
      <table class="standings big-table">
        <thead><tr><th scope="col">#</th><th scope="col">${T.name}</th><th scope="col">${T.points}</th>
          ${tbs.map((t) => html`<th scope="col">${T.tiebreakShort[t]}</th>`)}</tr></thead>
        <tbody>${v.standings.map((row) => html`<tr><td>${row.rank}</td><td>${row.name}</td><td><b>${row.points}</b></td>
          ${tbs.map((t) => html`<td>${row.tiebreaks[t] ?? "–"}</td>`)}</tr>`)}</tbody>
      </table>
      ${cur ? html`<ol class="big-boards">${cur.boards.map((b) => html`<li><span>${b.board}</span>
        ${nameOf(v, b.home)} – ${nameOf(v, b.away)}
        <b>${b.result ? (b.result.winner === "home" ? "1–0" : b.result.winner === "away" ? "0–1" : "½–½") : (b.live && b.live.score ? `${b.live.score[0]}:${b.live.score[1]}` : "")}</b></li>`)}</ol>` : nothing}
    </div>
  </section>`;
}

addScreen({
  id: "event-big",
  paths: ["big"],
  wide: true,
  title: (r) => { const v = E.views.get(r.arg); return v && v.settings ? v.settings.name : W.UI.events.title; },
  enter: (r) => watch(r.arg),
  leave: () => unwatch(),
  view,
});
