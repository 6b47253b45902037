// Package wiki is the service layer: every operation the two front ends
// (mcp, the server for agents; cli, the command line) offer, so that each
// front end only parses its arguments, makes one call here and renders the
// answer.
//
// Layering: parser → graph → engine → wiki → mcp → cli. wiki imports graph
// (pages, edges, the store), graph/annotate (notes, memories, anchors and
// the shared .wiki/ folder) and engine (the ranking index); it imports
// neither front end. It lives in engine/wiki,
// a sub-package that the engine package itself never imports: the
// repository's top level is the pipeline's stages (parser, graph, engine)
// and the two front ends, and the service is the engine's public face.
//
// What it owns, by file:
//
//	build.go          Build: the one build pipeline (graph + ranking blobs +
//	                  authored import and stamping), with the walk options
//	                  stored with the index (WalkSettings) and reused
//	query.go          Query (memories ranked beside code, notes marked),
//	                  ParseKinds, Gen.StalePaths (freshness marks)
//	page.go           LoadPage, ResolveRef, CheckPage: page references and views
//	related.go        Related: a page's neighbours
//	status.go         CollectStatus, RenderStatus: index health
//	files.go          Search, ReadFile: confined text search and file slices
//	authored.go       AnnotationPages, AnnotateResult: notes and memories in answers
//	live.go, fresh.go Live: the live view of an index for a long-running
//	firstbuild.go     process (open, notice a new generation, swap, freshness
//	                  checks, background and first builds, the calls in flight
//	                  that walks of the whole tree wait for); it owns its
//	                  state and is given its logger
//	watch.go          the watcher: saved files start the freshness check
//	                  (fsnotify, debounced; polling where watches run out)
//	journal.go        the watcher's journal: builds in other processes ask
//	                  the server what changed since their token
//	                  (watch.sock, watch-token) instead of a stat of
//	                  every file
//	format.go         CountsLine, HumanBytes: text both front ends print
package wiki
