#!/usr/bin/env bash
# Checks `wikitoolkit mcp` with a client nobody here wrote: the MCP Inspector
# CLI (npm @modelcontextprotocol/inspector-cli, --cli mode). It lists the
# tools and calls wiki_query, wiki_page and wiki_status on an indexed copy of
# fixtures/polyglot. Needs go, node and npm (and the network for npm); not
# part of `go test`.
#
#   mcp/inspector/run.sh            # prints every request's output
#   INSPECTOR_VERSION=1.0.3 mcp/inspector/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
version=${INSPECTOR_VERSION:-1.0.3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== building wikitoolkit and indexing fixtures/polyglot"
go build -o "$work/wikitoolkit" "$repo"
cp -r "$repo/fixtures/polyglot" "$work/fixture"
mkdir -p "$work/fixture/.git"
"$work/wikitoolkit" build --quiet "$work/fixture"
export WIKITOOLKIT_INDEX="$work/fixture/.wikitoolkit"

echo "== installing @modelcontextprotocol/inspector-cli@$version"
# The inspector looks for a package.json in the parent of its working directory.
mkdir -p "$work/npm/run"
echo '{"private": true}' >"$work/npm/package.json"
(cd "$work/npm" && npm install --silent --no-audit --no-fund "@modelcontextprotocol/inspector-cli@$version" >/dev/null)
cd "$work/npm/run"
inspector() {
	"$work/npm/node_modules/.bin/mcp-inspector-cli" --cli -e "WIKITOOLKIT_INDEX=$WIKITOOLKIT_INDEX" "$work/wikitoolkit" mcp "$@" 2> >(grep -v -e 'deprecated' -e 'Upgrade:' -e 'security fixes' -e '^$' >&2)
}

echo "== tools/list"
inspector --method tools/list | tee "$work/tools.json" | grep '"name"'
n=$(grep -c '"name": "wiki_' "$work/tools.json")
[ "$n" -eq 8 ] || { echo "FAIL: $n tools listed, want 8"; exit 1; }

echo "== tools/call wiki_query"
inspector --method tools/call --tool-name wiki_query --tool-arg 'question=restock inventory store' --tool-arg budget_tokens=300 | tee "$work/query.json"
id=$(grep -o '"id": *"[^"]*"' "$work/query.json" | head -1 | sed 's/.*"id": *"//; s/"$//')
[ -n "$id" ] || { echo "FAIL: wiki_query returned no page ID"; exit 1; }
if grep -q '"isError": true' "$work/query.json"; then echo "FAIL: wiki_query"; exit 1; fi

echo "== tools/call wiki_page page_id=$id"
inspector --method tools/call --tool-name wiki_page --tool-arg "page_id=$id" | tee "$work/page.json" | head -40
if grep -q '"isError": true' "$work/page.json"; then echo "FAIL: wiki_page"; exit 1; fi

echo "== tools/call wiki_status"
inspector --method tools/call --tool-name wiki_status | tee "$work/status.json" | head -30
if grep -q '"isError": true' "$work/status.json"; then echo "FAIL: wiki_status"; exit 1; fi

echo "== tools/call wiki_page page_id=file:nope (must be a tool error, not a crash)"
inspector --method tools/call --tool-name wiki_page --tool-arg "page_id=file:nope" | tee "$work/missing.json" | head -12
grep -q '"isError": true' "$work/missing.json" || { echo "FAIL: missing page not a tool error"; exit 1; }

echo "PASS: MCP Inspector CLI $version listed 8 tools and called wiki_query, wiki_page, wiki_status"
