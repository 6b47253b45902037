#!/usr/bin/env bash
# The scale benchmark of issue #13: every row of its "Numbers to reach" table,
# measured in one run on one tree, printed as one markdown table.
#
#   benchmarks/scale.sh                      # 100,000 synthetic files in a temp tree
#   benchmarks/scale.sh 5000                 # a smaller synthetic tree
#   benchmarks/scale.sh 100000 /tmp/synth    # write the tree there (kept; reused if it exists)
#   benchmarks/scale.sh - /tmp/moby          # an existing tree (a checkout or git archive)
#   OUT=table.md PAIRS=3 benchmarks/scale.sh 5000
#
# A synthetic tree (benchmarks/synth, seed 1) is written by TestWriteSynth
# and committed to a fresh git repository, as users run the tool in one. An
# existing tree is used as it is, with its index at TREE/.wikitoolkit (removed
# at the end if it was not there before). Rows, each a median where repeated:
#   full build / P2     `build --full` wall time under /usr/bin/time -v over P2
#                       (BenchmarkParseOnly: tree-sitter alone, 2 workers), the
#                       mean of one run just before the build and one just after
#                       (on a shared machine a single P2 moved a pair's ratio by
#                       ±15 %); PAIRS pairs (default 1), median ratio
#   full build RSS      peak RSS of that build
#   rebuilds            no change, touch, a line appended to a file edited for
#                       the first time since the full build (another file each
#                       time: its old version is read from a full segment), a
#                       line appended and a function added to one file (edited
#                       again: its old version is in a small segment), a file
#                       added beside the edited one and removed, a file in a
#                       new directory and that directory removed: EDITS (default
#                       5) `build` runs each, wall time and peak RSS
#   stat floor          BenchmarkStatFloor: an lstat of every directory and file
#                       of the tree and nothing else, the floor of a rebuild
#                       that finds its changes by looking (median of 7 passes)
#   watched rebuilds    no change, a line appended, a file in a new directory,
#                       EDITS `build` runs each while `wikitoolkit mcp` watches
#                       the tree: the build asks it what changed (journal)
#   MCP                 benchmarks/mcpbench.py over stdio: open + first answer,
#                       QUERIES (default 120) wiki_query p50/p99, server VmRSS/VmHWM,
#                       a saved file → in answers (SAVES, default 3), and a server
#                       started with no index → its first answer
# Not run in CI: a 100k-file run takes tens of minutes and several GB of memory.
set -euo pipefail

files=${1:-100000}
tree_arg=${2:-}
PAIRS=${PAIRS:-1}
EDITS=${EDITS:-5}
QUERIES=${QUERIES:-120}
SAVES=${SAVES:-3}
unset WIKITOOLKIT_INDEX # every command finds TREE/.wikitoolkit the way a user's would

die() { echo "scale.sh: $*" >&2; exit 1; }
say() { echo "== $*" >&2; }
for c in go git python3 /usr/bin/time; do
	command -v "$c" >/dev/null || die "$c is needed (install it, or put it on PATH)"
done
[[ $files == - || $files =~ ^[1-9][0-9]*$ ]] || die "FILES must be a positive number or - (got '$files'); usage: benchmarks/scale.sh [FILES] [TREE]"

bench=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$bench/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/wikitoolkit-scale.XXXXXX")
bin=$work/wikitoolkit
res=$work/results # one JSON object per line, merged into the table at the end

