package parser

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Files that are not code: YAML, JSON, TOML, Dockerfile, CSS, HTML and
// templates, Svelte.
func init() { parseCases = append(parseCases, fileCases...) }

var fileCases = []parseCase{
	{
		name: "yaml workflow",
		path: ".github/workflows/ci.yml",
		src: `# CI for every push.
name: CI
on:
  push:
    branches: [main]
jobs:
  # Runs the unit tests on Linux.
  test:
    runs-on: ubuntu-latest
    steps:
      - name: Check out
        uses: actions/checkout@v4
      - run: go test ./...
  lint: {runs-on: ubuntu-latest}
`,
		doc: "CI for every push.",
		defs: []string{
			"key name 2-2 | name: CI",
			"key on 3-5 | on:",
			"key on.push 4-5 | push:",
			"key jobs 6-14 | jobs:",
			"job jobs.test 8-13 | test:",
			"job jobs.lint 14-14 | lint: {runs-on: ubuntu-latest}",
		},
		docs: map[string]string{"jobs.test": "Runs the unit tests on Linux.", "name": "CI for every push."},
	},
	{
		name: "yaml not a workflow",
		path: "deploy/values.yaml",
		src:  "jobs:\n  test:\n    image: x\n",
		defs: []string{"key jobs 1-3", "key jobs.test 2-3 | test:"},
	},
	{
		name:  "yaml broken",
		path:  "broken.yml",
		src:   "server:\n  port: 80\nother: [1, 2\nlast: x\n",
		defs:  []string{"key server 1-2", "key server.port 2-2"},
		diags: true,
	},
	{
		// libyaml reads these; tree-sitter-yaml stopped at the first line of
		// a scalar at its key's column (indentQuoted).
		name: "yaml quoted scalars continued at their key's column",
		path: "api/swagger.yaml",
		src: `definitions:
  Port:
    description: "An open port
    on a container, \"exposed\"."
    type: object
  Mount:
    title: 'it''s
    mounted'
paths:
  /containers/create:
    post:
      summary: "Create
      a container"
      tags: ["Container",
      "Create"]
  /containers/json:
    get:
      - "list
        them"
      - "or
      not"
`,
		defs: []string{
			"key definitions 1-8",
			"key definitions.Port 2-5",
			"key definitions.Mount 6-8",
			"key paths 9-21",
			"key paths./containers/create 10-14",
			"key paths./containers/json 16-21",
		},
	},
	{
		name: "yaml flow collection closed at its key's column",
		path: "api/example.yaml",
		src: `Config:
  example: {
    "80/tcp": {},
    "443/tcp": {}
  }
  script: |
    echo "a quote left open
    # not a comment
  after: "x"
Next:
  key: 1
`,
		defs: []string{"key Config 1-9", "key Config.example 2-2", "key Config.script 6-8", "key Config.after 9-9", "key Next 10-11", "key Next.key 11-11"},
	},
	{
		// The bracket moves to the trailing comma: the values stay.
		name: "yaml flow sequence closed at its key's column after a comma",
		path: ".github/workflows/test.yml",
		src: `jobs:
  build:
    strategy:
      matrix:
        name: [
          "windows-py310",
          "ubuntu-py312",  # the last
        ]
  check:
    runs-on: ubuntu-latest
`,
		defs:     []string{"key jobs 1-10", "job jobs.build 2-7", "job jobs.check 9-10"},
		literals: []string{"windows-py310", "ubuntu-py312", "ubuntu-latest"},
	},
	{
		name: "json",
		path: "config/app.json",
		src:  "{\n  \"name\": \"app\",\n  \"server\": {\n    \"port\": 8080,\n    \"deep\": {\"x\": {\"y\": 1}}\n  }\n}\n",
		defs: []string{"key name 2-2 | \"name\": \"app\"", "key server 3-6", "key server.port 4-4", "key server.deep 5-5"},
	},
	{
		name: "toml",
		path: "pyproject.toml",
		src: `# Build backend.
[build-system]
requires = ["flit_core<4"]

# Project metadata.
[project]
name = "Flask"
urls.Docs = "https://flask.example"

[[tool.mypy.overrides]]
module = ["asgiref.*"]
`,
		doc: "Build backend.",
		defs: []string{
			"table build-system 2-5 | [build-system]",
			"key build-system.requires 3-3 | requires = [\"flit_core<4\"]",
			"table project 6-9 | [project]",
			"key project.name 7-7 | name = \"Flask\"",
			"key project.urls.Docs 8-8",
			"table tool.mypy.overrides 10-11 | [[tool.mypy.overrides]]",
			"key tool.mypy.overrides.module 11-11",
		},
		docs: map[string]string{"project": "Project metadata.", "build-system": "Build backend."},
	},
	{
		name: "dockerfile",
		path: "build/Dockerfile.windows",
		src: `# syntax=docker/dockerfile:1
ARG GO_VERSION=1.22
# Compiles the daemon.
FROM golang:${GO_VERSION} AS build
ENV CGO_ENABLED=0
RUN go build -o /out/dockerd ./cmd/dockerd

FROM --platform=linux/amd64 docker.io/library/alpine:3.19
COPY --from=build /out/dockerd /usr/bin/
CMD ["dockerd"]
FROM build AS test
`,
		defs: []string{
			"key GO_VERSION 2-2 | ARG GO_VERSION=1.22",
			"stage build 4-7 | FROM golang:${GO_VERSION} AS build",
			"key build.CGO_ENABLED 5-5 | CGO_ENABLED=0",
			"stage alpine 8-10 | FROM --platform=linux/amd64 docker.io/library/alpine:3.19",
		},
		docs: map[string]string{"build": "Compiles the daemon.", "GO_VERSION": ""},
		refs: []string{"build - type @test"},
	},
	{
		name: "css",
		path: "static/style.css",
		src: `/* Site styles. */

/* Primary call-to-action buttons. */
.btn, .btn-primary > a:hover {
  color: red;
}

@media (max-width: 600px) {
  /* Hidden on phones. */
  .nav { display: none; }
}
`,
		doc: "Site styles.",
		defs: []string{
			"selector .btn, .btn-primary > a:hover 4-6 | .btn, .btn-primary > a:hover",
			"selector @media (max-width: 600px) 8-11",
			"selector @media (max-width: 600px) .nav 10-10 | .nav",
		},
		docs: map[string]string{"@media (max-width: 600px) .nav": "Hidden on phones."},
	},
	{
		name: "html jinja",
		path: "templates/layout.html",
		src: `{# The page skeleton every view extends. #}
<!doctype html>
{% extends "base.html" %}
{% import "macros.html" as m %}
{# The page body. #}
{% block body %}
  <!-- Flashed messages. -->
  <section id="flashes">
    <h2>Messages</h2>
    <h1>{{ title }}</h1>
  </section>
  {% macro render_field(field) -%}
    <dd>{{ field() }}</dd>
  {%- endmacro %}
{% endblock body %}
`,
		doc: "The page skeleton every view extends.",
		defs: []string{
			"block body 6-15 | {% block body %}",
			"element flashes 8-11 | <section id=\"flashes\">",
			"section messages 9-9 | h2 Messages",
			"block render_field 12-14 | {% macro render_field(field) -%}",
		},
		docs:    map[string]string{"body": "The page body.", "flashes": "Flashed messages."},
		imports: []string{"base.html", "macros.html"},
	},
	{
		name: "go template",
		path: "web/page.gohtml",
		src: `{{/* The header shared by every page. */}}
{{define "header"}}
  {{if .User}}<b>{{.User}}</b>{{end}}
  {{block "nav" .}}<nav id="nav"></nav>{{end}}
{{end}}
{{define "page"}}{{template "header" .}}{{end}}
`,
		defs: []string{"block header 2-5 | {{define \"header\"}}", "block nav 4-4", "element nav 4-4", "block page 6-6"},
		docs: map[string]string{"header": "The header shared by every page."},
		refs: []string{"header - call @page"},
	},
	{
		name: "svelte",
		path: "src/lib/Counter.svelte",
		src: `<!-- @component A counter that counts clicks. -->
<script lang="ts">
  import Icon from './Icon.svelte';
  export let step: number = 1;
  let count = 0;
  // Adds one step to the count.
  function increment(): void {
    count += step;
    log("clicked");
  }
</script>

<button id="counter" on:click={increment}><Icon name="plus" /> {count}</button>
`,
		doc: "A counter that counts clicks.",
		defs: []string{
			"class Counter 1-13 | component Counter",
			"var step 4-4",
			"func increment 7-10 | function increment(): void",
			"element counter 13-13",
		},
		docs:    map[string]string{"increment": "Adds one step to the count.", "Counter": "A counter that counts clicks."},
		refs:    []string{"log - call @increment", "Icon - type @Counter"},
		imports: []string{"./Icon.svelte"},
	},
	{
		name:  "svelte broken",
		path:  "Broken.svelte",
		src:   "<script>\n  function ok() {}\n  function bad( {\n</script>\n<div id=\"x\"\n",
		defs:  []string{"class Broken 1-5", "func ok 2-2"},
		diags: true,
	},
}

