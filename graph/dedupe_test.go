package graph

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/parser"
)

// TestDedupeRefs checks dedupeRefs, both its pairwise and its table
// path, against a map keeping each reference's first use in order.
func TestDedupeRefs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"a", "b", "Read", "x", ""}
	for _, n := range []int{0, 1, 2, smallRefs, smallRefs + 1, 50, 3000, 20000} {
		refs := make([]parser.Ref, n)
		for i := range refs {
			refs[i] = parser.Ref{
				Name:      names[rng.IntN(len(names))] + fmt.Sprint(rng.IntN(n/4+1)),
				Qualifier: names[rng.IntN(len(names))],
				Type:      names[rng.IntN(len(names))],
				Selected:  rng.IntN(2) == 0,
				Kind:      parser.RefKind(rng.IntN(3)),
				Line:      int32(i),
				Enclosing: int32(rng.IntN(4)) - 1,
			}
		}
		type key struct {
			n, q, ty string
			s        bool
			k        parser.RefKind
			e        int32
		}
		seen := map[key]bool{}
		var want []parser.Ref
		for _, r := range refs {
			k := key{r.Name, r.Qualifier, r.Type, r.Selected, r.Kind, r.Enclosing}
			if !seen[k] {
				seen[k] = true
				want = append(want, r)
			}
		}
		f := &parser.Facts{Refs: slices.Clone(refs)}
		dedupeRefs(f)
		if !slices.Equal(f.Refs, want) && !(len(f.Refs) == 0 && len(want) == 0) {
			t.Fatalf("n=%d: %d refs kept, want %d", n, len(f.Refs), len(want))
		}
	}
}

// TestSortEdgeList checks sortEdgeList's integer sort against its
// comparison sort, both directions, once compacted.
func TestSortEdgeList(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 5, 1000} {
		es := make([]Edge, n)
		for i := range es {
			es[i] = Edge{From: uint32(rng.IntN(20)), To: uint32(rng.IntN(20)), Type: EdgeType(rng.IntN(int(numEdgeTypes))), Attr: EdgeAttr(rng.IntN(256))}
		}
		for _, byTo := range []bool{false, true} {
			fast := slices.Clone(es)
			sortEdgeList(fast, byTo)
			// An edge past the integer sort's range sends the same edges
			// through the comparison sort.
			slow := append(slices.Clone(es), Edge{From: 1 << 30, To: 1 << 30})
			sortEdgeList(slow, byTo)
			slow = slices.DeleteFunc(slow, func(e Edge) bool { return e.From == 1<<30 })
			if got, want := compactEdges(fast), compactEdges(slow); !slices.Equal(got, want) {
				t.Fatalf("n=%d byTo=%v: integer sort differs", n, byTo)
			}
		}
	}
}
