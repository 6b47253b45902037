// Package mcp serves the wiki to AI coding agents over the Model Context
// Protocol (stdio, or streamable HTTP). It holds tools, their schemas,
// transports and resources only: each tool is a typed input, one call into
// the service layer (package wiki) and the rendering of its answer.
//
// Principal types: Server (one index, its tools and resources) and Options.
// The tools are wiki_query, wiki_page, wiki_related, wiki_status,
// wiki_remember, wiki_note, wiki_search and wiki_read, one file each
// (tool_*.go), each with a typed input whose every field carries a
// description, readable text plus structured content as output, and errors
// that tell the model what to do next.
//
// Many processes, one index (see graph/store.go): a Server uses a wiki.Live
// view, which holds one read-only generation and swaps in a newer one when a
// build made it live, checks freshness in the background (each tool call
// is a wiki.Live.Call: walks of the whole tree wait for a pause in the
// calls) and runs Options.Build (normally wiki.Build) when files changed. Any number of
// servers and builds run side by side.
//
// Safety: a panic in a tool becomes a tool error, never a dead session;
// wiki_search and wiki_read resolve paths inside the root only; every
// answer is bounded (MaxAnswerTokens) and says when it was cut.
package mcp
