package parser

import (
	"embed"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
	"github.com/smacker/go-tree-sitter/csharp"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	markdown "github.com/smacker/go-tree-sitter/markdown/tree-sitter-markdown"
	"github.com/smacker/go-tree-sitter/php"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/ruby"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

//go:embed queries/*.scm
var queryFS embed.FS

// extByLang lists the file extensions of each language. ".d.ts" ends in
// ".ts" and is TypeScript too.
var extByLang = map[string][]string{
	"go":         {".go"},
	"python":     {".py", ".pyi"},
	"javascript": {".js", ".mjs", ".cjs", ".jsx"},
	"typescript": {".ts", ".mts", ".cts"},
	"tsx":        {".tsx"},
	"rust":       {".rs"},
	"java":       {".java"},
	"c":          {".c", ".h"},
	"cpp":        {".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".h++"},
	"csharp":     {".cs"},
	"ruby":       {".rb"},
	"php":        {".php"},
	"markdown":   {".md", ".markdown"},
}

// langByBase maps extension-less file names to their language.
var langByBase = map[string]string{
	"Rakefile": "ruby",
	"Gemfile":  "ruby",
}

// register adds a language defined in a file of its own (lang_<name>.go) from
// that file's init function: its spec, its file extensions (lower case, with
// the dot) and any extension-less file names it owns ("Dockerfile"). A
// language file keeps its grammar import, spec and tables together, so adding
// a language touches no shared table. It is not safe for concurrent use: call
// it from init only.
func register(s *langSpec, exts []string, bases ...string) {
	if _, dup := specs[s.name]; dup {
		panic("parser: language " + s.name + " registered twice")
	}
	specs[s.name] = s
	extByLang[s.name] = append(extByLang[s.name], exts...)
	for _, e := range exts {
		if prev, dup := langByExt[e]; dup {
			panic("parser: extension " + e + " claimed by " + prev + " and " + s.name)
		}
		langByExt[e] = s.name
	}
	for _, b := range bases {
		langByBase[b] = s.name
	}
}

var langByExt = func() map[string]string {
	m := make(map[string]string)
	for lang, exts := range extByLang {
		for _, e := range exts {
			m[e] = lang
		}
	}
	return m
}()

// Detect returns the language name of the file at path ("go", "python",
// "javascript", "typescript", "tsx", "rust", "java", "c", "cpp", "csharp",
// "ruby", "php", "markdown", … as registered), a language of declaration
// patterns ("haskell", "zig", …: Heuristic), "text" for any other name, or
// "" for a file that is not indexed (NotIndexedReason says why). The order
// is: exact base name, extension, then the heuristic table's names and
// extensions, then "text". It looks only at the name, never at the
// contents.
func Detect(p string) string {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	if l, ok := langByBase[base]; ok {
		return l
	}
	ext := strings.ToLower(path.Ext(base))
	if l := langByExt[ext]; l != "" && ext != "" {
		return l
	}
	for _, bp := range langByBasePrefix {
		if strings.HasPrefix(base, bp.prefix) {
			return bp.lang
		}
	}
	return detectFallback(base, ext)
}

// langByBasePrefix maps name prefixes to languages for names whose
// extension says nothing ("Dockerfile.windows"); Detect tries them when the
// extension is not a language's. Language files append to it from init.
var langByBasePrefix []struct{ prefix, lang string }

// Languages returns the supported language names, sorted. The caller owns
// the returned slice.
func Languages() []string {
	out := make([]string, 0, len(extByLang))
	for l := range extByLang {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// commentStyle says which line-comment markers a language uses; block
// comments (/* */) are recognised for every style but hash.
type commentStyle uint8

const (
	commentSlash commentStyle = iota // //, ///, //!, /* */
	commentHash                      // #
	commentBoth                      // PHP: //, #, /* */
	commentDash                      // SQL: --, /* */
)

// sigStyle says where a signature ends.
type sigStyle uint8

const (
	sigBrace     sigStyle = iota // at '{' or ';' outside parentheses
	sigArrow                     // like sigBrace, and also at "=>"
	sigColon                     // Python: at ':' outside brackets
	sigLine                      // Ruby: at the end of the first line
	sigWholeLine                 // config and builds: the first line, braces and all
	sigEquals                    // like sigBrace, and also at a lone '=' (Kotlin, Scala, Swift)
)

// langSpec is everything the extractor knows about one language. The
// compiled query and the grammar are shared by all Parsers.
type langSpec struct {
	name    string
	grammar func() *sitter.Language
	// serial is held around each parse of a grammar whose external
	// scanner keeps state in C globals shared by every parser, so that two
	// workers' parses cannot corrupt each other's (tree-sitter-lua: 56 of
	// 1,200 concurrent parses of one file gave another tree; see
	// TestConcurrentParsesAgree). Set it with serialParse.
	serial  *sync.Mutex
	queries []string // files under queries/, concatenated in order
	// nodes, for a language without queries (Markdown), maps node types to
	// capture names; a tree walk captures every node of these types, as
	// single-node query patterns would, in under half the time of a query.
	nodes    map[string]string
	comments commentStyle
	sig      sigStyle
	// attrPrefixes are line prefixes (after indentation) that may sit
	// between a doc comment and its definition: decorators, attributes.
	attrPrefixes []string
	// builtins are unqualified reference names dropped as noise
	// (predeclared types and functions).
	builtins *wordSet
	// extract, when set, replaces the query-driven extraction (extractCode)
	// for languages whose facts are not one query over one tree: HTML's ids,
	// headings and template blocks, a Svelte component's script.
	extract func(p *Parser, path string, tree *sitter.Tree, src []byte, f *Facts)
	// finish, when set, adjusts the extracted facts with what the tree does
	// not say: kinds that depend on the path (a GitHub workflow's jobs),
	// names (CSS selectors, unnamed Dockerfile stages), caps on data files.
	finish func(path string, src []byte, f *Facts)
	// maxBytes, when > 0, is the largest file extracted; a larger one is not
	// parsed and has no facts but its language (a big JSON data file).
	maxBytes int
	// untilNext, when set, is a kind whose definitions run to the start of
	// the next definition of that kind, or to the end of the file
	// (Dockerfile stages: a FROM line is followed by the stage's steps).
	untilNext DefKind
	// keywords gate matches with a @keyword capture: a word and the kind of
	// definition it makes (KindUnknown for imports and docs).
	keywords map[string]DefKind
	// nameSeps are characters besides '.' and "::" that separate a
	// definition name's segments (Lua's ':' in function M:method).
	nameSeps string
	// prepare, when set, rewrites a copy of the source before parsing
	// without changing its length or line breaks (offsets stay valid):
	// Lua masks the LuaLS annotations its grammar fails on.
	prepare func(src []byte) []byte
	// fileScoped says that a module definition ending in ';' (a Protobuf
	// package) covers the rest of the file, as C# and PHP namespaces do.
	fileScoped bool
	// defHook, when set, sees each definition the query found, before
	// nesting: it may change it (its kind, the range of its name) and drops
	// it by returning false. It lets a language decide by the text what a
	// query without predicates cannot (HCL block types, CUE #definitions).
	defHook func(src []byte, d *rawDef) bool
	// nameHook, when set, replaces splitName: it turns the text of a
	// definition's name into its qualifier and name (HCL block labels).
	nameHook func(kind DefKind, text string) (prefix, name string)
	// docHook, when set, gives a definition without a doc comment a doc
	// from its own text (a Terraform block's description attribute).
	docHook func(body []byte) string
	// splitImport, when set, takes apart an @import.stmt's folded text
	// and calls add for each path it imports (Scala's import a.{B, C => D}
	// imports two).
	splitImport func(text string, add func(path, alias string))
	// varKinds re-kinds a variable whose signature starts with one of its
	// words: a grammar that reads "enum Mode" as a declaration of Mode of
	// type enum (Groovy).
	varKinds map[string]DefKind
	// parseLimit, when set, bounds one parse (plus parseLimitPerByte per
	// byte): a grammar whose error recovery can run for minutes on broken
	// input (Swift) gives up, and the file gets a diagnostic instead.
	parseLimit time.Duration
	// trimEnd says that a definition ends at its last line that is not
	// blank or a whole-line comment: a grammar whose indentation-based
	// block ends at the next line's dedent (Scala 3) takes in the doc
	// comment of the definition below.
	trimEnd bool

	once  sync.Once
	lang  *sitter.Language
	prog  *program // the language's query for the tree walker
	roles []role   // capture index -> role
	// nodeRoles maps a grammar symbol to 1 + the role of its nodes, or 0;
	// it is built from nodes.
	nodeRoles []uint8
	err       error
}

var specs = map[string]*langSpec{
	"go": {name: "go", grammar: golang.GetLanguage, queries: []string{"go.scm"}, builtins: set(
		"bool byte rune string error any comparable int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 uintptr",
		"float32 float64 complex64 complex128 append cap clear close complex copy delete imag len make max min new panic",
		"print println real recover")},
	"python": {name: "python", grammar: python.GetLanguage, queries: []string{"python.scm"}, comments: commentHash, sig: sigColon, attrPrefixes: []string{"@"}, splitImport: pythonFromImport, builtins: set(
		"int str float bool bytes list dict set tuple object type None len print isinstance issubclass range super",
		"enumerate zip map filter sorted reversed min max sum any all abs getattr setattr hasattr iter next repr open")},
	"javascript": {name: "javascript", grammar: javascript.GetLanguage, queries: []string{"javascript.scm"}, sig: sigArrow, attrPrefixes: []string{"@"}},
	"typescript": {name: "typescript", grammar: typescript.GetLanguage, queries: []string{"typescript.scm"}, sig: sigArrow, attrPrefixes: []string{"@"}},
	"tsx":        {name: "tsx", grammar: tsx.GetLanguage, queries: []string{"typescript.scm", "tsx.scm"}, sig: sigArrow, attrPrefixes: []string{"@"}},
	"rust":       {name: "rust", grammar: rust.GetLanguage, queries: []string{"rust.scm"}, attrPrefixes: []string{"#["}},
	"java":       {name: "java", grammar: java.GetLanguage, queries: []string{"java.scm"}, attrPrefixes: []string{"@"}},
	"c":          {name: "c", grammar: c.GetLanguage, queries: []string{"c.scm"}},
	"cpp":        {name: "cpp", grammar: cpp.GetLanguage, queries: []string{"cpp.scm"}, attrPrefixes: []string{"template", "[["}},
	"csharp":     {name: "csharp", grammar: csharp.GetLanguage, queries: []string{"csharp.scm"}, sig: sigArrow, attrPrefixes: []string{"["}},
	"ruby":       {name: "ruby", grammar: ruby.GetLanguage, queries: []string{"ruby.scm"}, comments: commentHash, sig: sigLine},
	"php":        {name: "php", grammar: php.GetLanguage, queries: []string{"php.scm"}, comments: commentBoth, attrPrefixes: []string{"#["}},
	// Headings become sections; the first paragraph is the file's doc.
	"markdown": {name: "markdown", grammar: markdown.GetLanguage, nodes: map[string]string{
		"atx_heading": "heading", "setext_heading": "heading", "paragraph": "paragraph"}},
}

func set(lists ...string) *wordSet { return &wordSet{lists: lists} }

// A wordSet is a set of words given as space-separated lists, made into a
// map on its first use: the builtins and keywords of every language,
// built at start-up, were most of what remained of the parser package's
// init (about 1 ms of every command's start), where a command needs the
// sets of the languages it parses only. Safe for concurrent use (two
// first uses at once may both build the map; one is kept); a nil set is
// empty.
type wordSet struct {
	lists []string
	m     atomic.Pointer[map[string]bool]
}

// words returns the set as a map (index it with string(b) for a []byte b:
// no allocation).
func (ws *wordSet) words() map[string]bool {
	if ws == nil {
		return nil
	}
	if m := ws.m.Load(); m != nil {
		return *m
	}
	return ws.build()
}

func (ws *wordSet) build() map[string]bool {
	m := make(map[string]bool)
	for _, l := range ws.lists {
		for _, f := range strings.Fields(l) {
			m[f] = true
		}
	}
	ws.m.CompareAndSwap(nil, &m)
	return *ws.m.Load()
}

// load compiles the language's query once; later calls return the cached
// result. It is safe for concurrent use.
func (s *langSpec) load() error {
	s.once.Do(func() {
		s.lang = s.grammar()
		if s.nodes != nil {
			s.err = s.loadNodes()
			return
		}
		src, err := s.querySource()
		if err != nil {
			s.err = err
			return
		}
		// Tree-sitter's own compile of the whole query (~9 ms for Go) is
		// not needed: the walker runs the patterns, tree-sitter compiles
		// only the residual ones, and the capture names come from the
		// source in tree-sitter's order (TestCaptureNames).
		names, err := captureNames(src)
		if err != nil {
			s.err = fmt.Errorf("compile %s query: %w", s.name, err)
			return
		}
		if s.prog, err = compileProgram(src, s.lang, names); err != nil {
			s.err = fmt.Errorf("compile %s query: %w", s.name, err)
			return
		}
		s.roles = make([]role, len(names))
		for i, name := range names {
			r, ok := roleByName[name]
			if !ok {
				s.err = fmt.Errorf("%s query: unknown capture @%s", s.name, name)
				return
			}
			s.roles[i] = r
		}
	})
	return s.err
}

// querySource returns the language's query files, concatenated.
func (s *langSpec) querySource() (string, error) {
	var src []byte
	for _, f := range s.queries {
		b, err := queryFS.ReadFile("queries/" + f)
		if err != nil {
			return "", fmt.Errorf("read query %s: %w", f, err)
		}
		src = append(src, b...)
		src = append(src, '\n')
	}
	return string(src), nil
}

// loadNodes builds nodeRoles from nodes. Like a query's (type) pattern, a
// node type matches the named symbols of that name.
func (s *langSpec) loadNodes() error {
	s.nodeRoles = make([]uint8, s.lang.SymbolCount())
	found := make(map[string]bool)
	for i := range s.nodeRoles {
		sym := sitter.Symbol(i)
		name := s.lang.SymbolName(sym)
		capture, ok := s.nodes[name]
		if !ok || s.lang.SymbolType(sym) != sitter.SymbolTypeRegular {
			continue
		}
		r, ok := roleByName[capture]
		if !ok {
			return fmt.Errorf("%s nodes: unknown capture @%s", s.name, capture)
		}
		s.nodeRoles[i] = uint8(r) + 1
		found[name] = true
	}
	for name := range s.nodes {
		if !found[name] {
			return fmt.Errorf("%s nodes: invalid node type %q", s.name, name)
		}
	}
	return nil
}
