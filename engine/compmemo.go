package engine

import "sync"

// A question's leading component ("panic:" of every Go stack trace,
// "reverseproxy:" of a commit subject) boosts the files and modules
// whose paths hold it (componentHits). Finding them scans every segment's
// path-segment terms: at 100,000 files a third of a stack-trace
// question's CPU. The files a component boosts depend only on the index
// and the component, so an index keeps them per component (compMemo), up
// to compMemoPages pages (and entries) in all: the scan is paid once per component, not
// per question.

// compMemoPages bounds the pages an index keeps in its component memo
// (about 40 bytes each); a component boosting more is not kept, and the
// memo starts over when it would grow past it.
const compMemoPages = 1 << 16

// compMemo is an index's memo of componentHits, by component.
type compMemo struct {
	mu    sync.Mutex
	hits  map[string]map[uint32][2]float64
	pages int // the pages of hits
}

// componentSignal returns the files and modules the leading component c
// boosts (componentHits), from the index's memo when a question named c
// before. The map is shared: callers only read it.
func (ix *Index) componentSignal(c string) map[uint32][2]float64 {
	m := newComponentMatch(c)
	if m == nil {
		return nil
	}
	memo := &ix.comps
	memo.mu.Lock()
	h, ok := memo.hits[c]
	memo.mu.Unlock()
	if ok {
		return h
	}
	h = ix.componentHits(m)
	if len(h) > compMemoPages {
		return h
	}
	memo.mu.Lock()
	defer memo.mu.Unlock()
	if _, ok := memo.hits[c]; !ok {
		if memo.hits == nil || memo.pages+len(h)+1 > compMemoPages {
			memo.hits, memo.pages = map[string]map[uint32][2]float64{}, 0
		}
		memo.hits[c] = h
		memo.pages += len(h) + 1 // an entry counts as a page at least
	}
	return h
}
