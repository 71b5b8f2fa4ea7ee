// The service worker: a second visit loads almost nothing.
// * Versioned files (/build/pyodide/<version>/..., /build/app/<name>-<hash>...) never
//   change: cache first, forever, in a cache named for this worker's version.
// * The app's own files (/, /src/..., /build/manifest.json): served from the cache at
//   once and revalidated in the background (the server answers 304 when unchanged), so a
//   new deploy shows on the next load.
// * The websocket and anything else: straight to the network.
const VERSION = "kickline-v1";
const SHELL = ["/", "/src/styles.css", "/src/main.js", "/src/net.js", "/src/patch.js", "/src/msgpack.js", "/src/board.js",
  "/src/decide.js", "/src/words.js", "/src/preview.js", "/src/worker.js", "/src/pyload.js", "/build/manifest.json"];
const VERSIONED = /^\/build\/(pyodide\/[0-9][^/]*\/|app\/[\w.]+-[0-9a-f]{12}\.)/;

self.addEventListener("install", (ev) => {
  ev.waitUntil((async () => {
    const cache = await caches.open(VERSION);
    await cache.addAll(SHELL).catch(() => {});
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
  if (VERSIONED.test(url.pathname)) {
    ev.respondWith(cacheFirst(req));
  } else if (url.pathname === "/" || url.pathname === "/index.html" || url.pathname.startsWith("/src/") || url.pathname === "/build/manifest.json") {
    ev.respondWith(staleWhileRevalidate(ev, req, url.pathname === "/index.html" ? "/" : null));
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

async function staleWhileRevalidate(ev, req, key) {
  const cache = await caches.open(VERSION);
  const k = key || req;
  const hit = await cache.match(k, { ignoreSearch: true });
  const fresh = fetch(req).then((res) => {
    if (res.ok) cache.put(k, res.clone());
    return res;
  });
  if (hit) {
    ev.waitUntil(fresh.catch(() => {}));
    return hit;
  }
  return fresh;
}
