// Optional carousel controls: arrows, current dot, arrow keys. Pages work without this file.
(function () {
  "use strict";
  function setup(carousel) {
    var slides = carousel.querySelector(".slides");
    var count = slides ? slides.children.length : 0;
    if (count < 2) return;
    var dots = carousel.querySelectorAll(".dots a");
    function index() { return Math.round(slides.scrollLeft / Math.max(1, slides.clientWidth)); }
    function go(i) { slides.scrollTo({ left: Math.max(0, Math.min(count - 1, i)) * slides.clientWidth }); }
    function button(label, cls, delta) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "carousel-button " + cls; b.setAttribute("aria-label", label);
      b.textContent = delta < 0 ? "\u2039" : "\u203a";
      b.addEventListener("click", function () { go(index() + delta); });
      carousel.appendChild(b);
      return b;
    }
    var prev = button("Previous photo", "carousel-prev", -1);
    var next = button("Next photo", "carousel-next", 1);
    function update() {
      var i = index();
      prev.hidden = i === 0; next.hidden = i === count - 1;
      for (var d = 0; d < dots.length; d++) dots[d].setAttribute("aria-current", d === i ? "true" : "false");
    }
    for (var d = 0; d < dots.length; d++) {
      (function (i) { dots[i].addEventListener("click", function (e) { e.preventDefault(); go(i); }); })(d);
    }
    slides.addEventListener("scroll", function () { window.requestAnimationFrame(update); }, { passive: true });
    slides.setAttribute("tabindex", "0");
    slides.addEventListener("keydown", function (e) {
      if (e.key === "ArrowLeft") { e.preventDefault(); go(index() - 1); }
      if (e.key === "ArrowRight") { e.preventDefault(); go(index() + 1); }
    });
    update();
  }
  document.querySelectorAll(".carousel").forEach(setup);
})();
