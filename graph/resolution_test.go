package graph

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestResolutionPerLanguage builds each tree of fixtures/resolution and
// checks the references that the syntax decides (issue #15): a method
// called through a typed local links to that type's method and not to the
// same-named method of another class; a function reached through a
// qualified import links to the imported one; a self/this/receiver call
// links to its own class's method and not to another's.
func TestResolutionPerLanguage(t *testing.T) {
	type edge struct {
		from, to string
		conf     Confidence // for want: the confidence the edge must carry
	}
	cases := map[string]struct{ want, not, loose []edge }{
		"go": {
			want: []edge{
				{"app/app.go#Shop.Run", "cart/cart.go#Cart.Total", ConfTyped}, // var c cart.Cart; c.Total()
				{"app/app.go#Shop.Run", "cart/cart.go#New", ConfImport},       // cart.New()
				{"app/app.go#Shop.Run", "app/app.go#Shop.Close", ConfTyped},   // s.Close()
			},
			not: []edge{
				{"app/app.go#Shop.Run", "till/till.go#Till.Total", 0},
				{"app/app.go#Shop.Run", "app/app.go#Other.Close", 0},
			},
			loose: []edge{ // x.Close(), x of unknown type
				{"app/app.go#closeAll", "app/app.go#Shop.Close", 0},
				{"app/app.go#closeAll", "app/app.go#Other.Close", 0},
			},
		},
		"python": {
			want: []edge{
				{"shop/app.py#App.run", "shop/cart.py#Cart.total", ConfTyped}, // c = Cart(); c.total()
				{"shop/app.py#App.run", "shop/util.py#make", ConfImport},      // util.make()
				{"shop/app.py#App.run", "shop/app.py#App.stop", ConfTyped},    // self.stop()
			},
			not: []edge{
				{"shop/app.py#App.run", "shop/cart.py#Till.total", 0},
				{"shop/app.py#App.run", "shop/app.py#Other.stop", 0},
			},
			loose: []edge{ // x.total(), x of unknown type
				{"shop/app.py#total_of", "shop/cart.py#Cart.total", 0},
				{"shop/app.py#total_of", "shop/cart.py#Till.total", 0},
			},
		},
		"typescript": {
			want: []edge{
				{"src/app.ts#App.run", "src/cart.ts#Cart.total", ConfTyped}, // c: Cart; c.total()
				{"src/app.ts#App.run", "src/util.ts#make", ConfImport},      // util.make()
				{"src/app.ts#App.run", "src/app.ts#App.stop", ConfTyped},    // this.stop()
			},
			not: []edge{
				{"src/app.ts#App.run", "src/cart.ts#Till.total", 0},
				{"src/app.ts#App.run", "src/app.ts#Other.stop", 0},
			},
			loose: []edge{ // x.total(), x: any
				{"src/app.ts#totalOf", "src/cart.ts#Cart.total", 0},
				{"src/app.ts#totalOf", "src/cart.ts#Till.total", 0},
			},
		},
		"java": {
			want: []edge{
				{"src/shop/App.java#App.run", "src/shop/Cart.java#Cart.total", ConfTyped}, // Cart c = new Cart(); c.total()
				{"src/shop/App.java#App.run", "src/shop/Util.java#Util.make", ConfTyped},  // Util.make()
				{"src/shop/App.java#App.run", "src/shop/App.java#App.stop", ConfTyped},    // this.stop()
			},
			not: []edge{
				{"src/shop/App.java#App.run", "src/shop/Till.java#Till.total", 0},
				{"src/shop/App.java#App.run", "src/shop/App.java#Other.stop", 0},
			},
		},
		"rust": {
			want: []edge{
				{"src/lib.rs#App.run", "src/cart.rs#Cart.total", ConfTyped}, // c: &Cart; c.total()
				{"src/lib.rs#App.run", "src/util.rs#make", ConfImport},      // util::make()
				{"src/lib.rs#App.run", "src/lib.rs#App.stop", ConfTyped},    // self.stop()
			},
			not: []edge{
				{"src/lib.rs#App.run", "src/cart.rs#Till.total", 0},
				{"src/lib.rs#App.run", "src/lib.rs#Other.stop", 0},
			},
		},
	}
	for lang, tc := range cases {
		t.Run(lang, func(t *testing.T) {
			s, _ := buildFixture(t, "resolution/"+lang)
			g, err := s.Graph()
			if err != nil {
				t.Fatal(err)
			}
			page := func(id string) uint32 {
				i, ok := g.Lookup("symbol:" + id)
				if !ok {
					t.Fatalf("no page symbol:%s", id)
				}
				return i
			}
			// refs are the references from `from`, with their attributes.
			refs := func(from string) map[string]EdgeAttr {
				out := map[string]EdgeAttr{}
				for _, e := range g.Out(page(from), References, false) {
					out[strings.TrimPrefix(g.Pages[e.To].ID, "symbol:")] = e.Attr
				}
				return out
			}
			for _, e := range tc.want {
				got := refs(e.from)
				a, ok := got[e.to]
				switch {
				case !ok:
					t.Errorf("%s → %s missing; its references: %v", e.from, e.to, got)
				case a.Confidence() != e.conf || a.Uses()&UseCall == 0:
					t.Errorf("%s → %s: confidence %q, uses %v; want %q, a call", e.from, e.to, a.Confidence(), a.UseNames(), e.conf)
				}
			}
			for _, e := range tc.not {
				if got := refs(e.from); got[e.to] != 0 || slices.Contains(slices.Collect(maps.Keys(got)), e.to) {
					t.Errorf("%s → %s is linked (another class's method of the same name); its references: %v", e.from, e.to, got)
				}
			}
			// A name matched among several definitions is a loose edge:
			// stored, but not among the page's references.
			for _, e := range tc.loose {
				if a, ok := refs(e.from)[e.to]; !ok || !a.Loose() {
					t.Errorf("%s → %s: want a loose edge, got %v (present %v)", e.from, e.to, a.Confidence(), ok)
				}
				rec := g.Record(page(e.from))
				if slices.Contains(rec.Out[References], "symbol:"+e.to) || !slices.Contains(rec.LooseOut, "symbol:"+e.to) {
					t.Errorf("%s → %s: the page lists it among references %v (loose %v); want loose only", e.from, e.to, rec.Out[References], rec.LooseOut)
				}
				in := g.Record(page(e.to))
				if slices.Contains(in.In[References], "symbol:"+e.from) || !slices.Contains(in.LooseIn, "symbol:"+e.from) {
					t.Errorf("%s ← %s: the page lists it among callers %v (loose %v); want loose only", e.to, e.from, in.In[References], in.LooseIn)
				}
			}
		})
	}
}
