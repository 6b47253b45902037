// Package web serves the wiki to people: `wikitoolkit web` answers HTML
// pages drawn from the live index (wiki.Live, the same view the MCP server
// uses: a generation acquired per request and swapped when a build
// publishes a new one), and Export writes the same pages as a static site.
//
// Pages: home (the repository at a glance), one page per module, file,
// symbol, doc section and memory (/page/ID), the graph picture around a
// page (/graph/ID, an SVG drawn here), search (/search?q=, ranked as
// wiki_query ranks), and two forms that write through the wiki_note and
// wiki_remember paths (POST /note, /remember, each checked against a
// token embedded in the page). Nothing is reparsed: source comes from the
// file, highlighted by chroma (Go through the standard library's scanner,
// which is many times faster than chroma's Go lexer), in windows of a
// bounded size; a doc section is rendered as Markdown (goldmark).
//
// Memory: a served page reads its neighbourhood (graph.Snapshot.
// Neighbourhood: the page, its neighbours and their edges) with its
// holders up to the root (crumbs, the picture's top row) and the pages its
// Markdown links may name; a result list the results' pages; the home
// page the generation's counts (graph.Snapshot.FileCounts, one pass over
// the segments, cached per generation) — never the whole graph, which at
// 100k files is 1.7 GB and 7 s to read (first home page 8.1 s → 2.6 s,
// RSS 2.2 GB → 0.55–0.68 GB with the ranking index; benchmarks/webbench.py).
// An export, which writes every page, reads the whole graph once.
// TestPagesFromViewsEqualWholeGraph holds both ways to the same HTML.
//
// Principal types: Server (New, Handler), Options, ExportOptions (Export).
// Files: server.go (options, guard: token, host and headers), handlers.go,
// view.go (page views), home.go, source.go (windows, highlighting, their
// cache), golex.go (Go tokens), markdown.go, svg.go (the graph picture),
// links.go (URLs and export file names), export.go, render.go with
// templates/ and static/style.css.
package web
