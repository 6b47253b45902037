package annotate

import (
	"sort"
	"strings"
	"time"

	"github.com/dgraph-io/badger/v4"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// State is where a note or linked memory stands against the live graph.
// The zero value is StateFresh.
type State uint8

// States of an anchor (see Standing).
const (
	// StateFresh: the page exists with the fingerprint the note was written
	// (or last confirmed) against, or no fingerprint was recorded.
	StateFresh State = iota
	// StateStale: the page exists but its source changed since: the note is
	// possibly stale until someone confirms or rewrites it.
	StateStale
	// StateMoved: the page is gone, and exactly one other page has the same
	// non-zero body fingerprint (a symbol moved or renamed): the note shows
	// there.
	StateMoved
	// StateOrphan: the page is gone; the note is kept, listed by status, and
	// re-attaches if the page returns.
	StateOrphan
)

var stateNames = [...]string{"fresh", "stale", "moved", "orphan"}

// String returns "fresh", "stale", "moved" or "orphan".
func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "unknown"
}

// Standing is where a note's or memory's anchor places it in a graph. ShownOn
// is the page it shows on now: the page it was written on, or for StateMoved
// the page it followed to (From is then the page it was written on).
// Changed is when a build first saw the change (StateStale, StateOrphan),
// or the live generation's build time when no build recorded it.
type Standing struct {
	State   State     `json:"state"`
	ShownOn string    `json:"shown_on"`
	From    string    `json:"from,omitempty"`
	Changed time.Time `json:"changed,omitzero"`
}

// Describe returns a short phrase for a note or memory written (or last
// confirmed) at 'at': "" when fresh, else e.g. "possibly stale: written
// 2026-11-02; the code changed 2026-11-20".
func (s Standing) Describe(at time.Time) string {
	day := func(t time.Time) string { return t.Local().Format("2006-01-02") }
	switch s.State {
	case StateStale:
		d := "possibly stale: written " + day(at) + "; the code changed"
		if !s.Changed.IsZero() {
			d += " " + day(s.Changed)
		}
		return d
	case StateMoved:
		return "moved from " + s.From
	case StateOrphan:
		d := "orphan: " + s.ShownOn + " is gone"
		if !s.Changed.IsZero() {
			d += " (since " + day(s.Changed) + ")"
		}
		return d + "; kept in case it returns"
	}
	return ""
}

// PlacedNote is a note with its standing.
type PlacedNote struct {
	Note
	Standing
}

// PlacedMemory is a memory with the standing of its link (fresh when it has
// none).
type PlacedMemory struct {
	Memory
	Standing
}

// Placement is an Annotations set placed on one graph: where each note and
// linked memory shows and whether it is still current. It is immutable and
// safe for concurrent use; returned slices are shared and must not be
// modified.
type Placement struct {
	notes   []PlacedNote     // every note, by page then time
	byPage  map[string][]int // shown page → indexes into notes (not orphans)
	mems    []PlacedMemory   // parallel to Annotations.Memories
	links   map[string][]int // shown page → indexes into mems
	pages   []graph.Page     // memory pages, then one page per noted page
	counts  [len(stateNames)]int
	mcounts [len(stateNames)]int
}

// Place places the notes and linked memories on the pages of src (the
// whole graph, or a snapshot read by page views): where each shows and
// whether it is still current (nil src: no index, everything shows where
// it was written, fresh). built is src's build time, the fallback for
// Standing.Changed. The result for the last src is cached.
func (a *Annotations) Place(src graph.PageSource, built time.Time) *Placement {
	a.resMu.Lock()
	defer a.resMu.Unlock()
	if a.res != nil && a.resG == src {
		return a.res
	}
	a.res, a.resG = place(a, src, built), src
	return a.res
}