func TestFileDetect(t *testing.T) {
	for path, want := range map[string]string{
		"a.yml": "yaml", "x/b.YAML": "yaml", "c.json": "json", "package-lock.json": "", "pnpm-lock.yaml": "",
		"pyproject.toml": "toml", "Dockerfile": "dockerfile", "x/Dockerfile.windows": "dockerfile",
		"ci.dockerfile": "dockerfile", "Containerfile": "dockerfile", "Dockerfile.md": "markdown",
		"a.css": "css", "a.html": "html", "t.jinja2": "html", "t.j2": "html", "t.gohtml": "html",
		"t.tmpl": "html", "t.tpl": "html", "App.svelte": "svelte", "Dockerfilex": "text",
	} {
		if got := Detect(path); got != want {
			t.Errorf("Detect(%q) = %q, want %q", path, got, want)
		}
	}
	if !isWorkflow(".github/workflows/ci.yml") || !isWorkflow("sub/.github/workflows/a.yaml") || isWorkflow("github/workflows/a.yml") {
		t.Error("isWorkflow")
	}
}

func TestFileLiterals(t *testing.T) {
	cases := []struct {
		path, src string
		want      []string // "text@enclosing-qualified" ("" for the file level)
	}{
		{".github/workflows/ci.yml", "jobs:\n  test:\n    steps:\n      - name: Run unit tests\n        run: go test ./...\n    env: {MODE: 'strict'}\n",
			[]string{"Run unit tests@jobs.test", "go test ./...@jobs.test", "strict@jobs.test"}},
		{"a.toml", "title = \"Flask\"\n[tool]\nlist = [\"a\", 'b']\n", []string{"Flask@title", "a@tool.list", "b@tool.list"}},
		{"Dockerfile", "FROM alpine AS base\nRUN apk add git\nCMD [\"sh\"]\n", []string{"apk add git@base", "sh@base"}},
		{"x.json", "{\"scripts\": {\"test\": \"jest --ci\"}, \"n\": 1, \"ok\": true}\n", []string{"jest --ci@scripts.test"}},
	}
	p := NewParser()
	defer p.Close()
	for _, tc := range cases {
		f, err := p.Parse(context.Background(), tc.path, []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := literalsAt(f, true); !slices.Equal(got, tc.want) {
			t.Errorf("%s: literals %q, want %q", tc.path, got, tc.want)
		}
	}
}

// TestFileLimits checks the caps that keep big data files from flooding the
// index: definitions per file (the shallowest first, children in turns),
// literals per definition, and JSON size.
func TestFileLimits(t *testing.T) {
	p := NewParser()
	defer p.Close()
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "k%d:\n  v: \"value %d\"\n", i, i)
	}
	f, err := p.Parse(context.Background(), "big.yaml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Defs) != maxDataDefs {
		t.Errorf("big.yaml: %d defs, want %d", len(f.Defs), maxDataDefs)
	}
	for _, l := range f.Literals {
		if l.Enclosing >= len(f.Defs) {
			t.Fatalf("literal %q encloses dropped def %d", l.Text, l.Enclosing)
		}
	}
	// The 200 first top-level keys kept (the shallowest first), each with
	// its value moved up from its dropped child; the values of the dropped
	// keys at file level: the first MaxLiterals of them.
	var file []string
	for _, l := range f.Literals {
		if l.Enclosing < 0 {
			file = append(file, l.Text)
		}
	}
	for i, d := range f.Defs {
		if d.Parent != -1 || d.Qualified != fmt.Sprintf("k%d", i) {
			t.Fatalf("big.yaml: def %d is %s (parent %d), want top-level k%d", i, d.Qualified, d.Parent, i)
		}
	}
	if len(f.Literals) != maxDataDefs+MaxLiterals || len(file) != MaxLiterals || file[0] != "value 200" || file[MaxLiterals-1] != fmt.Sprintf("value %d", 200+MaxLiterals-1) {
		t.Errorf("big.yaml: %d literals, %d at file level (%q...), want %d, %d from \"value 200\"", len(f.Literals), len(file), file[:min(len(file), 2)], maxDataDefs+MaxLiterals, MaxLiterals)
	}
	// An API spec: its definitions come first, its paths after; both
	// keep some keys (in turns), in source order, with their parents.
	b.Reset()
	b.WriteString("swagger: \"2.0\"\ndefinitions:\n")
	for i := range 300 {
		fmt.Fprintf(&b, "  Def%d:\n    type: object\n", i)
	}
	b.WriteString("paths:\n")
	for i := range 150 {
		fmt.Fprintf(&b, "  /p%d:\n    get: {}\n", i)
	}
	f, err = p.Parse(context.Background(), "api/swagger.yaml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for i, d := range f.Defs {
		if d.Parent >= i || d.Parent >= 0 && !strings.HasPrefix(d.Qualified, f.Defs[d.Parent].Qualified+".") {
			t.Fatalf("def %d %s: parent %d", i, d.Qualified, d.Parent)
		}
		if d.Parent >= 0 {
			n[f.Defs[d.Parent].Qualified]++
		}
	}
	if len(f.Defs) != maxDataDefs || n["definitions"] != 99 || n["paths"] != 98 || f.Defs[len(f.Defs)-1].Qualified != "paths./p97" {
		t.Errorf("api/swagger.yaml: %d defs, %v under the top-level keys, last %s", len(f.Defs), n, f.Defs[len(f.Defs)-1].Qualified)
	}
	big := "{\"a\": \"" + strings.Repeat("x", maxJSONBytes) + "\"}"
	f, err = p.Parse(context.Background(), "big.json", []byte(big))
	if err != nil || f.Language != "json" || len(f.Defs) != 0 {
		t.Errorf("big.json: %v, %d defs", err, len(f.Defs))
	}
}

