// The board's zoom and pan: pinch and drag on a phone, the wheel and drag with a mouse, the + − Fit
// buttons, and the keys + - 0 and the arrows when the board has focus. The picture is drawn at full
// resolution; zooming shows it up to four times its fitted width.
"use strict";
(function () {
  function attach(figure) {
    const viewport = figure.querySelector(".viewport");
    const img = figure.querySelector("img");
    if (!viewport || !img) return;
    let scale = 1, x = 0, y = 0;
    const pointers = new Map();
    let pinch = null;
    function clamp() {
      const w = viewport.clientWidth, h = img.clientHeight;
      const vh = viewport.clientHeight;
      x = Math.min(0, Math.max(x, w - w * scale));
      y = Math.min(0, Math.max(y, vh - h * scale));
      if (scale <= 1) { scale = 1; x = 0; y = 0; }
    }
    function apply() {
      clamp();
      img.style.transform = "translate(" + x + "px," + y + "px) scale(" + scale + ")";
      figure.dataset.zoom = scale.toFixed(2);
    }
    function zoomAt(factor, cx, cy) {
      const next = Math.min(4, Math.max(1, scale * factor));
      x = cx - (cx - x) * (next / scale);
      y = cy - (cy - y) * (next / scale);
      scale = next;
      apply();
    }
    function centre() { return [viewport.clientWidth / 2, viewport.clientHeight / 2]; }
    figure.querySelectorAll("[data-zoom]").forEach(function (button) {
      button.addEventListener("click", function () {
        const kind = button.dataset.zoom;
        if (kind === "fit") { scale = 1; apply(); return; }
        const c = centre();
        zoomAt(kind === "in" ? 1.5 : 1 / 1.5, c[0], c[1]);
      });
    });
    viewport.addEventListener("wheel", function (ev) {
      ev.preventDefault();
      const r = viewport.getBoundingClientRect();
      zoomAt(ev.deltaY < 0 ? 1.2 : 1 / 1.2, ev.clientX - r.left, ev.clientY - r.top);
    }, { passive: false });
    viewport.addEventListener("pointerdown", function (ev) {
      viewport.setPointerCapture(ev.pointerId);
      pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
      if (pointers.size === 2) {
        const p = Array.from(pointers.values());
        pinch = { d: Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]), scale: scale };
      }
    });
    viewport.addEventListener("pointermove", function (ev) {
      if (!pointers.has(ev.pointerId)) return;
      const last = pointers.get(ev.pointerId);
      pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
      if (pointers.size === 2 && pinch) {
        const p = Array.from(pointers.values());
        const d = Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]);
        const r = viewport.getBoundingClientRect();
        const cx = (p[0][0] + p[1][0]) / 2 - r.left, cy = (p[0][1] + p[1][1]) / 2 - r.top;
        zoomAt((pinch.scale * d / pinch.d) / scale, cx, cy);
      } else if (pointers.size === 1) {
        x += ev.clientX - last[0];
        y += ev.clientY - last[1];
        apply();
      }
    });
    function up(ev) { pointers.delete(ev.pointerId); if (pointers.size < 2) pinch = null; }
    viewport.addEventListener("pointerup", up);
    viewport.addEventListener("pointercancel", up);
    viewport.addEventListener("keydown", function (ev) {
      const c = centre(), step = 40;
      const keys = { "+": function () { zoomAt(1.5, c[0], c[1]); }, "=": function () { zoomAt(1.5, c[0], c[1]); },
        "-": function () { zoomAt(1 / 1.5, c[0], c[1]); }, "0": function () { scale = 1; apply(); },
        ArrowLeft: function () { x += step; apply(); }, ArrowRight: function () { x -= step; apply(); },
        ArrowUp: function () { y += step; apply(); }, ArrowDown: function () { y -= step; apply(); } };
      if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
    });
    img.addEventListener("load", apply);
    window.addEventListener("resize", apply);
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("figure.board").forEach(attach);
  });
})();
