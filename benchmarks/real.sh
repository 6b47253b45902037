#!/usr/bin/env bash
# Measures wikitoolkit on a real repository: the rows of issue #13's table
# (full build / P2 and peak RSS, index size against source size, no-change,
# touch and one-file-edit rebuilds, stdio MCP query latency and server RSS,
# a saved file → in answers, a server started with no index), printed as the
# same markdown table as benchmarks/scale.sh prints for the synthetic tree.
#
#   benchmarks/real.sh /path/to/tree            # a checkout or a `git archive` tree
#   PAIRS=5 OUT=moby.md benchmarks/real.sh /tmp/moby
#
# The index is built at TREE/.wikitoolkit (and removed afterwards if it was not
# there); the files edited are restored. See scale.sh for every knob.
set -euo pipefail
tree=${1:?usage: benchmarks/real.sh TREE}
[[ -d $tree ]] || { echo "real.sh: $tree is not a directory" >&2; exit 1; }
PAIRS=${PAIRS:-3} exec "$(dirname "${BASH_SOURCE[0]}")/scale.sh" - "$tree"
