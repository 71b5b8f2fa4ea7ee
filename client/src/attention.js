// Saying "your turn" to a player who looked away, and what happened to one who listens:
// the aria-live region, and, while the page is hidden, the tab's title, a vibration, an
// optional sound and a notification (each as the player set it).
import { app } from "./app.js";
import { setting } from "./settings.js";
import { W } from "./words.js";

let last = "";
// Read `text` out through the page's aria-live region (index.html #announce).
export function announce(text) {
  const el = document.getElementById("announce");
  if (!el || !text) return;
  // The same words twice in a row are still news: clear, then set on the next task.
  el.textContent = text === last ? "" : el.textContent;
  last = text;
  setTimeout(() => { el.textContent = text; }, 30);
}

function beep() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    const ctx = beep.ctx || (beep.ctx = new Ctx());
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    o.frequency.value = 880;
    g.gain.setValueAtTime(0.15, ctx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.25);
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + 0.25);
  } catch (e) { /* no audio here */ }
}

// It became the player's turn.  Only a hidden page needs more than the screen itself.
export function yourTurn() {
  if (!document.hidden) return;
  app.titleOverride = true;
  document.title = W.UI.attention.title;
  app.stats.hiddenTurns = (app.stats.hiddenTurns || 0) + 1;
  if (setting("vibrate") && navigator.vibrate) { try { navigator.vibrate([120, 60, 120]); } catch (e) { /* not allowed */ } }
  if (setting("sound")) beep();
  if (setting("notify")) notify(W.UI.appName, { body: W.UI.attention.body, tag: "kickline-turn" });
}

// A system notification, where the player allowed them (`options.url`: where a tap on
// it leads, this page by default).  Through the service worker
// when there is one: a phone's browser (Chrome on Android) refuses `new Notification()`
// outright, and a tap on the worker's notification brings the page back (sw.js).
export async function notify(title, options) {
  // app.stats.notified: how the last one went, for the browser tests' report.
  if (typeof Notification === "undefined" || Notification.permission !== "granted") {
    app.stats.notified = "not allowed";
    return false;
  }
  const { url, ...rest } = options;
  const opts = { ...rest, data: { url: url || location.href } };
  try {
    const reg = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration() : null;
    if (reg && reg.active) {
      app.stats.notified = "asked the worker";
      await reg.showNotification(title, opts);
      app.stats.notified = "by the worker";
      return true;
    }
    new Notification(title, opts);
    app.stats.notified = "by the page";
    return true;
  } catch (e) {
    app.stats.notified = `refused: ${e && e.name}`;
    return false; /* not allowed here after all: the title still says it */
  }
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && app.titleOverride) {
    app.titleOverride = false;
    document.title = W.UI.appName;
    import("./app.js").then((m) => m.update());
  }
});
