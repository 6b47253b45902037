#!/usr/bin/env python3
"""A stdio MCP client that measures `wikitoolkit mcp` the way an agent uses it.

Standard library only. It starts `BIN mcp` with TREE as its working directory
(so the server finds TREE/.wikitoolkit, or builds it), speaks newline-delimited
JSON-RPC 2.0 over the server's stdin/stdout (initialize, notifications/
initialized, tools/call wiki_query) and prints one JSON object on stdout.

  mcpbench.py BIN TREE queries [--n 120]   open + first answer, then N queries:
                                          p50/p99 round trip, server VmRSS/VmHWM;
                                          then (--pages 40) wiki_page and
                                          wiki_related of page IDs from the
                                          answers: first call, p50/p99, RSS
  mcpbench.py BIN TREE saved [--trials 3]  a function with a unique name appended
                                          to a file while the server idles: time
                                          until wiki_query returns it (polled
                                          every 50 ms); the files are restored
  mcpbench.py BIN TREE noindex             time from start to the first
                                          wiki_query answer, its first 80 chars,
                                          whether it was an error or had results
  mcpbench.py BIN TREE idle [--seconds 60]  the server's CPU while no call comes
                                          (after --settle 20 s): its watcher's
                                          polls where file watches ran out, and
                                          how it watches (wiki_status)

Used by benchmarks/scale.sh; see benchmarks/README.md.
"""

import argparse
import json
import os
import queue
import random
import re
import statistics
import subprocess
import sys
import threading
import time

SKIP_DIRS = {".git", ".wikitoolkit", "vendor", "node_modules", "third_party"}

PROSE = [
    "how are records validated",
    "where are retries configured",
    "how is a session token refreshed",
    "what happens when the queue is full",
    "how does the cache get flushed",
    "where are payments encoded",
    "how is the config loaded",
    "error handling for a negative count",
    "which handler schedules the worker",
    "how are invoices merged",
    "where is the router registered",
    "how is the ledger snapshot saved",
    "what decodes a request",
    "how are metrics reported",
    "backoff policy for failed requests",
    "where is the storage index updated",
    "how does the server notify clients",
    "template rendering of reports",
    "account creation and deletion",
    "how is an event parsed",
]


def fail(msg):
    print("mcpbench: " + msg, file=sys.stderr)
    sys.exit(1)


class Server:
    """One `wikitoolkit mcp` process and its JSON-RPC stream."""

    def __init__(self, binary, tree, log):
        self.t_start = time.monotonic()
        self.proc = subprocess.Popen(
            [binary, "mcp"], cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=log, env={k: v for k, v in os.environ.items() if k != "WIKITOOLKIT_INDEX"})
        self.lines = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, msg):
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        self.proc.stdin.flush()

    def request(self, method, params, timeout=900):
        self.next_id += 1
        rid = self.next_id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                fail(f"no answer to {method} within {timeout} s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                fail(f"the server exited (status {self.proc.poll()}) before answering {method}; see its log")
            try:
                msg = json.loads(line)
            except ValueError:
                fail(f"the server wrote a line that is not JSON: {line[:200]!r}")
            if "method" in msg and "id" in msg:  # a request from the server (ping, roots/list…)
                if msg["method"] == "ping":
                    self.send({"jsonrpc": "2.0", "id": msg["id"], "result": {}})
                else:
                    self.send({"jsonrpc": "2.0", "id": msg["id"],
                               "error": {"code": -32601, "message": "not supported by mcpbench"}})
                continue
            if msg.get("id") != rid:
                continue  # a notification
            if "error" in msg:
                fail(f"{method} failed: {msg['error']}")
            return msg["result"]

    def initialize(self):
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "mcpbench", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized", "params": {}})

    def query(self, question, timeout=900):
        """wiki_query → (round-trip seconds, result dict)."""
        t0 = time.monotonic()
        res = self.request("tools/call", {"name": "wiki_query", "arguments": {"question": question}}, timeout)
        return time.monotonic() - t0, res

    def status(self):
        return proc_status(self.proc.pid)

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def results_of(res):
    sc = res.get("structuredContent") or {}
    return sc.get("results") or []


def text_of(res):
    return "".join(c.get("text", "") for c in res.get("content") or [] if c.get("type") == "text")


def source_files(tree):
    out = []
    for d, dirs, files in os.walk(tree):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("."))
        for f in sorted(files):
            if f.endswith((".go", ".py", ".ts", ".js", ".java", ".rs", ".md")):
                out.append(os.path.join(d, f))
    return out


IDENT = re.compile(r"^\s*(?:func\s+(?:\([^)]*\)\s*)?|def\s+|class\s+|(?:export\s+)?(?:async\s+)?function\s+|type\s+)([A-Za-z_][A-Za-z0-9_]{3,})", re.M)


