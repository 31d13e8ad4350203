#!/usr/bin/env python3
"""Measures `gramgen serve`: requests/s with wrk, and edit-to-reload latency.

Usage: scripts/serve-bench.py GRAMGEN_BINARY SITE_DIR [--port N] [--edits 10] [--seconds 20] [--log FILE]
                              [--kinds hashtag,post,profile] [--with-cache] [--work DIR]

After the caption edits (each replaces the first post's caption; the new text must be served),
`--kinds` times the edit to reload event of more kinds of edit, `--edits` of each: a caption edit
that adds a new hashtag, a new post (a post.md and a photo copied in), a profile (bio) edit.

SITE_DIR is copied to a temporary folder first (the copy's captions are edited). Only loopback
traffic; every loop is bounded in count and time.
"""
import argparse, os, re, shutil, signal, socket, statistics, subprocess, sys, tempfile, time


def get(port, path):
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body.decode("utf-8", "replace")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("site")
    parser.add_argument("--port", type=int, default=18080)
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--log", help="keep the server's output (run with --verbose) in this file")
    parser.add_argument("--kinds", default="", help="comma-separated: hashtag, post, profile")
    parser.add_argument("--with-cache", action="store_true",
                        help="copy the site's image cache too (.gramgen/cache): the server starts without processing photos")
    parser.add_argument("--work", help="make the copy in this folder (a tmpfs, say) instead of the system's temporary folder")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="gramgen-serve-bench-", dir=args.work)
    site = os.path.join(work, "site")
    shutil.copytree(args.site, site, ignore=shutil.ignore_patterns(".gramgen", "public"))
    if args.with_cache and os.path.isdir(os.path.join(args.site, ".gramgen", "cache")):
        shutil.copytree(os.path.join(args.site, ".gramgen", "cache"), os.path.join(site, ".gramgen", "cache"))
    log = open(args.log or os.path.join(work, "serve.log"), "w")
    verbose = ["--verbose"] if args.log else []
    server = subprocess.Popen([args.binary, "serve", "--site", site, "--port", str(args.port)] + verbose, stdout=log, stderr=log)
    try:
        deadline = time.time() + 300
        while time.time() < deadline:
            try:
                if get(args.port, "/")[0] == 200:
                    break
            except OSError:
                time.sleep(0.2)
        else:
            sys.exit("server did not start")

        posts = sorted(p for p in (os.path.join(r, "post.md") for r, _, f in os.walk(os.path.join(site, "content")) if "post.md" in f))
        post = posts[0]
        parts = post.split(os.sep)
        handle, post_id = parts[-4], parts[-2]
        page = f"/{handle}/p/{post_id}/"
        status, body = get(args.port, page)
        media = re.search(r'(/?\.{0,2}/?media/[^"\s,]+\.webp)', body) or re.search(r'(media/[^"\s,]+)', body)
        media_path = "/" + media.group(1).lstrip("./") if media else "/feed.json"

        print("## wrk (-t2 -c64 -d%ds)" % args.seconds)
        for path in ["/", page, f"/{handle}/", "/feed.json", media_path]:
            out = subprocess.run(["wrk", "-t2", "-c64", f"-d{args.seconds}s", f"http://127.0.0.1:{args.port}{path}"],
                                 capture_output=True, text=True).stdout
            rps = re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)
            errors = re.search(r"Socket errors:.*", out)
            non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
            latency = re.search(r"Latency\s+(\S+)", out).group(1)
            total = re.search(r"(\d+) requests in", out).group(1)
            print(f"{path}: {rps} req/s, {total} requests, avg latency {latency}, "
                  f"socket errors: {errors.group(0) if errors else 'none'}, non-2xx: {non2xx.group(1) if non2xx else 0}")

        events = socket.create_connection(("127.0.0.1", args.port), timeout=10)
        events.sendall(b"GET /_gramgen/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        buffer = b""
        while b": connected" not in buffer:
            buffer += events.recv(4096)
        original = open(post, encoding="utf-8").read()
        front, sep, caption = original.rpartition("---\n")
        reloads, served = [], []
        for i in range(args.edits):
            text = f"Edited caption number {i} {time.time()}"
            start = time.monotonic()
            with open(post, "w", encoding="utf-8") as f:
                f.write(front + sep + text + "\n")
            buffer = b""
            events.settimeout(10)
            while b"event: reload" not in buffer:
                buffer += events.recv(4096)
            reloads.append(time.monotonic() - start)
            while text not in get(args.port, page)[1]:
                time.sleep(0.005)
            served.append(time.monotonic() - start)
            time.sleep(0.5)
        with open(post, "w", encoding="utf-8") as f:
            f.write(original)
        print(f"## edit to reload event over {args.edits} edits: median {statistics.median(reloads)*1000:.0f} ms "
              f"(min {min(reloads)*1000:.0f}, max {max(reloads)*1000:.0f})")
        print(f"## edit to new text served: median {statistics.median(served)*1000:.0f} ms")

        def reloaded_after(action):
            start = time.monotonic()
            action()
            buffer = b""
            events.settimeout(20)
            while b"event: reload" not in buffer:
                buffer += events.recv(4096)
            return time.monotonic() - start

        user = os.path.dirname(os.path.dirname(os.path.dirname(post)))
        photo = next((os.path.join(os.path.dirname(post), n) for n in sorted(os.listdir(os.path.dirname(post)))
                      if n.lower().endswith((".jpg", ".jpeg", ".png", ".webp"))), None)
        profile = os.path.join(user, "profile.md")

        def rewrite(path, text):
            with open(path, encoding="utf-8") as f:
                old = f.read()
            with open(path + ".new", "w", encoding="utf-8") as f:
                f.write(old.rstrip("\n") + "\n" + text + "\n")
            os.replace(path + ".new", path)

        def new_post(i):
            folder = os.path.join(user, "posts", f"2030-01-01-bench-{i}-{os.getpid()}")
            os.makedirs(folder)
            if photo:
                shutil.copyfile(photo, os.path.join(folder, "1.jpg"))
            with open(os.path.join(folder, "post.md"), "w", encoding="utf-8") as f:
                f.write(f"---\ndate: 2030-01-01T10:00:00Z\n---\nA new post {i}\n")

        actions = {
            "hashtag": lambda i: rewrite(post, f"New tag #benchtag{i}x{os.getpid()}"),
            "post": new_post,
            "profile": lambda i: rewrite(profile, f"Bio line {i}."),
        }
        for kind in [k for k in args.kinds.split(",") if k]:
            times = []
            for i in range(args.edits):
                times.append(reloaded_after(lambda: actions[kind](i)))
                time.sleep(0.5)
            print(f"## {kind}: edit to reload event over {args.edits} edits: median {statistics.median(times)*1000:.0f} ms "
                  f"(min {min(times)*1000:.0f}, max {max(times)*1000:.0f})")
        events.close()
    finally:
        server.send_signal(signal.SIGINT)
        try:
            code = server.wait(timeout=15)
            print(f"## after SIGINT: exit {code}")
        except subprocess.TimeoutExpired:
            server.kill()
            print("## did not stop within 15 s after SIGINT")
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
