{% load static %}/* The tracker's service worker (served at /sw.js so that its scope is the
   whole site). Rendered by Django so that the precache list names the very
   static files this server serves.

   - Static files: cache first (they are the same for every viewer).
   - A match page (/m/<code>/, a navigation): network first. The answer is kept
     as the ONE offline copy of this browser, replacing whatever was kept
     before, so a phone keeps at most the last page it was itself shown: never
     a page of another seat (a seat's page is only ever served to the browser
     holding it), and once a seat moves to another phone with its PIN, the
     next page this phone loads (the public view) replaces the copy. A copy
     older than COPY_MAX_AGE is never shown.
   - Everything else (organizer pages, posts, partials, the socket) goes to
     the network untouched and is never stored. */
"use strict";

var VERSION = "{{ version }}";
var STATIC_CACHE = "tracker-static-" + VERSION;
var PAGE_CACHE = "tracker-last-page";
var COPY_MAX_AGE = 12 * 60 * 60 * 1000;
var PRECACHE = {{ precache_json|safe }};
var MATCH_PAGE = /^\/m\/[A-Za-z0-9_-]+\/$/;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC_CACHE)
      .then(function (cache) { return cache.addAll(PRECACHE); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("tracker-static-") === 0 && name !== STATIC_CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function staticFirst(request) {
  return caches.match(request).then(function (hit) {
    return hit || fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(STATIC_CACHE).then(function (cache) { cache.put(request, copy); });
      }
      return response;
    });
  });
}

function keepAsLastPage(request, response) {
  var copy = response.clone();
  return copy.text().then(function (html) {
    var headers = new Headers({ "Content-Type": "text/html; charset=utf-8", "X-Kept-At": String(Date.now()) });
    return caches.open(PAGE_CACHE).then(function (cache) {
      return cache.keys().then(function (old) {
        return Promise.all(old.map(function (key) { return cache.delete(key); }));
      }).then(function () { return cache.put(request.url, new Response(html, { headers: headers })); });
    });
  });
}

function offlineCopy(request) {
  return caches.open(PAGE_CACHE).then(function (cache) {
    return cache.match(request.url);
  }).then(function (kept) {
    if (!kept || Date.now() - Number(kept.headers.get("X-Kept-At") || 0) > COPY_MAX_AGE) {
      return Response.error();
    }
    return kept.text().then(function (html) {
      // The page's own CSS shows its offline banner on a kept copy.
      return new Response(html.replace("<html ", "<html data-offline-copy "), {
        headers: { "Content-Type": "text/html; charset=utf-8" }
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (url.pathname.indexOf({{ static_prefix_json|safe }}) === 0) {
    event.respondWith(staticFirst(request));
    return;
  }
  if (request.mode === "navigate" && MATCH_PAGE.test(url.pathname)) {
    event.respondWith(
      fetch(request).then(function (response) {
        if (response.ok && !response.redirected) {
          return keepAsLastPage(request, response).then(function () { return response; }, function () { return response; });
        }
        return response;
      }, function () { return offlineCopy(request); })
    );
  }
});