func TestScanTemplate(t *testing.T) {
	src := "{% block a %}{% if x %}{% block b %}{% endblock %}{% endif %}{% endblock a %}" +
		"{{define \"t\"}}{{range .}}{{with .X}}{{end}}{{end}}{{end}}{{block \"open\" .}}"
	blocks, _, _ := scanTemplate([]byte(src))
	var got []string
	for _, b := range blocks {
		got = append(got, fmt.Sprintf("%s:%s", b.def.Name, src[b.start:b.end]))
	}
	want := []string{
		"a:{% block a %}{% if x %}{% block b %}{% endblock %}{% endif %}{% endblock a %}",
		"b:{% block b %}{% endblock %}",
		"t:{{define \"t\"}}{{range .}}{{with .X}}{{end}}{{end}}{{end}}",
		"open:{{block \"open\" .}}",
	}
	if !slices.Equal(got, want) {
		t.Errorf("blocks\n got %q\nwant %q", got, want)
	}
	// Unterminated tags and stray ends never panic.
	for _, s := range []string{"{%", "{{", "{% endblock %}{{end}}", "{% block %}", "{{define}}", "{{template \"", "{"} {
		scanTemplate([]byte(s))
	}
}

// TestIndentQuotedKeepsLayout: the YAML rewrite keeps every byte offset
// and line break (a langSpec.prepare), whatever the input, and leaves a
// file tree-sitter-yaml reads as it is.
func TestIndentQuotedKeepsLayout(t *testing.T) {
	srcs := [][]byte{
		[]byte("a:\n  b: \"x\n  y\"\n  c: [1,\n  2]\n"),
		[]byte("a: \"x\n\"\n"), []byte("- \"\n-"), []byte("k: 'a''\n'b\n"), []byte("\"\\"), []byte("a: {\n}\n}\n]"), []byte("x: [it's, b]\ny: 'a' ]\n"),
	}
	for _, tc := range parseCases {
		srcs = append(srcs, []byte(tc.src))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		a, b := srcs[rng.IntN(len(srcs))], srcs[rng.IntN(len(srcs))]
		i, j := rng.IntN(len(a)+1), rng.IntN(len(b)+1)
		srcs = append(srcs, append(slices.Clip(a[:i]), b[j:]...))
	}
	for _, src := range srcs {
		out := indentQuoted(src)
		if len(out) != len(src) {
			t.Fatalf("%q: length %d, want %d", src, len(out), len(src))
		}
		for i := range src {
			if (src[i] == '\n') != (out[i] == '\n') {
				t.Fatalf("%q -> %q: line break moved at %d", src, out, i)
			}
		}
	}
	plain := []byte("a:\n  b: \"x\n   y\"\n  c: |\n    \"open\n  d: [1,\n   2]\n  e: [it's, b]\n  f: x' ]\n")
	if out := indentQuoted(plain); !bytes.Equal(out, plain) {
		t.Errorf("a file tree-sitter-yaml reads was changed:\n%s", out)
	}
}
