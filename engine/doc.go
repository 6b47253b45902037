// Package engine is the ranking core of wikitoolkit: it turns a graph.Graph
// into an Index (a BM25F text index over page fields and a file-level
// neighbour graph), analyses questions (identifiers, paths, stack traces, a
// leading "component:"), scores and groups pages so one answer covers
// several files, and packs compact stubs into a token budget.
//
// Entry points: BuildBlobs (graph.BuildOptions.Extra: builds the ranking and
// name indexes of a finished graph, stored under Format), Load and
// LoadNames (read them from a graph.Snapshot), BuildSegment, BuildNames,
// OpenSegments and OpenNames (the same over segments: immutable pieces each
// holding the derived data of a set of files, some tombstoned, answering as
// an index of the live pages built in one go; segment.go; an index of the
// next generation reuses the decoded data of the segments it shares with
// one still open, SegmentData.Key), Index.Query (Options in,
// Result out; Result.Render is the text an agent receives, each Stub one
// page) and CountTokens, the token estimate packing relies on.
//
// Scoring, in order (constants and their reasons are in score.go):
//  1. each query term's weight × idf × the page's BM25F impact (stored for a
//     segment's own statistics, recomputed from term frequencies and field
//     lengths when the open index's differ), summed per page; a file page also carries its symbols' text; the
//     fields include the page's string literals at the weight of body
//     identifiers; a term of long postings is decoded on two cores, half
//     the segments each, to the same sums (halves.go);
//  2. pages fold into groups (a file and its symbols/sections): group score =
//     file + shares of its three best members;
//  3. factors: test files, docs and modules down; files the question names
//     and the leading component up; focus paths and their graph neighbours
//     up; the best group's graph neighbours up a little (capped below it);
//  4. groups in score order (ties by ID) become stubs, packed until the
//     budget.
//
// On a large index a question's weakest terms score only the groups its
// stronger terms reach, a pruning that keeps the answer exact: a bound on
// what the other groups could score is checked against the answer, which
// is otherwise computed again without pruning (prune.go); More is then a
// lower bound (Result.MoreAtLeast).
//
// What was measured, kept and dropped, with the numbers, is in TUNING.md
// beside this file.
//
// The package writes nothing to stdout or stderr.
package engine
