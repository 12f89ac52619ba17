/* The match page's behaviour. No inline script anywhere (CSP): everything
   is wired here by delegation. */
(function () {
  "use strict";

  var socket = null;

  function status(online) {
    var el = document.getElementById("connection");
    if (!el) { return; }
    el.textContent = online ? el.dataset.online : el.dataset.offline;
    el.classList.toggle("offline", !online);
  }

  /* Every action carries an id chosen once per form: a double tap or an htmx
     retry repeats the id, and the server appends the action only once. */
  function actionId(elt) {
    if (!elt.dataset.actionId) {
      var bytes = new Uint8Array(12);
      (window.crypto || window.msCrypto).getRandomValues(bytes);
      elt.dataset.actionId = Array.prototype.map.call(bytes, function (b) {
        return ("0" + b.toString(16)).slice(-2);
      }).join("");
    }
    return elt.dataset.actionId;
  }

  document.addEventListener("htmx:configRequest", function (evt) {
    if (evt.detail.verb === "post") {
      evt.detail.parameters.action_id = actionId(evt.detail.elt);
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
     just loaded. The server still decides what this phone may see. */
  if (window.htmx) {
    window.htmx.createWebSocket = function (url) {
      var shown = Array.prototype.map.call(
        document.querySelectorAll("#live section[data-h]"),
        function (el) { return el.dataset.h; }
      ).join(".");
      return new WebSocket(url + (url.indexOf("?") < 0 ? "?" : "&") + "h=" + shown);
    };
  }

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

  /* A push that changed only some trooper rows sends just those rows; the
     seq marker then names the block's new digest, recorded here so the
     digest checks above keep describing what the page shows. */
  document.addEventListener("htmx:wsAfterMessage", function () {
    var marker = document.getElementById("seq");
    var notes = marker && marker.dataset.blocks;
    if (!notes) { return; }
    notes.split(",").forEach(function (note) {
      var parts = note.split(":");
      var block = document.getElementById("blk-" + parts[0]);
      if (block && parts[1]) { block.dataset.h = parts[1]; }
    });
  });

  document.addEventListener("htmx:wsOpen", function (evt) {
    socket = evt.detail.socketWrapper;
    status(true);
  });
  document.addEventListener("htmx:wsClose", function () { socket = null; status(false); });
  document.addEventListener("htmx:wsError", function () { status(false); });
  document.addEventListener("htmx:sendError", function () { status(false); });

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
  window.addEventListener("online", resync);

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
  function verifyAll() {
    var nodes = document.querySelectorAll(".verify[data-commitment]:not([data-checked])");
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
  document.addEventListener("htmx:load", verifyAll);
  document.addEventListener("htmx:oobAfterSwap", verifyAll);
  document.addEventListener("DOMContentLoaded", verifyAll);
})();
