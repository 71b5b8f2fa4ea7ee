// The player's settings, kept in localStorage: how moves are confirmed, how fast what
// happened is played back, how a hidden page says "your turn", and, per match, which
// rarely wanted offers are answered "no" without asking.
import { LS } from "./app.js";

export const DEFAULTS = {
  confirm: "irreversible", // "always" | "irreversible" | "never"
  speed: "normal", // "slow" | "normal" | "fast" | "instant"
  sound: false, // a short tone when it becomes your turn while the page is hidden
  vibrate: true, // a buzz, where the device has one
  notify: false, // a notification (asked for when switched on)
};

// Offers almost always declined (issue: Mind Pull 31 times a match): "ask" or "never".
export const SKIPPABLE = ["pull", "smooth", "fly", "scorch", "join", "quantor", "declare"];

export function setting(k) {
  const all = LS.json("settings", {});
  return k in all ? all[k] : DEFAULTS[k];
}

export function setSetting(k, v) {
  const all = LS.json("settings", {});
  all[k] = v;
  LS.set("settings", JSON.stringify(all));
}

// Per match: {pull: "never", ...}; absent means "ask".
export function offerPolicy(matchId, kind) {
  const all = LS.json(`offers.${matchId}`, {});
  return all[kind] || "ask";
}

export function setOfferPolicy(matchId, kind, v) {
  const all = LS.json(`offers.${matchId}`, {});
  all[kind] = v;
  LS.set(`offers.${matchId}`, JSON.stringify(all));
}

export const reducedMotion = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

// Milliseconds a moment of playback stays on screen at the chosen speed (0: instant).
export function beat() {
  if (reducedMotion()) return 0;
  return { slow: 1700, normal: 1000, fast: 500, instant: 0 }[setting("speed")] ?? 1000;
}
