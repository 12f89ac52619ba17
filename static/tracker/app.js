/* The match page's behaviour. No inline script anywhere (CSP): everything
   is wired here by delegation. */
(function () {
  "use strict";

  /* ---------------------------------------------------------------------
     The link to the server (issue 17): a connection line that is true
     within 3 s whatever the network does, and taps that are never lost
     nor applied without the player's consent. */

  var PING_EVERY = 1000;       // ms between pings while the socket is open
  var SILENT_AFTER = 2200;     // nothing heard for this long: the link is dead
  var CONNECT_TIMEOUT = 5000;  // a try with no first frame by then is dropped
  var BACKOFF_CAP = 2000;      // the longest wait between two tries to connect
  var REQUEST_TIMEOUT = 4000;  // every htmx request, taps included
  var DEADLINE_MARGIN = 500;   // a tap's deadline falls this long before the phone gives up on it
  var SENDS = 3;               // sends of one tap before it is "not saved"
  var PATIENCE = 8000;         // ms a tap waits for a dead link to come back before "not saved"
  var CATCH_UP = 2500;         // ms behind the seq the pongs say before asking for it

  if (window.htmx) { window.htmx.config.timeout = REQUEST_TIMEOUT; }

  /* Our own socket, not htmx-ext-ws: the extension has no heartbeat, no
     way to connect again at once when the network comes back, and its
     backoff grows to 64 s with full jitter. The frames are the same
     hx-swap-oob fragments, swapped by htmx's own htmx.swap. */
  var link = {
    ws: null,
    live: false,     // open, and heard from within SILENT_AFTER
    ever: false,     // has been live once: retries then wait for it
    known: false,    // "Connecting…" until the first open or failure
    gone: false,     // the server said there is no such match: stop trying
    tries: 0,
    since: 0
  };

  /* The connection line says "Live" exactly while the socket is live (and
     the phone has a network). A failed tap says so on its own bar (#unsent)
     instead of claiming the socket is down. */
  function status() {
    var el = document.getElementById("connection");
    if (!el || !link.known) { return; }
    var online = link.live && navigator.onLine !== false;
    el.textContent = online ? el.dataset.online : el.dataset.offline;
    el.classList.toggle("offline", !online);
  }

  function socketPath() {
    var live = document.getElementById("live");
    return live && live.dataset.socket;
  }

  function connect() {
    var path = socketPath();
    if (!path || link.gone) { return; }
    forget();
    clearTimeout(link.retry);
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var ws;
    try {
      // Naming the blocks shown: the first frame carries only what differs.
      ws = new WebSocket(scheme + location.host + path + "?h=" + shownDigests());
    } catch (e) {
      lost();
      return;
    }
    link.ws = ws;
    link.since = Date.now();
    link.connecting = setTimeout(function () { if (link.ws === ws) { lost(); } }, CONNECT_TIMEOUT);
    ws.onopen = function () {
      ping();
      link.pinging = setInterval(ping, PING_EVERY);
    };
    /* Live from the first frame on (the page as the server has it now),
       not from the handshake: until then the page may be out of date. */
    ws.onmessage = function (evt) {
      if (!link.live) {
        clearTimeout(link.connecting);
        link.tries = 0;
        link.live = link.ever = link.known = true;
        // A kept offline copy is the live page from this frame on (it
        // brings what changed since, the round clock too): no longer a copy.
        document.documentElement.removeAttribute("data-offline-copy");
        status();
        linkUp();
      }
      heard();
      onFrame(evt.data);
    };
    ws.onclose = function (evt) {
      if (link.ws !== ws) { return; }
      if (evt.code === 4404) { link.gone = true; }  // no such match: trying again cannot help
      lost();
    };
  }

  /* Every frame (a pong, a push) shows the link is alive; silence for
     SILENT_AFTER means it is not, whatever TCP says (a stalled Wi-Fi). */
  function heard() {
    clearTimeout(link.silence);
    link.silence = setTimeout(lost, SILENT_AFTER);
  }

  function ping() {
    if (!link.ws || link.ws.readyState !== 1) { return; }
    try { link.ws.send(JSON.stringify({ ping: performance.now() })); } catch (e) { /* closing */ }
  }

  /* Let go of the socket at once: a stalled link would never finish the
     close handshake, and nothing it delivers later is wanted. */
  function forget() {
    var ws = link.ws;
    link.ws = null;
    link.live = false;
    clearTimeout(link.connecting);
    clearTimeout(link.silence);
    clearInterval(link.pinging);
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try { ws.close(); } catch (e) { /* already closed */ }
    }
  }

  /* Connect again after a short wait: 0.25, 0.5, 1, then 2 s at most (half
     of it jittered), so a venue's phones do not all come back in step. */
  function lost() {
    forget();
    link.known = true;
    status();
    if (link.gone) { return; }
    var wait = Math.min(BACKOFF_CAP, 250 * Math.pow(2, link.tries));
    link.tries += 1;
    clearTimeout(link.retry);
    link.retry = setTimeout(connect, wait / 2 + Math.random() * wait / 2);
  }

  /* The network or the page came back, or a request just got through:
     try now rather than at the end of the backoff. */
  function reconnectNow() {
    if (link.live || link.gone || !socketPath()) { return; }
    if (link.ws && Date.now() - link.since < 1000) { return; }  // a try just started
    link.tries = 0;
    connect();
  }

  function onFrame(data) {
    if (typeof data !== "string") { return; }
    if (data[0] === "{") {
      var message = null;
      try { message = JSON.parse(data); } catch (e) { return; }
      clockSample(message);
      behind(message);
      return;
    }
    var live = document.getElementById("live");
    if (!live || !window.htmx) { return; }
    window.htmx.swap(live, withoutGone(data), { swapStyle: "none" });
    noteDigests();
  }

  /* A log line the page no longer shows needs no deleting: the answer to a
     tap and the push for it both carry the delete of the line that fell
     off a list (rendering._list_delta), and whichever comes second finds
     nothing, which htmx reports as an error (oobErrorNoTarget). */
  var DELETED_LINE = /<li id="([^"]+)" hx-swap-oob="delete"><\/li>/g;
  function withoutGone(html) {
    return html.replace(DELETED_LINE, function (line, id) {
      return document.getElementById(id) ? line : "";
    });
  }

  /* The server's clock, from the pongs (tracker/heartbeat.py): each says
     the server's time when it answered; half the round trip later is now.
     The sample with the shortest round trip of the last few is the surest. */
  var clock = [];
  function clockSample(pong) {
    if (!pong || typeof pong.pong !== "number" || typeof pong.t !== "number") { return; }
    var rtt = performance.now() - pong.pong;
    if (!(rtt >= 0 && rtt < 10000)) { return; }
    clock.push({ rtt: rtt, offset: pong.t + rtt / 2 - Date.now() });
    if (clock.length > 8) { clock.shift(); }
  }
  /* The server's time now, minus the estimate's uncertainty (half the
     round trip): a deadline from it errs early, never late. */
  function serverNowAtTheEarliest() {
    if (!clock.length) { return null; }
    var best = clock.reduce(function (a, b) { return b.rtt < a.rtt ? b : a; });
    return Date.now() + best.offset - best.rtt / 2;
  }

  window.addEventListener("pageshow", function (evt) { if (evt.persisted) { reconnectNow(); } });
  window.addEventListener("online", function () { status(); reconnectNow(); });
  window.addEventListener("offline", function () { link.known = true; status(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible") { return; }
    if (link.live) { resync(); } else { reconnectNow(); }
  });

  /* Each pong says the match's newest seq (tracker/match_seqs.py). A push
     is at most once (the server's channel layer may drop one): a page still
     behind that seq CATCH_UP after a pong first said so missed it, and asks
     for what it lacks. Not at once: the push may be on its way. */
  var behindSince = null;
  function behind(pong) {
    var shown = document.getElementById("seq");
    if (!pong || typeof pong.seq !== "number" || !shown || pong.seq <= Number(shown.dataset.seq)) {
      behindSince = null;
      return;
    }
    var now = performance.now();
    if (behindSince === null) { behindSince = now; return; }
    if (now - behindSince >= CATCH_UP) {
      behindSince = null;  // and as long again before asking again
      resync();
    }
  }

  /* Ask for the server's blocks: over the socket if it is live (its answer
     carries what this phone lacks: the blocks it shows are named, as at
     connecting), else over HTTP. */
  function resync() {
    if (link.live) {
      try {
        link.ws.send(JSON.stringify({ resync: true, h: shownDigests() }));
        return;
      } catch (e) { /* fall through */ }
    }
    var live = document.getElementById("live");
    if (live && window.htmx) {
      // Unanswered in a stall or a cut: nothing to do (htmx rejects its
      // promise; left unhandled it was an uncaught error in the page). The
      // socket's first frame brings what the page lacks once the link is back.
      window.htmx.ajax("GET", "/m/" + live.dataset.code + "/blocks/", { swap: "none", source: live })
        .catch(function () { /* not answered */ });
    }
  }

  /* ---------------------------------------------------------------------
     Taps. An action id stands for one tap, not for one form (issue 8). A
     tap is a submit of a form. While that tap is in flight (a double tap,
     which htmx queues behind it) or went unanswered (no network; tapping
     again is a retry), tapping the same unchanged form repeats its id, and
     the server appends it once. Once the server has answered, the next tap
     is a new action with a new id, even if the form and its block did not
     change: two reports in a row, two sealed notes, two AROs all count. */
  function newActionId() {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes).map(function (b) {
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

  /* An organizer's step that cannot be taken back (calling time for every
     table of a round, locking every list now) asks first: a plain form with
     data-confirm (the page's own question, in its language). */
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    var question = form && form.dataset && form.dataset.confirm;
    // Declined: nothing after this handler treats it as a tap either.
    if (question && !window.confirm(question)) { evt.preventDefault(); evt.stopImmediatePropagation(); }
  }, true);

  /* Capture phase: runs before htmx's own submit handler on the form. */
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (!form || !form.hasAttribute || !form.hasAttribute("hx-post")) { return; }
    var body = bodyOf(form);
    if (form.dataset.actionId && taps[form.dataset.actionId] && form.dataset.tapBody !== body) {
      /* A new tap on a form whose last tap is still on its way (a stalled
         Wi-Fi: the next army list row typed and added): htmx would queue
         it on this form, which that tap's answer swaps out, and drop it;
         sent now from this form, it would carry the row id offered for
         the row on its way. It is sent from the form the answer brings
         (its fields filled as tapped), or left typed if no new form comes. */
      evt.preventDefault();
      evt.stopImmediatePropagation();
      form.deferredPairs = JSON.parse(body);
      return;
    }
    delete form.deferredPairs;
    var repeat = (form.dataset.tapPending === "1") && form.dataset.tapBody === body;
    if (!repeat || !form.dataset.actionId) {
      form.dataset.actionId = newActionId();
    }
    form.dataset.tapBody = body;
    form.dataset.tapPending = "1";
  }, true);

  /* Taps the server has answered (a refusal included; not a shed one): a
     double tap that htmx queued behind its first send is not sent once that
     one has its answer. It would repeat the same id for nothing, and with
     the form's values as they are by then (emptied once it was taken). */
  var answered = {};

  document.addEventListener("htmx:configRequest", function (evt) {
    if (evt.detail.verb !== "post") { return; }
    var elt = evt.detail.elt;
    if (!elt.dataset.actionId) {  // a post not started by a submit
      elt.dataset.actionId = newActionId();
    }
    if (!resending && answered[elt.dataset.actionId]) {
      evt.preventDefault();
      return;
    }
    evt.detail.parameters.action_id = elt.dataset.actionId;
  });

  /* Answered (any HTTP status): the tap is over. Unanswered (status 0: no
     network, aborted): it stays pending, so tapping again retries it. */
  document.addEventListener("htmx:afterRequest", function (evt) {
    var elt = evt.detail.elt;
    var xhr = evt.detail.xhr;
    if (elt && elt.dataset && xhr && xhr.status > 0 && elt.dataset.tapPending && !late(xhr)) {
      delete elt.dataset.tapPending;
    }
    if (elt && elt.dataset && elt.dataset.actionId && xhr && xhr.status >= 200 && xhr.status < 500 && !tokenExpired(xhr) && !late(xhr)) {
      answered[elt.dataset.actionId] = true;
    }
    if (xhr && xhr.status >= 200 && xhr.status < 300) { reconnectNow(); checkUnsent(); }
  });

  /* Each tap is followed until the server answers it. One that gets no
     answer (a timeout, a dropped connection) or is shed ("busy", 503) is
     sent again by itself with the SAME action id, honouring Retry-After,
     up to SENDS times: if an earlier send did land, the server appends
     nothing more. While the link is down a retry waits for it, up to
     PATIENCE. A tap that still did not land is given up: its form shows
     the server's state again and the bar says "not saved — send it again";
     only the player's tap on that sends it once more.

     Each send carries a deadline in the server's clock (X-Tracker-Deadline,
     tracker/taps.py): a little before this phone gives up on it. A send
     that reaches the server later (held by a stalled Wi-Fi) is refused
     unapplied, so a tap is never applied after the phone said "not saved". */
  var taps = {};          // action id -> the tap on its way
  var live0 = { dataset: {} };  // no #seq yet: no seq to name
  var unsent = null;      // the tap the bar offers to send again
  var resending = null;   // the tap being sent by send(), during htmx.ajax

  document.addEventListener("htmx:configRequest", function (evt) {
    if (evt.detail.verb !== "post") { return; }
    if (document.getElementById("live")) { evt.detail.headers["X-Tracker-Shown"] = shownDigests(); }
    var now = serverNowAtTheEarliest();
    if (now !== null) {
      evt.detail.headers["X-Tracker-Deadline"] = String(Math.floor(now + REQUEST_TIMEOUT - DEADLINE_MARGIN));
    }
    if (resending) {
      // "Send it again" names the seq its page showed: the tracker refuses
      // it if the match moved on since (views.act).
      if (resending.again) { evt.detail.headers["X-Tracker-Again"] = resending.seq; }
      evt.detail.parameters.action_id = resending.id;
      evt.detail.elt.trackerTap = resending;
      return;
    }
    var id = evt.detail.parameters.action_id;
    var tap = taps[id];
    if (!tap) {
      var values = {};
      var data = evt.detail.formData;
      if (data && data.forEach) {
        data.forEach(function (value, key) {
          if (key === "action_id") { return; }
          if (key in values) { values[key] = [].concat(values[key], value); } else { values[key] = value; }
        });
      }
      var elt = evt.detail.elt;
      tap = taps[id] = {
        id: id,
        path: evt.detail.path,
        values: values,
        form: elt.closest ? elt.closest("form") : null,
        sends: 0,
        inFlight: 0,
        since: Date.now(),
        seq: (document.getElementById("seq") || live0).dataset.seq
      };
    }
    evt.detail.elt.trackerTap = tap;
  });

  /* Watched on the request itself: by the time it fails, a push may have
     replaced the form, and events of a detached form never reach document. */
  document.addEventListener("htmx:beforeSend", function (evt) {
    var tap = evt.detail.elt && evt.detail.elt.trackerTap;
    var xhr = evt.detail.xhr;
    if (!tap || !xhr || evt.detail.requestConfig.verb !== "post") { return; }
    clearTimeout(tap.timer);
    tap.waiting = false;
    tap.sends += 1;
    tap.inFlight += 1;
    var over = false;
    function then(outcome) {
      return function () {
        if (over) { return; }
        over = true;
        tap.inFlight -= 1;
        outcome();
      };
    }
    xhr.addEventListener("load", then(function () {
      if (xhr.status === 502 || xhr.status === 503 || xhr.status === 504) {
        failed(tap, retryAfter(xhr));
      } else if (late(xhr)) {
        // Refused unapplied past its deadline, while this phone still
        // waited: a send that did not land, sent again as after no answer.
        failed(tap, 0);
      } else if (tokenExpired(xhr)) {
        // Refused before anything was read (a login in another tab of this
        // browser renews its CSRF cookie): the page's token is renewed and
        // the same tap sent again, as a shed one is.
        renewToken(function () { failed(tap, 0); });
      } else {
        landed(tap);  // the server's answer, a refusal included
      }
    }));
    xhr.addEventListener("timeout", then(function () { failed(tap, 0); }));
    xhr.addEventListener("error", then(function () { failed(tap, 1000); }));
    xhr.addEventListener("abort", then(function () { failed(tap, 1000); }));
  });

  /* A GET of our own, outside htmx (nothing to swap): `then(status, text)`,
     status 0 for no answer within REQUEST_TIMEOUT. */
  function getText(url, then) {
    var xhr = new XMLHttpRequest();
    xhr.open("GET", url);
    xhr.timeout = REQUEST_TIMEOUT;
    xhr.onload = function () { then(xhr.status, xhr.responseText); };
    xhr.onerror = xhr.ontimeout = function () { then(0, ""); };
    xhr.send();
  }

  /* A send that reached the server past its deadline (tracker/taps.py),
     refused unapplied: its answer says so for a phone that gave up on it,
     which this one has not. */
  function late(xhr) {
    return xhr.getResponseHeader("X-Tracker-Late") === "1";  // only on a 200
  }

  /* A post refused for its CSRF token before anything was read
     (tracker/errors.py csrf_failure). */
  function tokenExpired(xhr) {
    return xhr.status === 403 && xhr.getResponseHeader("X-Tracker-Csrf") === "expired";
  }

  /* The CSRF token every post carries (base.html's hx-headers), asked for
     again: its cookie is HttpOnly, so the page cannot read the new one. */
  function renewToken(then) {
    getText("/csrf/", function (status, token) {
      if (status === 200 && token) {
        document.body.setAttribute("hx-headers", JSON.stringify({ "X-CSRFToken": token }));
      }
      then();
    });
  }

  function retryAfter(xhr) {
    var seconds = parseFloat(xhr.getResponseHeader("Retry-After") || "1");
    return Math.min(Math.max(isFinite(seconds) ? seconds : 1, 0), 5) * 1000;
  }

  function landed(tap) {
    tap.done = true;
    var form = tap.form;
    if (form && form.deferredPairs) {
      // A tap held back behind this one (the submit handler): its form
      // was not swapped out (that swap sends it), so it is sent from here.
      var pairs = form.deferredPairs;
      delete form.deferredPairs;
      if (form.isConnected) { tapAgain(form, pairs); }
    }
    clearTimeout(tap.timer);
    if (taps[tap.id] === tap) { delete taps[tap.id]; }
    // Any tap answered takes the bar down: a later one means the player
    // moved on, and "Send it again" then replayed an old tap unasked.
    if (unsent) { showUnsent(null); }
    tapOver(tap);
  }

  /* A tap that landed by a send of its own (a retry), not by its form's
     request, is over too: the next tap on that form (a second report on
     the same trooper) is a new action. Left pending, it repeated the id
     that landed, and the server dropped it as a repeat. */
  function tapOver(tap) {
    var form = tap.form;
    if (form && form.dataset && form.dataset.actionId === tap.id) { delete form.dataset.tapPending; }
  }

  function failed(tap, delay) {
    if (tap.done || tap.inFlight > 0) { return; }  // landed, or another send of it is on its way
    if (tap.sends >= SENDS) { giveUp(tap); return; }
    clearTimeout(tap.timer);
    tap.timer = setTimeout(function () { retry(tap); }, delay);
  }

  function retry(tap) {
    if (tap.done) { return; }
    if (link.ever && !link.live) {
      var left = tap.since + PATIENCE - Date.now();
      if (left <= 0) { giveUp(tap); return; }
      tap.waiting = true;  // linkUp() sends it
      tap.timer = setTimeout(function () { giveUp(tap); }, left);
      return;
    }
    send(tap);
  }

  function linkUp() {
    Object.keys(taps).forEach(function (id) {
      var tap = taps[id];
      if (tap.waiting) { clearTimeout(tap.timer); tap.waiting = false; send(tap); }
    });
    checkUnsent();
  }

  /* A tap given up on may have landed all the same: a link that stalls only
     towards the phone holds back every answer while the sends get through.
     Once the link is back, ask the server (views.tap_status); if it did
     land, the bar's "not saved" is taken back and the page says so. Asked
     after the tap's deadline, the answer is final (tracker/taps.py). */
  function checkUnsent() {
    var tap = unsent;
    var live = document.getElementById("live");
    if (!tap || tap.checking || !live || !live.dataset.seat) { return; }
    tap.checking = true;
    getText("/m/" + live.dataset.code + "/tap/" + tap.id + "/", function (status, text) {
      tap.checking = false;
      var answer = null;
      try { answer = JSON.parse(text); } catch (e) { return; }
      if (status === 200 && answer && answer.applied === true && unsent === tap) {
        tap.done = true;
        showUnsent(null);
        clearSent(tap);
        savedAfterAll();
      }
    });
  }

  /* A tap saved after all is taken: the text typed for it goes from its
     form, as after any tap taken (below, htmx:afterRequest), or the note
     reads as not sent. The form may be a new one by now (the resync
     after giving up swapped its block, the typed text carried over): a
     form of the tap's address whose typed fields all hold what was sent.
     A field changed since keeps what the player typed. */
  function clearSent(tap) {
    var live = document.getElementById("live");
    if (!live) { return; }
    live.querySelectorAll("form[hx-post]").forEach(function (form) {
      if (form.getAttribute("hx-post") !== tap.path) { return; }
      var typed = Array.from(form.querySelectorAll(TYPED)).filter(function (field) {
        return field.name && field.value !== field.defaultValue;
      });
      var sent = typed.length && typed.every(function (field) {
        return tap.values[field.name] === field.value;
      });
      if (sent) { typed.forEach(function (field) { field.value = field.defaultValue; }); }
    });
  }

  function savedAfterAll() {
    var note = document.getElementById("saved-after-all");
    if (!note) { return; }
    note.hidden = false;
    clearTimeout(note.hiding);
    note.hiding = setTimeout(function () { note.hidden = true; }, 8000);
  }

  /* A send of a known tap (a retry, "Send it again"): its values and id as
     first sent. Each send has a source element of its own, since htmx keeps
     one request per element and queues or drops the others. */
  function send(tap) {
    var live = document.getElementById("live");
    if (!live || !window.htmx) { giveUp(tap); return; }
    var source = document.createElement("span");
    source.hidden = true;
    live.appendChild(source);
    resending = tap;
    try {
      window.htmx.ajax("POST", tap.path, { source: source, values: tap.values, swap: "none" })
        .then(function () { source.remove(); }, function () { source.remove(); });
    } finally {
      resending = null;
    }
  }

  function giveUp(tap) {
    if (tap.done) { return; }
    tap.done = true;
    if (tap.form) { delete tap.form.deferredPairs; }
    tap.waiting = false;
    clearTimeout(tap.timer);
    if (taps[tap.id] === tap) { delete taps[tap.id]; }
    showTruth(tap.form);
    closeState(tap.form);  // the bar offering to send it again is behind a modal otherwise
    // The bar offers one tap: another one it offered till now is lost too,
    // and the bar says so (the player makes it again; sent again after this
    // one, it would be refused as the match having moved on). Not the same
    // tap tapped again (a form that kept its text repeats its id).
    showUnsent(tap, unsent && unsent.id !== tap.id);
    resync();
    if (link.live) { checkUnsent(); }
  }

  /* The form of a tap that did not land, if it shows the server's state
     (data-shows-state: a trooper's State, an army list row's traits),
     shows that state again: every box and choice as the page was sent it.
     Any other form's boxes and choices are the player's (the Lieutenant to
     seal, the real Holoecho, an ARO's trooper and skill, a new row's
     traits): they stay, as typed text does, so tapping again sends the
     same tap, not the form's first option in its place. */
  function showTruth(form) {
    if (!form || !form.isConnected || !form.elements || !form.hasAttribute("data-shows-state")) { return; }
    Array.from(form.elements).forEach(function (el) {
      if (el.type === "checkbox" || el.type === "radio") {
        el.checked = el.defaultChecked;
      } else if (el.options) {
        Array.from(el.options).forEach(function (option) { option.selected = option.defaultSelected; });
      }
    });
  }

  function showUnsent(tap, earlier) {
    unsent = tap;
    var bar = document.getElementById("unsent");
    if (bar) {
      bar.hidden = !tap;
      // "An earlier tap … either": once said, till the bar goes.
      if (earlier || !tap) { bar.querySelector("span span").hidden = !tap; }
    }
  }

  /* "Send it again": the player's consent to the tap given up on, sent with
     its SAME id, so if one of its sends did land after all, nothing doubles. */
  document.addEventListener("click", function (evt) {
    if (!evt.target.closest || !evt.target.closest("#resend") || !unsent) { return; }
    var tap = unsent;
    showUnsent(null);
    tap.done = false;
    tap.again = true;
    tap.sends = 0;
    tap.since = Date.now();
    taps[tap.id] = tap;
    send(tap);
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

  /* A block is swapped whole when it changed (the opponent declared an
     Order: the controls now show an ARO form). What the player had typed
     in it, and the sections they had opened or closed, are carried over to
     the new block: each field they changed (the text typed, the trooper
     picked, the box ticked, against what the page was sent) into the same
     field of the same form (by its hx-post, what it is about and its place
     among such forms), where the new block still has it as it was sent
     (else the server changed it); each <details> they toggled, by its
     summary. Picks too: an ARO's trooper and skill picked while the
     opponent declares must not go back to the list's first options, or
     "Declare ARO" sends an ARO the player never chose. A form whose tap is on its way or just answered is not
     carried, nor a section around or inside one: the new block shows what
     became of it, as the server renders it. Written here rather
     than with idiomorph: morphing would change every swap (the State
     dialog, the lists, the digests), and only this needs keeping. */
  var TYPED = "input:not([type]), input[type=text], input[type=search], input[type=number], " +
    "input[type=email], input[type=url], input[type=tel], textarea";
  var FILLED = TYPED + ", select, input[type=checkbox], input[type=radio]";
  var carried = {};  // block id -> { old: the block swapped out, typed: [...], toggled: [...] }

  function placeAmong(list, item) { return Array.from(list).indexOf(item); }
  /* What a form is about besides its address: its hidden fields as the
     server rendered them (the card a proof is for, the proposal a dispute
     answers, the trooper). Text typed for one Classified card must not move
     to the next card once the first is accomplished, nor a dispute's reason
     to a new proposal. Read when the form came: a tap on the table map sets
     a hidden field since, and a hidden field's value is its markup. Not the
     "add a trooper" form's row_id: the id offered to its next row, which
     changes with the draft (a row removed), is not what the form is about. */
  function aboutOf(form) {
    if (form.dataset.about === undefined) {
      var fields = form.querySelectorAll("input[type=hidden][name]:not([name=row_id])");
      form.dataset.about = Array.from(fields).map(function (f) {
        return f.name + "=" + f.value;
      }).join("&");
    }
    return form.dataset.about;
  }
  document.addEventListener("htmx:load", function (evt) {
    var elt = evt.target;
    if (!elt || !elt.querySelectorAll) { return; }
    if (elt.matches && elt.matches("form[hx-post]")) { aboutOf(elt); }
    elt.querySelectorAll("form[hx-post]").forEach(aboutOf);
  });
  function formsOf(block, path, about) {
    return Array.from(block.querySelectorAll("form[hx-post]")).filter(function (f) {
      return f.getAttribute("hx-post") === path && aboutOf(f) === about;
    });
  }
  /* A box is its name and value (a Classified card); any other field, its
     name and place among the form's fields of that name. */
  function keyOf(field) { return field.type === "checkbox" || field.type === "radio" ? field.name + "=" + field.value : field.name; }
  function fieldsOf(form, key) {
    return Array.from(form.querySelectorAll(FILLED)).filter(function (f) { return keyOf(f) === key; });
  }
  /* What a field shows now, or as the page was sent (`sent`): a list with
     no option marked shows its first (pickFirst, below). */
  function shown(field, sent) {
    if (field.type === "checkbox" || field.type === "radio") { return sent ? field.defaultChecked : field.checked; }
    if (!field.options) { return sent ? field.defaultValue : field.value; }
    var values = Array.from(field.options).filter(function (o) { return sent ? o.defaultSelected : o.selected; })
      .map(function (o) { return o.value; });
    return (values.length || field.multiple || !field.options.length ? values : [field.options[0].value]).join("\n");
  }
  function show(field, value) {
    if (field.type === "checkbox" || field.type === "radio") { field.checked = value; return; }
    if (!field.options) { field.value = value; return; }
    var values = value.split("\n");
    var offered = Array.from(field.options).map(function (o) { return o.value; });
    if (values.some(function (v) { return offered.indexOf(v) < 0; })) { return; }
    Array.from(field.options).forEach(function (o) { o.selected = values.indexOf(o.value) >= 0; });
  }
  function summaryOf(details) {
    var summary = details.querySelector(":scope > summary");
    return summary ? summary.textContent.trim() : "";
  }
  function detailsOf(block, label) {
    return Array.from(block.querySelectorAll("details")).filter(function (d) {
      return summaryOf(d) === label;
    });
  }

  /* A form that holds what its last tap sent (on its way or just
     answered). One changed since (the next row typed while the last one
     was on its way) holds the player's new text. */
  function justSent(form) {
    return form.dataset.tapBody === bodyOf(form);
  }

  document.addEventListener("click", function (evt) {
    var summary = evt.target.closest && evt.target.closest("summary");
    if (summary && summary.parentNode.tagName === "DETAILS") { summary.parentNode.dataset.toggled = "1"; }
  }, true);

  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var block = evt.detail.target;
    if (!evt.detail.shouldSwap || !block || block.tagName !== "SECTION" || !block.id) { return; }
    var typed = [];
    block.querySelectorAll("form[hx-post]").forEach(function (form) {
      if (justSent(form)) { return; }
      var path = form.getAttribute("hx-post");
      form.querySelectorAll(FILLED).forEach(function (field) {
        if (!field.name || shown(field) === shown(field, true)) { return; }
        var kept = {
          path: path, about: aboutOf(form), form: placeAmong(formsOf(block, path, aboutOf(form)), form),
          key: keyOf(field), field: placeAmong(fieldsOf(form, keyOf(field)), field),
          value: shown(field), was: shown(field, true), focused: field === document.activeElement
        };
        try { kept.start = field.selectionStart; kept.end = field.selectionEnd; } catch (e) { /* a number */ }
        typed.push(kept);
      });
    });
    var sections = Array.from(block.querySelectorAll("details[data-toggled]")).filter(function (d) {
      var forms = Array.from(d.querySelectorAll("form[hx-post]"));
      if (d.closest("form[hx-post]")) { forms.push(d.closest("form[hx-post]")); }
      return !forms.some(justSent);
    });
    var toggled = sections.map(function (d) {
      var label = summaryOf(d);
      return { label: label, place: placeAmong(detailsOf(block, label), d), open: d.open };
    });
    var deferred = [];
    block.querySelectorAll("form[hx-post]").forEach(function (form) {
      if (!form.deferredPairs) { return; }
      var path = form.getAttribute("hx-post");
      deferred.push({
        path: path, about: aboutOf(form), form: placeAmong(formsOf(block, path, aboutOf(form)), form),
        pairs: form.deferredPairs
      });
      delete form.deferredPairs;
    });
    delete carried[block.id];
    if (typed.length || toggled.length || deferred.length) {
      carried[block.id] = { old: block, typed: typed, toggled: toggled, deferred: deferred };
    }
  });

  /* A tap held back while the form's last tap was on its way (above, the
     submit handler), made on the form that replaced it: every field the
     player fills as tapped, the hidden ones (a new row's id) as the server
     now offers them. */
  function tapAgain(form, pairs) {
    Array.from(form.elements).forEach(function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit" || el.type === "button") { return; }
      var values = pairs.filter(function (p) { return p[0] === el.name; }).map(function (p) { return p[1]; });
      if (el.type === "checkbox" || el.type === "radio") {
        el.checked = values.indexOf(el.value) >= 0;
      } else if (el.options) {
        Array.from(el.options).forEach(function (o) { o.selected = values.indexOf(o.value) >= 0; });
      } else {
        var same = fieldsOf(form, el.name);
        el.value = values[same.indexOf(el)] || "";
      }
    });
    // After htmx has taken in the swapped block (its handlers on the form).
    setTimeout(function () {
      if (!form.isConnected) { return; }
      if (window.htmx) { window.htmx.process(form); }
      form.requestSubmit();
    }, 0);
  }

  document.addEventListener("htmx:oobAfterSwap", function () {
    Object.keys(carried).forEach(function (id) {
      var kept = carried[id];
      var block = document.getElementById(id);
      if (block === kept.old) { return; }  // not swapped yet (a frame swaps its blocks in turn)
      delete carried[id];
      if (!block) { return; }
      kept.toggled.forEach(function (t) {
        var details = detailsOf(block, t.label)[t.place];
        if (details) { details.open = t.open; details.dataset.toggled = "1"; }
      });
      kept.typed.forEach(function (t) {
        var form = formsOf(block, t.path, t.about)[t.form];
        var field = form && fieldsOf(form, t.key)[t.field];
        if (!field || shown(field, true) !== t.was) { return; }  // gone, or the server changed it
        show(field, t.value);
        if (t.focused) {
          field.focus();
          try { field.setSelectionRange(t.start, t.end); } catch (e) { /* a number */ }
        }
      });
      kept.deferred.forEach(function (t) {
        var form = formsOf(block, t.path, t.about)[t.form];
        if (form) { tapAgain(form, t.pairs); }
      });
    });
  });

  /* A tap taken (answered, and no refusal shown): the text typed in its
     form is emptied, as a sent message is. The block around it may not
     change (a sealed note shows in the seat block, not in the controls),
     and a form that still holds what was sent reads as not sent: a second
     tap would seal the note twice. Choices (selects, boxes) stay: two
     reports in a row on one trooper are two taps on the same form. A
     refusal leaves everything as it was, to be put right. */
  document.addEventListener("htmx:afterRequest", function (evt) {
    var elt = evt.detail.elt;
    var xhr = evt.detail.xhr;
    if (!xhr || xhr.status < 200 || xhr.status >= 300 || late(xhr) || evt.detail.requestConfig.verb !== "post") { return; }
    var tap = elt && elt.trackerTap;
    var form = tap && tap.form ? tap.form : elt;
    if (!form || form.tagName !== "FORM" || !form.isConnected || !form.closest("#live")) { return; }
    if (document.querySelector("#live .error:not([hidden])")) { return; }
    var fields = form.querySelectorAll(TYPED);
    // Typed since (the next note while this one was on its way): kept.
    var holdsSent = !tap || Array.from(fields).every(function (field) {
      var sent = tap.values[field.name];
      return !field.name || sent === undefined || [].concat(sent).indexOf(field.value) >= 0;
    });
    if (!holdsSent) { return; }
    fields.forEach(function (field) {
      field.value = field.defaultValue;
    });
  });

  /* A list's new lines (the log's, the recent ones: rendering._list_delta)
     are added at its top, and come both in the answer to a tap and in the
     push for it: a line the list already shows is not added twice. */
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var list = evt.detail.target;
    var fragment = evt.detail.fragment;
    if (!list || list.tagName !== "OL" || !fragment || !fragment.querySelectorAll) { return; }
    fragment.querySelectorAll("li[id]").forEach(function (line) {
      if (document.getElementById(line.id)) { line.remove(); }
    });
  });

  /* The answer to this phone's own request and the socket's pushes travel on
     two connections. If a push for a newer seq landed first, the answer shows
     the past: swapping it in would roll the page back, and the socket only
     re-sends blocks that change again. Keep the page and resync instead. */
  function seqIn(html) {
    var found = /id="seq"[^>]*data-seq="(\d+)"/.exec(html || "");
    return found ? Number(found[1]) : null;
  }
  /* Read where htmx reads the answer (xhr.response), not in htmx:beforeSwap:
     htmx fires that on the form that sent the tap, and a push may have
     replaced the form's block meanwhile: the events of a detached form never
     reach document, so such an answer was swapped in unchecked (rolling the
     page back, or deleting lines already gone). */
  var nativeResponse = Object.getOwnPropertyDescriptor(XMLHttpRequest.prototype, "response");
  function checkAnswer(xhr) {
    if (!nativeResponse || !nativeResponse.get) { return; }
    var checked;
    Object.defineProperty(xhr, "response", {
      configurable: true,
      get: function () {
        var text = nativeResponse.get.call(xhr);
        if (typeof text !== "string" || xhr.readyState !== 4) { return text; }
        if (checked === undefined && late(xhr)) {
          checked = "";  // its words are for a phone that gave up: none here
        }
        if (checked === undefined) {
          var shown = document.getElementById("seq");
          var answered = seqIn(text);
          if (shown && answered !== null && answered < Number(shown.dataset.seq)) {
            checked = "";
            resync();
          } else {
            checked = withoutGone(text);
          }
        }
        return checked;
      }
    });
  }
  document.addEventListener("htmx:beforeSend", function (evt) {
    var xhr = evt.detail.xhr;
    if (xhr && evt.detail.requestConfig.verb === "post" && document.getElementById("live")) {
      checkAnswer(xhr);
    }
  });

  /* Each (re)connect names the blocks this page shows (their digests), so
     the first frame carries only what differs instead of repeating the page
     just loaded; so does each tap (X-Tracker-Shown, with the taps' headers
     above), so its answer carries only the blocks, or trooper rows, that
     changed. The server still decides what this phone may see: the names
     only leave things out. */
  function shownDigests() {
    return Array.from(document.querySelectorAll("#live section[data-h]"), function (el) {
      return el.dataset.h;
    }).join(".");
  }

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
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "seq") { noteDigests(); }
  });

  /* Issue 18: the page's one State form (state_form.html), in a dialog. A
     row's name, a button where this phone may set that trooper's state,
     opens it with the trooper's id and name and its state as the row shows
     it (data-cond, none for Normal; data-tokens; data-no-room), as the
     form's defaults too, so a tap given up on shows
     that again (showTruth). RP-3: a no-room Immobilized-A stays ticked and
     disabled, with why, and goes by the hidden input. It closes once the
     server took the change; a refusal is shown in it. */
  function stateOf(row) {
    return [row.dataset.cond || "normal", row.dataset.tokens || "", row.hasAttribute("data-no-room")].join("|");
  }
  function prefillState(dialog, row) {
    var form = dialog.querySelector("form");
    var tokens = (row.dataset.tokens || "").split(" ");
    var noRoom = row.hasAttribute("data-no-room");
    var inHoloecho = row.hasAttribute("data-holoecho");
    var cond = row.dataset.cond || "normal";
    form.elements.trooper_id.value = row.id.slice("trooper-".length);
    dialog.dataset.row = stateOf(row);
    form.querySelector("[data-name]").textContent = row.querySelector(".name").textContent;
    Array.from(form.elements.condition.options).forEach(function (option) {
      option.selected = option.defaultSelected = option.value === cond;
      // HE-C4: a trooper in Holoecho goes out of action only by the Saving
      // Roll reported on the Holoecho that was hit (the report ends it).
      option.disabled = inHoloecho && option.hasAttribute("data-out") && option.value !== cond;
    });
    form.querySelectorAll("input[type=checkbox]").forEach(function (box) {
      var kept = noRoom && box.value === "immobilized_a";
      box.checked = box.defaultChecked = kept || tokens.indexOf(box.value) >= 0;
      box.disabled = kept;
    });
    form.querySelectorAll("[data-rp3]").forEach(function (el) {
      if (el.tagName === "INPUT") { el.disabled = !noRoom; } else { el.hidden = !noRoom; }
    });
    showStateError(dialog, "");
  }
  function showStateError(dialog, text) {
    var error = dialog.querySelector(".error");
    error.textContent = text;
    error.hidden = !text;
  }
  function stateRow(dialog) {
    var id = dialog.querySelector("form").elements.trooper_id.value;
    var row = id && document.getElementById("trooper-" + id);
    return row && row.querySelector(":scope > button.name") ? row : null;
  }
  function closeState(form) {
    var dialog = form && form.closest && form.closest("dialog#state");
    if (dialog && dialog.open) { dialog.close(); }
  }
  document.addEventListener("click", function (evt) {
    var dialog = document.getElementById("state");
    if (!dialog || !evt.target.closest) { return; }
    if (evt.target.closest("#state [data-close]")) { dialog.close(); return; }
    var button = evt.target.closest("li.trooper > button.name");
    if (!button) { return; }
    prefillState(dialog, button.parentNode);
    dialog.showModal();
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    var elt = evt.detail.elt;
    var xhr = evt.detail.xhr;
    // A send again (a shed tap's retry) comes from an element of its own.
    var tap = elt && elt.trackerTap;
    var form = tap && tap.form ? tap.form : elt;
    if (!form || !form.closest || !form.closest("dialog#state") || !xhr || xhr.status < 200 || xhr.status >= 300 || late(xhr)) { return; }
    if (tap && tap.values.trooper_id !== form.elements.trooper_id.value) { return; }  // reopened for another since
    var error = document.querySelector("#blk-controls > .error");
    if (error) { showStateError(form.closest("dialog"), error.textContent); } else { closeState(form); }
  });
  /* A push that changed the open trooper's row: its form shows the new
     state, as the row's own form did when the row was swapped. */
  document.addEventListener("htmx:oobAfterSwap", function () {
    var dialog = document.getElementById("state");
    if (!dialog || !dialog.open) { return; }
    var row = stateRow(dialog);
    if (!row) { dialog.close(); } else if (stateOf(row) !== dialog.dataset.row) { prefillState(dialog, row); }
  });

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
    nodes.forEach(function (node) {
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
  /* A vibration, where the phone can: the browser refuses one (and logs
     an error) until the player has tapped the page once. */
  function vibrate(pattern) {
    var tapped = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (!navigator.vibrate || !tapped) { return; }
    try { navigator.vibrate(pattern); } catch (e) { /* not allowed */ }
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
    document.querySelectorAll("[data-banner]").forEach(function (node) {
      var key = "tracker-ack:" + node.dataset.banner;
      node.hidden = remembered(key);
      if (!node.hidden && !remembered("tracker-buzz:" + node.dataset.banner)) {
        remember("tracker-buzz:" + node.dataset.banner);
        buzz = true;
      }
    });
    if (buzz) { vibrate([180, 80, 180]); }
    bannerStrip();
  }
  /* The strip over the banners (issue 19): how many this phone has not
     acknowledged, the newest two shown (CSS), "Show all" for the rest, and
     one "Got it" for all of them. Hidden once none is left. */
  function bannerStrip() {
    document.querySelectorAll(".banners").forEach(function (strip) {
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
    strip.querySelectorAll("[data-banner]").forEach(function (banner) {
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
    if (window.confirm(once ? once.dataset.oncePerGame : card.dataset.confirmSpend)) {
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
  document.addEventListener("htmx:oobAfterSwap", tellWorker);
  document.addEventListener("htmx:afterSettle", tellWorker);

  /* A list (select with size) starts on its first entry, like a drop-down. */
  function pickFirst() {
    document.querySelectorAll("select[size]").forEach(function (list) {
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
    keepReceipt();
  }
  document.addEventListener("htmx:load", afterChange);
  document.addEventListener("htmx:oobAfterSwap", afterChange);
  document.addEventListener("DOMContentLoaded", function () {
    connect();
    tellWorker();
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
  function shownReceipt(r) { return "#" + r.seq + " " + receiptCode(r.hash); }
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
      list.textContent = list.dataset.label + " " + kept.map(shownReceipt).join(", ");
    }
    var warning = node.querySelector(".receipt-changed");
    if (!warning) { return; }
    var wasHidden = warning.hidden;
    warning.hidden = !changed.length;
    var codes = warning.querySelector(".codes");
    if (codes && changed.length) {
      codes.textContent = codes.dataset.kept + " " + changed.map(shownReceipt).join(", ") + ". " +
        codes.dataset.shown + " " + shownReceipt({ seq: seq, hash: hash }) + ".";
    }
    if (changed.length && wasHidden) { vibrate([400, 120, 400]); }
  }

  /* The event round's clock (issue 21): the server renders it, in the
     phone's language, on load and on every start, pause and call; while it
     runs this only counts down the seconds it had left when rendered
     (data-left), from when it reached this page, on the page's own
     monotonic clock: a phone's clock set wrong (or the server laptop's)
     does not change the time left it shows, as reading the server's end
     time (data-ends-at) against the phone's clock did. Its arrival is
     taken at its first tick, within the second. A kept offline copy
     is older than its arrival: it reads data-ends-at. The same markup
     counts down on the organizer's run page, one per round. */
  function secondsLeft(clock) {
    var d = clock.dataset;  // strings: "-" reads them as numbers
    if (d.left === undefined || document.documentElement.hasAttribute("data-offline-copy")) {
      return (d.endsAt - Date.now()) / 1000;
    }
    d.seen = d.seen || performance.now();
    return d.left - (performance.now() - d.seen) / 1000;
  }
  function tickClock(clock) {
    var left = clock.querySelector(".left");
    if (!left) { return; }
    var seconds = Math.max(0, Math.round(secondsLeft(clock)));
    if (seconds === 0 && clock.dataset.called) {
      /* Run out without a call: the words the server rendered for it. */
      clock.textContent = clock.dataset.called;
      clock.classList.add("called");
      delete clock.dataset.endsAt;
      return;
    }
    left.textContent = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }
  window.setInterval(function () {
    document.querySelectorAll("[data-ends-at]").forEach(tickClock);
  }, 1000);

  /* A page answered to a POST at an address that answers GET too (a wrong
     PIN on a seat link: the server marks it data-posted) stands in history
     as a GET of that address: Back to it then loads the page again, not the
     browser's "Confirm Form Resubmission", which would send the form again.
     An address that takes only POST is not marked: a GET there is a 405. */
  if (document.body && document.body.hasAttribute("data-posted") && history.replaceState) {
    history.replaceState(history.state, "", location.href);
  }
})();

