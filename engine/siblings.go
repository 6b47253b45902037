package engine

import (
	"math"
	"slices"
	"strings"
)

// Sibling names. A name the question writes as code that no page defines
// or uses is often one being added next to existing ones: a commit adding
// "sys.last_exc" edits the code that handles sys.last_type and
// sys.last_value, one adding `dns_challenge_override_domain` the parser of
// dns_challenge. Its exact term scores nothing; its siblings — the exact
// names that start with its leading pieces — stand in for it, sharing
// siblingShare of its weight, as long as few names share that start (a
// start as broad as "get" or "test_" says nothing).
const (
	siblingShare   = 0.5 // of the missing name's weight, shared by its siblings
	maxSiblings    = 8   // more names with that start: it is too broad to stand in
	minSiblingHead = 4   // bytes of the shared start, separators not counted
)

// addSiblings appends to a.terms the sibling names of each identifier of
// a that the index does not hold (see above).
func (ix *Index) addSiblings(a *analysis) {
	if len(a.idents) == 0 {
		return
	}
	var pieces, sibs []string
	n := len(a.terms)
	for _, id := range a.idents {
		// The last part of a qualified name ("last_exc" of sys.last_exc):
		// definitions and uses are indexed by it.
		if i := strings.LastIndexAny(id, ".:#>"); i >= 0 {
			id = id[i+1:]
		}
		id = strings.TrimSuffix(strings.Trim(id, "_"), "()")
		t := exactTerm(id)
		k := slices.IndexFunc(a.terms[:n], func(q queryTerm) bool { return q.term == t })
		if k < 0 || a.terms[k].role != roleExact {
			continue
		}
		if ref, ok := ix.lookupTerm(t); ok && ix.df(ref) > 0 {
			continue
		}
		pieces = splitIdent(pieces[:0], id)
		sibs = ix.siblings(sibs[:0], strings.ToLower(id), pieces, t)
		if len(sibs) == 0 {
			continue
		}
		w := a.terms[k].weight * siblingShare / math.Sqrt(float64(len(sibs)))
		for _, s := range sibs {
			if !slices.ContainsFunc(a.terms, func(q queryTerm) bool { return q.term == s }) {
				a.terms = append(a.terms, queryTerm{term: s, weight: w, role: roleExact})
			}
		}
	}
}

// siblings appends to dst the exact terms other than self that start
// with the longest leading run of lower's pieces (all but the last, then
// fewer) that at most maxSiblings terms start with; none when the first
// start tried that any term has is held by more.
func (ix *Index) siblings(dst []string, lower string, pieces []string, self string) []string {
	// ends[i]: the end in lower of pieces[i] (pieces are lower's runs, in order).
	ends := make([]int, 0, len(pieces))
	pos := 0
	for _, p := range pieces {
		j := strings.Index(lower[pos:], p)
		if j < 0 {
			return dst
		}
		pos += j + len(p)
		ends = append(ends, pos)
	}
	for k := len(pieces) - 2; k >= 0; k-- {
		head := lower[:ends[k]]
		if len(strings.ReplaceAll(head, "_", "")) < minSiblingHead {
			return dst
		}
		// A separator after the head is part of it: "last_" finds
		// last_type, not lastly.
		if e := ends[k]; e < len(lower) && lower[e] == '_' {
			head = lower[:e+1]
		}
		prefix := string(exactPrefix) + head
		start := len(dst)
		broad := false
		ix.eachTermFrom(prefix, func(ref termRef, term string) bool {
			if !strings.HasPrefix(term, prefix) {
				return false
			}
			// A term only dead pages hold (an incremental build's old
			// segment) is no sibling: a fresh index would not have it.
			if term == self || slices.Contains(dst[start:], term) || ix.df(ref) == 0 {
				return true
			}
			if len(dst)-start == maxSiblings {
				broad = true
				return false
			}
			dst = append(dst, strings.Clone(term)) // term is the dictionary's buffer
			return true
		})
		if broad {
			return dst[:start]
		}
		if len(dst) > start {
			// Segment by segment, terms come in no one order.
			slices.Sort(dst[start:])
			return dst
		}
	}
	return dst
}