def questions(tree, n):
    """n varied questions from the tree: identifiers, qualified names, paths, prose."""
    files = source_files(tree)
    if not files:
        fail(f"no source files under {tree}")
    rnd = random.Random(1)
    sample = rnd.sample(files, min(len(files), 400))
    idents, paths = [], []
    for p in sample:
        try:
            with open(p, encoding="utf-8", errors="replace") as f:
                src = f.read(200_000)
        except OSError:
            continue
        names = IDENT.findall(src)
        if names:
            idents.append(rnd.choice(names))
            if len(names) > 1:
                idents.append(" ".join(rnd.sample(names, 2)))
        paths.append(os.path.relpath(p, tree))
    groups = [idents or PROSE, PROSE, paths or PROSE, [os.path.basename(p) for p in paths] or PROSE]
    weights = [5, 3, 1, 1]  # of every 10 questions
    out = []
    while len(out) < n:
        for g, w in zip(groups, weights):
            for _ in range(w):
                out.append(rnd.choice(g))
    return out[:n]


def pct(xs, p):
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, int(round(p / 100 * len(s) + 0.5)) - 1))]


def cmd_queries(a):
    qs = questions(a.tree, a.n + 1)
    srv = Server(a.bin, a.tree, a.log)
    try:
        srv.initialize()
        _, first = srv.query(qs[0])
        open_first = time.monotonic() - srv.t_start
        if first.get("isError"):
            fail("the first wiki_query was an error: " + text_of(first)[:300])
        times, empty, errors = [], 0, 0
        ids = []  # the answers' page IDs, as an agent drills into them
        for i, q in enumerate(qs[1:]):
            dt, res = srv.query(q)
            times.append(dt * 1000)
            errors += bool(res.get("isError"))
            empty += not results_of(res)
            ids += [r["id"] for r in results_of(res)[:2] if r.get("id") and r.get("kind") != "memory"]
        st = srv.status()
        out = {"open_first_ms": round(open_first * 1000, 1), "n": len(times),
               "p50_ms": round(pct(times, 50), 2), "p99_ms": round(pct(times, 99), 2),
               "max_ms": round(max(times), 2), "errors": errors, "empty": empty,
               "rss_kb": st.get("VmRSS"), "hwm_kb": st.get("VmHWM"), "anon_kb": st.get("RssAnon"), "file_kb": st.get("RssFile")}
        if a.pages > 0:
            out["pages"] = page_views(srv, ids, a.pages)
        print(json.dumps(out))
        for ms, i in sorted(((t, i) for i, t in enumerate(times)), reverse=True)[:a.slowest]:
            print(f"{ms:8.2f} ms  #{i + 1:<4} {qs[i + 1]}", file=sys.stderr)
    finally:
        srv.close()


def page_views(srv, ids, n):
    """wiki_page, then wiki_related, of n distinct page IDs from the answers:
    the first call's time, p50/p99 of each tool, and the server's RSS after."""
    seen, pick = set(), []
    for i in ids:
        if i not in seen:
            seen.add(i)
            pick.append(i)
    pick = pick[:n]
    out = {"n": len(pick), "errors": 0}
    for tool in ("wiki_page", "wiki_related"):
        times = []
        for i in pick:
            t0 = time.monotonic()
            res = srv.request("tools/call", {"name": tool, "arguments": {"page_id": i}})
            times.append((time.monotonic() - t0) * 1000)
            out["errors"] += bool(res.get("isError"))
        if times:
            out[tool] = {"first_ms": round(times[0], 1), "p50_ms": round(pct(times, 50), 2),
                         "p99_ms": round(pct(times, 99), 2)}
    st = srv.status()
    out["rss_kb"], out["hwm_kb"] = st.get("VmRSS"), st.get("VmHWM")
    out["anon_kb"], out["file_kb"] = st.get("RssAnon"), st.get("RssFile")
    return out


def appended(path, name):
    if path.endswith(".go"):
        return f"\n// {name} was added by mcpbench.\nfunc {name}() int {{ return 1 }}\n"
    if path.endswith(".py"):
        return f"\n\ndef {name}():\n    \"\"\"Added by mcpbench.\"\"\"\n    return 1\n"
    return f"\nexport function {name}(): number {{\n  return 1;\n}}\n"


