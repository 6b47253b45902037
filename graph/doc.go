// Package graph owns pages, edges and their storage.
//
// Principal types: Page and Edge (page IDs as DESIGN.md fixes them: module:DIR,
// file:PATH, symbol:PATH#QUALIFIED, doc:PATH#SLUG, memory:SLUG), Graph (an
// immutable in-memory graph with both edge directions, safe for concurrent
// reads), Snapshot (one index generation opened read-only), and Build, which
// walks a repository, parses what changed on N workers, resolves references
// and writes a new generation.
//
// It also holds three jobs of their own (the walker is graph/walk): the
// generation codecs (codec.go,
// graphcodec.go, pagetext.go, the facts and stats records); the authored
// store of notes and memories with their anchors (Authoring, Resolved,
// Anchor); and the shared .wiki folder that carries them between clones
// (ExportShared, SharedDir). NotIndexed reports what a build skipped, and
// why.
//
// Storage design (written out at the top of store.go): derived data lives
// in immutable segments, Badger databases under seg/NNNNNN each holding the
// pieces of a set of files (piece.go: a file's pages, the edges leaving
// them, its record); a generation is a small manifest naming its segments
// and their tombstones, made live by atomically replacing the CURRENT
// file. A full build writes segments of bounded size; an incremental build
// writes only the pieces its change alters (incremental.go, depend.go) as
// a delta segment, so its cost follows the change. Readers open
// generations read-only and share them; a build killed at any moment
// leaves the live generation untouched. Authored data (notes, memories:
// package graph/annotate) lives apart, so no build can touch it. Every
// segment and generation carries a seal (the size and hash of each of its
// files) that a reader checks before Badger sees the files, so a damaged
// index is an error that says "run 'wikitoolkit build'" and not a panic,
// and a build rebuilds a damaged index in full by itself.
//
// Reference resolution is by name with scope preference: the same file, then
// the same directory (module), then the modules the file imports, then a
// unique match anywhere; a name defined more than maxFanOut times in the
// deciding tier gets no edge rather than thousands. It runs per file
// against a World (world.go): in memory for a full build, served by the
// segments' keys for an incremental one (segworld.go). An incremental
// build re-resolves a changed file and the files its change may alter
// (depend.go) in part: a reference whose name, and whose typed
// qualifier's type, had no definition added or removed, read as in the
// stored copy from the same page, keeps its stored edges, so that only
// the names the change touches are looked up (resolvePartial). A full
// build in batches keeps, in its second pass, the pieces of each batch no
// later batch can change (stand.go); its resolvers share the candidate
// sets of the names of many definitions, which the world extends as it
// grows (MemWorld.sharedCands), so that resolution grows with the tree,
// not with batches × definitions.
//
// Readers answer a page — page, related, impact, a page reference, the
// notes' placement — from the pieces it touches, not the whole graph
// (view.go: page views; graphskim.go decodes one file of a segment), and
// Snapshot.Graph, which assembles every segment, serves the web wiki.
package graph
