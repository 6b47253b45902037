package engine

import (
	"strings"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// Foreign names. A package's exported name whose qualifier the repository
// neither defines nor holds as a path segment ("maps.Copy",
// "strings.Builder", "http.StatusOK": imports are not indexed as names)
// names something outside the repository: a library call the change
// starts to use. Its last part then says little about which file changes — it is
// matched by every definition that happens to share it (gin's
// Context.Copy for maps.Copy) — so it weighs foreignShare of its weight.
//
// The share was screened on the commit subjects (gin's "use maps.Copy":
// binding/form_mapping.go 3 → 1 at 0.5 and 0.3, not at 0.7) and on
// SWE-bench, where a Python module alias ("so.PolyFit", "xr.DataArray")
// or a traceback's frame ("BaseFormatter.__call__", "sys.modules") must
// keep its weight: hence the package form and the top-level check below.
const foreignShare = 0.5

// demoteForeign scales the last-part term of each qualified identifier of
// a whose qualifier the index does not hold (see above).
func (ix *Index) demoteForeign(a *analysis) {
	for _, id := range a.idents {
		parts := nameParts(id)
		if len(parts) < 2 {
			continue
		}
		qual, last := parts[len(parts)-2], parts[len(parts)-1]
		if !packageQualified(qual, last) || ix.holds(exactTerm(qual)) || ix.holds(segTerm(strings.ToLower(qual))) || ix.holds(exactTerm(qual+"."+last)) {
			continue
		}
		t := exactTerm(last)
		if ix.definesTopLevel(t, last) {
			continue // an alias's name ("so.Plot" of `import seaborn.objects as so`)
		}
		for k := range a.terms {
			if a.terms[k].term == t && a.terms[k].role == roleExact {
				a.terms[k].weight *= foreignShare
			}
		}
	}
}

// holds reports whether a live page holds term t.
func (ix *Index) holds(t string) bool {
	ref, ok := ix.lookupTerm(t)
	return ok && ix.df(ref) > 0
}

// maxForeignScan bounds the pages definesTopLevel reads.
const maxForeignScan = 256

// definesTopLevel reports whether a page holding exact term t is a
// definition named name outside any type or class (a module-level
// function, type or class), which a module alias may qualify.
func (ix *Index) definesTopLevel(t, name string) bool {
	ref, ok := ix.lookupTerm(t)
	if !ok {
		return false
	}
	pages, _ := ix.postings(ref, nil, nil)
	for i, p := range pages {
		if i == maxForeignScan {
			return true // too common to call foreign
		}
		if graph.Kind(ix.kind[p]) != graph.KindSymbol || ix.isDead(p) {
			continue
		}
		if strings.EqualFold(ix.record(p).qual, name) {
			return true
		}
	}
	return false
}

// packageQualified reports a qualified name written as a package's
// exported name: a lower-case qualifier and a capitalised last part
// ("maps.Copy", "http.StatusOK", "decimal.FloatOperation"), not an
// attribute of a variable ("sys.modules", "r.text") or a type's method
// ("BaseFormatter.__call__").
func packageQualified(qual, last string) bool {
	if qual == "" || last == "" || hasUpperASCII(qual) || last[0] < 'A' || last[0] > 'Z' {
		return false
	}
	return true
}
