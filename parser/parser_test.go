package parser

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// parseCase is one source snippet and what Parse must find in it. Each
// expectation is a compact line:
//
//	defs:    "kind qualified start-end" or "kind qualified start-end | signature"
//	refs:    "name qualifier kind @enclosing" (qualifier "-" for none,
//	         enclosing is a qualified name or "-" for file level)
//	imports: "path" or "path as alias"
//
// Expectations are a subset: Parse may find more.
type parseCase struct {
	name    string
	path    string
	src     string
	doc     string
	defs    []string
	refs    []string
	noRefs  []string // names that must not appear as references
	imports []string
	docs    map[string]string // qualified -> doc
	diags   bool              // expect at least one diagnostic
	// literals are texts that must be among the literals
	literals []string
}

var refKindNames = map[RefKind]string{RefCall: "call", RefType: "type", RefSelector: "sel"}

var parseCases = []parseCase{
	{
		name: "go",
		path: "rank/rank.go",
		src: `// Package rank orders pages.
package rank

import (
	"fmt"
	str "strings"
)

// Ranker ranks pages.
type Ranker struct {
	Name string
}

type (
	ID    int
	Alias = string
)

// Limit caps results.
const Limit = 10

var defaultRanker = &Ranker{Name: "x"}

// Query runs q.
//
//go:noinline
func (r *Ranker) Query(q string) Result {
	parts := str.Split(q, ",")
	fmt.Println(r.Name, len(parts))
	return Result(parts)
}

type Scorer interface {
	Score(p Page) float64
}

func New[T any](x T) *Ranker { return &Ranker{} }
`,
		doc: "Package rank orders pages.",
		defs: []string{
			"struct Ranker 10-12 | type Ranker struct",
			"field Ranker.Name 11-11 | Name string",
			"type ID 15-15 | type ID int",
			"type Alias 16-16 | type Alias = string",
			"const Limit 20-20 | const Limit = 10",
			"var defaultRanker 22-22",
			"method Ranker.Query 27-31 | func (r *Ranker) Query(q string) Result",
			"interface Scorer 33-35 | type Scorer interface",
			"method Scorer.Score 34-34 | Score(p Page) float64",
			"func New 37-37 | func New[T any](x T) *Ranker",
		},
		refs: []string{
			"Split str call @Ranker.Query",
			"Println fmt call @Ranker.Query",
			"Name r sel @Ranker.Query",
			"Result - call @Ranker.Query",
			"Result - type @Ranker.Query",
			"Ranker - type @defaultRanker",
			"Page - type @Scorer.Score",
		},
		noRefs:  []string{"len", "string", "any"},
		imports: []string{"fmt", "strings as str"},
		docs:    map[string]string{"Ranker.Query": "Query runs q.", "Ranker": "Ranker ranks pages.", "Limit": "Limit caps results."},
	},
	{
		name: "python",
		path: "pkg/mod.py",
		src: `"""Module doc."""
import os, a.b as c
from .x import y as z
MAX = 3
counter = 0

class B(Base):
    """B doc."""

    class A:
        def m(self, x: int) -> Dict[str, int]:
            """M doc.

            More.
            """
            return self.run(os.path.join(x), Foo())

    @property
    def p(self):
        pass

def f():
    helper()
`,
		doc: "Module doc.",
		defs: []string{
			"const MAX 4-4 | MAX = 3",
			"var counter 5-5",
			"class B 7-20 | class B(Base)",
			"class B.A 10-16 | class A",
			"method B.A.m 11-16 | def m(self, x: int) -> Dict[str, int]",
			"method B.p 19-20 | def p(self)",
			"func f 22-23 | def f()",
		},
		refs: []string{
			"Base - type @B",
			"run self call @B.A.m",
			"path os sel @B.A.m",
			"join - call @B.A.m",
			"Foo - call @B.A.m",
			"Dict - type @B.A.m",
			"helper - call @f",
		},
		noRefs:  []string{"int", "str"},
		imports: []string{"os", "a.b as c", ".x"},
		docs:    map[string]string{"B": "B doc.", "B.A.m": "M doc.\n\nMore."},
	},
	{
		name: "javascript",
		path: "web/cart.js",
		src: `// Cart module.
const { withTax } = require('./pricing');
import * as util from "./util";

const TAX = 0.07;
let count = 0;

/** A cart. */
export class Cart extends Base {
  /** Adds a book. */
  add(book) {
    this.items.set(book.isbn, util.norm(book));
    return withTax(new Item(book));
  }
}

export const total = (cart) => cart.sum();

function render() {
  return <Row value={1}><div /></Row>;
}
`,
		doc: "Cart module.",
		defs: []string{
			"const TAX 5-5 | const TAX = 0.07",
			"var count 6-6 | let count = 0",
			"class Cart 9-15 | class Cart extends Base",
			"method Cart.add 11-14 | add(book)",
			"func total 17-17 | const total = (cart)",
			"func render 19-21 | function render()",
		},
		refs: []string{
			"set - call @Cart.add",
			"items this sel @Cart.add",
			"norm util call @Cart.add",
			"withTax - call @Cart.add",
			"Item - call @Cart.add",
			"Base - type @Cart",
			"sum cart call @total",
			"Row - call @render",
		},
		noRefs:  []string{"div"},
		imports: []string{"./pricing", "./util as util"},
		docs:    map[string]string{"Cart": "A cart.", "Cart.add": "Adds a book."},
	},
	{
		name: "typescript",
		path: "src/inv.ts",
		src: `/** File doc */
import { a } from './util';
export interface Book { isbn: string; label(): string }
export type Isbn = string;
export enum Genre { A, B }
export abstract class Store<T> extends Base implements Countable {
  private books: Map<Isbn, Book> = new Map();
  abstract size(): number;
  get(isbn: Isbn): Book | undefined { return this.books.get(isbn); }
}
namespace NS { export function h(): Q.R { return a(); } }
export const f = (x: number): Foo => x;
`,
		doc: "File doc",
		defs: []string{
			"interface Book 3-3 | interface Book",
			"field Book.isbn 3-3",
			"method Book.label 3-3",
			"type Isbn 4-4",
			"enum Genre 5-5 | enum Genre",
			"class Store 6-10 | abstract class Store<T> extends Base implements Countable",
			"field Store.books 7-7",
			"method Store.size 8-8 | abstract size(): number",
			"method Store.get 9-9 | get(isbn: Isbn): Book | undefined",
			"module NS 11-11 | namespace NS",
			"func NS.h 11-11 | function h(): Q.R",
			"func f 12-12 | const f = (x: number): Foo",
		},
		refs: []string{
			"Base - type @Store",
			"Countable - type @Store",
			"Isbn - type @Store.books",
			"Map - call @Store.books",
			"get - call @Store.get",
			"books this sel @Store.get",
			"R Q type @NS.h",
			"a - call @NS.h",
			"Foo - type @f",
		},
		imports: []string{"./util"},
	},
	{
		name: "tsx",
		path: "src/Shelf.tsx",
		src: `import React from "react";
/** Row renders one book. */
function Row({ book }: { book: Book }) {
  return <li>{book.title}</li>;
}
export const Shelf = ({ inv }: Props) => <ul><Row book={inv.first()} /></ul>;
`,
		defs: []string{
			"func Row 3-5 | function Row({ book }: { book: Book })",
			"func Shelf 6-6 | const Shelf = ({ inv }: Props)",
		},
		refs:    []string{"Book - type @Row", "Props - type @Shelf", "Row - call @Shelf", "first inv call @Shelf"},
		noRefs:  []string{"li", "ul"},
		imports: []string{"react"},
		docs:    map[string]string{"Row": "Row renders one book."},
	},
	{
		name: "rust",
		path: "src/lib.rs",
		src: `//! Crate doc.
use crate::graph::Page;
use std::io::Read as R;

/// Foo doc.
#[derive(Debug)]
pub struct Foo<T> {
    pub a: u32,
    b: Vec<T>,
}

trait Tr {
    fn t(&self) -> u32;
}

impl<T> Foo<T> {
    /// Bar doc.
    pub fn bar(&self, x: Page) -> Option<Self> {
        self.baz();
        util::helper(x.field);
        None
    }
}

impl Tr for Foo<u8> {
    fn t(&self) -> u32 { 1 }
}

mod inner {
    pub fn f<'a>(s: &'a str) -> &'a str { s }
}

const C: u32 = 1;
macro_rules! mac { () => {} }
`,
		doc: "Crate doc.",
		defs: []string{
			"struct Foo 7-10 | pub struct Foo<T>",
			"field Foo.a 8-8 | pub a: u32",
			"trait Tr 12-14 | trait Tr",
			"method Tr.t 13-13 | fn t(&self) -> u32",
			"method Foo.bar 18-22 | pub fn bar(&self, x: Page) -> Option<Self>",
			"method Foo.t 26-26 | fn t(&self) -> u32",
			"module inner 29-31 | mod inner",
			"func inner.f 30-30 | pub fn f<'a>(s: &'a str) -> &'a str",
			"const C 33-33 | const C: u32 = 1",
			"macro mac 34-34",
		},
		refs: []string{
			"baz self call @Foo.bar",
			"helper util call @Foo.bar",
			"field x sel @Foo.bar",
			"Page - type @Foo.bar",
			"Tr - type @-",
		},
		imports: []string{"crate::graph::Page", "std::io::Read as R"},
		docs:    map[string]string{"Foo": "Foo doc.", "Foo.bar": "Bar doc."},
	},
	{
		name: "java",
		path: "src/com/shop/Book.java",
		src: `package com.shop;

import java.util.List;
import static org.junit.Assert.*;

/**
 * Book doc.
 */
@Entity
public class Book extends Item implements Comparable<Book> {
    private List<String> tags;

    /** Ctor. */
    public Book(String t) { super(t); this.tags = new ArrayList<>(); }

    @Override
    public int compareTo(Book o) { return Util.cmp(title, o.title); }

    static class Inner { void x() {} }
    interface Listener { void on(Book b); }
}
`,
		defs: []string{
			"class Book 9-21 | @Entity public class Book extends Item implements Comparable<Book>",
			"field Book.tags 11-11",
			"method Book.Book 14-14 | public Book(String t)",
			"method Book.compareTo 16-17 | @Override public int compareTo(Book o)",
			"class Book.Inner 19-19",
			"method Book.Inner.x 19-19 | void x()",
			"interface Book.Listener 20-20",
			"method Book.Listener.on 20-20",
		},
		refs: []string{
			"Item - type @Book",
			"Comparable - type @Book",
			"cmp Util call @Book.compareTo",
			"title o sel @Book.compareTo",
			"ArrayList - call @Book.Book",
			"tags this sel @Book.Book",
		},
		imports: []string{"java.util.List", "org.junit.Assert.*"},
		docs:    map[string]string{"Book": "Book doc.", "Book.Book": "Ctor."},
	},
	{
		name: "c",
		path: "ledger.h",
		src: `/* Ledger header. */
#ifndef LEDGER_H
#define LEDGER_H
#include <stddef.h>
#include "book.h"

#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* One entry. */
struct entry {
	char isbn[14];
	int copies;
};

typedef struct ledger ledger_t;

// Adds an entry.
int ledger_add(ledger_t *l, const char *isbn);

static int count = 0;

int ledger_add(ledger_t *l, const char *isbn) {
	return helper(l->count, isbn);
}
#endif
`,
		doc: "Ledger header.",
		defs: []string{
			"macro MAX 7-7 | #define MAX(a, b) ((a) > (b) ? (a) : (b))",
			"struct entry 10-13 | struct entry",
			"field entry.isbn 11-11",
			"type ledger_t 15-15",
			"func ledger_add 18-18 | int ledger_add(ledger_t *l, const char *isbn)",
			"func ledger_add 22-24 | int ledger_add(ledger_t *l, const char *isbn)",
		},
		refs:    []string{"helper - call @ledger_add", "count l sel @ledger_add", "ledger_t - type @ledger_add"},
		imports: []string{"stddef.h", "book.h"},
		docs:    map[string]string{"entry": "One entry."},
	},
	{
		name: "cpp",
		path: "shop.cpp",
		src: `#include "warehouse.hpp"
namespace shop { namespace inv {
/// Stock doc.
class Stock : public Base {
public:
    Stock(int n);
    int count() const { return n_; }
private:
    int n_;
};
int Stock::add(const Book& b) { helper(b); b.title(); std::sort(v.begin(), v.end()); return 0; }
}}
void shop::inv::Stock::remove() { auto w = new Widget(); }
template <typename T> T maxOf(T a) { return a; }
`,
		defs: []string{
			"module shop 2-12 | namespace shop",
			"module shop.inv 2-12 | namespace inv",
			"class shop.inv.Stock 4-10 | class Stock : public Base",
			"method shop.inv.Stock.Stock 6-6 | Stock(int n)",
			"method shop.inv.Stock.count 7-7 | int count() const",
			"field shop.inv.Stock.n_ 9-9",
			"func shop.inv.Stock.add 11-11 | int Stock::add(const Book& b)",
			"func shop.inv.Stock.remove 13-13 | void shop::inv::Stock::remove()",
			"func maxOf 14-14 | T maxOf(T a)",
		},
		refs: []string{
			"Base - type @shop.inv.Stock",
			"helper - call @shop.inv.Stock.add",
			"title b call @shop.inv.Stock.add",
			"sort std call @shop.inv.Stock.add",
			"Book - type @shop.inv.Stock.add",
			"Widget - call @shop.inv.Stock.remove",
		},
		imports: []string{"warehouse.hpp"},
		docs:    map[string]string{"shop.inv.Stock": "Stock doc."},
	},
	{
		name: "csharp",
		path: "Book.cs",
		src: `using System;
using Col = System.Collections.Generic;
namespace Shop.Inventory {
  /// <summary>Book doc.</summary>
  public class Book : Item, IComparable<Book> {
    public string Title { get; set; }
    public Book(string t) { Util.Log(t); var x = new Shelf(); x.Put(this); }
    public int CompareTo(Book other) => 0;
    public class Inner { }
  }
  interface IStore { void Add(Book b); }
}
`,
		defs: []string{
			"module Shop.Inventory 3-12 | namespace Shop.Inventory",
			"class Shop.Inventory.Book 5-10 | public class Book : Item, IComparable<Book>",
			"field Shop.Inventory.Book.Title 6-6",
			"method Shop.Inventory.Book.Book 7-7 | public Book(string t)",
			"method Shop.Inventory.Book.CompareTo 8-8 | public int CompareTo(Book other)",
			"class Shop.Inventory.Book.Inner 9-9",
			"interface Shop.Inventory.IStore 11-11",
			"method Shop.Inventory.IStore.Add 11-11",
		},
		refs: []string{
			"Item - type @Shop.Inventory.Book",
			"IComparable - type @Shop.Inventory.Book",
			"Log Util call @Shop.Inventory.Book.Book",
			"Shelf - call @Shop.Inventory.Book.Book",
			"Put x call @Shop.Inventory.Book.Book",
			"Book - type @Shop.Inventory.IStore.Add",
		},
		imports: []string{"System", "System.Collections.Generic as Col"},
		docs:    map[string]string{"Shop.Inventory.Book": "Book doc."},
	},
	{
		name: "csharp file-scoped namespace",
		path: "Z.cs",
		src: `namespace Other.Space;

class Z { void M() {} }
`,
		defs: []string{"module Other.Space 1-3", "class Other.Space.Z 3-3", "method Other.Space.Z.M 3-3"},
	},
	{
		name: "ruby",
		path: "lib/shop.rb",
		src: `# Shop module.
require "json"
require_relative 'lib/book'
module Shop
  # A book.
  class Book < Item
    MAX = 3
    def initialize(title)
      Util.log(title)
      helper title
    end
    def self.build(x) = new(x)
  end
end
class Shop::Shelf
  def add(b)
    b.save!
  end
end
def top; end
`,
		doc: "Shop module.",
		defs: []string{
			"module Shop 4-14 | module Shop",
			"class Shop.Book 6-13 | class Book < Item",
			"const Shop.Book.MAX 7-7",
			"method Shop.Book.initialize 8-11 | def initialize(title)",
			"method Shop.Book.build 12-12",
			"class Shop.Shelf 15-19 | class Shop::Shelf",
			"method Shop.Shelf.add 16-18 | def add(b)",
			"func top 20-20 | def top",
		},
		refs: []string{
			"Item - type @Shop.Book",
			"log Util call @Shop.Book.initialize",
			"helper - call @Shop.Book.initialize",
			"save! b call @Shop.Shelf.add",
			"Shop - type @Shop.Shelf",
		},
		imports: []string{"json", "lib/book"},
		docs:    map[string]string{"Shop.Book": "A book."},
	},
	{
		name: "php",
		path: "src/Book.php",
		src: `<?php
/** File doc. */
namespace App\Models;

use App\Util\Logger;
use Foo\Bar as Baz;
require_once __DIR__ . '/helpers.php';

/** Book doc. */
class Book extends Item implements Countable {
    const MAX = 3;
    private string $title;
    public function __construct(string $t) { $this->title = $t; Logger::info($t); helper($t); new Shelf(); $this->save(); }
}
interface I { public function f(): Book; }
trait T { function g() {} }
function top(Book $b): ?Shelf { return null; }
`,
		doc: "File doc.",
		defs: []string{
			"module App.Models 3-17",
			"class App.Models.Book 10-14 | class Book extends Item implements Countable",
			"const App.Models.Book.MAX 11-11",
			"field App.Models.Book.title 12-12",
			"method App.Models.Book.__construct 13-13 | public function __construct(string $t)",
			"interface App.Models.I 15-15",
			"method App.Models.I.f 15-15",
			"trait App.Models.T 16-16",
			"func App.Models.top 17-17 | function top(Book $b): ?Shelf",
		},
		refs: []string{
			"Item - type @App.Models.Book",
			"info Logger call @App.Models.Book.__construct",
			"helper - call @App.Models.Book.__construct",
			"Shelf - call @App.Models.Book.__construct",
			"save this call @App.Models.Book.__construct",
			"title this sel @App.Models.Book.__construct",
			"Book - type @App.Models.top",
		},
		imports: []string{`App\Util\Logger`, `Foo\Bar as Baz`, "/helpers.php"},
		docs:    map[string]string{"App.Models.Book": "Book doc."},
	},
	{
		name: "markdown",
		path: "docs/guide.md",
		src:  "# Guide\n\nFirst *para*\nline two.\n\n## Install It!\n\nRun it.\n\n```sh\n# not a heading\n```\n\nSetext Title\n------------\n\nUnder setext.\n\n### Deep `code`\ntext\n# Back ##\nend\n",
		doc:  "First *para*\nline two.",
		defs: []string{
			"section guide 1-20 | # Guide",
			"section install-it 6-13 | ## Install It!",
			"section setext-title 14-20 | ## Setext Title",
			"section deep-code 19-20 | ### Deep `code`",
			"section back 21-22 | # Back",
		},
		docs: map[string]string{"install-it": "Run it.\n\n```sh\n# not a heading\n```", "back": "end"},
	},
	{
		name:  "go broken",
		path:  "broken.go",
		src:   "package broken\n\n// Good is fine.\nfunc Good() int { return 1 }\n\nfunc Broken(x int) int {\n\tif x > 0 {\n\t\treturn x\n\ntype After struct {\n\tName string\n}\n",
		defs:  []string{"func Good 4-4 | func Good() int"},
		docs:  map[string]string{"Good": "Good is fine."},
		diags: true,
	},
	{
		name:  "python broken",
		path:  "broken.py",
		src:   "def ok():\n    return 1\n\ndef broken(:\n    return 2\n\nclass After:\n    def m(self):\n        return ok()\n",
		defs:  []string{"func ok 1-2", "class After 7-9", "method After.m 8-9"},
		diags: true,
	},
	{
		name:  "typescript broken",
		path:  "broken.ts",
		src:   "export function good(): number {\n  return 1;\n}\n\nexport function broken(a: number {\n  return a +;\n}\n\nexport class After {\n  run(): void {}\n}\n",
		defs:  []string{"func good 1-3", "class After 9-11", "method After.run 10-10"},
		diags: true,
	},
	{
		name:  "java broken",
		path:  "Broken.java",
		src:   "public class Broken {\n    public void ok() {}\n    public void bad( { int x = ; }\n    public int after() { return 1; }\n}\n",
		defs:  []string{"class Broken 1-5", "method Broken.ok 2-2", "method Broken.after 4-4"},
		diags: true,
	},
}

