import path from "node:path";

// Playwright waits for document.fonts.ready before each screenshot, for pages whose web
// fonts are still loading.  The client loads none (system fonts only: client/src/*.css
// has no @font-face), so that wait guards nothing here, and it is a wait known to hang
// now and then in headless Chromium (microsoft/playwright#35200, #35972): a whole-suite
// run lost a test to a 30 s screenshot timeout on an idle machine.  Playwright reads
// this in-process before every screenshot; the scenarios import this module before
// they launch the browser.
process.env.PW_TEST_SCREENSHOT_NO_FONTS_READY = "1";

// A screenshot of what the phone shows now into DIR/NAME.png (for people to look at),
// and the layout problems of that screen (below), for the scenario's report.
export async function shot(page, dir, name) {
  // Should the client ever load a web font, its screenshots wait for it here instead.
  await page.evaluate(() => (document.fonts.size ? document.fonts.ready.then(() => null) : null));
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
  return layoutProblems(page, name);
}

// What a phone-width screen must never do, checked at every screenshot of the browser
// scenarios: be wider than the viewport (a sideways scroll), or clip the top bar (a
// link cut off or pushed out of view by a long name, "Back to your match", an offer
// count or the connection state).  Returns the problems found, in words.
export async function layoutProblems(page, where) {
  const found = await page.evaluate(() => {
    const out = [];
    const W = innerWidth;
    const doc = document.documentElement;
    if (doc.scrollWidth > W + 1) {
      const wide = [...document.querySelectorAll("#main *, #top *")].filter((el) => el.getBoundingClientRect().right > W + 1)
        .slice(0, 3).map((el) => `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}.${[...el.classList].join(".")}`);
      out.push(`the page is ${doc.scrollWidth} px wide at ${W} px (${wide.join(", ")})`);
    }
    const top = document.querySelector("#top");
    if (top) {
      for (const el of top.querySelectorAll("h1, a, button, #conn")) {
        if (el.hidden || el.closest("[hidden]")) continue;
        const r = el.getBoundingClientRect();
        if (!r.width) continue;
        // Inside the scrolling nav a link may sit past its edge: it is reached by a swipe.
        const nav = el.closest("#nav");
        const box = nav && getComputedStyle(nav).overflowX === "auto" ? null : { left: 0, right: W };
        if (box && (r.left < box.left - 1 || r.right > box.right + 1)) out.push(`top bar: "${el.textContent.trim()}" at ${Math.round(r.left)}-${Math.round(r.right)} px`);
        if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).textOverflow !== "ellipsis") out.push(`top bar: "${el.textContent.trim()}" cut (${el.scrollWidth} > ${el.clientWidth} px)`);
      }
      const nav = top.querySelector("#nav");
      if (nav && nav.scrollWidth > nav.clientWidth + 1 && getComputedStyle(nav).overflowX !== "auto") out.push(`top bar: links cut off (${nav.scrollWidth} > ${nav.clientWidth} px)`);
    }
    return out;
  });
  return found.map((p) => `${where}: ${p}`);
}

// Run `axe` on what a person sees once things settle: an overlay fading in is at partial
// opacity for a quarter of a second, and its contrast then is not the one shown (a fast
// machine caught the reveal mid-fade).  Only running, time-based, finite animations are
// awaited: an infinite one never finishes, a paused or scroll-driven one (the top bar's
// fade) finishes only when someone scrolls, and a cancelled one rejects.
export async function axeSettled(page, options) {
  return page.evaluate(async (opts) => {
    await Promise.all(document.getAnimations()
      .filter((a) => a.playState === "running" && a.timeline === document.timeline && a.effect
        && Number.isFinite(a.effect.getComputedTiming().endTime))
      .map((a) => a.finished.catch(() => null)));
    return (await window.axe.run(document, opts)).violations;
  }, options);
}
