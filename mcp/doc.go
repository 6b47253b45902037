// Package mcp serves the wiki to AI coding agents over the Model Context
// Protocol (stdio, or streamable HTTP), and holds the wiki operations that
// the cli shares with it: page views (LoadPage), neighbours (Related),
// index health (CollectStatus), confined text search (Search) and file
// slices (ReadFile).
//
// Principal types: Server (one index, its tools and resources) and Options.
// The tools are wiki_query, wiki_page, wiki_related, wiki_status,
// wiki_remember, wiki_note, wiki_search and wiki_read, one file each
// (tool_*.go), each with a typed input whose every field carries a
// description, readable text plus structured content as output, and errors
// that tell the model what to do next.
//
// Many processes, one index (see graph/store.go): a Server holds one
// read-only generation (graph.Snapshot plus its ranking index) and, before
// each call, stats the CURRENT file; when a build has made a new generation
// live it opens that one, swaps it in atomically, and closes the old one once
// the calls using it have returned. Any number of servers and builds run
// side by side. Notes and memories go through graph's authored store, which
// every process writes in short locked transactions and re-reads only when
// its version file changes.
//
// Freshness: at most every Options.CheckEvery, and only while calls arrive,
// a background goroutine walks the repository and compares sizes and mtimes
// with the live generation; on a change it runs Options.Build (an
// incremental build; the build lock serialises builders across processes).
// Answers mark results whose files changed since the build.
//
// Safety: a panic in a tool becomes a tool error, never a dead session;
// wiki_search and wiki_read resolve paths inside the root only; every
// answer is bounded (MaxAnswerTokens) and says when it was cut.
package mcp
