{% load static %}/* The tracker's service worker (served at /sw.js so that its scope is the
   whole site). Rendered by Django so that the precache list names the very
   static files this server serves (hashed names under `make run`).

   - Static files and the offline page: cache first (the same for every viewer).
   - A match page (/m/<code>/, a navigation): network first, for at most
     NETWORK_WAIT (below). An answer the
     server marks as keepable (X-Tracker-Copy; only the match page is) is
     kept as the ONE offline copy of this browser, replacing whatever was
     kept before, with the session tag it was rendered for and its viewer
     (tracker/offline_copy.py). It is shown offline only while:
       * the `tracker_copy` cookie still equals that tag: cookies cleared,
         the session ended, a logout or another seat taken here change it;
       * no live page of that match has said its viewer changed since (a PIN
         move on another phone turns this one into a spectator at the next
         push; app.js tells this worker, which drops the copy);
       * it is less than COPY_MAX_AGE old.
     Where the cookie cannot be read here (no Cookie Store API), only a copy
     kept without a session (a spectator's public page) is ever shown.
   - A navigation that fails with no copy to show gets the offline page,
     with a link to the kept copy when there is one it may show.
   - Everything else (organizer pages, the host page, posts, partials, the
     socket) goes to the network untouched and is never stored. */
"use strict";

var VERSION = "{{ version }}";
var STATIC_CACHE = "tracker-static-" + VERSION;
var PAGE_CACHE = "tracker-last-page";
var COPY_MAX_AGE = 12 * 60 * 60 * 1000;
var PRECACHE = {{ precache_json|safe }};
var OFFLINE_URL = {{ offline_url_json|safe }};
var MATCH_PAGE = /^\/m\/([A-Za-z0-9_-]+)\/$/;
var COOKIE = "tracker_copy";
/* A stalled Wi-Fi neither answers a navigation nor fails it: the phone
   waited on a blank page for as long as the stall lasted. Past this, the
   kept copy (marked as one) or the offline page is shown instead. */
var NETWORK_WAIT = 5000;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC_CACHE)
      .then(function (cache) { return cache.addAll(PRECACHE.concat([OFFLINE_URL])); })
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

function dropKept() {
  return caches.delete(PAGE_CACHE);
}

function keepAsLastPage(request, response) {
  var tag = response.headers.get("X-Tracker-Copy");
  if (tag === null) { return Promise.resolve(); }  // the server did not offer it
  var viewer = response.headers.get("X-Tracker-Viewer") || "";
  return response.clone().text().then(function (html) {
    var headers = new Headers({
      "Content-Type": "text/html; charset=utf-8",
      "X-Kept-At": String(Date.now()),
      "X-Kept-Tag": tag,
      "X-Kept-Viewer": viewer
    });
    return dropKept().then(function () {
      return caches.open(PAGE_CACHE);
    }).then(function (cache) {
      return cache.put(request.url, new Response(html, { headers: headers }));
    });
  });
}

function currentTag() {
  if (!self.cookieStore) { return Promise.resolve(null); }  // unknown
  return self.cookieStore.get(COOKIE).then(function (cookie) {
    return cookie ? cookie.value : "";
  }, function () { return null; });
}

/* The kept copy (its URL and Response) if this browser may still see it;
   one it may not is dropped on the way. */
function keptCopy() {
  return caches.open(PAGE_CACHE).then(function (cache) {
    return cache.keys().then(function (keys) {
      if (!keys.length) { return null; }
      return cache.match(keys[0]).then(function (kept) {
        return currentTag().then(function (tag) {
          var keptTag = kept.headers.get("X-Kept-Tag") || "";
          var fresh = Date.now() - Number(kept.headers.get("X-Kept-At") || 0) <= COPY_MAX_AGE;
          var same = tag === null ? keptTag === "" : tag === keptTag;
          if (!fresh || !same) { return dropKept().then(function () { return null; }); }
          return { url: keys[0].url, response: kept };
        });
      });
    });
  });
}

function offlinePage(keptUrl) {
  return caches.match(OFFLINE_URL).then(function (page) {
    if (!page) { return Response.error(); }
    return page.text().then(function (html) {
      if (keptUrl) {
        var path = new URL(keptUrl).pathname;
        if (MATCH_PAGE.test(path)) {
          html = html.replace('<p data-kept-copy hidden><a href="/">', '<p data-kept-copy><a href="' + path + '">');
        }
      }
      return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
    });
  });
}

function offline(request) {
  return keptCopy().then(function (kept) {
    if (kept && kept.url === request.url) {
      return kept.response.text().then(function (html) {
        // The page's own CSS shows its offline banner on a kept copy.
        return new Response(html.replace("<html ", "<html data-offline-copy "), {
          headers: { "Content-Type": "text/html; charset=utf-8" }
        });
      });
    }
    return offlinePage(kept && kept.url);
  });
}

/* A live page tells this worker what it is (static/tracker/app.js,
   tellWorker): the session tag it reads from its cookie, and for a match
   page the match and whom it is now shown to. A kept copy that no longer
   fits is dropped at once. */
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "tracker-page") { return; }
  event.waitUntil(caches.open(PAGE_CACHE).then(function (cache) {
    return cache.keys().then(function (keys) {
      if (!keys.length) { return null; }
      return cache.match(keys[0]).then(function (kept) {
        var keptTag = kept.headers.get("X-Kept-Tag") || "";
        var path = new URL(keys[0].url).pathname;
        var samePage = typeof data.match === "string" && path === "/m/" + data.match + "/";
        var moved = samePage && typeof data.viewer === "string" &&
          data.viewer !== (kept.headers.get("X-Kept-Viewer") || "");
        if ((typeof data.tag === "string" && data.tag !== keptTag) || moved) {
          return dropKept();
        }
        return null;
      });
    });
  }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (url.pathname.indexOf({{ static_prefix_json|safe }}) === 0 || url.pathname === OFFLINE_URL) {
    event.respondWith(staticFirst(request));
    return;
  }
  if (request.mode !== "navigate") { return; }
  if (MATCH_PAGE.test(url.pathname)) {
    event.respondWith(new Promise(function (resolve) {
      var waiting = setTimeout(function () { resolve(offline(request)); }, NETWORK_WAIT);
      // Once the network answers, its answer is what is shown: the timer
      // stops then, not when the page is kept, so a slow cache never turns
      // an answered load into the old copy. An answer after the wait is
      // still kept (it is newer than the copy), though not shown.
      fetch(request).then(function (response) {
        clearTimeout(waiting);
        if (response.ok && !response.redirected) {
          var shown = function () { resolve(response); };
          keepAsLastPage(request, response).then(shown, shown);
        } else {
          resolve(response);
        }
      }, function () {
        clearTimeout(waiting);
        resolve(offline(request));
      });
    }));
    return;
  }
  // Any other page: the network, and the offline page when there is none.
  event.respondWith(fetch(request).catch(function () { return offline(request); }));
});
