#!/usr/bin/env python3
"""An HTTP client that measures `wikitoolkit web` the way a person browses it.

Standard library only. It starts `BIN web --http 127.0.0.1:0 --no-watch` with
TREE as its working directory (an index must exist: run `wikitoolkit build`
first), waits for the URL it prints, and then:

  home        GET / (the first one, then once more)
  search      GET /search?q=... for varied questions (identifiers, prose)
  pages       GET /page/ID of N distinct page IDs linked from the answers
              (symbols, files, modules) and /graph/ID of the first N/2

For each phase it prints the first request's time, p50/p99 and the server's
VmRSS/VmHWM after it (and of VmRSS, RssAnon: its own memory, and RssFile:
the index files it has mapped, pages the kernel may take back), as one JSON
object on stdout.

  webbench.py BIN TREE [--n 40] [--log FILE]   (FILE: the server's stderr)

See benchmarks/README.md.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

from mcpbench import proc_status

QUESTIONS = [
    "how are records validated",
    "where are retries configured",
    "how is the config loaded",
    "what decodes a request",
    "how are invoices merged",
    "where is the router registered",
    "error handling for a negative count",
    "how are metrics reported",
]

HREF = re.compile(r'href="(/page/[^"?#]+)"')


def fail(msg):
    print("webbench: " + msg, file=sys.stderr)
    sys.exit(1)


def pct(xs, p):
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, int(round(p / 100 * len(s) + 0.5)) - 1))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bin", help="the wikitoolkit binary")
    ap.add_argument("tree", help="the repository (its index must exist)")
    ap.add_argument("--n", type=int, default=40, help="pages viewed")
    ap.add_argument("--log", default=os.devnull, help="file for the server's stderr")
    a = ap.parse_args()

    log = open(a.log, "w")
    t_start = time.monotonic()
    proc = subprocess.Popen([a.bin, "web", "--http", "127.0.0.1:0", "--no-watch"], cwd=a.tree,
                            stdout=log, stderr=subprocess.PIPE, text=True,
                            env={k: v for k, v in os.environ.items() if k != "WIKITOOLKIT_INDEX"})
    base = None
    found = threading.Event()

    def read():
        nonlocal base
        for line in proc.stderr:  # the URL is said on stderr, with the logs
            log.write(line)
            log.flush()
            m = re.search(r"http://127\.0\.0\.1:\d+", line)
            if m and base is None:
                base = m.group(0)
                found.set()

    threading.Thread(target=read, daemon=True).start()
    if not found.wait(120):
        proc.kill()
        fail("the server printed no URL within 120 s; see --log")

    def get(path):
        t0 = time.monotonic()
        try:
            with urllib.request.urlopen(base + path, timeout=900) as r:
                body = r.read().decode("utf-8", "replace")
                code = r.status
        except urllib.error.HTTPError as e:
            body, code = e.read().decode("utf-8", "replace"), e.code
        return (time.monotonic() - t0) * 1000, code, body

    def phase(name, paths):
        times, errors = [], 0
        for p in paths:
            ms, code, _ = get(p)
            times.append(ms)
            errors += code != 200
        st = proc_status(proc.pid)
        return {"n": len(times), "first_ms": round(times[0], 1), "p50_ms": round(pct(times, 50), 1),
                "p99_ms": round(pct(times, 99), 1), "errors": errors,
                "rss_kb": st.get("VmRSS"), "hwm_kb": st.get("VmHWM"),
                "anon_kb": st.get("RssAnon"), "file_kb": st.get("RssFile")}

    out = {}
    try:
        ms, code, _ = get("/")
        out["start_to_home_ms"] = round((time.monotonic() - t_start) * 1000, 1)
        out["home"] = phase("home", ["/"])
        out["home"]["first_ms"] = round(ms, 1)
        if code != 200:
            fail(f"GET / answered {code}")
        ids, times, errors = [], [], 0
        for q in QUESTIONS:
            ms, code, body = get("/search?q=" + urllib.parse.quote(q))
            times.append(ms)
            errors += code != 200
            for h in HREF.findall(body):
                if h not in ids:
                    ids.append(h)
        st = proc_status(proc.pid)
        out["search"] = {"n": len(times), "first_ms": round(times[0], 1), "p50_ms": round(pct(times, 50), 1),
                         "p99_ms": round(pct(times, 99), 1), "errors": errors,
                         "rss_kb": st.get("VmRSS"), "hwm_kb": st.get("VmHWM"),
                "anon_kb": st.get("RssAnon"), "file_kb": st.get("RssFile")}
        if not ids:
            fail("the answers linked no pages")
        rnd = random.Random(1)
        rnd.shuffle(ids)
        pages = ids[:a.n]
        out["pages"] = phase("pages", pages)
        out["graphs"] = phase("graphs", [p.replace("/page/", "/graph/", 1) for p in pages[:max(1, a.n // 2)]])
        print(json.dumps(out))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
