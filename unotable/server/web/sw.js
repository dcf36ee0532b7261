// The service worker: keeps the page's static files (the document, scripts, styles, strings,
// icons) so that the table installs as an app and opens without the network; every request goes
// to the server first and the kept copy is only the fallback. The API, the websocket and the
// records are never kept. When the server cannot be reached at all, the kept page says so.
// The server serves this file at /sw.js, so that its scope is the whole site.

const CACHE = "unotable-v2";
const FILES = [
  "/", "/rules",
  "/static/style.css", "/static/app.js", "/static/cards.js", "/static/dom.js", "/static/i18n.js",
  "/static/landing.js", "/static/net.js", "/static/notation.js", "/static/options.js", "/static/qr.js",
  "/static/rules.js", "/static/sound.js", "/static/state.js", "/static/table.js", "/static/words.js",
  "/static/view_controls.js", "/static/view_hand.js", "/static/view_side.js", "/static/view_table.js",
  "/static/view_waiting.js", "/static/view_review.js", "/static/view_verify.js", "/static/pwa.js",
  "/static/manifest.webmanifest",
  "/static/locales/en.json", "/static/locales/ar.json", "/static/locales/fa.json", "/static/locales/he.json",
  "/static/icons/icon-192.png", "/static/icons/icon-512.png",
];

self.addEventListener("install", (ev) => {
  ev.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

function kept(url) {
  return url.origin === self.location.origin && (url.pathname.startsWith("/static/") || url.pathname === "/" || url.pathname === "/rules");
}

self.addEventListener("fetch", (ev) => {
  const req = ev.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  const page = req.mode === "navigate" && (url.pathname === "/" || url.pathname === "/rules" || url.pathname.startsWith("/t/"));
  if (!page && !kept(url)) return;
  ev.respondWith((async () => {
    try {
      const res = await fetch(req);
      if (res.ok && kept(url)) {
        const copy = res.clone();
        caches.open(CACHE).then((c) => c.put(req, copy));
      }
      return res;
    } catch {
      const cache = await caches.open(CACHE);
      // a table's page is the one document ("/"); its script says that the server is away
      return (await cache.match(page ? "/" : req)) || Response.error();
    }
  })());
});
