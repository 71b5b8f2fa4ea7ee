// Named places where a screen draws what other modules contribute, so a feature that
// adds a button or a notice to someone else's screen needs no edit there:
//
//   addToSlot("end-actions", (mm) => html`<button ...>Rematch</button>`)
//
// Slots used now: "lobby" (sections of the home screen, after the match buttons),
// "match-notices" (under the scoreboard: presence, claims), "end-actions" (buttons on
// the end screen), "menu" (links in the top bar's menu).  A contribution returns a
// lit-html template, or null/undefined/nothing to show nothing.
const slots = new Map();

export function addToSlot(name, fn, order = 0) {
  const list = slots.get(name) || [];
  list.push({ fn, order });
  list.sort((a, b) => a.order - b.order);
  slots.set(name, list);
}

export function slot(name, ...args) {
  return (slots.get(name) || []).map(({ fn }) => fn(...args)).filter((t) => t !== null && t !== undefined);
}
