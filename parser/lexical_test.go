package parser

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// lexCase is a file of a language without a grammar: the definitions its
// declaration patterns must find ("kind qualified"), and names that must
// not become definitions (a def in a string or comment, a local).
type lexCase struct {
	path, src string
	want      []string
	not       []string
}

var lexCases = []lexCase{
	{path: "a.hs", src: "module A where\n-- | Doc of T.\ndata T = T Int\nclass C a where\n  m :: a -> Int\ninstance C T where\n  m _ = 1\nf :: Int -> Int\nf 0 = 1\nf n = n\n-- g :: Int\nx = \"h :: Int\"\n",
		want: []string{"module A", "type T", "class C", "func C.m", "type C T", "func f", "func x"}, not: []string{"g", "h"}},
	{path: "a.zig", src: "const std = @import(\"std\");\npub const S = struct {\n    pub fn get(s: S) u8 {\n        const local = 1;\n        return local;\n    }\n};\n// fn commented() void {}\nconst msg = \"fn quoted() void\";\n",
		want: []string{"struct S", "func S.get", "const msg"}, not: []string{"std", "local", "commented", "quoted"}},
	{path: "a.dart", src: "abstract class Shape {\n  double area();\n}\nenum Color { red }\n// class Hidden {}\n",
		want: []string{"class Shape", "enum Color"}, not: []string{"Hidden"}},
	{path: "a.jl", src: "module M\nstruct P\n  x::Int\nend\nfunction area(p)\n  p.x\nend\nsq(x) = x^2\n# function hidden(x)\nend\n\"\"\"\nfunction quoted(x)\n\"\"\"\nfunction documented(x) end\n",
		want: []string{"module M", "struct P", "func area", "func sq", "func documented"}, not: []string{"hidden", "quoted"}},
	{path: "a.pl", src: "package Foo::Bar;\nsub new {\n  my $s = 'sub fake {';\n}\n# sub commented {\n",
		want: []string{"module Foo::Bar", "func new"}, not: []string{"fake", "commented"}},
	{path: "a.R", src: "area <- function(r) {\n  pi * r^2\n}\n# hidden <- function() {}\n",
		want: []string{"func area"}, not: []string{"hidden"}},
	{path: "a.clj", src: "(ns my.app)\n(defn handler [req] req)\n(def port 8080)\n;; (defn commented [] nil)\n",
		want: []string{"module my.app", "func handler", "var port"}, not: []string{"commented"}},
	{path: "a.erl", src: "-module(shop).\n-record(item, {name}).\ntotal([]) -> 0;\ntotal([H|T]) -> H + total(T).\n% helper() -> ok.\n",
		want: []string{"module shop", "struct item", "func total"}, not: []string{"helper"}},
	{path: "a.fs", src: "module Shop\ntype Item = { Name: string }\nlet total items =\n    let inner = 1\n    inner\n// let hidden = 2\n",
		want: []string{"module Shop", "type Item", "func total"}, not: []string{"inner", "hidden"}},
	{path: "a.nim", src: "type\n  Point* = object\n    x: int\nproc dist*(p: Point): float =\n  discard\n# proc hidden() =\n",
		want: []string{"type Point", "func dist"}, not: []string{"hidden"}},
	{path: "a.mli", src: "module Cart : sig\n  val add : int -> int\nend\ntype item = { name : string }\nval total : item list -> int\n(* val hidden : int *)\n",
		want: []string{"module Cart", "type item", "func total"}, not: []string{"hidden"}},
	{path: "a.zsh", src: "#!/bin/zsh\n# Deploys things.\ndeploy() {\n  echo \"undeploy() {\"\n}\nfunction cleanup {\n  :\n}\n",
		want: []string{"func deploy", "func cleanup"}, not: []string{"undeploy"}},
	{path: "Makefile", src: "CC ?= cc\n# Build it.\nall: main.o\n\tcc -o all main.o\n.PHONY: all\n",
		want: []string{"var CC", "job all"}, not: []string{".PHONY"}},
	{path: "a.tcl", src: "namespace eval ::shop {}\nproc total {items} {\n}\n# proc hidden {} {}\n",
		want: []string{"module ::shop", "func total"}, not: []string{"hidden"}},
	{path: "a.f90", src: "module shapes\ncontains\n  function area(r)\n  end function\n  ! subroutine hidden()\nend module\n",
		want: []string{"module shapes", "func shapes.area"}, not: []string{"hidden"}},
	// Dart: a named constructor is named after the dot; arrow bodies,
	// getters, a top-level const and a constructor ending in ";".
	{path: "b.dart", src: "const int limit = 3;\nclass Cart {\n  Cart();\n  Cart.empty() {\n    print(limit);\n  }\n  int get size => 0;\n  String toString() => 'Cart';\n  // void hidden() => 1;\n}\n",
		want: []string{"const limit", "func Cart.Cart", "func Cart.empty", "func Cart.size", "func Cart.toString"}, not: []string{"print", "hidden", "Cart.empty"}},
	// Perl: POD from "=head1" to "=cut" is documentation, not code.
	{path: "b.pm", src: "package Real;\n\n=head1 NAME\n\npackage Fake is documentation.\n\nsub fake is too.\n\n=cut\n\nsub real {\n  my $x = $y =head1;\n}\n",
		want: []string{"module Real", "func real"}, not: []string{"Fake", "fake"}},
	// R: an R6 class assigned to a name, its methods nested in it.
	{path: "b.R", src: "Account <- R6::R6Class(\"Account\",\n  public = list(\n    deposit = function(x) {\n      x\n    }\n  )\n)\nmsg <- \"setClass(\\\"Fake\\\")\"\n",
		want: []string{"class Account", "func Account.deposit"}, not: []string{"Fake"}},
	// Clojure: a docstring spans lines; a "(defn" inside it is text.
	{path: "b.clj", src: "(defn total\n  \"Sums the lines.\n  (defn inner [] 1) is an example.\"\n  [lines]\n  (reduce + lines))\n(def quote-char \\\")\n(defn after [] 1)\n",
		want: []string{"func total", "var quote-char", "func after"}, not: []string{"inner"}},
	// OCaml interfaces: an abstract type has no "=".
	{path: "b.mli", src: "type t\ntype ('k, 'v) map\n(* type hidden *)\nmodule type S = sig\n  type elt\nend\n",
		want: []string{"type t", "type map", "module S", "type S.elt"}, not: []string{"hidden"}},
	// Fortran: a program unit; its "end program" is not a definition.
	{path: "b.f90", src: "program rod\n  call run()\nend program rod\n",
		want: []string{"module rod"}, not: []string{"run"}},
	// Nim: a top-level const.
	{path: "b.nim", src: "const limit* = 10\nproc f() =\n  const local = 1\n",
		want: []string{"const limit", "func f"}, not: []string{"local"}},
}

