// The service worker: the app shell from a versioned cache, everything else from the network.
//
// VERSION and SHELL are not defined here: the server prepends them when it serves /sw.js
// (backend/tableside/web/worker.py). VERSION is a hash of every shell file, so a change to
// any of them makes a new worker, which fills a new cache and deletes the old ones.
//
// Cache-first for the shell: a judge must be able to open the app in a hall whose wifi just
// dropped. Network-only for /api, /live and the rest: commands go through the outbox, and
// stale match data must never be shown as if it were live.

const CACHE = `tableside-shell-${VERSION}`;
const PREFIX = "tableside-shell-";

self.addEventListener("install", (event) => {
  // cache: "reload" skips the HTTP cache, so the new cache holds exactly this version's files.
  const requests = SHELL.map((url) => new Request(url, { cache: "reload" }));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(requests)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  const old = caches.keys().then((keys) =>
    Promise.all(keys.filter((key) => key.startsWith(PREFIX) && key !== CACHE).map((key) => caches.delete(key))));
  event.waitUntil(old.then(() => self.clients.claim()));
});

/** The shell URL that answers a request, or null when the network must answer it. */
function shellUrl(request) {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return null;
  // A deep link to a match is the auditor's page; it reads the id from its own address.
  const path = url.pathname.startsWith("/audit/match/") ? "/audit" : url.pathname;
  return SHELL.includes(path) ? path : null;
}

self.addEventListener("fetch", (event) => {
  const path = shellUrl(event.request);
  if (!path) return; // not ours to answer: the browser goes to the network as usual
  event.respondWith(caches.open(CACHE).then((cache) => cache.match(path))
    .then((hit) => hit || fetch(event.request)));
});
