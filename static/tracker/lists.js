/* The player's last army lists, kept on this phone only (localStorage, never
   sent to the server unless imported), offered in the next match's draft.
   Wired by delegation like app.js (no inline script: CSP). */
(function () {
  "use strict";

  var KEY = "tracker.lists.v1";
  var KEEP = 5;

  function load() {
    try {
      var saved = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      return Array.isArray(saved) ? saved : [];
    } catch (e) {
      return [];
    }
  }

  /* A list's title: its first two non-empty lines (faction, list name). */
  function titleOf(text) {
    return text.split(/\r?\n/).map(function (l) { return l.trim(); })
      .filter(Boolean).slice(0, 2).join(" · ").slice(0, 80);
  }

  function remember(text) {
    text = (text || "").trim();
    if (!text) { return; }
    var title = titleOf(text);
    var lists = load().filter(function (l) { return l.title !== title; });
    lists.unshift({ title: title, text: text, at: new Date().toISOString() });
    try {
      window.localStorage.setItem(KEY, JSON.stringify(lists.slice(0, KEEP)));
    } catch (e) { /* storage full or disabled: the import still works */ }
  }

  /* One button per saved list: a tap puts its text in the form and imports
     it (one tap; htmx still asks before replacing a draft already there). */
  function offer(root) {
    var holders = (root || document).querySelectorAll("[data-saved-lists]");
    var lists = load();
    Array.prototype.forEach.call(holders, function (holder) {
      if (holder.dataset.filled) { return; }
      holder.dataset.filled = "1";
      lists.forEach(function (list, index) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "small saved-list";
        button.dataset.savedList = String(index);
        button.textContent = list.title;
        holder.appendChild(button);
      });
      var wrapper = holder.closest(".saved-lists");
      if (wrapper && lists.length) { wrapper.hidden = false; }
    });
  }

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("button[data-saved-list]");
    if (!button) { return; }
    var list = load()[Number(button.dataset.savedList)];
    var form = button.closest("form");
    var area = form && form.querySelector("textarea[name=text]");
    if (!list || !area) { return; }
    area.value = list.text;
    if (form.requestSubmit) { form.requestSubmit(); } else { form.dispatchEvent(new Event("submit", { cancelable: true, bubbles: true })); }
  });

  /* Remember a list once the server has read it without a problem. The form
     is swapped out with the answer (its own events no longer reach document),
     so the text is taken when the request leaves, and kept when the new
     controls block says it was imported. */
  var pending = null;
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var form = evt.detail.elt;
    if (form && form.hasAttribute && form.hasAttribute("data-remember-list")) {
      var area = form.querySelector("textarea[name=text]");
      pending = area ? area.value : null;
    }
  });
  function settled() {
    if (pending === null) { return; }
    var controls = document.getElementById("blk-controls");
    if (!controls) { return; }
    if (controls.querySelector(".import-problems")) {
      pending = null;
    } else if (controls.querySelector(".draft .notice")) {
      remember(pending);
      pending = null;
    }
  }

  document.addEventListener("DOMContentLoaded", function () { offer(document); });
  /* htmx:load fires on each element swapped in (already in the page), for an
     answer and for a push alike. */
  document.addEventListener("htmx:load", function () { settled(); offer(document); });
}());