func TestParse(t *testing.T) {
	p := NewParser()
	defer p.Close()
	ctx := context.Background()
	for _, tc := range parseCases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := p.Parse(ctx, tc.path, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			checkFacts(t, f, tc)
		})
	}
}

func checkFacts(t *testing.T, f *Facts, tc parseCase) {
	t.Helper()
	if f.Language != Detect(tc.path) {
		t.Errorf("Language = %q, want %q", f.Language, Detect(tc.path))
	}
	if tc.doc != "" && f.Doc != tc.doc {
		t.Errorf("Doc = %q, want %q", f.Doc, tc.doc)
	}
	byQual := map[string]int{}
	var got []string
	for i, d := range f.Defs {
		line := fmt.Sprintf("%s %s %d-%d | %s", d.Kind, d.Qualified, d.StartLine, d.EndLine, d.Signature)
		got = append(got, line)
		if _, dup := byQual[d.Qualified]; !dup {
			byQual[d.Qualified] = i
		}
		if d.Parent >= i || d.Parent < -1 {
			t.Errorf("def %d %s: Parent %d out of order", i, d.Qualified, d.Parent)
		}
	}
	for _, want := range tc.defs {
		found := false
		for _, g := range got {
			if g == want || !strings.Contains(want, " | ") && strings.HasPrefix(g, want+" | ") {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("missing def %q; got:\n  %s", want, strings.Join(got, "\n  "))
		}
	}
	for _, want := range tc.literals {
		if !slices.ContainsFunc(f.Literals, func(l Literal) bool { return l.Text == want }) {
			t.Errorf("missing literal %q; got %v", want, f.Literals)
		}
	}
	for q, want := range tc.docs {
		i, ok := byQual[q]
		if !ok {
			t.Errorf("no def %q for doc", q)
			continue
		}
		if f.Defs[i].Doc != want {
			t.Errorf("doc of %s = %q, want %q", q, f.Defs[i].Doc, want)
		}
	}
	var refs []string
	names := map[string]bool{}
	for _, r := range f.Refs {
		q, enc := r.Qualifier, "-"
		if q == "" {
			q = "-"
		}
		if r.Enclosing >= 0 {
			enc = f.Defs[r.Enclosing].Qualified
		}
		refs = append(refs, fmt.Sprintf("%s %s %s @%s", r.Name, q, refKindNames[r.Kind], enc))
		names[r.Name] = true
		if r.Line < 1 {
			t.Errorf("ref %s has line %d", r.Name, r.Line)
		}
	}
	for _, want := range tc.refs {
		found := false
		for _, g := range refs {
			if g == want {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("missing ref %q; got:\n  %s", want, strings.Join(refs, "\n  "))
		}
	}
	for _, n := range tc.noRefs {
		if names[n] {
			t.Errorf("unexpected ref %q", n)
		}
	}
	var imps []string
	for _, im := range f.Imports {
		s := im.Path
		if im.Alias != "" {
			s += " as " + im.Alias
		}
		imps = append(imps, s)
	}
	for _, want := range tc.imports {
		found := false
		for _, g := range imps {
			if g == want {
				found = true
			}
		}
		if !found {
			t.Errorf("missing import %q; got %q", want, imps)
		}
	}
	if tc.diags && len(f.Diagnostics) == 0 {
		t.Errorf("no diagnostics for broken source")
	}
	if !tc.diags && len(f.Diagnostics) > 0 {
		t.Errorf("unexpected diagnostics: %+v", f.Diagnostics)
	}
	for _, d := range f.Diagnostics {
		if d.Line < 1 || d.Column < 1 || d.Message == "" {
			t.Errorf("bad diagnostic %+v", d)
		}
	}
}

func TestDetect(t *testing.T) {
	for path, want := range map[string]string{
		"a/b.go": "go", "x.py": "python", "x.pyi": "python", "x.js": "javascript", "x.mjs": "javascript",
		"x.cjs": "javascript", "x.jsx": "javascript", "x.ts": "typescript", "x.d.ts": "typescript",
		"x.mts": "typescript", "x.cts": "typescript", "x.tsx": "tsx", "x.rs": "rust", "X.java": "java",
		"x.c": "c", "x.h": "c", "x.cc": "cpp", "x.cpp": "cpp", "x.cxx": "cpp", "x.hpp": "cpp", "x.hh": "cpp",
		"x.hxx": "cpp", "x.h++": "cpp", "x.cs": "csharp", "x.rb": "ruby", "Rakefile": "ruby",
		"sub/Gemfile": "ruby", "x.php": "php", "README.md": "markdown", "x.markdown": "markdown",
		"X.GO": "go", "Makefile": "make", "x.txt": "text", "noext": "text", "": "", "dir.go/x": "text",
		"x.hs": "haskell", "x.zig": "zig", "doc.rst": "rst", "x.adoc": "asciidoc", "x.png": "", "LICENSE": "",
	} {
		if got := Detect(path); got != want {
			t.Errorf("Detect(%q) = %q, want %q", path, got, want)
		}
	}
	langs := Languages()
	if len(langs) != len(specs) || len(langs) < 13 {
		t.Errorf("Languages() = %v", langs)
	}
}

func TestQueriesCompile(t *testing.T) {
	for _, l := range Languages() {
		if err := specs[l].load(); err != nil {
			t.Errorf("%s: %v", l, err)
		}
	}
}

func TestUnsupportedAndCancelled(t *testing.T) {
	p := NewParser()
	defer p.Close()
	if _, err := p.Parse(context.Background(), "x.png", []byte("hi")); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Parse(x.png) error = %v, want ErrUnsupported", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Parse(ctx, "x.go", []byte("package x")); !errors.Is(err, context.Canceled) {
		t.Errorf("Parse(cancelled) error = %v, want context.Canceled", err)
	}
	if err := p.ParseOnly(context.Background(), "x.go", []byte("package x")); err != nil {
		t.Errorf("ParseOnly: %v", err)
	}
}

func TestEmptyAndInvalidUTF8(t *testing.T) {
	p := NewParser()
	defer p.Close()
	for _, l := range Languages() {
		path := "x" + extByLang[l][0]
		for _, src := range [][]byte{nil, {}, []byte("\xff\xfe\x00 \xc3"), []byte("class \xff\xfe { def \xc3(x): pass }\n# \xff\n")} {
			f, err := p.Parse(context.Background(), path, src)
			if err != nil {
				t.Fatalf("%s: %v", l, err)
			}
			checkValid(t, f)
		}
	}
}

// checkValid fails when any string in f is not valid UTF-8 or any index is
// out of range.
func checkValid(t testing.TB, f *Facts) {
	t.Helper()
	bad := func(s string) bool { return !utf8.ValidString(s) }
	if bad(f.Doc) || bad(f.Language) {
		t.Errorf("invalid UTF-8 in file doc %q", f.Doc)
	}
	for i, d := range f.Defs {
		if bad(d.Name) || bad(d.Qualified) || bad(d.Signature) || bad(d.Doc) {
			t.Errorf("invalid UTF-8 in def %+v", d)
		}
		if d.Parent < -1 || d.Parent >= i || d.StartLine < 1 || d.EndLine < d.StartLine {
			t.Errorf("bad def %d: %+v", i, d)
		}
		if len(d.Signature) > MaxSignatureBytes || len(d.Doc) > MaxDocBytes {
			t.Errorf("def %d too long", i)
		}
	}
	for _, r := range f.Refs {
		if bad(r.Name) || bad(r.Qualifier) {
			t.Errorf("invalid UTF-8 in ref %+v", r)
		}
		if r.Enclosing < -1 || int(r.Enclosing) >= len(f.Defs) || r.Line < 1 {
			t.Errorf("bad ref %+v", r)
		}
	}
	for _, im := range f.Imports {
		if bad(im.Path) || bad(im.Alias) {
			t.Errorf("invalid UTF-8 in import %+v", im)
		}
	}
	if len(f.Diagnostics) > MaxDiagnostics {
		t.Errorf("%d diagnostics, cap is %d", len(f.Diagnostics), MaxDiagnostics)
	}
	for _, d := range f.Diagnostics {
		if bad(d.Message) {
			t.Errorf("invalid UTF-8 in diagnostic %+v", d)
		}
	}
}

func TestLiterals(t *testing.T) {
	cases := []struct {
		path, src string
		want      []string // "text@enclosing-name" ("" for the file level)
	}{
		{"x.go", "package x\n\nimport \"net/http\"\n\nvar mode = \"strict\"\n\n// F does.\nfunc F() string {\n\tif k == \"dns_challenge_override_domain\" {\n\t\treturn `raw  text`\n\t}\n\treturn \"dns_challenge_override_domain\" + \"12\"\n}\n",
			[]string{"strict@mode", "dns_challenge_override_domain@F", "raw text@F"}},
		{"x.py", "\"\"\"Module doc.\"\"\"\nimport os\n\ndef f():\n    \"\"\"Doc.\"\"\"\n    raise ValueError(f\"unknown key {k!r}\")\n\nX = 'Makefile.*'\n",
			[]string{"unknown key {k!r}@f", "Makefile.*@X"}},
		{"x.rs", "fn kinds() -> &'static [&'static str] {\n    &[\"kconfig\", r#\"Kconfig.*\"#]\n}\n",
			[]string{"kconfig@kinds", "Kconfig.*@kinds"}},
		{"x.js", "import a from \"./a\";\nfunction g() { return `hello ${a}` + 'x1'; }\n",
			[]string{"hello ${a}@g", "x1@g"}},
	}
	p := NewParser()
	defer p.Close()
	for _, tc := range cases {
		f, err := p.Parse(context.Background(), tc.path, []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := literalsAt(f, false); !slices.Equal(got, tc.want) {
			t.Errorf("%s: literals %q, want %q", tc.path, got, tc.want)
		}
	}
}

// literalsAt lists f's literals as TEXT@ENCLOSING, the enclosing
// definition by its qualified name when qualified, else by its name.
func literalsAt(f *Facts, qualified bool) []string {
	var got []string
	for _, l := range f.Literals {
		enc := ""
		if l.Enclosing >= 0 {
			enc = f.Defs[l.Enclosing].Name
			if qualified {
				enc = f.Defs[l.Enclosing].Qualified
			}
		}
		got = append(got, l.Text+"@"+enc)
	}
	return got
}

// TestRefTypes checks the qualifier types the syntax gives references
// (Ref.Type): Go receivers, parameters, var and composite literals, and
// the enclosing class of self and this; and that selector uses are marked
// whatever their qualifier.
func TestRefTypes(t *testing.T) {
	cases := []struct {
		path, src string
		want      []string // "qualifier.name:type" of every reference with a Type
		selected  []string // names used through a selector
	}{
		{"x.go", `package x

import "net/url"

func (r *Reader) Read(w io.Writer, u *url.URL, xs []Item) {
	var b Buffer
	c := Conn{}
	d := &List[int]{}
	r.fill()
	w.Write(nil)
	u.String()
	b.Reset()
	c.Close()
	d.Len()
	xs[0].Name()
	url.Parse("")
	r.src.Read(nil)
	r.log.Print()
}

type Reader struct {
	src io.Reader
	log *Logger
}
`, []string{"r.fill:Reader", "w.Write:io.Writer", "u.String:url.URL", "b.Reset:Buffer", "c.Close:Conn", "d.Len:List",
			"r.src:Reader", ".Read:io.Reader", "r.log:Reader", ".Print:Logger"},
			[]string{"fill", "Write", "String", "Reset", "Close", "Len", "Name", "Parse", "Read", "Print"}},
		{"x.py", "class A:\n    class B:\n        def m(self):\n            self.n()\n    def k(self):\n        self.m()\n        other.m()\n",
			[]string{"self.n:A.B", "self.m:A"}, []string{"n", "m"}},
		{"X.java", "class Shop { void sell(Cart c) { this.log(); Till t = new Till(); List<Item> xs = c.items(); t.open(); xs.size(); c.pay(); } void log() {} }\n",
			[]string{"this.log:Shop", "t.open:Till", "xs.size:List", "c.pay:Cart", "c.items:Cart"}, []string{"log", "open", "pay"}},
		{"y.py", "def f(a: Cart, b: Till = None):\n    c = Shop()\n    d: Bag = make()\n    a.pay()\n    b.open()\n    c.sell()\n    d.fill()\n",
			[]string{"a.pay:Cart", "b.open:Till", "c.sell:Shop", "d.fill:Bag"}, []string{"pay", "open", "sell", "fill"}},
		{"x.ts", "function f(a: Cart, b?: Till) {\n  const c = new Shop();\n  let d: Bag = make();\n  a.pay(); b.open(); c.sell(); d.fill();\n}\n",
			[]string{"a.pay:Cart", "b.open:Till", "c.sell:Shop", "d.fill:Bag"}, []string{"pay", "open", "sell", "fill"}},
		{"x.js", "function f() {\n  const c = new Shop();\n  c.sell();\n}\n",
			[]string{"c.sell:Shop"}, []string{"sell"}},
		{"x.rs", "impl Stock {\n    fn add(&mut self, b: &mut Book, n: Count) {\n        let t: Till = open();\n        self.grow(); b.price(); n.get(); t.ring();\n    }\n}\n",
			[]string{"self.grow:Stock", "b.price:Book", "n.get:Count", "t.ring:Till"}, []string{"grow", "price", "get", "ring"}},
	}
	p := NewParser()
	defer p.Close()
	for _, tc := range cases {
		f, err := p.Parse(context.Background(), tc.path, []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		var got, sel []string
		for _, r := range f.Refs {
			if r.Type != "" {
				got = append(got, r.Qualifier+"."+r.Name+":"+r.Type)
			}
			if r.Selected {
				sel = append(sel, r.Name)
			}
		}
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: no typed reference %s; got %v", tc.path, w, got)
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: typed references %v, want %v", tc.path, got, tc.want)
		}
		for _, w := range tc.selected {
			if !slices.Contains(sel, w) {
				t.Errorf("%s: %s not marked as used through a selector; selected: %v", tc.path, w, sel)
			}
		}
	}
}
