// The words the player reads, in the player's language.  Each language is one file in
// lang/ with the same keys as lang/en.js; adding one is adding its file and a line here.
import en from "./lang/en.js";

const LANGS = { en };

function pick() {
  const wanted = typeof navigator !== "undefined" && navigator.languages ? navigator.languages : ["en"];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGS[base]) return LANGS[base];
  }
  return en;
}

export const W = pick();
