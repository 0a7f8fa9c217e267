// The live table: server-sent events bring the table's state after every move; the page updates
// its board, status, clocks, standings and log in place (no reload).
"use strict";
(function () {
  function text(id, value) { const el = document.getElementById(id); if (el) el.textContent = value || ""; }
  function list(id, values, make) {
    const el = document.getElementById(id);
    if (!el) return;
    el.replaceChildren.apply(el, values.map(make));
  }
  function item(value) { const li = document.createElement("li"); li.textContent = value; return li; }
  function logItem(row) {
    const li = document.createElement("li");
    li.value = row.n;
    if (row.who) {
      const who = document.createElement("strong");
      who.textContent = row.who;
      li.append(who, " ");
    }
    li.append(row.text);
    return li;
  }
  function show(data) {
    document.body.dataset.version = String(data.version);
    text("status", data.status);
    text("deadline", data.deadline);
    text("seed", data.seed);
    list("clocks", data.clocks, function (c) { return item(c.name + ": " + c.bank_text); });
    list("standings", data.standings, item);
    list("log", data.log, logItem);
    const log = document.getElementById("log");
    if (log) log.scrollTop = log.scrollHeight;
    const board = document.getElementById("board");
    if (board && board.getAttribute("src") !== data.board) {
      board.setAttribute("src", data.board);
      board.setAttribute("alt", data.alt);
    }
    const hand = document.getElementById("hand");
    if (hand && data.hand && hand.getAttribute("src") !== data.hand) {
      hand.setAttribute("src", data.hand);
      hand.setAttribute("alt", data.hand_alt || "");
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    const url = document.body.dataset.events;
    if (!url || !window.EventSource) return;
    const source = new EventSource(url + "&v=" + encodeURIComponent(document.body.dataset.version || ""));
    source.addEventListener("table", function (ev) { show(JSON.parse(ev.data)); });
    const log = document.getElementById("log");
    if (log) log.scrollTop = log.scrollHeight;
  });
})();
