package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// rankingCases are fixed questions about fixtures/polyglot with the files
// that answer them. The golden table records where each answer ranks, so
// a ranking change shows up as a reviewed diff (zoekt keeps the same kind
// of table).
var rankingCases = []struct {
	q    string
	gold []string
}{
	{"NormalizeISBN", []string{"go/inventory/book.go"}},
	{"Store.Restock", []string{"go/inventory/store.go"}},
	{"shopping cart total with tax", []string{"javascript/src/cart.js", "javascript/src/pricing.js"}},
	{"format a price", []string{"javascript/src/pricing.js"}},
	{"ledger of stock movements", []string{"c/ledger.h", "c/ledger.c"}},
	{"warehouse shelf label", []string{"cpp/warehouse.hpp"}},
	{"UnknownBookException", []string{"java/src/main/java/com/bookstore/inventory/Inventory.java"}},
	{"render a report over an inventory", []string{"typescript/src/report.ts"}},
	{"Shelf component props", []string{"typescript/src/Shelf.tsx"}},
	{"catalog keeps books and their stock", []string{"python/bookstore/catalog.py"}},
	{"restock fails for an unknown isbn in rust", []string{"rust/src/stock.rs"}},
	{"ruby shelf of books", []string{"ruby/lib/shelf.rb"}},
	{"architecture of the bookstore", []string{"docs/architecture.md"}},
	{"command that prints the value of the inventory", []string{"go/cmd/stockreport/main.go"}},
	{"Traceback (most recent call last):\n  File \"python/bookstore/catalog.py\", line 20, in restock\nKeyError: '978'", []string{"python/bookstore/catalog.py"}},
	{"go/inventory/store.go:39", []string{"go/inventory/store.go"}},
	{"php namespace inventory book", []string{"php/src/Book.php"}},
	{"c sharp catalog observer restocked", []string{"csharp/Catalog.cs"}},
	// Each case below fails when the signal in its comment is switched off.
	{"Catalog.restock fails for an unknown isbn, see python/bookstore/models.py", []string{"python/bookstore/models.py"}},                                                              // pathExactBoost
	{"Catalog.restock fails for an unknown isbn, see lib/models.py", []string{"python/bookstore/models.py"}},                                                                           // pathBaseBoost
	{"book: restock unknown isbn", []string{"go/inventory/book.go", "csharp/Book.cs", "java/src/main/java/com/bookstore/inventory/Book.java", "php/src/Book.php", "ruby/lib/book.rb"}}, // componentStemBoost, componentPartialBoost
	{"test catalog", []string{"python/tests/test_catalog.py"}},                                                                                                                         // phraseFactor, weightCompound (=test_catalog)
	{"stock: price of a book", []string{"rust/src/stock.rs"}},                                                                                                                          // component as text and boost
	{"store: price of a book", []string{"go/inventory/store.go"}},                                                                                                                      // componentPartialBoost ("store" in bookstore/)
	{"ruby: price of a book", []string{"ruby/lib/book.rb"}},                                                                                                                            // componentDirBoost
	{"normalize isbn", []string{"go/inventory/book.go"}},                                                                                                                               // weightCompound (=normalizeisbn)
	{"Restock fails for an unknown isbn in rust\n```\n$ cargo run\nwarehouse shelf label, warehouse shelf label\n```", []string{"rust/src/stock.rs"}},                                  // bodyCodeWordShare
	{"Restock fails for an unknown isbn in rust\nThe warehouse shelf label printing around it works, the warehouse shelf label is fine.", []string{"rust/src/stock.rs"}},               // bodyProseShare
	{"Restock fails for an unknown isbn in rust\nIt happens after `ShelfProps` and `Warehouse` were used", []string{"rust/src/stock.rs"}},                                              // bodyNamedShare
}

