package parser

// #include "matches.h"
import "C"

import (
	"runtime"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// go-tree-sitter keeps the C handles needed here in unexported fields:
// sitter.Node starts with its C.TSNode, sitter.Query with its *C.TSQuery.
// The sizes below fail to compile if the layouts change, and
// TestMatcherAgrees compares the matcher with go-tree-sitter's own cursor.
var (
	_ = [1]struct{}{}[unsafe.Sizeof(sitter.Node{})-unsafe.Sizeof(C.TSNode{})-unsafe.Sizeof(uintptr(0))]
	_ = [1]struct{}{}[unsafe.Sizeof(sitter.Query{})-2*unsafe.Sizeof(uintptr(0))]
)

func cNode(n *sitter.Node) C.TSNode     { return *(*C.TSNode)(unsafe.Pointer(n)) }
func cQuery(q *sitter.Query) *C.TSQuery { return *(**C.TSQuery)(unsafe.Pointer(q)) }

// capture is one captured node of a match: its capture index and its byte
// range.
type capture struct {
	index, start, end uint32
}

// matcher finds query matches in C and hands them over as one record per
// file, so that extraction crosses cgo once per file instead of several
// times per match (go-tree-sitter's NextMatch also allocates per match and
// caches every captured node in a map). It owns C memory and is not safe
// for concurrent use.
type matcher struct {
	m       *C.wt_matches
	cleanup runtime.Cleanup
}

// init allocates the C memory and arranges for it to be freed if owner
// becomes unreachable without close.
func (mt *matcher) init(owner *Parser) {
	if mt.m = C.wt_matches_new(); mt.m == nil {
		panic("parser: out of memory for a query cursor")
	}
	mt.cleanup = runtime.AddCleanup(owner, func(m *C.wt_matches) { C.wt_matches_delete(m) }, mt.m)
}

// close frees the C memory; the matcher is unusable afterwards. Closing
// twice is harmless.
func (mt *matcher) close() {
	if mt.m != nil {
		mt.cleanup.Stop()
		C.wt_matches_delete(mt.m)
		mt.m = nil
	}
}

// run runs q over the tree under root and returns all its matches as a
// record: for each match, its capture count n, then n captures of three
// words each (see capture). Read it with nextMatch. The record is valid
// until the next run, collect or close.
func (mt *matcher) run(q *sitter.Query, root *sitter.Node) []uint32 {
	if mt.m == nil {
		panic("parser: Parser used after Close")
	}
	if !C.wt_matches_run(mt.m, cQuery(q), cNode(root)) {
		panic("parser: out of memory for query matches")
	}
	return mt.record()
}

// cursorWalk makes exec walk trees with tree-sitter's public cursor
// instead of its own data (tests).
var cursorWalk bool

// exec runs prog over the tree under root and returns its matches as a
// record like run's (in another order). Matches of a residual query are
// not included: see Parser.matches.
func (mt *matcher) exec(prog *program, root *sitter.Node) []uint32 {
	if mt.m == nil {
		panic("parser: Parser used after Close")
	}
	if !C.wt_matches_exec(mt.m, prog.p, cNode(root), C.bool(!cursorWalk)) {
		panic("parser: out of memory for query matches")
	}
	return mt.record()
}

// walksInternal reports whether exec walks the tree under root through
// the tree's own data rather than the public cursor (tests).
func walksInternal(root *sitter.Node) bool { return bool(C.wt_walk_internal_ok(cNode(root))) }

// collect returns, as a record like run's, a one-capture match for every
// node under root whose symbol s has roles[s] != 0, with capture index
// roles[s]-1, in pre-order: what a query of (node_type) @capture patterns
// returns, in under half the time.
func (mt *matcher) collect(root *sitter.Node, roles []uint8) []uint32 {
	if mt.m == nil {
		panic("parser: Parser used after Close")
	}
	if len(roles) == 0 {
		return nil
	}
	if !C.wt_matches_collect(mt.m, cNode(root), (*C.uint8_t)(unsafe.SliceData(roles)), C.uint32_t(len(roles)), C.bool(!cursorWalk)) {
		panic("parser: out of memory for query matches")
	}
	return mt.record()
}

func (mt *matcher) record() []uint32 {
	if mt.m.len == 0 {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(mt.m.buf)), mt.m.len)
}

// nextMatch splits the first match off a record: its captures, and the
// rest of the record. It returns ok false at the end of the record.
func nextMatch(rec []uint32) (caps []capture, rest []uint32, ok bool) {
	if len(rec) == 0 {
		return nil, nil, false
	}
	n := int(rec[0])
	if 1+3*n > len(rec) {
		return nil, nil, false // cannot happen: a malformed record
	}
	if n > 0 {
		caps = unsafe.Slice((*capture)(unsafe.Pointer(&rec[1])), n)
	}
	return caps, rec[1+3*n:], true
}
