/* The match page's behaviour. No inline script anywhere (CSP): everything
   is wired here by delegation. */
(function () {
  "use strict";

  var socket = null;

  /* The connection line tells the truth: online exactly when the socket is
     open (and the phone has a network). A failed tap says so on its own bar
     (#unsent) instead of claiming the socket is down. */
  var known = false;
  function status() {
    var el = document.getElementById("connection");
    if (!el || !known) { return; }
    var online = !!socket && navigator.onLine !== false;
    el.textContent = online ? el.dataset.online : el.dataset.offline;
    el.classList.toggle("offline", !online);
  }

  /* An action id stands for one tap, not for one form (issue 8). A tap is a
     submit of a form. While that tap is in flight (a double tap, which htmx
     queues behind it) or went unanswered (no network; tapping again is a
     retry), tapping the same unchanged form repeats its id, and the server
     appends it once. Once the server has answered, the next tap is a new
     action with a new id, even if the form and its block did not change:
     two reports in a row, two sealed notes, two AROs all count. */
  function newActionId() {
    var bytes = new Uint8Array(12);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function bodyOf(form) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "action_id") { pairs.push([name, String(value)]); }
    });
    return JSON.stringify(pairs);
  }

  /* Capture phase: runs before htmx's own submit handler on the form. */
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (!form || !form.hasAttribute || !form.hasAttribute("hx-post")) { return; }
    var body = bodyOf(form);
    var repeat = (form.dataset.tapPending === "1") && form.dataset.tapBody === body;
    if (!repeat || !form.dataset.actionId) {
      form.dataset.actionId = newActionId();
    }
    form.dataset.tapBody = body;
    form.dataset.tapPending = "1";
  }, true);

  document.addEventListener("htmx:configRequest", function (evt) {
    if (evt.detail.verb !== "post") { return; }
    var elt = evt.detail.elt;
    if (!elt.dataset.actionId) {  // a post not started by a submit
      elt.dataset.actionId = newActionId();
    }
    evt.detail.parameters.action_id = elt.dataset.actionId;
  });

  /* Answered (any HTTP status): the tap is over. Unanswered (status 0: no
     network, aborted): it stays pending, so tapping again retries it. */
  document.addEventListener("htmx:afterRequest", function (evt) {
    var elt = evt.detail.elt;
    var xhr = evt.detail.xhr;
    if (elt && elt.dataset && xhr && xhr.status > 0 && elt.dataset.tapPending) {
      delete elt.dataset.tapPending;
    }
  });

  /* A tap that could not be sent (no network, server unreachable) is kept
     with its action id; "Send it again" re-sends it with the SAME id, so if
     the first one did reach the server after all, nothing is doubled. This
     listener runs after the one above, whatever that one's id policy is
     (one per form here, one per tap on branch i8forms): it only records the
     tap, or puts the recorded id back on a re-send. */
  var unsent = null;
  var resending = null;
  document.addEventListener("htmx:configRequest", function (evt) {
    if (evt.detail.verb !== "post") { return; }
    if (resending) {
      evt.detail.parameters.action_id = resending.id;
      return;
    }
    var values = {};
    var data = evt.detail.formData;
    if (data && data.forEach) {
      data.forEach(function (value, key) {
        if (key === "action_id") { return; }
        if (key in values) { values[key] = [].concat(values[key], value); } else { values[key] = value; }
      });
    }
    evt.detail.elt.trackerTap = { path: evt.detail.path, values: values, id: evt.detail.parameters.action_id };
  });
  function showUnsent(tap) {
    unsent = tap;
    var bar = document.getElementById("unsent");
    if (bar) { bar.hidden = !tap; }
  }
  /* Watched on the request itself: by the time it fails, a push may have
     replaced the form, and events of a detached form never reach document. */
  document.addEventListener("htmx:beforeSend", function (evt) {
    var tap = evt.detail.elt && evt.detail.elt.trackerTap;
    var xhr = evt.detail.xhr;
    if (!tap || !xhr || evt.detail.requestConfig.verb !== "post") { return; }
    var failed = function () { showUnsent(tap); };
    xhr.addEventListener("error", failed);
    xhr.addEventListener("timeout", failed);
    xhr.addEventListener("load", function () {
      if (unsent && unsent.id === tap.id) { showUnsent(null); }
    });
  });
  document.addEventListener("click", function (evt) {
    if (!evt.target.closest || !evt.target.closest("#resend") || !unsent || !window.htmx) { return; }
    var live = document.getElementById("live");
    resending = unsent;
    live.trackerTap = unsent;
    try {
      window.htmx.ajax("POST", unsent.path, { source: live, values: unsent.values, swap: "none" });
    } finally {
      resending = null;
    }
  });

  /* Skip swapping in a block identical to the one shown (same digest): the
     HTTP response and the push for one action carry the same block, and the
     second must not wipe what the player started typing since. */
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var incoming = evt.detail.fragment && evt.detail.fragment.firstElementChild;
    var shown = evt.detail.target;
    if (incoming && shown && incoming.dataset && shown.dataset &&
        incoming.dataset.h && incoming.dataset.h === shown.dataset.h) {
      evt.detail.shouldSwap = false;
    }
  });

  /* The answer to this phone's own request and the socket's pushes travel on
     two connections. If a push for a newer seq landed first, the answer shows
     the past: swapping it in would roll the page back, and the socket only
     re-sends blocks that change again. Keep the page and resync instead. */
  function seqIn(html) {
    var found = /id="seq"[^>]*data-seq="(\d+)"/.exec(html || "");
    return found ? Number(found[1]) : null;
  }
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var shown = document.getElementById("seq");
    var answered = seqIn(evt.detail.serverResponse);
    if (shown && answered !== null && answered < Number(shown.dataset.seq)) {
      evt.detail.shouldSwap = false;
      resync();
    }
  });

  /* Each (re)connect names the blocks this page shows (their digests), so
     the first frame carries only what differs instead of repeating the page
     just loaded; so does each tap (X-Tracker-Shown), so its answer carries
     only the blocks, or trooper rows, that changed. The server still decides
     what this phone may see: the names only leave things out. */
  function shownDigests() {
    return Array.prototype.map.call(
      document.querySelectorAll("#live section[data-h]"),
      function (el) { return el.dataset.h; }
    ).join(".");
  }
  if (window.htmx) {
    window.htmx.createWebSocket = function (url) {
      return new WebSocket(url + (url.indexOf("?") < 0 ? "?" : "&") + "h=" + shownDigests());
    };
  }
  document.addEventListener("htmx:configRequest", function (evt) {
    if (evt.detail.verb === "post" && document.getElementById("live")) {
      evt.detail.headers["X-Tracker-Shown"] = shownDigests();
    }
  });

  /* 503 "busy, tap again" (tracker/busy.py): nothing was written; show the
     server's words at the top of the controls, where refusals appear. */
  document.addEventListener("htmx:responseError", function (evt) {
    var xhr = evt.detail.xhr;
    if (!xhr || xhr.status !== 503) { return; }
    var text = new DOMParser().parseFromString(xhr.responseText || "", "text/html").body.textContent.trim();
    var controls = document.getElementById("blk-controls");
    if (!controls || !text) { return; }
    var shown = controls.querySelector("p.busy") || document.createElement("p");
    shown.className = "error busy";
    shown.setAttribute("role", "alert");
    shown.textContent = text;
    controls.insertBefore(shown, controls.firstChild);
  });

  /* A push or an answer that changed only some trooper rows sends just
     those rows; the seq marker then names the block's new digest, recorded
     here so the digest checks above keep describing what the page shows. */
  function noteDigests() {
    var marker = document.getElementById("seq");
    var notes = marker && marker.dataset.blocks;
    if (!notes) { return; }
    notes.split(",").forEach(function (note) {
      var parts = note.split(":");
      var block = document.getElementById("blk-" + parts[0]);
      if (block && parts[1]) { block.dataset.h = parts[1]; }
    });
  }
  document.addEventListener("htmx:wsAfterMessage", noteDigests);
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "seq") { noteDigests(); }
  });

  document.addEventListener("htmx:wsOpen", function (evt) {
    socket = evt.detail.socketWrapper;
    known = true;
    status();
  });
  document.addEventListener("htmx:wsClose", function () { socket = null; known = true; status(); });
  window.addEventListener("offline", function () { known = true; status(); });

  /* A phone waking up resyncs at once instead of waiting for the backoff. */
  function resync() {
    if (socket) {
      socket.send(JSON.stringify({ resync: true }));
    } else {
      var live = document.getElementById("live");
      if (live && window.htmx) {
        window.htmx.ajax("GET", "/m/" + live.dataset.code + "/blocks/", { swap: "none", source: live });
      }
    }
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { resync(); }
  });
  window.addEventListener("online", function () { status(); resync(); });

  /* Tap on the table map: store whole millimetres (120 x 120 cm table). */
  document.addEventListener("click", function (evt) {
    var svg = evt.target.closest && evt.target.closest("svg.tablemap[data-x]");
    if (!svg) { return; }
    var point = svg.createSVGPoint();
    point.x = evt.clientX;
    point.y = evt.clientY;
    var local = point.matrixTransform(svg.getScreenCTM().inverse());
    var x = Math.max(0, Math.min(1200, Math.round(local.x)));
    var y = Math.max(0, Math.min(1200, Math.round(local.y)));
    document.getElementById(svg.dataset.x).value = x;
    document.getElementById(svg.dataset.y).value = y;
    var pin = svg.querySelector("circle.pin");
    pin.setAttribute("cx", x);
    pin.setAttribute("cy", y);
  });

  /* Recompute each revealed commitment on this phone:
     sha256(nonce bytes || canonical JSON as UTF-8). */
  function hexBytes(hex) {
    var out = new Uint8Array(hex.length / 2);
    for (var i = 0; i < out.length; i++) { out[i] = parseInt(hex.substr(i * 2, 2), 16); }
    return out;
  }
  /* sha256.js is fetched the first time a commitment is there to check (a
     secret revealed), not with every page: most pages never need it. */
  var fetchingSha256 = false;
  function loadSha256(then) {
    var url = document.body && document.body.dataset.sha256;
    if (fetchingSha256 || !url) { return; }
    fetchingSha256 = true;
    var script = document.createElement("script");
    script.src = url;
    script.onload = then;
    script.onerror = function () { fetchingSha256 = false; };  // the next change retries
    document.head.appendChild(script);
  }
  function verifyAll() {
    var nodes = document.querySelectorAll(".verify[data-commitment]:not([data-checked])");
    if (nodes.length && typeof window.trackerSha256 !== "function") {
      loadSha256(verifyAll);
      return;
    }
    Array.prototype.forEach.call(nodes, function (node) {
      var nonce = hexBytes(node.dataset.nonce || "");
      var text = new TextEncoder().encode(node.dataset.canonical || "");
      var bytes = new Uint8Array(nonce.length + text.length);
      bytes.set(nonce);
      bytes.set(text, nonce.length);
      var ok = window.trackerSha256(bytes) === node.dataset.commitment;
      node.dataset.checked = ok ? "ok" : "bad";
      node.textContent = ok ? node.dataset.ok : node.dataset.bad;
    });
  }
  /* Banners (issue 10): each stays until this phone acknowledges it; the
     acknowledged ones are remembered per phone (localStorage), and a new one
     vibrates once where the phone can. */
  function store() {
    try { return window.localStorage; } catch (e) { return null; }
  }
  function remembered(key) {
    var s = store();
    return !!(s && s.getItem(key));
  }
  function remember(key) {
    var s = store();
    if (s) { try { s.setItem(key, "1"); } catch (e) { /* full: banner just returns */ } }
  }
  function banners() {
    var buzz = false;
    Array.prototype.forEach.call(document.querySelectorAll("[data-banner]"), function (node) {
      var key = "tracker-ack:" + node.dataset.banner;
      node.hidden = remembered(key);
      if (!node.hidden && !remembered("tracker-buzz:" + node.dataset.banner)) {
        remember("tracker-buzz:" + node.dataset.banner);
        buzz = true;
      }
    });
    if (buzz && navigator.vibrate) {
      try { navigator.vibrate([180, 80, 180]); } catch (e) { /* not allowed yet */ }
    }
    bannerStrip();
  }
  /* The strip over the banners (issue 19): how many this phone has not
     acknowledged, the newest two shown (CSS), "Show all" for the rest, and
     one "Got it" for all of them. Hidden once none is left. */
  function bannerStrip() {
    Array.prototype.forEach.call(document.querySelectorAll(".banners"), function (strip) {
      var bar = strip.querySelector("[data-banner-bar]");
      if (!bar) { return; }
      var left = strip.querySelectorAll("[data-banner]:not([hidden])").length;
      bar.hidden = left === 0;
      var count = bar.querySelector("[data-banner-count]");
      if (count) { count.textContent = String(left); }
      var more = bar.querySelector("[data-banner-more]");
      if (more) { more.hidden = left <= 2 || strip.classList.contains("open"); }
    });
  }
  document.addEventListener("click", function (evt) {
    var more = evt.target.closest && evt.target.closest("[data-banner-more]");
    if (more) {
      more.closest(".banners").classList.add("open");
      bannerStrip();
      return;
    }
    var button = evt.target.closest && evt.target.closest("[data-ack]");
    var strip = button && button.closest(".banners");
    if (!strip) { return; }
    Array.prototype.forEach.call(strip.querySelectorAll("[data-banner]"), function (banner) {
      remember("tracker-ack:" + banner.dataset.banner);
      banner.hidden = true;
    });
    bannerStrip();
  });

  /* An error answer stays until the page moves on: a newer seq, or the
     player's next tap. */
  var errorSeq = null;
  function clearStaleError() {
    var seq = document.getElementById("seq");
    var error = document.querySelector("#blk-controls > .error");
    if (!error || !seq) { errorSeq = null; return; }
    if (errorSeq === null) { errorSeq = seq.dataset.seq; return; }
    if (seq.dataset.seq !== errorSeq) { error.remove(); errorSeq = null; }
  }
  document.addEventListener("htmx:beforeRequest", function (evt) {
    if (evt.detail.requestConfig && evt.detail.requestConfig.verb === "post") {
      var error = document.querySelector("#blk-controls > .error");
      if (error) { error.remove(); }
      errorSeq = null;
    }
  });

  /* Spending a Command Token asks first (TM-S2 above all: once per game). */
  document.addEventListener("htmx:confirm", function (evt) {
    var card = evt.target.closest && evt.target.closest("[data-confirm-spend]");
    if (!card || evt.detail.question) { return; }
    // Declining a use spends nothing (e.g. "let the moment pass", branch i8rules).
    var path = evt.target.getAttribute && (evt.target.getAttribute("hx-post") || "");
    if (/\/Decline[A-Za-z]*\/$/.test(path)) { return; }
    evt.preventDefault();
    var once = evt.target.closest("[data-once-per-game]");
    if (window.confirm(once ? card.dataset.confirmOnce : card.dataset.confirmSpend)) {
      evt.detail.issueRequest(true);
    }
  });

  /* Keep the screen on during a match, where the phone allows it. */
  var wakeLock = null;
  function wantWake() {
    var header = document.getElementById("blk-header");
    return !!header && header.dataset.phase !== "finished" && document.visibilityState === "visible";
  }
  function keepAwake() {
    if (!("wakeLock" in navigator)) { return; }
    if (wantWake() && !wakeLock) {
      navigator.wakeLock.request("screen").then(function (lock) {
        wakeLock = lock;
        lock.addEventListener("release", function () { wakeLock = null; });
      }, function () { wakeLock = null; });
    } else if (!wantWake() && wakeLock) {
      wakeLock.release();
    }
  }
  document.addEventListener("visibilitychange", keepAwake);

  /* Installable: the service worker caches the static files and keeps the
     last match page this phone saw for when the network is gone. */
  function registerWorker() {
    var url = document.body && document.body.dataset.sw;
    if (url && "serviceWorker" in navigator && window.isSecureContext) {
      navigator.serviceWorker.register(url, { scope: "/" }).catch(function () { /* optional */ });
    }
  }

  /* Issue 17: tell the service worker what this live page is, so that it
     drops a kept offline copy this browser may no longer see: the session
     tag (tracker/offline_copy.py; gone when the cookies are) and, on a
     match page, whom the page is shown to now (a PIN move on another phone
     makes this one a spectator at the next push). Kept apart from the
     connection code on purpose. */
  function tellWorker() {
    if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) { return; }
    var found = document.cookie.split("; ").filter(function (pair) {
      return pair.indexOf("tracker_copy=") === 0;
    })[0];
    var live = document.getElementById("live");
    var header = document.getElementById("blk-header");
    navigator.serviceWorker.controller.postMessage({
      type: "tracker-page",
      tag: found ? found.slice("tracker_copy=".length) : "",
      match: live ? live.dataset.code : null,
      viewer: header && header.hasAttribute("data-viewer") ? header.dataset.viewer : null
    });
  }
  document.addEventListener("DOMContentLoaded", tellWorker);
  document.addEventListener("htmx:oobAfterSwap", tellWorker);
  document.addEventListener("htmx:afterSettle", tellWorker);

  /* A list (select with size) starts on its first entry, like a drop-down. */
  function pickFirst() {
    Array.prototype.forEach.call(document.querySelectorAll("select[size]"), function (list) {
      if (list.selectedIndex < 0 && list.options.length) { list.selectedIndex = 0; }
    });
  }

  function afterChange() {
    pickFirst();
    verifyAll();
    banners();
    clearStaleError();
    keepAwake();
    status();
  }
  document.addEventListener("htmx:load", afterChange);
  document.addEventListener("htmx:oobAfterSwap", afterChange);
  document.addEventListener("DOMContentLoaded", function () {
    afterChange();
    registerWorker();
  });

  /* Receipts (issue 11): keep every head of the match this phone was shown
     (seq and hash) in localStorage, outside the server's reach, and list
     them. Each is checked later on the organizer's audit page or with
     `manage.py verify_matches --receipt`. The code shown is the hash's first
     32 hex digits (128 bits, what the audit accepts: tracker/audit.py
     receipt_code), in groups of four. */
  function receiptCode(hash) {
    var digits = hash.slice(0, 32).toUpperCase();
    return digits.match(/.{1,4}/g).join("-");
  }
  /* Issue 22: a head this phone kept for the seq shown now, with another
     hash, means the history up to that seq was rewritten: say so loudly and
     keep both. Only the same seq is compared: a log is append-only, so one
     seq has one hash, and that can never be a false alarm (a lower seq than
     one kept could be an old copy of the page; the audit checks those). */
  function contradicted(kept, seq, hash) {
    return kept.filter(function (r) { return r.seq === seq && r.hash !== hash; });
  }
  function keepReceipt() {
    var node = document.getElementById("receipt");
    if (!node || !node.dataset.hash) { return; }
    var key = "tracker-receipts:" + node.dataset.match;
    var kept = [];
    try { kept = JSON.parse(window.localStorage.getItem(key) || "[]"); } catch (e) { kept = []; }
    if (!Array.isArray(kept)) { kept = []; }
    var seq = parseInt(node.dataset.seq, 10);
    var hash = node.dataset.hash;
    // The service worker's kept copy of an old page: nothing new to keep.
    var oldCopy = document.documentElement.hasAttribute("data-offline-copy");
    var changed = oldCopy ? [] : contradicted(kept, seq, hash);
    if (!oldCopy && !kept.some(function (r) { return r.seq === seq && r.hash === hash; })) {
      kept.push({ seq: seq, hash: hash, at: new Date().toISOString() });
      try { window.localStorage.setItem(key, JSON.stringify(kept)); } catch (e) { /* private mode: shown only */ }
    }
    var list = node.querySelector(".kept");
    if (list) {
      list.textContent = list.dataset.label + " " + kept.map(function (r) {
        return "#" + r.seq + " " + receiptCode(r.hash);
      }).join(", ");
    }
    var warning = node.querySelector(".receipt-changed");
    if (!warning) { return; }
    var wasHidden = warning.hidden;
    warning.hidden = !changed.length;
    var codes = warning.querySelector(".codes");
    if (codes && changed.length) {
      codes.textContent = codes.dataset.kept + " " + changed.map(function (r) {
        return "#" + r.seq + " " + receiptCode(r.hash);
      }).join(", ") + ". " + codes.dataset.shown + " #" + seq + " " + receiptCode(hash) + ".";
    }
    if (changed.length && wasHidden && navigator.vibrate) {
      try { navigator.vibrate([400, 120, 400]); } catch (e) { /* not allowed yet */ }
    }
  }
  document.addEventListener("htmx:load", keepReceipt);
  document.addEventListener("htmx:oobAfterSwap", keepReceipt);
  document.addEventListener("DOMContentLoaded", keepReceipt);
})();

