// The service worker: a second visit loads almost nothing.
// * Versioned files (/build/pyodide/<version>/..., /build/app/<name>-<hash>...) never
//   change: cache first, forever, in a cache named for this worker's version.
// * The app's own files (/src/..., /build/vendor/...): cache first too, and the build's
//   manifest.json says when they changed: it lists them ("shell") with one hash of their
//   contents ("shell_hash").  On every page load the worker fetches the manifest in the
//   background; when the hash differs from the cached one it fetches the shell again
//   (the server answers 304 for what did not change), so a new deploy shows on the next
//   load, while a visit with nothing new sends two small requests, not one per module.
//   (After editing src/ by hand, run `make client`, or open the page with ?nosw.)
// * The page itself (/): served from the cache at once and revalidated in the background.
// * The websocket and anything else: straight to the network.
const VERSION = "kickline-v2";
const VERSIONED = /^\/build\/(pyodide\/[0-9][^/]*\/|app\/[\w.]+-[0-9a-f]{12}\.)/;
const SHELL = /^\/(src\/|build\/vendor\/)/;
const MANIFEST = "/build/manifest.json";

self.addEventListener("install", (ev) => {
  ev.waitUntil((async () => {
    const cache = await caches.open(VERSION);
    try { await refresh(cache, null); } catch (e) { /* offline: cached as used */ }
    // The page itself, so the app opens with the network off from the next visit on.
    try { if (!(await cache.match("/"))) await cache.add("/"); } catch (e) { /* cached when next served */ }
    self.skipWaiting();
  })());
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== VERSION) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (ev) => {
  const req = ev.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== location.origin || url.pathname === "/ws" || url.pathname === "/healthz") return;
  if (VERSIONED.test(url.pathname) || SHELL.test(url.pathname)) {
    ev.respondWith(cacheFirst(req));
  } else if (url.pathname === "/" || url.pathname === "/index.html") {
    ev.respondWith(page(ev, req));
  } else if (url.pathname === MANIFEST) {
    ev.respondWith(fetch(req).catch(async () => (await caches.match(MANIFEST)) || Response.error()));
  }
});

async function cacheFirst(req) {
  const cache = await caches.open(VERSION);
  const hit = await cache.match(req, { ignoreSearch: true });
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok) cache.put(req, res.clone());
  return res;
}

// The page from the cache at once; in the background, the page revalidated and the
// shell checked against the manifest.
async function page(ev, req) {
  const cache = await caches.open(VERSION);
  const hit = await cache.match("/");
  const fresh = fetch(req).then((res) => {
    if (res.ok) cache.put("/", res.clone());
    return res;
  });
  const check = (async () => {
    const old = await cache.match(MANIFEST);
    await refresh(cache, old ? await old.json() : null);
  })();
  if (hit) {
    ev.waitUntil(Promise.all([fresh, check]).catch(() => {}));
    return hit;
  }
  ev.waitUntil(check.catch(() => {}));
  return fresh;
}

// Fetch the manifest; if the shell changed (or nothing is cached yet), cache it anew.
// The versioned files (Pyodide, the rules wheel) are fetched too if not yet kept, so the
// rules run with the network off after one visit (offline play, screens/local.js).
async function refresh(cache, old) {
  const res = await fetch(MANIFEST, { cache: "no-cache" });
  if (!res.ok) return;
  const manifest = await res.clone().json();
  await Promise.all((manifest.precache || []).map(async (url) => {
    if (await cache.match(url)) return;
    const r = await fetch(url);
    if (r.ok) await cache.put(url, r);
  }));
  if (old && old.shell_hash && old.shell_hash === manifest.shell_hash) return;
  const shell = manifest.shell || [];
  await Promise.all(shell.map(async (url) => {
    const r = await fetch(url, { cache: "no-cache" });
    if (r.ok) await cache.put(url, r);
  }));
  for (const req of await cache.keys()) {
    const path = new URL(req.url).pathname;
    if (SHELL.test(path) && !shell.includes(path)) await cache.delete(req);
  }
  await cache.put(MANIFEST, res);
}

// A tap on "your turn" or "your match is ready" (src/attention.js notify): back to the
// page it came from, focusing an open tab rather than opening another.
self.addEventListener("notificationclick", (ev) => {
  ev.notification.close();
  const url = (ev.notification.data && ev.notification.data.url) || "/";
  ev.waitUntil((async () => {
    const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const same = tabs.find((c) => c.url === url) || tabs[0];
    if (same) { await same.focus(); if (same.url !== url && "navigate" in same) await same.navigate(url); return; }
    await self.clients.openWindow(url);
  })());
});
