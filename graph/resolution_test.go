package graph

import (
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
	type edge struct{ from, to string }
	cases := map[string]struct{ want, not []edge }{
		"go": {
			want: []edge{
				{"app/app.go#Shop.Run", "cart/cart.go#Cart.Total"}, // var c cart.Cart; c.Total()
				{"app/app.go#Shop.Run", "cart/cart.go#New"},        // cart.New()
				{"app/app.go#Shop.Run", "app/app.go#Shop.Close"},   // s.Close()
			},
			not: []edge{
				{"app/app.go#Shop.Run", "till/till.go#Till.Total"},
				{"app/app.go#Shop.Run", "app/app.go#Other.Close"},
			},
		},
		"python": {
			want: []edge{
				{"shop/app.py#App.run", "shop/cart.py#Cart.total"}, // c = Cart(); c.total()
				{"shop/app.py#App.run", "shop/util.py#make"},       // util.make()
				{"shop/app.py#App.run", "shop/app.py#App.stop"},    // self.stop()
			},
			not: []edge{
				{"shop/app.py#App.run", "shop/cart.py#Till.total"},
				{"shop/app.py#App.run", "shop/app.py#Other.stop"},
			},
		},
		"typescript": {
			want: []edge{
				{"src/app.ts#App.run", "src/cart.ts#Cart.total"}, // c: Cart; c.total()
				{"src/app.ts#App.run", "src/util.ts#make"},       // util.make()
				{"src/app.ts#App.run", "src/app.ts#App.stop"},    // this.stop()
			},
			not: []edge{
				{"src/app.ts#App.run", "src/cart.ts#Till.total"},
				{"src/app.ts#App.run", "src/app.ts#Other.stop"},
			},
		},
		"java": {
			want: []edge{
				{"src/shop/App.java#App.run", "src/shop/Cart.java#Cart.total"}, // Cart c = new Cart(); c.total()
				{"src/shop/App.java#App.run", "src/shop/Util.java#Util.make"},  // Util.make()
				{"src/shop/App.java#App.run", "src/shop/App.java#App.stop"},    // this.stop()
			},
			not: []edge{
				{"src/shop/App.java#App.run", "src/shop/Till.java#Till.total"},
				{"src/shop/App.java#App.run", "src/shop/App.java#Other.stop"},
			},
		},
		"rust": {
			want: []edge{
				{"src/lib.rs#App.run", "src/cart.rs#Cart.total"}, // c: &Cart; c.total()
				{"src/lib.rs#App.run", "src/util.rs#make"},       // util::make()
				{"src/lib.rs#App.run", "src/lib.rs#App.stop"},    // self.stop()
			},
			not: []edge{
				{"src/lib.rs#App.run", "src/cart.rs#Till.total"},
				{"src/lib.rs#App.run", "src/lib.rs#Other.stop"},
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
			refs := func(from string) []string {
				i, ok := g.Lookup("symbol:" + from)
				if !ok {
					t.Fatalf("no page symbol:%s", from)
				}
				var out []string
				for _, e := range g.Out(i, References, false) {
					out = append(out, strings.TrimPrefix(g.Pages[e.To].ID, "symbol:"))
				}
				return out
			}
			for _, e := range tc.want {
				if got := refs(e.from); !slices.Contains(got, e.to) {
					t.Errorf("%s → %s missing; its references: %v", e.from, e.to, got)
				}
			}
			for _, e := range tc.not {
				if got := refs(e.from); slices.Contains(got, e.to) {
					t.Errorf("%s → %s is linked (another class's method of the same name); its references: %v", e.from, e.to, got)
				}
			}
		})
	}
}
