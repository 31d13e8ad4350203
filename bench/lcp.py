#!/usr/bin/env python3
"""Largest Contentful Paint of a built site's home, a profile and a post page in headless Chromium
on a throttled phone (390x844, 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, no cache).

    python3 bench/lcp.py SITE [--runs 5] [--post ann/p/2024-01-01-x/]

Prints the median LCP (ms), what the LCP element was, and the bytes each page downloaded.
Uses Tests/browser/check_site.py's server and browser, so the site is served under its base path.
"""
import argparse, os, statistics, sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tests", "browser"))
import check_site as c  # noqa: E402

LCP = """
const done = arguments[arguments.length - 1];
let last = null;
new PerformanceObserver(list => { for (const e of list.getEntries()) last = e; })
  .observe({ type: 'largest-contentful-paint', buffered: true });
setTimeout(() => done(last ? { ms: last.startTime, what: (last.element ? last.element.tagName + '.' + (last.element.className || '') + ' ' + (last.url || '').split('/').pop() : '') } : null), 500);
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("site")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--post", help="the post page to measure (a folder such as ann/p/2024-01-01-x/); "
                        "by default the browser test's carousel post, which differs between theme versions")
    args = parser.parse_args()
    site = os.path.abspath(args.site)
    pages = c.pick_pages(site)
    chosen = {"home": pages["home"], "profile": pages["profile"], "post": args.post or pages.get("post with carousel") or pages["post"]}
    server, folder, root = c.serve(site, c.base_path(site))
    driver = c.start_browser()
    try:
        c.viewport(driver, c.PHONE)
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        # Every load is a first visit: a service worker (offline: true) must not answer from its cache.
        driver.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": True})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 150, "downloadThroughput": 200_000, "uploadThroughput": 93_750})
        for kind, path in chosen.items():
            times, what, size = [], "", 0
            for _ in range(args.runs):
                driver.get("about:blank")
                driver.get(root + path)
                c.wait(driver, "return document.readyState === 'complete'", timeout=60)
                result = driver.execute_async_script(LCP)
                if result:
                    times.append(result["ms"])
                    what = result["what"]
                size = driver.execute_script(
                    "return performance.getEntriesByType('resource').reduce((s, e) => s + (e.encodedBodySize || 0), 0)"
                    " + (performance.getEntriesByType('navigation')[0].encodedBodySize || 0)")
            median = statistics.median(times) if times else float("nan")
            print(f"{kind:8} LCP median {median:7.0f} ms over {len(times)} runs  ({what})  {size / 1024:.0f} KiB on load")
    finally:
        driver.quit()
        server.shutdown()


if __name__ == "__main__":
    main()
