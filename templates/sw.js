// gramgen's service worker, registered by gramgen.js when site.yml says `offline: true`.
// Pages (and the manifest): from the network, else the last copy kept (so a reader offline still
// sees what they visited). Pictures, videos and theme files have content-hashed names that never change: from
// the cache, else the network. Only this site's own GET requests are touched, and the live
// preview's endpoints (/_gramgen/) never; at most 60 pages and 400 files are kept, oldest out first.
var PAGES = "gramgen-pages-v1", FILES = "gramgen-files-v1";
var SCOPE = new URL("./", self.location).pathname;

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== PAGES && k !== FILES; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

function trim(name, max) {
  return caches.open(name).then(function (cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.slice(0, Math.max(0, keys.length - max)).map(function (k) { return cache.delete(k); }));
    });
  });
}

function keep(name, max, request, response) {
  if (!response || response.status !== 200 || response.type !== "basic") return;
  var copy = response.clone();
  caches.open(name).then(function (cache) { return cache.put(request, copy); }).then(function () { return trim(name, max); });
}

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.indexOf(SCOPE) !== 0) return;
  if (url.pathname.indexOf("/_gramgen/") >= 0 || url.pathname === new URL("sw.js", self.location).pathname) return;
  if (request.mode === "navigate" || url.pathname === new URL("manifest.webmanifest", self.location).pathname) {
    event.respondWith(fetch(request).then(function (response) {
      keep(PAGES, 60, request, response);
      return response;
    }).catch(function () {
      return caches.match(request, { cacheName: PAGES }).then(function (hit) { return hit || Response.error(); });
    }));
  } else if (/\/(media|assets|icons)\//.test(url.pathname.slice(SCOPE.length - 1)) && !request.headers.has("range")) {
    event.respondWith(caches.match(request, { cacheName: FILES }).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        keep(FILES, 400, request, response);
        return response;
      });
    }));
  }
});