def cmd_saved(a):
    files = [f for f in source_files(a.tree) if f.endswith((".go", ".py", ".ts"))]
    if not files:
        fail(f"no .go, .py or .ts file under {a.tree} to edit")
    go = [f for f in files if f.endswith(".go")] or files
    victims = random.Random(a.seed).sample(go, min(len(go), a.trials))
    originals = {}
    srv = Server(a.bin, a.tree, a.log)
    out = []
    try:
        srv.initialize()
        _, res = srv.query("how are records validated")
        if res.get("isError"):
            fail("wiki_query failed before the edit: " + text_of(res)[:300])
        stamp = int(time.time())
        for i in range(a.trials):
            victim = victims[i % len(victims)]
            time.sleep(a.idle)  # the server is idle: no call, no check, no build running
            name = f"ScaleProbe{stamp}T{i}"
            with open(victim, "rb") as f:
                orig = f.read()
            originals.setdefault(victim, orig)
            with open(victim, "ab") as f:
                f.write(appended(victim, name).encode())
            t0 = time.monotonic()
            polls = 0
            while True:
                _, res = srv.query(name)
                polls += 1
                if any(name in json.dumps(r) for r in results_of(res)):
                    break
                if time.monotonic() - t0 > a.timeout:
                    fail(f"{name} (appended to {victim}) not in answers after {a.timeout} s")
                time.sleep(0.05)
            out.append({"ms": round((time.monotonic() - t0) * 1000, 1), "polls": polls,
                        "file": os.path.relpath(victim, a.tree)})
        st = srv.status()  # the server rebuilt the index in process, once per save
        print(json.dumps({"trials": out, "median_ms": statistics.median(t["ms"] for t in out),
                          "rss_kb": st.get("VmRSS"), "hwm_kb": st.get("VmHWM")}))
    finally:
        srv.close()
        for p, b in originals.items():
            with open(p, "wb") as f:
                f.write(b)


def cpu_seconds(pid):
    """User + system CPU seconds of process pid so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cmd_idle(a):
    srv = Server(a.bin, a.tree, a.log)
    try:
        srv.initialize()
        _, res = srv.query("how are records validated")
        if res.get("isError"):
            fail("wiki_query failed: " + text_of(res)[:300])
        time.sleep(a.settle)  # the first check of the tree, the first watches
        c0, t0 = cpu_seconds(srv.proc.pid), time.monotonic()
        time.sleep(a.seconds)
        cpu, wall = cpu_seconds(srv.proc.pid) - c0, time.monotonic() - t0
        st = srv.request("tools/call", {"name": "wiki_status", "arguments": {}})
        sc = st.get("structuredContent") or {}
        print(json.dumps({"idle_s": round(wall, 1), "cpu_s": round(cpu, 2), "cores": round(cpu / wall, 3),
                          "watching": sc.get("watching"), "watched_dirs": sc.get("watched_dirs"),
                          "dirs": sc.get("dirs"), "poll_seconds": sc.get("poll_seconds"),
                          "rss_kb": srv.status().get("VmRSS")}))
    finally:
        srv.close()


def cmd_noindex(a):
    if os.path.exists(os.path.join(a.tree, ".wikitoolkit", "CURRENT")):
        fail(f"{a.tree} has an index; move .wikitoolkit away first")
    srv = Server(a.bin, a.tree, a.log)
    try:
        srv.initialize()
        _, res = srv.query("how are records validated")
        dt = time.monotonic() - srv.t_start
        print(json.dumps({"first_ms": round(dt * 1000, 1), "is_error": bool(res.get("isError")),
                          "results": len(results_of(res)), "text80": text_of(res)[:80]}))
    finally:
        srv.proc.terminate()  # do not wait for the background build
        srv.close()


def proc_status(pid):
    """VmRSS, VmHWM, RssAnon and RssFile of process pid, in kB (webbench.py uses it too)."""
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                k, _, v = line.partition(":")
                if k in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
                    out[k] = int(v.split()[0])  # kB
    except OSError:
        pass
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bin", help="the wikitoolkit binary")
    ap.add_argument("tree", help="the repository (the server runs there)")
    ap.add_argument("mode", choices=["queries", "saved", "noindex", "idle"])
    ap.add_argument("--n", type=int, default=120, help="queries after the first (queries)")
    ap.add_argument("--pages", type=int, default=40,
                    help="then wiki_page and wiki_related of this many page IDs from the answers (queries; 0: none)")
    ap.add_argument("--trials", type=int, default=3, help="files saved (saved)")
    ap.add_argument("--idle", type=float, default=5, help="seconds idle before each save (saved)")
    ap.add_argument("--seed", type=int, default=2,
                    help="picks the files saved (saved): another seed, files no earlier run touched (a watcher out of\n"
                         "watches prefers the directories whose files changed last)")
    ap.add_argument("--timeout", type=float, default=900, help="give up after this many seconds (saved)")
    ap.add_argument("--seconds", type=float, default=60, help="seconds measured (idle)")
    ap.add_argument("--settle", type=float, default=20, help="seconds after the first answer before measuring (idle)")
    ap.add_argument("--log", default=os.devnull, help="file for the server's stderr")
    ap.add_argument("--slowest", type=int, default=0, metavar="K",
                    help="also print the K slowest questions with their times, to stderr (queries)")
    a = ap.parse_args()
    a.tree = os.path.abspath(a.tree)
    if not os.path.isdir(a.tree):
        fail(f"{a.tree} is not a directory")
    with open(a.log, "ab") as log:
        a.log = log
        {"queries": cmd_queries, "saved": cmd_saved, "noindex": cmd_noindex, "idle": cmd_idle}[a.mode](a)


if __name__ == "__main__":
    main()