// anchoredPages returns the IDs of the pages notes and linked memories
// are anchored to.
func (a *Annotations) anchoredPages() []string {
	var ids []string
	for _, ns := range a.notes {
		for _, n := range ns {
			ids = append(ids, n.PageID)
		}
	}
	for _, m := range a.memories {
		if m.Link != "" {
			ids = append(ids, m.Link)
		}
	}
	return ids
}

func place(a *Annotations, src graph.PageSource, built time.Time) *Placement {
	r := &Placement{byPage: map[string][]int{}, links: map[string][]int{}}
	// The anchored pages, and the bodies of those gone: candidates for a
	// move (body hash → the pages holding it; one: moved there).
	var pages map[string]*graph.Page
	var moved map[uint32][]string
	if src != nil {
		var err error
		if pages, err = src.PagesOf(a.anchoredPages()); err != nil {
			src = nil // unreadable: placed as without an index
		}
	}
	if src != nil {
		want := map[uint32]bool{}
		miss := func(page string, body uint32) {
			if pages[page] == nil && body != 0 {
				want[body] = true
			}
		}
		for _, ns := range a.notes {
			for _, n := range ns {
				miss(n.PageID, n.BodyHash)
			}
		}
		for _, m := range a.memories {
			if m.Link != "" {
				miss(m.Link, m.BodyHash)
			}
		}
		if len(want) > 0 {
			var err error
			if moved, err = src.PagesWithBody(want); err != nil {
				moved = nil
			}
		}
	}
	stand := func(page string, an Anchor) Standing {
		st := Standing{ShownOn: page}
		if src == nil {
			return st
		}
		changed := func() time.Time {
			if t, ok := a.seen[seenKey(page, an.Hash)]; ok {
				return t
			}
			return built
		}
		if p := pages[page]; p != nil {
			if an.Hash != 0 && p.Hash != an.Hash {
				st.State, st.Changed = StateStale, changed()
			}
			return st
		}
		if to := moved[an.BodyHash]; an.BodyHash != 0 && len(to) == 1 {
			st.State, st.From, st.ShownOn = StateMoved, page, to[0]
			return st
		}
		st.State, st.Changed = StateOrphan, changed()
		return st
	}
	for _, id := range a.NotedPages() {
		for _, n := range a.notes[id] {
			pn := PlacedNote{Note: n, Standing: stand(n.PageID, n.Anchor)}
			r.counts[pn.State]++
			if pn.State != StateOrphan {
				r.byPage[pn.ShownOn] = append(r.byPage[pn.ShownOn], len(r.notes))
			}
			r.notes = append(r.notes, pn)
		}
	}
	for _, ix := range r.byPage {
		sort.SliceStable(ix, func(x, y int) bool {
			p, q := &r.notes[ix[x]], &r.notes[ix[y]]
			if !p.Time.Equal(q.Time) {
				return p.Time.Before(q.Time)
			}
			return p.ID < q.ID
		})
	}
	r.mems = make([]PlacedMemory, len(a.memories))
	for i, m := range a.memories {
		pm := PlacedMemory{Memory: m}
		if m.Link != "" {
			pm.Standing = stand(m.Link, m.Anchor)
			r.mcounts[pm.State]++
			if pm.State != StateOrphan {
				r.links[pm.ShownOn] = append(r.links[pm.ShownOn], i)
			}
		}
		r.mems[i] = pm
	}
	// Ranking pages: memories, then per page its notes, newest first (the
	// snippet shows the first line). Orphans are left out: their ID names
	// no page.
	r.pages = append(r.pages, a.pages...)
	shown := make([]string, 0, len(r.byPage))
	for id := range r.byPage {
		shown = append(shown, id)
	}
	sort.Strings(shown)
	for _, id := range shown {
		ix := r.byPage[id]
		texts := make([]string, 0, len(ix))
		for k := len(ix) - 1; k >= 0; k-- {
			texts = append(texts, r.notes[ix[k]].Text)
		}
		r.pages = append(r.pages, graph.Page{ID: id, Kind: graph.KindMemory, Doc: strings.Join(texts, "\n")})
	}
	return r
}

