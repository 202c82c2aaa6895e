// Service worker: the referee's pages open even while the tablet is offline.
//
// Served at /sw.js (scope "/"); browsers run it only on HTTPS or localhost.
// - A referee page (/t/<id>/referee/...) is fetched from the network first;
//   each good answer is kept, and served when the network fails, so a reload
//   without a connection shows the table as last seen, with the outbox (which
//   lives in localStorage) and its "waiting" entries.
// - Static files: network first, the kept copy when offline.
// - Everything else of this site (posts, polls, other pages) goes to the network through this
//   worker: one path for every request of a page it controls, so a lost connection fails them
//   all alike (and a test that cuts the worker's network cuts the page's too).
// - Logging in or out forgets the kept pages.
const PAGES = "spielleitung-pages-v1";
const ASSETS = "spielleitung-assets-v1";
const REFEREE_PAGE = /^\/t\/\d+\/referee\//;

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function networkFirst(request, cacheName) {
  return fetch(request)
    .then((response) => {
      if (response.ok && response.type === "basic") {
        const copy = response.clone();
        caches.open(cacheName).then((cache) => cache.put(request, copy));
      }
      return response;
    })
    .catch(() => caches.match(request, { ignoreVary: true }).then((kept) => kept || Response.error()));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/accounts/")) {
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  if (request.method === "GET" && request.mode === "navigate" && REFEREE_PAGE.test(url.pathname)) {
    event.respondWith(networkFirst(request, PAGES));
  } else if (request.method === "GET" && url.pathname.startsWith("/static/")) {
    event.respondWith(networkFirst(request, ASSETS));
  } else if (request.mode !== "navigate") {
    event.respondWith(fetch(request));
  }
});

// A page opened before this worker controlled it asks to be kept, with its scripts and styles.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "remember" || typeof data.url !== "string") return;
  const url = new URL(data.url);
  if (url.origin !== self.location.origin || !REFEREE_PAGE.test(url.pathname)) return;
  const assets = (Array.isArray(data.assets) ? data.assets : [])
    .map((asset) => new URL(asset, self.location.origin))
    .filter((asset) => asset.origin === self.location.origin && asset.pathname.startsWith("/static/"));
  const keep = (cacheName, target) =>
    fetch(target, { credentials: "same-origin" }).then((response) =>
      response.ok ? caches.open(cacheName).then((cache) => cache.put(target, response)) : undefined,
    );
  event.waitUntil(Promise.all([keep(PAGES, url), ...assets.map((asset) => keep(ASSETS, asset))]).catch(() => {}));
});
