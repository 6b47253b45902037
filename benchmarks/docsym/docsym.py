#!/usr/bin/env python3
"""Docstring → symbol harness (issue #14): find the function a sentence of its doc describes.

Over the HEAD trees of gin, flask, pytest and caddy, every function and method that has a doc
comment (test files left out) gives a question: the doc's first sentence with the symbol's own
name removed (kept when at least 3 words are left). The gold is the symbol's file and name. 150
questions are sampled per repository (random.Random(7)), 600 in all.

Two rankers answer each question:

- wikitoolkit: `BIN query --json --kind symbol QUESTION` run in the tree (indexed first with
  `BIN build --full --quiet` when the tree has no index, or with --rebuild); the rank is the first result, in the answer's
  order, whose path is the gold's file and whose ID's last part (after `#`, then after the last
  `.`, an overload's `~N` left out) is the gold's name.
- bm25: a plain BM25 (k1 1.2, b 0.75) over each function's text (its name, doc and body: the
  source from its declaration to its end), words split at non-identifier characters and into
  camelCase / snake_case pieces, lower-cased, no stemming, no stop words; the corpus is every
  function and method of the repository's non-test files, documented or not. Ties are broken by
  the order of extraction (path, then line). Go's text is the doc comment and the declaration;
  Python's is the definition's source (decorators, signature, docstring, body).

Symbols are extracted exactly: Python's `ast` for .py files (module functions and the methods of
classes, nested classes included; not functions nested in functions), and for Go the go/ast
extractor ./goextract (`go run`, from the repository root). Test files: Go's `_test.go`; Python's
`test_*.py`, `*_test.py`, `conftest.py` and anything under a folder named test, tests or testing;
testdata and vendor folders are left out for both.

Usage (from the repository root; not run by `go test`):

    python3 benchmarks/docsym/docsym.py --bin /tmp/wk-main --trees /tmp/ds3/base --out /tmp/ds3/base.jsonl

--trees PREFIX reads PREFIX-gin-gonic+gin, PREFIX-pallets+flask, PREFIX-pytest-dev+pytest,
PREFIX-caddyserver+caddy, extracting each from /work/.mirror/OWNER+NAME/repo (`git archive HEAD`,
or --mirror ROOT) when it does not exist. Use one PREFIX per binary: an index built by one binary
is not the other's. It prints Acc@1 / Acc@5 / MRR per ranker, overall and per repository, and
writes one JSON line per question to --out (query, gold, both ranks, both first answers).
"""

import argparse
import ast
import json
import math
import os
import random
import re
import subprocess
import sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor

REPOS = ["gin-gonic+gin", "pallets+flask", "pytest-dev+pytest", "caddyserver+caddy"]
SHORT = {"gin-gonic+gin": "gin", "pallets+flask": "flask", "pytest-dev+pytest": "pytest",
         "caddyserver+caddy": "caddy"}
PER_REPO = 150
SEED = 7
K1, B = 1.2, 0.75
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

TEST_DIRS = {"test", "tests", "testing"}
SKIP_DIRS = {"testdata", "vendor", "node_modules"}


def is_test_py(rel):
    parts = rel.split("/")
    name = parts[-1]
    if any(p in TEST_DIRS for p in parts[:-1]):
        return True
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


def py_symbols(tree):
    out = []
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for fn in sorted(filenames):
            if not fn.endswith(".py"):
                continue
            full = os.path.join(dirpath, fn)
            rel = os.path.relpath(full, tree).replace(os.sep, "/")
            if is_test_py(rel):
                continue
            try:
                src = open(full, encoding="utf-8").read()
                mod = ast.parse(src)
            except (SyntaxError, UnicodeDecodeError, ValueError) as e:
                print(f"docsym: {rel}: {e}", file=sys.stderr)
                continue
            lines = src.splitlines(keepends=True)

            def visit(body, owner):
                for node in body:
                    if isinstance(node, ast.ClassDef):
                        visit(node.body, node.name)
                    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        start = node.lineno - 1
                        if node.decorator_list:
                            start = min(d.lineno for d in node.decorator_list) - 1
                        text = "".join(lines[start:node.end_lineno])
                        out.append({"path": rel, "name": node.name, "recv": owner,
                                    "line": node.lineno, "doc": ast.get_docstring(node) or "",
                                    "src": text, "text": text})
            visit(mod.body, "")
    return out


