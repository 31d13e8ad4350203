(function () {
"use strict";
function setup(carousel) {
var slides = carousel.querySelector(".slides");
var count = slides ? slides.children.length : 0;
if (count < 2) return;
var dots = carousel.querySelectorAll(".dots a");
var shown = -1;
var rtl = getComputedStyle(slides).direction === "rtl", sign = rtl ? -1 : 1;
function index() { return Math.round(Math.abs(slides.scrollLeft) / Math.max(1, slides.clientWidth)); }
function go(i) { slides.scrollTo({ left: sign * Math.max(0, Math.min(count - 1, i)) * slides.clientWidth }); }
function button(label, cls, delta) {
var b = document.createElement("button");
b.type = "button"; b.className = "carousel-button " + cls; b.setAttribute("aria-label", label);
b.textContent = delta < 0 ? "\u2039" : "\u203a";
b.addEventListener("click", function () { go(index() + delta); });
carousel.appendChild(b);
return b;
}
var texts = document.body.dataset;
var prev = button(texts.prev || "Previous photo", "carousel-prev", -1);
var next = button(texts.next || "Next photo", "carousel-next", 1);
var counter = document.createElement("span");
counter.className = "carousel-count";
counter.setAttribute("aria-hidden", "true");
carousel.appendChild(counter);
function update() {
var i = index();
if (i === shown) return;
shown = i;
prev.hidden = i === 0; next.hidden = i === count - 1;
counter.textContent = (i + 1) + "/" + count;
for (var d = 0; d < dots.length; d++) dots[d].setAttribute("aria-current", d === i ? "true" : "false");
}
for (var d = 0; d < dots.length; d++) {
(function (i) { dots[i].addEventListener("click", function (e) { e.preventDefault(); go(i); }); })(d);
}
slides.addEventListener("scroll", function () { window.requestAnimationFrame(update); }, { passive: true });
slides.setAttribute("tabindex", "0");
slides.setAttribute("aria-label", (texts.carousel || "{count} photos; arrow keys change the photo").replace("{count}", count));
slides.addEventListener("keydown", function (e) {
if (e.key === "ArrowLeft") { e.preventDefault(); go(index() - sign); }
if (e.key === "ArrowRight") { e.preventDefault(); go(index() + sign); }
});
update();
}
document.querySelectorAll(".carousel").forEach(setup);

var toast;
function tell(text) {
if (!toast) {
toast = document.createElement("div");
toast.className = "toast"; toast.setAttribute("role", "status");
document.body.appendChild(toast);
}
toast.textContent = text;
clearTimeout(tell.timer);
tell.timer = setTimeout(function () { toast.textContent = ""; }, 2000);
}
document.querySelectorAll("a[data-share]").forEach(function (link) {
link.addEventListener("click", function (e) {
var url = link.href;
if (navigator.share && window.matchMedia && matchMedia("(pointer: coarse)").matches) {
e.preventDefault();
navigator.share({ url: url }).catch(function () {});
} else if (navigator.clipboard && window.isSecureContext) {
e.preventDefault();
navigator.clipboard.writeText(url).then(function () { tell(document.body.dataset.copied || "Link copied"); },
function () { window.location.href = url; });
}
});
});

if (document.body.dataset.sw && navigator.serviceWorker) {
navigator.serviceWorker.register(document.body.dataset.sw).catch(function () {});
}

var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
var saving = navigator.connection && navigator.connection.saveData;
if (!still && !saving && window.IntersectionObserver) {
var watcher = new IntersectionObserver(function (entries) {
entries.forEach(function (entry) {
var video = entry.target;
if (entry.intersectionRatio >= 0.6) {
if (video.dataset.stopped || !video.paused) return;
video.muted = true;
video.loop = true;
var playing = video.play();
if (playing && playing.catch) playing.catch(function () {});
} else if (!video.paused) {
video.dataset.leaving = "1";
video.pause();
}
});
}, { threshold: [0, 0.6] });
document.querySelectorAll("video.video").forEach(function (video) {
video.addEventListener("pause", function () {
if (video.dataset.leaving) delete video.dataset.leaving;
else if (!video.ended) video.dataset.stopped = "1";
});
watcher.observe(video);
});
}

var lang = document.documentElement.lang || undefined;
if (lang && /^ar\b/.test(lang) && lang.indexOf("-u-") < 0) lang += "-u-nu-arab";
if (!window.Intl || !Intl.RelativeTimeFormat) return;
var relative = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
var units = [["year", 31536e3], ["month", 2592e3], ["week", 604800], ["day", 86400], ["hour", 3600], ["minute", 60]];
function ago(date) {
var seconds = (date.getTime() - Date.now()) / 1000;
for (var u = 0; u < units.length; u++) {
if (Math.abs(seconds) >= units[u][1]) return relative.format(Math.round(seconds / units[u][1]), units[u][0]);
}
return relative.format(0, "second");
}
document.querySelectorAll("time[datetime]").forEach(function (time) {
var date = new Date(time.dateTime);
if (isNaN(date)) return;
var full = date.toLocaleString(lang, { dateStyle: "long", timeStyle: "short" });
if (time.closest(".date") && Math.abs(Date.now() - date) < 604800e3) {
time.title = full;
time.textContent = ago(date);
} else {
time.title = ago(date) + " \u00b7 " + full;
}
});
})();