// Notes returns the notes shown on pageID (written there, or moved there),
// oldest first; orphans show nowhere (AllNotes lists them with StateOrphan).
func (r *Placement) Notes(pageID string) []PlacedNote {
	ix := r.byPage[pageID]
	out := make([]PlacedNote, len(ix))
	for k, i := range ix {
		out[k] = r.notes[i]
	}
	return out
}

// AllNotes returns every note with its standing, by page then time.
func (r *Placement) AllNotes() []PlacedNote { return r.notes }

// Memories returns every memory with its standing, oldest first.
func (r *Placement) Memories() []PlacedMemory { return r.mems }

// Memory returns the memory with the given slug and its standing.
func (r *Placement) Memory(slug string) (PlacedMemory, bool) {
	for _, m := range r.mems {
		if m.Slug == slug {
			return m, true
		}
	}
	return PlacedMemory{}, false
}

// LinkedFrom returns the memories linked to pageID (directly, or through a
// followed move).
func (r *Placement) LinkedFrom(pageID string) []PlacedMemory {
	ix := r.links[pageID]
	out := make([]PlacedMemory, len(ix))
	for k, i := range ix {
		out[k] = r.mems[i]
	}
	return out
}

// NoteCount returns how many notes are in state s.
func (r *Placement) NoteCount(s State) int { return r.counts[s] }

// MemoryCount returns how many linked memories are in state s.
func (r *Placement) MemoryCount(s State) int { return r.mcounts[s] }

// RankPages returns the pages to rank beside the code (engine.Options.Extra):
// every memory, and one page per page carrying notes, with that page's ID,
// Kind graph.KindMemory, no title and the notes' text (newest first) as Doc.
func (r *Placement) RankPages() []graph.Page { return r.pages }

// StampAnchors records, for every anchor g breaks (its page changed or is
// gone), the time at — unless a stamp exists — and drops stamps of anchors
// that hold again or are no longer used. It writes only when something
// changed. It is how "the code changed 2026-11-20" keeps its date: a build
// runs it, under the build lock, after writing a generation of g.
//
// The index is opened (open) only when there are notes or memories, and
// read for the anchored pages alone.
func StampAnchors(dir string, open func() (graph.PageSource, func(), error), at time.Time) error {
	a, err := Load(dir)
	if err != nil {
		return err
	}
	if len(a.notes) == 0 && len(a.memories) == 0 {
		return nil
	}
	src, done, err := open()
	if err != nil {
		return err
	}
	defer done()
	pages, err := src.PagesOf(a.anchoredPages())
	if err != nil {
		return err
	}
	put := map[string]bool{}
	used := map[string]bool{}
	check := func(page string, hash uint32) {
		if page == "" || hash == 0 {
			return
		}
		k := seenKey(page, hash)
		used[k] = true
		p := pages[page]
		broken := p == nil || p.Hash != hash
		if _, has := a.seen[k]; broken && !has {
			put[k] = true
		}
		if !broken {
			used[k] = false
		}
	}
	for _, ns := range a.notes {
		for _, n := range ns {
			check(n.PageID, n.Hash)
		}
	}
	for _, m := range a.memories {
		check(m.Link, m.Hash)
	}
	var del []string
	for k := range a.seen {
		if !used[k] {
			del = append(del, k)
		}
	}
	if len(put) == 0 && len(del) == 0 {
		return nil
	}
	val := []byte(at.UTC().Format(time.RFC3339Nano))
	return updateAuthored(dir, func(txn *badger.Txn) error {
		for k := range put {
			if err := txn.Set([]byte("seen/"+k), val); err != nil {
				return err
			}
		}
		for _, k := range del {
			if err := txn.Delete([]byte("seen/" + k)); err != nil {
				return err
			}
		}
		return nil
	})
}
