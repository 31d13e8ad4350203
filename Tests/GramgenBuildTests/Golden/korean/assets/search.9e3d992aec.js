(function () {
"use strict";
var box = document.getElementById("search-results");
var input = document.getElementById("q");
var status = document.getElementById("search-status");
if (!box || !input || !window.fetch) return;
var base = box.getAttribute("data-index"), root = box.getAttribute("data-root");
var meta = null, files = {};
var texts = JSON.parse(box.getAttribute("data-i18n") || "{}");
var plurals = window.Intl && Intl.PluralRules ? new Intl.PluralRules(document.documentElement.lang || undefined) : null;
function say(key, values, count) {
var text = texts[key] || key;
if (typeof text === "object") text = text[plurals ? plurals.select(count) : "other"] || text.other;
return text.replace(/\{(\w+)\}/g, function (all, name) { return name in values ? values[name] : all; });
}
var lang = document.documentElement.lang || undefined;
if (lang && /^ar\b/.test(lang)) lang += "-u-nu-arab"; // Arabic digits, as the pages gramgen wrote
function number(n) { return window.Intl ? new Intl.NumberFormat(lang, { useGrouping: false }).format(n) : String(n); }

function get(url, fresh) {
if (!files[url]) {
files[url] = fetch(url, fresh ? { cache: "no-cache" } : {}).then(function (r) {
if (!r.ok) throw new Error(url + ": " + r.status);
return r.json();
});
}
return files[url];
}
function loadMeta() { return get(base + "meta.json", true).then(function (m) { meta = m; return m; }); }

function isCJK(cp) {
return (cp >= 0x1100 && cp <= 0x11FF) || (cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x3130 && cp <= 0x318F) ||
(cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA960 && cp <= 0xA97F) ||
(cp >= 0xAC00 && cp <= 0xD7AF) || (cp >= 0xD7B0 && cp <= 0xD7FF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
(cp >= 0xFF66 && cp <= 0xFF9F) || (cp >= 0x20000 && cp <= 0x2FA1F);
}
function accented(cp) {
return cp < 0x530 || (cp >= 0x1E00 && cp <= 0x1FFF) || (cp >= 0x2C60 && cp <= 0x2C7F) || (cp >= 0xA720 && cp <= 0xA7FF);
}
var MARK = /\p{M}/u, LETTER = /[\p{Alphabetic}\p{N}]/u;
function tokens(text) {
var out = [], current = [], lastBase = 0;
function flush() { if (current.length) out.push(current.join("").normalize("NFC")); current = []; }
for (var ch of text.normalize("NFKD").toLowerCase()) {
var cp = ch.codePointAt(0);
if (MARK.test(ch)) {
if (current.length && !accented(lastBase)) current.push(ch);
continue;
}
if (LETTER.test(ch)) {
if (current.length && isCJK(cp) !== isCJK(current[current.length - 1].codePointAt(0))) flush();
current.push(ch);
lastBase = cp;
} else {
flush();
}
}
flush();
return out;
}
function pieces(token) {
var chars = Array.from(token);
if (!isCJK(chars[0].codePointAt(0)) || chars.length <= 2) return [token];
var out = [];
for (var i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
return out;
}
function shard(word, count) {
var h = 0x811c9dc5, head = Array.from(word).slice(0, 2).join("");
for (var i = 0; i < head.length; i++) { h ^= head.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
return h % Math.max(1, count);
}

function match(piece) {
var cjk = isCJK(piece.codePointAt(0)), prefix = !cjk && Array.from(piece).length >= 2;
return get(base + "w/" + shard(piece, meta.shards) + ".json?v=" + meta.version).then(function (file) {
var found = new Map();
for (var i = 0; i < file.w.length; i++) {
var word = file.w[i];
var score = word === piece ? 2 : prefix && word.startsWith(piece) ? 1 : 0;
if (!score) continue;
var n = 0, list = file.p[i];
for (var j = 0; j < list.length; j++) {
n += list[j];
if ((found.get(n) || 0) < score) found.set(n, score);
}
}
return found;
});
}

function kindOf(n) { return n < meta.posts ? "p" : n < meta.posts + meta.users ? "u" : "t"; }
var kindOrder = { u: 0, t: 1, p: 2 };

function documents(numbers) {
var chunks = {};
numbers.forEach(function (n) { chunks[Math.floor(n / meta.chunk)] = true; });
return Promise.all(Object.keys(chunks).map(function (k) {
return get(base + "d/" + k + ".json?v=" + meta.version).then(function (docs) { return [Number(k), docs]; });
})).then(function (loaded) {
var byChunk = {};
loaded.forEach(function (pair) { byChunk[pair[0]] = pair[1]; });
return numbers.map(function (n) { return byChunk[Math.floor(n / meta.chunk)][n % meta.chunk]; });
});
}

var pageSize = 30, limits = { u: 8, t: 8, p: pageSize }, asked = 0;
function run(query, more) {
if (!more) limits.p = pageSize;
var started = performance.now(), ticket = ++asked;
var parts = [];
tokens(query).forEach(function (t) { parts = parts.concat(pieces(t)); });
if (!parts.length) { show([], query, started); return Promise.resolve(); }
return loadMeta().then(function () {
return Promise.all(parts.map(match));
}).then(function (sets) {
var scores = new Map(sets[0]);
for (var s = 1; s < sets.length; s++) {
scores.forEach(function (score, n) {
if (sets[s].has(n)) scores.set(n, score + sets[s].get(n)); else scores.delete(n);
});
}
var ranked = Array.from(scores.keys()).sort(function (a, b) {
var ka = kindOf(a), kb = kindOf(b);
if (ka !== kb) return kindOrder[ka] - kindOrder[kb];
return scores.get(b) - scores.get(a) || (ka === "p" ? b - a : a - b);
});
var counts = { u: 0, t: 0, p: 0 }, shown = [];
ranked.forEach(function (n) { var k = kindOf(n); if (counts[k]++ < limits[k]) shown.push(n); });
return documents(shown).then(function (docs) {
if (ticket === asked) show(docs, query, started, counts);
});
}).catch(function (error) {
if (ticket === asked) status.textContent = say("search_unavailable", { error: error.message });
});
}

function element(name, attributes, children) {
var e = document.createElement(name);
Object.keys(attributes || {}).forEach(function (a) { e.setAttribute(a, attributes[a]); });
(children || []).forEach(function (c) { e.append(c); });
return e;
}
function section(title, list) { return element("section", { "class": "search-section" }, [element("h2", { "class": "list-title" }, [title]), list]); }

function show(docs, query, started, counts) {
box.textContent = "";
var people = element("ul", { "class": "people" }), tags = element("ul", { "class": "tag-results" }), posts = element("ul", { "class": "grid" });
docs.forEach(function (d) {
var href = root + d[3];
if (d[0] === "u") {
var avatar = d[4] ? element("img", { src: root + d[4], alt: "", width: "44", height: "44", "class": "avatar", loading: "lazy" })
: element("span", { "class": "avatar avatar-initial", "aria-hidden": "true" }, [d[1].charAt(0).toUpperCase()]);
people.append(element("li", { "class": "person" }, [
element("a", { "class": "avatar-link", href: href, tabindex: "-1", "aria-hidden": "true" }, [avatar]),
element("div", { "class": "person-text" }, [
element("p", { "class": "person-top" }, [element("a", { "class": "handle", href: href }, [d[1]])]),
element("p", { "class": "person-name" }, [d[2]])])]));
} else if (d[0] === "t") {
tags.append(element("li", {}, [element("a", { href: href }, [d[1]]), " ", element("span", { "class": "tag-count" }, [d[2]])]));
} else {
var label = d[1] + (d[2] ? ": " + d[2] : "");
var tile = d[4] ? element("img", { src: root + d[4], alt: label, width: "480", height: "480", loading: "lazy", decoding: "async" })
: element("span", { "class": "cover search-cover" }, [element("span", { "class": "cover-label" }, ["Sensitive content"])]);
posts.append(element("li", {}, [element("a", { "class": "tile", href: href, title: label }, [tile])]));
}
});
if (people.children.length) box.append(section(say("search_people", {}), people));
if (tags.children.length) box.append(section(say("search_hashtags", {}), tags));
if (posts.children.length) box.append(section(say("search_posts", {}), posts));
if (counts && counts.p > limits.p) {
var button = element("button", { type: "button", "class": "search-more" }, [say("search_more", { count: number(counts.p - limits.p) })]);
button.addEventListener("click", function () { limits.p += pageSize; run(query, true); });
box.append(button);
}
var total = counts ? counts.u + counts.t + counts.p : 0;
var ms = Math.round(performance.now() - started);
box.setAttribute("data-ms", String(ms));
status.textContent = !query.trim() ? "" : total === 0 ? say("search_none", { query: query })
: say("search_results", { count: number(total), query: query }, total);
}

var timer = 0;
function update() {
var query = input.value;
var url = query ? "?q=" + encodeURIComponent(query) : location.pathname;
history.replaceState(null, "", url);
run(query);
}
input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(update, 120); });
input.form.addEventListener("submit", function (e) { e.preventDefault(); clearTimeout(timer); update(); });
var initial = new URLSearchParams(location.search).get("q");
if (initial) { input.value = initial; run(initial); }
})();
