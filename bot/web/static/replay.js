// The replay's keyboard: ← and → step, Home and End jump (the links work without it).
"use strict";
document.addEventListener("keydown", function (ev) {
  if (ev.target && ev.target.closest && ev.target.closest(".viewport")) return;  // the board's own keys
  const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  const step = keys[ev.key] && document.querySelector('a[data-step="' + keys[ev.key] + '"]');
  if (step) { ev.preventDefault(); step.click(); }
});