tree= own_tree= kept_index= had_index= victim=
firsts=()
srv_pid=
cleanup() {
	local rc=$?
	set +e
	[[ -n $srv_pid ]] && kill "$srv_pid" 2>/dev/null
	[[ -n $victim && -f $work/victim.orig ]] && cp "$work/victim.orig" "$victim"
	for i in "${!firsts[@]}"; do cp -p "$work/first.$i.orig" "${firsts[$i]}"; done
	[[ -n $victim ]] && rm -rf "$(dirname "$victim")"/scale_new_*.go "$(dirname "$victim")"/scale_dir_*
	if [[ -n $kept_index && -d $kept_index ]]; then
		rm -rf "$tree/.wikitoolkit"
		mv "$kept_index" "$tree/.wikitoolkit"
	fi
	[[ -n $tree && -z $own_tree && -z $had_index ]] && rm -rf "$tree/.wikitoolkit"
	[[ $own_tree == temp ]] && rm -rf "$tree"
	rm -rf "$work"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

record() { echo "$1" >>"$res"; }

# timed OUTFILE CMD... runs CMD under /usr/bin/time -v with stdout to OUTFILE
# and sets wall (seconds) and rss (peak, KB).
timed() {
	local out=$1
	shift
	/usr/bin/time -v -o "$work/time" "$@" >"$out" 2>"$work/stderr" || {
		cat "$work/stderr" >&2
		die "failed: $*"
	}
	local tr
	tr=$(python3 - "$work/time" <<'PY'
import sys
wall = rss = None
for line in open(sys.argv[1]):
    k, _, v = line.strip().rpartition(": ")
    if k.startswith("Elapsed (wall clock)"):
        s = 0.0
        for part in v.split(":"):
            s = s * 60 + float(part)
        wall = s
    elif k == "Maximum resident set size (kbytes)":
        rss = int(v)
print(wall, rss)
PY
	) || die "cannot read /usr/bin/time's report"
	read -r wall rss <<<"$tr"
	[[ $wall != None && $rss != None ]] || die "no wall time or peak RSS in /usr/bin/time's report"
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

say "building wikitoolkit and the benchmarks' test binary (from $repo)"
(cd "$repo" && go build -o "$bin" . && go test -c -o "$work/bench.test" ./benchmarks) >&2

# ---- the tree
if [[ -z $tree_arg ]]; then
	[[ $files != - ]] || die "FILES - needs a TREE"
	tree=$work/tree own_tree=temp
elif [[ -d $tree_arg && -n $(ls -A "$tree_arg" 2>/dev/null) ]]; then
	tree=$(cd "$tree_arg" && pwd)
	[[ -e $tree/.wikitoolkit ]] && had_index=1
else
	[[ $files != - ]] || die "$tree_arg does not exist or is empty: give FILES to write a synthetic tree there"
	mkdir -p "$tree_arg"
	tree=$(cd "$tree_arg" && pwd) own_tree=kept
fi
if [[ -n $own_tree ]]; then
	avail=$(awk '/MemAvailable/ {print int($2/1024)}' /proc/meminfo)
	need=$((files * 50 / 1000)) # MB: about 45 KB per file at the issue's start
	((avail > need)) || echo "scale.sh: warning: ${avail} MB available, a build of $files files may need ~${need} MB" >&2
	say "writing $files synthetic files to $tree"
	WIKITOOLKIT_SYNTH_DIR=$tree WIKITOOLKIT_SYNTH_FILES=$files "$work/bench.test" -test.run '^TestWriteSynth$' \
		-test.v >"$work/synth.out" 2>&1 || { cat "$work/synth.out" >&2; die "writing the synthetic tree failed"; }
	grep -o 'synth {.*}' "$work/synth.out" >&2
	say "git init + commit (as users run it: in a git repository)"
	git -C "$tree" init -q
	git -C "$tree" add -A
	git -C "$tree" -c user.name=scale -c user.email=scale@localhost commit -q -m "synthetic monorepo"
fi
git_repo=no
git -C "$tree" rev-parse --show-toplevel 2>/dev/null | grep -qxF "$tree" && git_repo=yes
read -r nfiles nbytes < <(find "$tree" \( -name .git -o -name .wikitoolkit \) -prune -o -type f -printf '%s\n' |
	awk '{n++; b+=$1} END {print n+0, b+0}')
record "{\"tree\": \"$tree\", \"synthetic\": $([[ -n $own_tree ]] && echo true || echo false), \"git\": \"$git_repo\", \"files\": $nfiles, \"bytes\": $nbytes}"
say "tree: $nfiles files, $((nbytes / 1000000)) MB, git repository: $git_repo"

# ---- full build and P2, side by side
ratios=() walls=() p2s=() rsss=()
p2run() { # → seconds of one P2 run on the tree
	WIKITOOLKIT_BENCH_REPO=$tree "$work/bench.test" -test.run '^$' -test.bench '^BenchmarkParseOnly$' \
		-test.benchtime 1x >"$work/p2.out" 2>&1 || { cat "$work/p2.out" >&2; die "the P2 benchmark failed"; }
	local s
	s=$(awk '/^BenchmarkParseOnly/ {for (i = 1; i <= NF; i++) if ($(i+1) == "ns/op") print $i / 1e9}' "$work/p2.out")
	[[ -n $s ]] || { cat "$work/p2.out" >&2; die "no ns/op in the P2 benchmark's output"; }
	echo "$s"
}
for i in $(seq "$PAIRS"); do
	say "P2 before build $i/$PAIRS (BenchmarkParseOnly, 2 workers)"
	p2a=$(p2run)
	say "full build $i/$PAIRS (build --full under /usr/bin/time -v)"
	timed "$work/build.json" "$bin" build --full --json "$tree"
	say "P2 after build $i/$PAIRS"
	p2b=$(p2run)
	p2=$(awk -v a="$p2a" -v b="$p2b" 'BEGIN {print (a + b) / 2}')
	ratios+=("$(awk -v a="$wall" -v b="$p2" 'BEGIN {print a / b}')") walls+=("$wall") p2s+=("$p2") rsss+=("$rss")
	say "  build ${wall}s, P2 ${p2}s (${p2a}s before, ${p2b}s after), peak RSS $((rss / 1024)) MB"
done
python3 - "$work/build.json" "$(median "${ratios[@]}")" "$(median "${walls[@]}")" "$(median "${p2s[@]}")" "$(median "${rsss[@]}")" "$PAIRS" >>"$res" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(json.dumps({"full": {k: d.get(k) for k in ("files_parsed", "files_skipped", "pages", "edges", "seconds")},
                  "ratio": float(sys.argv[2]), "build_s": float(sys.argv[3]), "p2_s": float(sys.argv[4]),
                  "build_rss_kb": int(sys.argv[5]), "pairs": int(sys.argv[6])}))
PY
(cd "$tree" && "$bin" status --json) >"$work/status.json"
du_bytes=$(du -sb "$tree/.wikitoolkit" | cut -f1)
python3 - "$work/status.json" "$du_bytes" >>"$res" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(json.dumps({"index_bytes": d.get("index_bytes"), "source_bytes": d.get("source_bytes"), "du_bytes": int(sys.argv[2])}))
PY

# ---- rebuilds
victim=$(cd "$tree" && { git ls-files '*.go' 2>/dev/null || true; } | sort | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}')
[[ -n $victim ]] || victim=$(cd "$tree" && find . \( -name .git -o -name .wikitoolkit -o -name vendor \) -prune -o -name '*.go' -print | sort | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}')
[[ -n $victim ]] || die "no .go file in $tree to edit"
victim=$tree/${victim#./}
cp "$victim" "$work/victim.orig"
rebuilds() { # NAME PREPARE-FUNCTION → record median wall and RSS of EDITS builds
	local name=$1 prep=$2 ws=() rs=() parsed=()
	for i in $(seq "$EDITS"); do
		$prep "$i"
		timed "$work/rebuild.json" "$bin" build --json "$tree"
		ws+=("$wall") rs+=("$rss")
		parsed+=("$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("files_parsed", 0))' "$work/rebuild.json")")
	done
	say "  $name: ${ws[*]} s; files parsed ${parsed[*]}"
	record "{\"rebuild_$name\": {\"s\": $(median "${ws[@]}"), \"rss_kb\": $(median "${rs[@]}"), \"parsed\": ${parsed[0]}}}"
}
nochange() { :; }
touchit() { touch "$victim"; }
appendline() { printf '\n// scale edit %s\n' "$1" >>"$victim"; }
addfunc() { printf '\n// ScaleEdit%s was added by scale.sh.\nfunc ScaleEdit%s() int { return %s }\n' "$1" "$1" "$1" >>"$victim"; }
# Files added beside the victim and removed again; then in a directory of
# their own (a directory appears and empties: the module pages change).
vdir=$(dirname "$victim")
vpkg=$(awk '/^package / {print $2; exit}' "$victim")
newfile() { printf 'package %s\n\n// ScaleNew%s was added by scale.sh.\nfunc ScaleNew%s(n int) int { return n + %s }\n' "$vpkg" "$1" "$1" "$1" >"$2"; }
addfile() { newfile "$1" "$vdir/scale_new_$1.go"; }
rmfile() { rm -f "$vdir/scale_new_$1.go"; }
adddir() { mkdir -p "$vdir/scale_dir_$1" && newfile "$1" "$vdir/scale_dir_$1/new.go"; }
rmdir_() { rm -rf "$vdir/scale_dir_$1"; }
# EDITS other .go files, spread over the sorted list, each edited once.
mapfile -t firstlist < <(cd "$tree" && { git ls-files '*.go' 2>/dev/null || find . \( -name .git -o -name .wikitoolkit -o -name vendor \) -prune -o -name '*.go' -print; } |
	sed 's|^\./||' | sort | awk -v n="$EDITS" -v skip="${victim#$tree/}" '$0 != skip && $0 !~ /(^|\/)(vendor|node_modules)\// {a[++m]=$0} END {for (i = 1; i <= n && i <= m; i++) print a[int(m * i / (n + 1)) + 1]}')
for i in "${!firstlist[@]}"; do cp -p "$tree/${firstlist[$i]}" "$work/first.$i.orig"; firsts[i]=$tree/${firstlist[$i]}; done
firstedit() { printf '\n// scale first edit %s\n' "$1" >>"${firsts[$(( ($1 - 1) % ${#firsts[@]} ))]}"; }
say "rebuilds, $EDITS each; victim ${victim#$tree/}"
rebuilds nochange nochange
rebuilds touch touchit
rebuilds edit_first firstedit
for i in "${!firsts[@]}"; do cp -p "$work/first.$i.orig" "${firsts[$i]}"; done
"$bin" build --quiet "$tree"
rebuilds edit_line appendline
cp "$work/victim.orig" "$victim"
rebuilds edit_func addfunc
cp "$work/victim.orig" "$victim"
"$bin" build --quiet "$tree"
rebuilds file_added addfile
rebuilds file_removed rmfile
rebuilds dir_added adddir
rebuilds dir_removed rmdir_
"$bin" build --quiet "$tree"

# ---- the floor of a walked rebuild: an lstat of every directory and file,
# nothing else (BenchmarkStatFloor; Linux on amd64 only, else no row)
say "stat floor (BenchmarkStatFloor, 7 passes)"
if WIKITOOLKIT_BENCH_REPO=$tree "$work/bench.test" -test.run '^$' -test.bench '^BenchmarkStatFloor$' \
	-test.benchtime 7x >"$work/floor.out" 2>&1; then
	awk '/^BenchmarkStatFloor/ {for (i = 1; i < NF; i++) {if ($(i+1) == "ms/pass") ms = $i; if ($(i+1) == "stats/pass") n = $i}}
		END {if (ms != "") printf "{\"statfloor\": {\"ms\": %s, \"stats\": %d}}\n", ms, n}' "$work/floor.out" >>"$res"
else
	cat "$work/floor.out" >&2
	die "the stat floor benchmark failed"
fi

# ---- one-file edits while a server watches the tree: the build asks it
# what changed instead of looking at every file (engine/wiki/journal.go).
# Skipped when the binary has no such question (an older one).
if "$bin" build --help 2>&1 | grep -q -- --no-watcher; then
	say "rebuilds with a server watching ($EDITS each)"
	mkfifo "$work/srv.in"
	(cd "$tree" && exec "$bin" mcp <"$work/srv.in" >/dev/null 2>"$work/srv.log") &
	srv_pid=$!
	exec 9>"$work/srv.in" # held open: the server runs until it closes
	vouched=
	for _ in $(seq 600); do # its first walks of the tree and its watches
		w=$("$bin" build --json "$tree" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("watcher", ""))')
		[[ $w == "no token yet" || $w == changes ]] && { vouched=1; break; }
		sleep 0.5
	done
	if [[ -n $vouched ]]; then
		watched_builds() { # NAME PREPARE-FUNCTION, as rebuilds, checking the server's paths were taken
			local name=$1 prep=$2 ws=() rs=() parsed=()
			for i in $(seq "$EDITS"); do
				$prep "$i"
				timed "$work/rebuild.json" "$bin" build --json "$tree"
				ws+=("$wall") rs+=("$rss")
				parsed+=("$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("files_parsed", 0) if d.get("watcher") == "changes" else "walked")' "$work/rebuild.json")")
			done
			say "  $name: ${ws[*]} s; files parsed ${parsed[*]}"
			record "{\"watched_$name\": {\"s\": $(median "${ws[@]}"), \"rss_kb\": $(median "${rs[@]}"), \"parsed\": \"${parsed[0]}\"}}"
		}
		watched_builds nochange nochange
		watched_builds edit_line appendline
		cp "$work/victim.orig" "$victim"
		watched_builds dir_added adddir
		rmdir_all() { rm -rf "$vdir"/scale_dir_*; }
		rmdir_all
	else
		say "  the server never vouched for its answers; see $work/srv.log"
	fi
	exec 9>&-
	wait "$srv_pid" 2>/dev/null || true
	"$bin" build --quiet "$tree"
fi

# ---- MCP over stdio
say "MCP: open + first answer, then $QUERIES wiki_query calls"
python3 "$bench/mcpbench.py" "$bin" "$tree" queries --n "$QUERIES" --log "$work/mcp.log" |
	python3 -c 'import json,sys; print(json.dumps({"mcp": json.load(sys.stdin)}))' >>"$res"
tail -n 1 "$res" >&2
noticer="the freshness check of the next call"
mcphelp=$("$bin" mcp --help 2>&1 || true)
[[ ${mcphelp,,} == *watch* ]] && noticer="the server's watcher"
say "MCP: a file saved → in answers ($SAVES times; noticed by $noticer)"
python3 "$bench/mcpbench.py" "$bin" "$tree" saved --trials "$SAVES" --log "$work/mcp.log" |
	python3 -c 'import json,sys; d=json.load(sys.stdin); d["noticer"]=sys.argv[1]; print(json.dumps({"saved": d}))' "$noticer" >>"$res"
tail -n 1 "$res" >&2
"$bin" build --quiet "$tree" # the saved files were restored
say "MCP: a server started with no index → first answer"
kept_index=$work/index.kept
mv "$tree/.wikitoolkit" "$kept_index"
python3 "$bench/mcpbench.py" "$bin" "$tree" noindex --log "$work/mcp.log" |
	python3 -c 'import json,sys; print(json.dumps({"noindex": json.load(sys.stdin)}))' >>"$res"
tail -n 1 "$res" >&2
rm -rf "$tree/.wikitoolkit"
mv "$kept_index" "$tree/.wikitoolkit"
kept_index=

# ---- the table
record "{\"load\": \"$(cut -d' ' -f1-3 /proc/loadavg)\", \"cores\": $(nproc), \"commit\": \"$(git -C "$repo" describe --always --dirty)\"}"
python3 - "$res" "$PAIRS" "$EDITS" "$QUERIES" "$SAVES" >"$work/table.md" <<'PY'
import json, sys
r = {}
for line in open(sys.argv[1]):
    r.update(json.loads(line))
pairs, edits, queries, saves = sys.argv[2:6]
mb = lambda kb: f"{kb / 1024:,.0f} MB" if kb < 1024 * 1024 else f"{kb / 1024 / 1024:.2f} GB"
ms = lambda s: f"{s * 1000:,.0f} ms" if s < 10 else f"{s:,.1f} s"
name = (f"synthetic {r['files'] - 1:,} files" if r["synthetic"] else r["tree"].rsplit("/", 1)[-1]) + \
    f" ({r['files']:,} files on disk, {r['bytes'] / 1e6:,.0f} MB, git: {r['git']})"
f, m, s, n = r["full"], r["mcp"], r["saved"], r["noindex"]
src = r.get("source_bytes") or 0
rows = [
    ("full build / P2 (same run)", f"{r['ratio']:.2f} (build {r['build_s']:.1f} s, P2 {r['p2_s']:.1f} s; median of {pairs})"),
    ("full build peak RSS", mb(r["build_rss_kb"]) + f" ({f['files_parsed']:,} files parsed, {f['pages']:,} pages, {f['edges']:,} edges)"),
    ("index on disk (du) / parsed source", (f"{r['du_bytes'] / src:.1%} ({r['du_bytes'] / 1e6:,.0f} MB / {src / 1e6:,.0f} MB)" if src else f"{r['du_bytes'] / 1e6:,.0f} MB")),
]
for key, what in (("nochange", "rebuild, no change"), ("touch", "rebuild, one file touched"),
                  ("edit_first", "one-file edit, a file not edited since the full build (a line appended): time / peak RSS"),
                  ("edit_line", "one-file edit (a line appended): time / peak RSS"),
                  ("edit_func", "one-file edit (a function added): time / peak RSS"),
                  ("file_added", "a file added beside it: time / peak RSS"),
                  ("file_removed", "that file removed: time / peak RSS"),
                  ("dir_added", "a file in a new directory: time / peak RSS"),
                  ("dir_removed", "that directory removed: time / peak RSS")):
    e = r.get(f"rebuild_{key}")
    if e is None:
        continue
    rows.append((what, f"{ms(e['s'])} / {mb(e['rss_kb'])} (median of {edits}; {e['parsed']} parsed)"))
fl = r.get("statfloor")
if fl:
    rows.append(("floor of a rebuild without a server: an lstat of every directory and file, nothing else (BenchmarkStatFloor)",
                 f"{ms(fl['ms'] / 1000)} ({fl['stats']:,} stats on 2 goroutines; median of 7)"))
for key, what in (("nochange", "rebuild, no change, a server watching"),
                  ("edit_line", "one-file edit (a line appended), a server watching: time / peak RSS"),
                  ("dir_added", "a file in a new directory, a server watching: time / peak RSS")):
    e = r.get(f"watched_{key}")
    if e is not None:
        rows.append((what, f"{ms(e['s'])} / {mb(e['rss_kb'])} (median of {edits}; {e['parsed']} parsed; the build took the server's changed paths)"))
rows += [
    ("file saved → in a running server's answers", f"{ms(s['median_ms'] / 1000)} (median of {saves}: " +
     ", ".join(ms(t['ms'] / 1000) for t in s["trials"]) + f"; noticed by {s['noticer']})"),
    ("server started on no index → first answer", f"{ms(n['first_ms'] / 1000)}, " +
     ("an error" if n["is_error"] else f"{n['results']} results") + ": \"" + n["text80"].replace("\n", " ").replace("|", "\\|") + "\""),
    ("wiki_query over stdio MCP: p50 / p99 (open + first answer)",
     f"{m['p50_ms']:.1f} ms / {m['p99_ms']:.1f} ms ({ms(m['open_first_ms'] / 1000)}; {m['n']} queries, {m['empty']} empty, {m['errors']} errors)"),
    (f"server RSS after {queries} queries", f"{mb(m['rss_kb'])} (peak {mb(m['hwm_kb'])})"),
]
pv = m.get("pages")
if pv and pv.get("wiki_page"):
    pg, rl = pv["wiki_page"], pv["wiki_related"]
    rows += [
        (f"wiki_page / wiki_related of {pv['n']} IDs from those answers: first call; p50 / p99",
         f"{pg['first_ms']:.0f} ms; {pg['p50_ms']:.1f} / {pg['p99_ms']:.1f} ms — {rl['first_ms']:.0f} ms; {rl['p50_ms']:.1f} / {rl['p99_ms']:.1f} ms ({pv['errors']} errors)"),
        ("server RSS after those page views", f"{mb(pv['rss_kb'])} (peak {mb(pv['hwm_kb'])})"),
    ]
rows += [
    (f"server RSS after the {saves} saves above (rebuilt in process)", f"{mb(s['rss_kb'])} (peak {mb(s['hwm_kb'])})"),
]
print(f"| corpus | what | measured |\n| --- | --- | --- |")
for i, (what, val) in enumerate(rows):
    print(f"| {name if i == 0 else ''} | {what} | {val} |")
print(f"\ncommit {r['commit']}, {r['cores']} cores, load average at the end {r['load']}")
PY
cat "$work/table.md"
if [[ -n ${OUT:-} ]]; then
	cp "$work/table.md" "$OUT"
	say "table written to $OUT"
fi
