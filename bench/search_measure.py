#!/usr/bin/env python3
"""Measures gramgen's search on a built site, in headless Chromium, as a visitor meets it.

    python3 bench/search_measure.py PUBLIC_DIR [QUERY ...]

Prints the index's size (files, bytes, largest word file and document chunk), then for each query,
on a fresh page: the bytes of the index downloaded, the time to the first result after the query
was typed (the first query includes loading the index parts; a second query on the same page is
timed too), and the results found. Serves PUBLIC_DIR with Python's http.server (no compression,
so the byte counts are what an uncompressed host sends; gzip roughly thirds them).
"""
import functools
import http.server
import os
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tests", "browser"))
import check_site  # noqa: E402  (the browser set-up the tests use)


def index_size(site):
    root = os.path.join(site, "search")
    sizes = {"w": [], "d": [], "meta": 0}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            size = os.path.getsize(path)
            kind = os.path.basename(folder)
            if kind in ("w", "d"):
                sizes[kind].append(size)
            elif name == "meta.json":
                sizes["meta"] = size
    total = sum(sizes["w"]) + sum(sizes["d"]) + sizes["meta"]
    print(f"index: {len(sizes['w'])} word files ({sum(sizes['w']) / 1e6:.2f} MB, largest {max(sizes['w'] or [0]) / 1e3:.1f} KB), "
          f"{len(sizes['d'])} document chunks ({sum(sizes['d']) / 1e6:.2f} MB, largest {max(sizes['d'] or [0]) / 1e3:.1f} KB), "
          f"{total / 1e6:.2f} MB in all")


def main():
    site = sys.argv[1]
    queries = sys.argv[2:] or ["lake", "creme", "서울", "mountain morning"]
    index_size(site)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=site)
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/search/"
    driver = check_site.start_browser()
    try:
        for query in queries:
            driver.get(base)
            check_site.wait(driver, "return document.readyState === 'complete'", timeout=30)
            driver.execute_script("performance.clearResourceTimings()")
            box = driver.find_element("id", "q")
            started = time.time()
            box.send_keys(query)
            box.submit()
            check_site.wait(driver, "return document.getElementById('search-status').textContent", timeout=30)
            first = (time.time() - started) * 1000
            ms = driver.execute_script("return Number(document.getElementById('search-results').dataset.ms)")
            downloaded = driver.execute_script("""
              return performance.getEntriesByType('resource').filter(e => e.name.includes('/search/'))
                .reduce((sum, e) => sum + (e.encodedBodySize || e.transferSize || 0), 0);""")
            status = driver.execute_script("return document.getElementById('search-status').textContent")
            # The same query again on this page: the index parts are loaded now.
            driver.execute_script("document.getElementById('search-results').dataset.ms = ''")
            box.clear()
            box.send_keys(query + " ")
            box.submit()
            check_site.wait(driver, "return document.getElementById('search-results').dataset.ms", timeout=30)
            again = driver.execute_script("return Number(document.getElementById('search-results').dataset.ms)")
            print(f"{query!r}: {downloaded / 1e3:.1f} KB downloaded; first answer {ms} ms in the page "
                  f"({first:.0f} ms from typing, page script included); again {again} ms; {status}")
    finally:
        driver.quit()
        server.shutdown()


if __name__ == "__main__":
    main()
