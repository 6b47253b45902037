#!/usr/bin/env bash
# Measures wikitoolkit on a real repository: full build time and peak RSS,
# index size against source size, no-change / touch / edit rebuilds
# (median of 5), and the Go benchmarks (P2 vs build in the same run).
#
#   benchmarks/real.sh /path/to/tree            # a checkout or a `git archive` tree
#   BENCHTIME=3x benchmarks/real.sh /tmp/moby
set -euo pipefail
tree=${1:?usage: benchmarks/real.sh TREE}
tree=$(cd "$tree" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp -d)/wikitoolkit
(cd "$here" && go build -o "$bin" .)
idx=$(mktemp -d)
export WIKITOOLKIT_INDEX=$idx

echo "== full build (peak RSS from /usr/bin/time -v)"
/usr/bin/time -v "$bin" build --full --json "$tree" >"$idx.build.json" 2>"$idx.time"
grep -E "Elapsed|Maximum resident" "$idx.time"
python3 - "$idx.build.json" <<'PY'
import json,sys; d=json.load(open(sys.argv[1]))
print({k: d[k] for k in ("files_parsed","files_skipped","pages","edges","seconds")})
PY
"$bin" status --json | python3 -c '
import json,sys; d=json.load(sys.stdin)
print("index_bytes", d["index_bytes"], "source_bytes", d.get("source_bytes"), "ratio %.3f" % (d["index_bytes"]/max(1,d.get("source_bytes") or 1)))'

median5() { # command... → median wall ms of 5 runs
  local ts=()
  for _ in 1 2 3 4 5; do
    local t0=$(date +%s%N); "$@" >/dev/null; local t1=$(date +%s%N)
    ts+=($(( (t1 - t0) / 1000000 )))
  done
  printf '%s\n' "${ts[@]}" | sort -n | sed -n 3p
}
victim=$(find "$tree" -name '*.go' -not -path '*/vendor/*' -not -path '*/.wikitoolkit/*' -print -quit)
[ -n "$victim" ] || victim=$(find "$tree" -type f -size +1k -not -path '*/.*' -print -quit)
echo "== rebuilds, median of 5 (ms); victim $victim"
echo "no change: $(median5 "$bin" build --quiet "$tree")"
touch_build() { touch "$victim"; "$bin" build --quiet "$tree"; }
echo "touch one file: $(median5 touch_build)"
cp "$victim" "$idx.orig"
n=0
edit_build() { n=$((n+1)); printf '\n// edit %d\n' "$n" >>"$victim"; "$bin" build --quiet "$tree"; }
echo "edit one file: $(median5 edit_build)"
cp "$idx.orig" "$victim"
"$bin" build --quiet "$tree"

echo "== go test -bench (same-run ratio build/P2)"
(cd "$here/benchmarks" && WIKITOOLKIT_BENCH_REPO=$tree go test -run '^$' -bench 'BuildVsParse' -benchtime "${BENCHTIME:-3x}" .)