// signalCases are fixed questions about fixtures/ranking, a small Python
// project under one package (shop/), each built so that it fails when the
// signal in its comment is switched off (set to 1).
var signalCases = []struct {
	q    string
	gold []string
}{
	{"how the formatter turns records into lines", []string{"shop/formatter.py"}},         // nameFactor (a file named by the question's words)
	{"how payments pay for the order by charging", []string{"shop/payments/__init__.py"}}, // nameFactor (a central file, by its directory)
	{"upload retry with exponential backoff", []string{"shop/upload.py"}},                 // helperFactor (benches/ holds the same code)
	{"shop printing each line then the total", []string{"shop/receipts.py"}},              // projectWords ("shop" names the project, not shop/shop.py)
	{"active health checks of a payment backend", []string{"shop/healthchecks.py"}},
	{"the browser lists a page of items", []string{"shop/browse.py"}},                               // nameFactor on an agent noun's verb (browser → browse.py)       // nameFactor on two adjacent words written as one stem
	{"send frames over h3", []string{"shop/modern.py"}},                                             // pieceTerms: a digit run joined to its letters (send_h3_frames holds "h3")
	{"check the `CART_VOLUME` of an order", []string{"shop/limits.py"}},                             // addSiblings (CART_VOLUME is new; CART_ITEMS and CART_WEIGHT are its siblings)
	{"fix the `assert entry.sku not in self.skus` crash", []string{"shop/carts.py"}},                // codeAndWords: "not", "in" of a code excerpt are keywords, not names (shop/tokens.py defines not_, in_)
	{"ledger: write an entry", []string{"shop/ledger/posting.py"}},                                  // componentDirBoost 1.8: the component's directory outweighs shop/journal.py's 1.7× text (1.5 lost it)
	{"use `collections.Merge` for the price of a quantity of an item", []string{"shop/pricing.py"}}, // demoteForeign: collections.Merge is a library's name, not shop/stockroom.py's Stockroom.Merge
}

// symbolCases are questions about fixtures/symbols asked with the kind
// filter symbol: each is the doc sentence of a function in a small file
// beside a long file of near-identical definitions, which won as a file
// group before members were ranked on their own (memberOnly).
var symbolCases = []struct {
	q    string
	gold []string
}{
	{"Round a price to the nearest cent.", []string{"shop/money.py"}},                                    // packMembers (shop/currency.py holds ten similar conversions)
	{"Record a refund against the customer balance.", []string{"shop/returns_desk.py"}},                  // no neighbour boost (shop/statements.py neighbours shop/accounts.py, the best file)
	{"Add the sales tax of a TaxRate to each line total.", []string{"shop/orders.py"}},                   // memberNameShare (TaxRate, a name the sentence writes, is defined in shop/regions.py)
	{"order_total is the total of every line of an order, kept in the books.", []string{"shop/till.py"}}, // subjectTerms (shop/ledger.py's total_order has the same words and sorts first)
	{"TaxRate", []string{"shop/regions.py"}},                                                             // a lookup (TestMemberTermsKeepLookups guards isLookup)
	{"Return the label of the shelf for an order.", []string{"shop/captions.py"}},                        // rerankMembers' coverage (shop/shelves.py's label says "label" and "shelf" more often, not "order")
	{"Return the code of a shipping zone as an integer 16.", []string{"shop/tariffs.py"}},                // addNumbers, textPieceTerms: "16" (shop/atlas.py's zone_code says the rest, and sorts first)
	{"Get a slot by name, or a default value.", []string{"shop/racks.py"}},                               // addStopWords, nameStopWords: "get" (shop/bins.py's lookup says the rest, and sorts first)
	{"Return the stamp of a parcel for a depot.", []string{"shop/counter.py"}},                           // ownScores (shop/postroom.py's get_parcel_stamp, its doc longer, its body saying the words more often, first without it)
}

// TestGoldenRanking builds the polyglot fixture, asks every question and
// compares recall@1, recall@5 and reciprocal rank with testdata/ranking.golden.
// polyglotSnapshot indexes a copy of fixtures/polyglot (12 languages and
// Markdown) with the ranking index and opens it.
func polyglotSnapshot(t *testing.T) *graph.Snapshot {
	t.Helper()
	return fixtureSnapshot(t, "polyglot")
}