func lexParse(t *testing.T, path, src string) *Facts {
	t.Helper()
	p := NewParser()
	defer p.Close()
	f, err := p.Parse(context.Background(), path, []byte(src))
	if err != nil {
		t.Fatalf("Parse(%s): %v", path, err)
	}
	return f
}

func TestLexicalDeclarations(t *testing.T) {
	for _, tc := range lexCases {
		t.Run(tc.path, func(t *testing.T) {
			f := lexParse(t, tc.path, tc.src)
			if !Heuristic(f.Language) {
				t.Fatalf("language %q is not heuristic", f.Language)
			}
			var got []string
			names := map[string]bool{}
			for _, d := range f.Defs {
				got = append(got, d.Kind.String()+" "+d.Qualified)
				names[d.Name] = true
				if d.StartLine < 1 || d.EndLine < d.StartLine {
					t.Errorf("%s: lines %d-%d", d.Qualified, d.StartLine, d.EndLine)
				}
			}
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("missing %q; got %q", w, got)
				}
			}
			for _, n := range tc.not {
				if names[n] {
					t.Errorf("%q must not be a definition; got %q", n, got)
				}
			}
		})
	}
}

// TestLexicalDocs checks each convention's doc comments: the doc of a
// definition ("" for none) and the file's doc.
func TestLexicalDocs(t *testing.T) {
	cases := []struct {
		path, src string
		docs      map[string]string
		fileDoc   string
	}{
		{path: "a.R", src: "# Accounts.\n\n#' Interest on a balance\n#'\n#' @param b the balance\ninterest <- function(b) b\n",
			docs: map[string]string{"interest": "Interest on a balance\n\n@param b the balance"}, fileDoc: "Accounts."},
		{path: "a.erl", src: "%%% @doc A store.\n-module(kv).\n\n%% @doc Put a value.\n-spec put(K, V) ->\n    ok.\nput(K, V) -> ok.\n",
			docs: map[string]string{"put": "Put a value."}, fileDoc: "A store."},
		{path: "a.nim", src: "type\n  A* = object\n    ## Doc of A.\n  B* = object\n    x: int\nproc f*() =\n  ## Doc of f.\n  discard\n",
			docs: map[string]string{"A": "Doc of A.", "B": "", "f": "Doc of f."}},
		{path: "a.clj", src: ";; Tax rules.\n(ns shop.tax)\n\n(defn with-vat\n  \"Raises a net amount\n  by the rate.\"\n  [x] x)\n",
			docs: map[string]string{"with-vat": "Raises a net amount\nby the rate."}, fileDoc: "Tax rules."},
		{path: "a.jl", src: "\"Inches in a foot.\"\nconst FOOT = 12\n",
			docs: map[string]string{"FOOT": "Inches in a foot."}},
		{path: "a.zsh", src: "#!/usr/bin/env zsh\n# Deploy helpers.\n\nf() {\n}\n",
			docs: map[string]string{"f": ""}, fileDoc: "Deploy helpers."},
		{path: "a.f90", src: "module m\ncontains\n  !> Advance one step.\n  subroutine step()\n  end subroutine\nend module\n",
			docs: map[string]string{"step": "Advance one step."}},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			f := lexParse(t, tc.path, tc.src)
			for name, want := range tc.docs {
				found := false
				for _, d := range f.Defs {
					if d.Name == name {
						found = true
						if d.Doc != want {
							t.Errorf("doc of %s = %q, want %q", name, d.Doc, want)
						}
					}
				}
				if !found {
					t.Errorf("no definition %s in %+v", name, f.Defs)
				}
			}
			if f.Doc != tc.fileDoc {
				t.Errorf("file doc = %q, want %q", f.Doc, tc.fileDoc)
			}
		})
	}
}

