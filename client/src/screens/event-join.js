// #/ej/<id>: an event's open join link; #/ej/<id>/<token>: a roster line's entry link
// (printed on the organiser's sheet as a QR code).  One tap joins (or takes the line),
// then the event's page.
import { html, nothing } from "lit-html";
import { app, go, online } from "../app.js";
import { addScreen } from "../router.js";
import { W } from "../words.js";
import { E, watch, command, busy } from "../events.js";

function view(r) {
  const T = W.UI.events;
  const id = r.arg;
  const token = r.rest[1] || null;
  const v = E.views.get(id);
  if (!v) return html`<section class="card-screen"><p>${T.loading}</p></section>`;
  if (v.missing) return html`<section class="card-screen"><p>${T.notFound}</p></section>`;
  const inIt = !!v.you;
  return html`<section class="card-screen">
    <h2>${token ? T.claimTitle : T.joinTitle}</h2>
    <p><b>${v.settings.name}</b> · ${T.formats[v.settings.format]} · ${T.status[v.status]}</p>
    ${token ? html`<p>${T.claimWhy}</p>` : nothing}
    ${inIt ? html`<p>${T.joined}</p><a class="btn primary" href=${`#/e/${id}/info`}>${v.settings.name}</a>` : html`
      <button class="btn primary wide" type="button" id="ej-go" ?disabled=${!online() || !app.welcome || busy(token ? "claim:link" : "join:self")}
        @click=${async () => {
          const reply = token ? await command(id, "claim", { token }, "link") : await command(id, "join", {}, "self");
          if (reply) go(`#/e/${id}/info`);
        }}>${token ? T.claimGo : T.join}</button>`}
  </section>`;
}

addScreen({
  id: "event-join",
  paths: ["ej"],
  title: () => W.UI.events.joinTitle,
  enter: (r) => watch(r.arg),
  view,
});