def go_symbols(tree):
    res = subprocess.run(["go", "run", "./benchmarks/docsym/goextract", tree], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    if res.stderr.strip():
        print(res.stderr.strip(), file=sys.stderr)
    out = [json.loads(l) for l in res.stdout.splitlines() if l.strip()]
    for s in out:
        s.setdefault("recv", "")
        s["text"] = s["doc"] + "\n" + s["src"]  # go/ast's FuncDecl starts after its doc comment
    out.sort(key=lambda s: (s["path"], s["line"]))
    return out


SENT_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
WORD = re.compile(r"[A-Za-z0-9_]+")


def first_sentence(doc):
    para = doc.strip().split("\n\n")[0]
    para = " ".join(l.strip() for l in para.splitlines())
    return SENT_END.split(para, maxsplit=1)[0].strip()


def question_of(sym):
    """The doc's first sentence without the symbol's own name; None under 3 words."""
    s = first_sentence(sym["doc"])
    name = re.escape(sym["name"])
    recv = re.escape(sym["recv"]) + r"\." if sym["recv"] else ""
    if recv:
        s = re.sub(r"`?\b" + recv + name + r"\b(\(\))?`?", " ", s)
    s = re.sub(r"`?(?<![A-Za-z0-9_.])" + name + r"(?![A-Za-z0-9_])(\(\))?`?", " ", s)
    s = re.sub(r"\s+", " ", s).strip()
    if len(WORD.findall(s)) < 3:
        return None
    return s


CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def words(text):
    out = []
    for tok in WORD.findall(text):
        for part in tok.split("_"):
            out.extend(p.lower() for p in CAMEL.findall(part))
    return out


class BM25:
    def __init__(self, docs):
        self.tfs = [Counter(d) for d in docs]
        self.lens = [len(d) for d in docs]
        self.avg = sum(self.lens) / max(1, len(docs))
        df = Counter()
        for tf in self.tfs:
            df.update(tf.keys())
        n = len(docs)
        self.idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
        self.post = defaultdict(list)
        for i, tf in enumerate(self.tfs):
            for t in tf:
                self.post[t].append(i)

    def rank(self, query):
        scores = defaultdict(float)
        for t in set(query):
            idf = self.idf.get(t)
            if idf is None:
                continue
            for i in self.post[t]:
                f = self.tfs[i][t]
                norm = K1 * (1 - B + B * self.lens[i] / self.avg)
                scores[i] += idf * f * (K1 + 1) / (f + norm)
        return sorted(scores, key=lambda i: (-scores[i], i))


def last_part(pid):
    """The name an ID ends with: "symbol:a.py#C.get~3" (the third definition of C.get) → "get"."""
    tail = pid.split("#", 1)[-1]
    tail = re.sub(r"~[0-9]+$", "", tail)
    return tail.rsplit(".", 1)[-1]


def ask_wikitoolkit(binary, tree, q):
    res = subprocess.run([binary, "query", "--json", "--kind", "symbol", q], cwd=tree,
                         capture_output=True, text=True)
    if res.returncode != 0:
        return None, res.stderr.strip()[:200]
    return json.loads(res.stdout).get("results", []), None


def tree_for(prefix, repo, mirror):
    tree = f"{prefix}-{repo}"
    if not os.path.isdir(tree):
        os.makedirs(tree)
        arch = subprocess.Popen(["git", "-C", os.path.join(mirror, repo, "repo"), "archive", "HEAD"],
                                stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", tree], stdin=arch.stdout, check=True)
        arch.wait()
    return tree


def summary(rows, key):
    n = len(rows)
    ranks = [r[key] for r in rows]
    a1 = sum(1 for k in ranks if k == 1) / n
    a5 = sum(1 for k in ranks if k and k <= 5) / n
    mrr = sum(1 / k for k in ranks if k) / n
    return a1, a5, mrr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="the wikitoolkit binary")
    ap.add_argument("--trees", required=True, help="tree prefix (PREFIX-OWNER+NAME)")
    ap.add_argument("--mirror", default="/work/.mirror")
    ap.add_argument("--out", help="per-case jsonl")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rebuild", action="store_true", help="build the index anew (--full) even if one exists")
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)

    rows = []
    for repo in REPOS:
        tree = tree_for(args.trees, repo, args.mirror)
        if args.rebuild or not os.path.isdir(os.path.join(tree, ".wikitoolkit")):
            subprocess.run([binary, "build", "--full", "--quiet"], cwd=tree, check=True)
        syms = go_symbols(tree) if repo in ("gin-gonic+gin", "caddyserver+caddy") else py_symbols(tree)
        bm = BM25([words(s["text"]) for s in syms])
        cases = []
        for i, s in enumerate(syms):
            if s["doc"]:
                q = question_of(s)
                if q:
                    cases.append((i, q))
        sample = random.Random(SEED).sample(cases, min(PER_REPO, len(cases)))

        def one(case):
            i, q = case
            gold = syms[i]
            res, err = ask_wikitoolkit(binary, tree, q)
            wrank, wtop = 0, ""
            if res:
                wtop = res[0].get("id", "")
                for k, r in enumerate(res, 1):
                    if r.get("path") == gold["path"] and last_part(r.get("id", "")) == gold["name"]:
                        wrank = k
                        break
            order = bm.rank(words(q))
            brank = 0
            for k, j in enumerate(order, 1):
                if syms[j]["path"] == gold["path"] and syms[j]["name"] == gold["name"]:
                    brank = k
                    break
            btop = order[0] if order else None
            return {"repo": SHORT[repo], "query": q, "path": gold["path"], "name": gold["name"],
                    "recv": gold["recv"], "line": gold["line"], "wikitoolkit": wrank, "bm25": brank,
                    "wikitoolkit_top": wtop, "results": len(res or []), "error": err,
                    "bm25_top": f"{syms[btop]['path']}#{syms[btop]['name']}" if btop is not None else ""}

        with ThreadPoolExecutor(args.jobs) as ex:
            got = list(ex.map(one, sample))
        print(f"{SHORT[repo]}: {len(syms)} symbols, {len(cases)} questions, {len(got)} asked",
              file=sys.stderr)
        rows.extend(got)

    if args.out:
        with open(args.out, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    print(f"{'ranker':<12} {'Acc@1':>6} {'Acc@5':>6} {'MRR':>6}  " +
          "  ".join(f"{SHORT[r]:>11}" for r in REPOS) + "   (per repo Acc@1/Acc@5)")
    for key in ("wikitoolkit", "bm25"):
        a1, a5, mrr = summary(rows, key)
        per = []
        for repo in REPOS:
            sub = [r for r in rows if r["repo"] == SHORT[repo]]
            p1, p5, _ = summary(sub, key)
            per.append(f"{p1:.3f}/{p5:.3f}")
        print(f"{key:<12} {a1:6.3f} {a5:6.3f} {mrr:6.3f}  " + "  ".join(f"{p:>11}" for p in per))
    errs = sum(1 for r in rows if r["error"])
    if errs:
        print(f"{errs} wikitoolkit errors", file=sys.stderr)


if __name__ == "__main__":
    main()
