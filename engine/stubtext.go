package engine

import (
	"strings"
	"unsafe"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// A stub's text is copied out of the index memory into one allocation a
// stub: its ID (written from its parts when the record leaves it out),
// title and snippet (their name mark replaced), path and the names of the
// members it lists. A file stub took a dozen allocations (a copy a
// string, the symbol lists grown by append), most of a question's; now
// it takes three. The strings share the allocation, which is never
// written again once they are made.

// listMembers returns in list (of room groupListMax) the members of g a
// stub lists: those scoring at least groupListShare of its best, best
// first (score, then page), at most groupListMax. They are selected as
// they come, not sorted: a file may have hundreds of matching members.
func listMembers(g *groupAcc, s *scratch, list []uint32) []uint32 {
	list = list[:0]
	floor := groupListShare * float64(g.top[0])
	score := s.score
	for m := g.head; m != 0; m = s.next[m-1] {
		p := m - 1
		sc := score[p]
		if float64(sc) < floor {
			continue
		}
		// before: p ranks before q (higher score, then lower page).
		before := func(q uint32) bool { return sc > score[q] || sc == score[q] && p < q }
		n := len(list)
		if n == groupListMax {
			if !before(list[n-1]) {
				continue
			}
			n--
		} else {
			list = list[:n+1]
		}
		for n > 0 && before(list[n-1]) {
			list[n] = list[n-1]
			n--
		}
		list[n] = p
	}
	return list
}

// idParts of a record: its ID as parts whose concatenation it is (the
// stored ID, or graph.DefaultID's).
func (r *record) idPartsOf(k graph.Kind) [5]string {
	if !r.idBuilt {
		return [5]string{r.id}
	}
	switch k {
	case graph.KindModule:
		return [5]string{"module:", r.path}
	case graph.KindFile:
		return [5]string{"file:", r.path}
	case graph.KindSymbol:
		return [5]string{"symbol:", r.path, "#", r.qual}
	case graph.KindDoc:
		return [5]string{"doc:", r.path, "#", r.qual}
	case graph.KindMemory:
		return [5]string{"memory:", r.name}
	}
	return [5]string{}
}

// unmarkLen is len(unmarkCopy(s, name, marked)).
func unmarkLen(s, name string, marked bool) int {
	if marked && strings.Contains(s, graph.NameMark) {
		return len(s) - len(graph.NameMark) + len(name)
	}
	return len(s)
}

// appendUnmark appends unmarkCopy(s, name, marked) to b.
func appendUnmark(b []byte, s, name string, marked bool) []byte {
	if marked {
		if i := strings.Index(s, graph.NameMark); i >= 0 {
			b = append(b, s[:i]...)
			b = append(b, name...)
			return append(b, s[i+len(graph.NameMark):]...)
		}
	}
	return append(b, s...)
}

// stubArena is one stub's text, copied into an allocation of its exact
// size: take returns the bytes appended since the last take as a string.
type stubArena struct {
	b    []byte
	mark int
}

func (a *stubArena) take() string {
	s := a.b[a.mark:]
	a.mark = len(a.b)
	if len(s) == 0 {
		return ""
	}
	return unsafe.String(&s[0], len(s))
}

// stubText fills st's ID, title, path, snippet and symbols from rep's
// record r and the members listed (names and lines from symbolName); a
// file stub without a snippet takes its first member's (snip, its record).
// Every string is a copy, in one allocation.
func (ix *Index) stubText(st *Stub, r *record, kind graph.Kind, list []uint32, snip *record) {
	var names [groupListMax]string
	var lines [groupListMax]int
	for i, m := range list {
		names[i], lines[i] = ix.symbolName(m)
	}
	id := r.idPartsOf(kind)
	titleMarked, snipMarked := r.marks&graph.TextTitleMark != 0, r.marks&graph.TextSnippetMark != 0
	n := unmarkLen(r.title, r.name, titleMarked) + unmarkLen(r.snippet, r.name, snipMarked)
	for _, p := range id {
		n += len(p)
	}
	if kind != graph.KindModule {
		n += len(r.path)
	}
	if snip != nil {
		n += unmarkLen(snip.snippet, snip.name, snip.marks&graph.TextSnippetMark != 0)
	}
	for _, s := range names[:len(list)] {
		n += len(s)
	}
	a := stubArena{b: make([]byte, 0, n)}
	for _, p := range id {
		a.b = append(a.b, p...)
	}
	st.ID = a.take()
	a.b = appendUnmark(a.b, r.title, r.name, titleMarked)
	st.Title = a.take()
	if kind != graph.KindModule {
		a.b = append(a.b, r.path...)
		st.Path = a.take()
	}
	a.b = appendUnmark(a.b, r.snippet, r.name, snipMarked)
	st.Snippet = a.take()
	if snip != nil && st.Snippet == "" {
		a.b = appendUnmark(a.b, snip.snippet, snip.name, snip.marks&graph.TextSnippetMark != 0)
		st.Snippet = a.take()
	}
	if len(list) > 0 {
		st.Symbols = make([]string, len(list))
		st.symLines = make([]int, len(list))
		for i := range list {
			a.b = append(a.b, names[i]...)
			st.Symbols[i], st.symLines[i] = a.take(), lines[i]
		}
	}
}