// TestLexicalClosers: a definition ends at the "}" or "end" at its own
// indentation, so the code after it belongs to the file.
func TestLexicalClosers(t *testing.T) {
	for _, tc := range []struct{ path, src, def string }{
		{"a.pl", "sub total {\n  return 1;\n}\n\nmy $x = later();\n", "total"},
		{"a.jl", "function area(r)\n  r\nend\n\nprintln(later())\n", "area"},
		{"a.zsh", "deploy() {\n  echo hi\n}\nlater\n", "deploy"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			f := lexParse(t, tc.path, tc.src)
			if len(f.Defs) != 1 || f.Defs[0].Name != tc.def || f.Defs[0].EndLine != 3 {
				t.Fatalf("defs = %+v, want %s on lines 1-3", f.Defs, tc.def)
			}
			for _, r := range f.Refs {
				if r.Name == "later" && r.Enclosing != -1 {
					t.Errorf("ref later enclosed by %d, want the file", r.Enclosing)
				}
			}
		})
	}
}

// TestLexicalFacts checks docs, refs with their enclosing definition, and
// literals from strings and comments.
func TestLexicalFacts(t *testing.T) {
	src := "-- | Queue utilities.\nmodule Q where\n\n-- | Push onto the queue.\npush :: Int -> [Int] -> [Int]\npush x xs = xs ++ [x] -- append at the end\n  where note = \"pushed value\"\n"
	f := lexParse(t, "Q.hs", src)
	if f.Doc != "Queue utilities." {
		t.Errorf("file doc = %q", f.Doc)
	}
	var push *Def
	for i := range f.Defs {
		if f.Defs[i].Name == "push" {
			push = &f.Defs[i]
		}
	}
	if push == nil || push.Doc != "Push onto the queue." || push.Signature != "push :: Int -> [Int] -> [Int]" || push.EndLine != 7 {
		t.Fatalf("push = %+v", push)
	}
	enc := -1
	for _, r := range f.Refs {
		if r.Name == "xs" {
			enc = int(r.Enclosing)
		}
		if r.Name == "append" || r.Name == "pushed" || r.Name == "where" {
			t.Errorf("ref %q from a comment, string or keyword", r.Name)
		}
	}
	if enc < 0 || f.Defs[enc].Name != "push" {
		t.Errorf("ref xs enclosed by %d, want push", enc)
	}
	var lits []string
	for _, l := range f.Literals {
		lits = append(lits, l.Text)
	}
	if !slices.Contains(lits, "pushed value") || !slices.Contains(lits, "append at the end") {
		t.Errorf("literals = %q", lits)
	}
}

func TestLexicalText(t *testing.T) {
	f := lexParse(t, "notes/TODO", "Release checklist\n\nTag the commit and push_tag.\n")
	if f.Language != "text" || f.Doc != "Release checklist" || len(f.Defs) != 0 {
		t.Fatalf("facts = %+v", f)
	}
	found := false
	for _, r := range f.Refs {
		found = found || r.Name == "push_tag"
	}
	if !found || len(f.Literals) != 2 {
		t.Errorf("refs %v, literals %v", f.Refs, f.Literals)
	}
	if Method("text") != "lexical" || Method("haskell") != "patterns" || Method("rst") != "headings" || Method("go") != "grammar" {
		t.Errorf("Method: text %q haskell %q rst %q go %q", Method("text"), Method("haskell"), Method("rst"), Method("go"))
	}
	for _, lock := range []string{"pnpm-lock.yaml", "x/package-lock.json", "npm-shrinkwrap.json", "Cargo.lock"} {
		if r := NotIndexedReason(lock); r != "lock file" {
			t.Errorf("NotIndexedReason(%q) = %q, want lock file", lock, r)
		}
	}
	if NotIndexedReason("a/b.png") != "binary (by extension)" || NotIndexedReason("LICENSE") != "license text" || NotIndexedReason("x.hs") != "" {
		t.Errorf("NotIndexedReason: %q %q", NotIndexedReason("a/b.png"), NotIndexedReason("LICENSE"))
	}
}