func TestGoldenRanking(t *testing.T) {
	ix, err := Load(polyglotSnapshot(t))
	if err != nil {
		t.Fatal(err)
	}
	sig, err := Load(fixtureSnapshot(t, "ranking"))
	if err != nil {
		t.Fatal(err)
	}
	syms, err := Load(fixtureSnapshot(t, "symbols"))
	if err != nil {
		t.Fatal(err)
	}
	got := rankingTable(t, ix, rankingCases, Options{}) + "\nfixtures/ranking\n" + rankingTable(t, sig, signalCases, Options{}) +
		"\nfixtures/symbols, kind symbol\n" + rankingTable(t, syms, symbolCases, Options{Kinds: []graph.Kind{graph.KindSymbol}})
	walktest.Golden(t, "ranking.golden", got)
}

// rankingTable asks ix every question of cases and tabulates recall@1,
// recall@5 and reciprocal rank of their gold files, with their means.
func rankingTable(t *testing.T, ix *Index, cases []struct {
	q    string
	gold []string
}, opt Options) string {
	t.Helper()
	var b strings.Builder
	var sumR1, sumR5, sumRR float64
	fmt.Fprintf(&b, "%-52s %5s %5s %5s  top files\n", "question", "R@1", "R@5", "RR")
	for _, c := range cases {
		res, err := ix.Query(context.Background(), c.q, opt)
		if err != nil {
			t.Fatal(err)
		}
		var files []string // distinct files in rank order
		for _, s := range res.Results {
			if s.Path != "" && s.Kind != "module" && !slices.Contains(files, s.Path) {
				files = append(files, s.Path)
			}
		}
		hit := func(k int) float64 {
			n := 0
			for _, g := range c.gold {
				if i := slices.Index(files, g); i >= 0 && i < k {
					n++
				}
			}
			return float64(n) / float64(len(c.gold))
		}
		rr := 0.0
		for i, f := range files {
			if slices.Contains(c.gold, f) {
				rr = 1 / float64(i+1)
				break
			}
		}
		sumR1, sumR5, sumRR = sumR1+hit(1), sumR5+hit(5), sumRR+rr
		q := strings.ReplaceAll(c.q, "\n", `\n`)
		if len(q) > 50 {
			q = q[:50] + "…"
		}
		fmt.Fprintf(&b, "%-52s %5.2f %5.2f %5.2f  %s\n", q, hit(1), hit(5), rr, strings.Join(files[:min(3, len(files))], " "))
	}
	n := float64(len(cases))
	fmt.Fprintf(&b, "%-52s %5.2f %5.2f %5.2f\n", "MEAN", sumR1/n, sumR5/n, sumRR/n)
	return b.String()
}

// TestMemberOnlyRanksMembers checks a symbol-kind question over
// fixtures/symbols: one stub per symbol, the described function first
// though its file is the smaller, and --explain naming the symbol's own
// score and its file.
func TestMemberOnlyRanksMembers(t *testing.T) {
	ix, err := Load(fixtureSnapshot(t, "symbols"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := ix.Query(context.Background(), "Round a price to the nearest cent.", Options{Kinds: []graph.Kind{graph.KindSymbol}, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) < 2 || res.Results[0].ID != "symbol:shop/money.py#round_price" {
		t.Fatalf("results %+v, want symbol:shop/money.py#round_price first", res.Results)
	}
	seen := map[string]bool{}
	for _, s := range res.Results {
		if s.Kind != "symbol" || len(s.Symbols) > 0 || seen[s.ID] {
			t.Errorf("stub %s (kind %s, symbols %v): want one symbol stub per symbol", s.ID, s.Kind, s.Symbols)
		}
		seen[s.ID] = true
	}
	if ex := res.Results[0].Explain; !strings.HasPrefix(ex, fmt.Sprintf("%.3f = symbol ", res.Results[0].Score)) || !strings.Contains(ex, "of file:shop/money.py") {
		t.Errorf("explain %q: want the symbol's own score and its file", ex)
	}
}