// headingCase: a markup file and its sections ("level title" by nesting
// depth: "title", "  child").
type headingCase struct {
	name, path, src string
	want            []string
	doc             string
}

var headingCases = []headingCase{
	{name: "rst over and underline", path: "a.rst", src: "=======\n Title\n=======\n\nIntro text.\n\nPart\n====\n\nBody.\n\nSub\n---\n\nMore.\n",
		want: []string{"Title", "  Part", "    Sub"}, doc: "Intro text."},
	{name: "rst transition is not an underline", path: "b.rst", src: "Top\n===\n\nA paragraph.\n\n----------\n\nAfter the transition.\n",
		want: []string{"Top"}},
	{name: "rst table border is not an underline", path: "c.rst", src: "Top\n===\n\n=====  =====\nKey    Value\n=====  =====\nport   80\n=====  =====\n",
		want: []string{"Top"}},
	{name: "rst paragraph continuation is not a title", path: "d.rst", src: "Top\n===\n\nfirst line\nsecond line\n-----------\n",
		want: []string{"Top"}},
	{name: "rst levels by order of appearance", path: "e.rst", src: "A\n---\n\nB\n~~~\n\nC\n---\n",
		want: []string{"A", "  B", "C"}},
	{name: "asciidoc atx", path: "a.adoc", src: "= Book\n\nPreamble.\n\n== One\n\ntext\n\n=== Deep\n\n== Two\n",
		want: []string{"Book", "  One", "    Deep", "  Two"}, doc: "Preamble."},
	{name: "asciidoc listing delimiter is not an underline", path: "b.adoc", src: "== Code\n\n[source]\n----\ncode\n----\n\n// == commented\n",
		want: []string{"Code"}},
	{name: "asciidoc setext", path: "c.adoc", src: "Guide\n=====\n\nSetup\n-----\n\nSteps.\n",
		want: []string{"Guide", "  Setup"}},
}

func TestMarkupHeadings(t *testing.T) {
	for _, tc := range headingCases {
		t.Run(tc.name, func(t *testing.T) {
			f := lexParse(t, tc.path, tc.src)
			var got []string
			depth := make([]int, len(f.Defs))
			for i, d := range f.Defs {
				if d.Kind != KindSection {
					t.Errorf("%q: kind %s", d.Name, d.Kind)
				}
				if d.Parent >= 0 {
					depth[i] = depth[d.Parent] + 1
				}
				got = append(got, strings.Repeat("  ", depth[i])+d.Name)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("sections\n got %q\nwant %q", got, tc.want)
			}
			if tc.doc != "" && f.Doc != tc.doc {
				t.Errorf("doc = %q, want %q", f.Doc, tc.doc)
			}
		})
	}
}

// FuzzLexical: no input crashes the lexical extractor or the heading rules.
func FuzzLexical(f *testing.F) {
	for _, tc := range lexCases {
		f.Add(tc.path, tc.src)
	}
	for _, tc := range headingCases {
		f.Add(tc.path, tc.src)
	}
	f.Fuzz(func(t *testing.T, path, src string) {
		p := NewParser()
		defer p.Close()
		facts, err := p.Parse(context.Background(), path, []byte(src))
		if err != nil || facts == nil {
			return
		}
		if len(facts.Diagnostics) > 0 && strings.Contains(facts.Diagnostics[0].Message, "internal error") {
			t.Fatalf("%s: %s", path, facts.Diagnostics[0].Message)
		}
		for _, d := range facts.Defs {
			if d.Parent >= len(facts.Defs) || d.EndLine < d.StartLine {
				t.Fatalf("bad def %+v", d)
			}
		}
	})
}

// TestHeuristicPatternsCompile compiles every declaration pattern (they
// are compiled on first use, not at start-up, so a broken one would
// otherwise panic only when a file of its language is indexed) and checks
// that each pattern that makes a definition has its group "name".
func TestHeuristicPatternsCompile(t *testing.T) {
	n := 0
	for _, h := range heurByName {
		for _, dc := range h.compiled() {
			n++
			if dc.re == nil || dc.re.String() != dc.pat {
				t.Errorf("%s: pattern %q not compiled", h.name, dc.pat)
			}
			if dc.kind != KindUnknown && (dc.name < 0 || dc.re.SubexpNames()[dc.name] != "name") {
				t.Errorf("%s: pattern %q has no group \"name\"", h.name, dc.pat)
			}
		}
	}
	if n < 60 {
		t.Errorf("only %d declaration patterns compiled; the table has more", n)
	}
}
