package parser

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
)

// Languages without a grammar here are indexed by the lexical extractor
// (lexical.go): comments, strings and identifiers from a small scanner, and
// definitions from per-language declaration patterns, one line each. A
// grammar registered for the same name always wins (Detect looks at the
// registered tables first), so a language can move from this table to a
// real grammar without touching it.
//
// Definitions found this way are heuristic: Facts.Language names a
// language for which Heuristic reports true, and page views say so.

// heurLang describes one heuristically indexed language.
type heurLang struct {
	name  string
	exts  []string // lower case, with the dot
	bases []string // exact extension-less file names
	// line are the line-comment markers; block the block-comment
	// delimiters (nest: block comments nest, as in Haskell and Nim).
	line  []string
	block [][2]string
	nest  bool
	// quotes are the string quote characters; a quote tripled opens a
	// string closed by the same three. charQuote is a quote that only
	// opens a one-character literal ('a', '\n') and is otherwise part of an
	// identifier (Haskell foldl', Rust lifetimes).
	quotes    string
	charQuote byte
	// multiline: a single-quoted string may span lines (Clojure); a
	// backslash outside a string then escapes the next character (\" is
	// a character literal, not a quote).
	multiline bool
	// docBelow: a definition's doc is the comment or string lines right
	// below its first line (Nim's ##, Clojure's docstring), tried before
	// the comment above.
	docBelow bool
	// docSkip are prefixes of unindented code lines that may sit between
	// a doc comment and its definition (Erlang's -spec).
	docSkip []string
	// closers start the line, at a definition's own indentation, that
	// ends it ("}" of a brace language, Julia's and Fortran's "end");
	// without one a definition runs to the next at its indentation.
	closers []string
	// identChars are the characters allowed in identifiers besides
	// letters, digits and '_' (Clojure's "-?!*", Perl's sigils are not).
	identChars string
	// decls are tried in order on each line; the first that matches makes
	// a definition. Their regexps are compiled on first use (compiled).
	decls []decl
	// compiledDecls are decls with their regexps, once compiled.
	compiledDecls atomic.Pointer[[]decl]
	// keywords are dropped from the identifiers.
	keywords *wordSet
	// sections, for a markup language (reStructuredText, AsciiDoc),
	// replaces the code scan: it turns headings into KindSection defs.
	sections func(p *Parser, src []byte, f *Facts)
}

// decl is one declaration pattern: a regexp over one line, whose group
// "name" is the definition's name, with the kind it defines; KindUnknown
// marks a line that is not a definition although a later pattern would
// take it for one (Zig's const x = @import(...)). The line's
// first non-blank character must be code (not in a comment or string), so
// "# def x" and the inside of a multi-line string never match.
type decl struct {
	pat  string         // the regexp's source
	re   *regexp.Regexp // pat compiled, in heurLang.compiled's copies only
	name int            // the index of re's group "name"
	kind DefKind
	// notInFunc skips a match whose enclosing definition is a function
	// (local constants of a Zig fn are not definitions of the file).
	notInFunc bool
	// top requires the line to be unindented.
	top bool
	// prefix is put before the name (Zig's `test "x"` is "test x", apart
	// from a function x).
	prefix string
}

func d(kind DefKind, re string) decl {
	return decl{pat: re, kind: kind}
}

// compiled returns h's declaration patterns with their regexps, compiled
// on the first call. Compiling the 68 patterns of every language at
// package initialisation took about 3 ms of the start of every command
// (most of the parser package's init), where a command that parses no
// file of such a language needs none of them.
func (h *heurLang) compiled() []decl {
	if c := h.compiledDecls.Load(); c != nil {
		return *c
	}
	out := slices.Clone(h.decls)
	for i := range out {
		out[i].re = regexp.MustCompile(out[i].pat)
		out[i].name = out[i].re.SubexpIndex("name")
	}
	h.compiledDecls.CompareAndSwap(nil, &out) // two first calls at once: one is kept
	return *h.compiledDecls.Load()
}

func (x decl) outsideFunc() decl { x.notInFunc = true; return x }
func (x decl) topLevel() decl    { x.top = true; return x }

// textLang is the language of a text file that no grammar and no
// heuristic table claims: identifiers, a doc and literals, no definitions.
const textLang = "text"

var heurLangs = []*heurLang{
	{name: "haskell", exts: []string{".hs", ".lhs", ".hsc"}, line: []string{"--"}, block: [][2]string{{"{-", "-}"}}, nest: true,
		quotes: `"`, charQuote: '\'', identChars: "'",
		decls: []decl{
			d(KindModule, `^module\s+(?P<name>[A-Z][\w.']*)`).topLevel(),
			d(KindType, `^(?:data|newtype)\s+(?:instance\s+)?(?:.*=>\s*)?(?P<name>[A-Z][\w']*)`),
			d(KindType, `^type\s+(?:family\s+|instance\s+)?(?P<name>[A-Z][\w']*)`),
			d(KindClass, `^class\s+(?:.*=>\s*)?(?P<name>[A-Z][\w']*)`),
			d(KindType, `^instance\s+(?:.*=>\s*)?(?P<name>[A-Z][\w'.]*\s+[^\s=]+(?:\s+[^\s=]+)*?)\s+where\b`),
			d(KindFunc, `^\s*(?P<name>[a-z_][\w']*)(?:\s*,\s*[a-z_][\w']*)*\s*::`),
			d(KindFunc, `^\s*\((?P<name>[^\s()\w]+)\)\s*::`),
			d(KindFunc, `^(?P<name>[a-z_][\w']*)\b[^=\n]*[^=<>/!:]=(?:[^=]|$)`).topLevel(),
		},
		keywords: set("module import qualified as hiding where let in if then else case of do data newtype type class instance deriving infix infixl infixr forall family foreign")},
	{name: "zig", exts: []string{".zig", ".zon"}, line: []string{"//"}, quotes: `"`, charQuote: '\'',
		decls: []decl{
			d(KindUnknown, `^\s*(?:pub\s+)?const\s+\w+\s*=\s*@import\(`), // an import, not a definition
			d(KindStruct, `^\s*(?:pub\s+)?const\s+(?P<name>\w+)\s*(?::[^=]*)?=\s*(?:extern\s+|packed\s+)?struct\b`),
			d(KindEnum, `^\s*(?:pub\s+)?const\s+(?P<name>\w+)\s*(?::[^=]*)?=\s*(?:extern\s+)?(?:enum|error)\b`),
			d(KindType, `^\s*(?:pub\s+)?const\s+(?P<name>\w+)\s*(?::[^=]*)?=\s*(?:extern\s+|packed\s+)?(?:union|opaque)\b`),
			d(KindFunc, `^\s*(?:pub\s+)?(?:export\s+|extern\s+(?:"\w*"\s+)?|inline\s+|noinline\s+)*fn\s+(?P<name>\w+)`),
			decl{pat: `^\s*test\s+(?P<name>"[^"]*"|\w+)\s*\{`, kind: KindFunc, prefix: "test "},
			d(KindConst, `^\s*(?:pub\s+)?const\s+(?P<name>\w+)`).outsideFunc(),
			d(KindVar, `^\s*(?:pub\s+)?(?:threadlocal\s+)?var\s+(?P<name>\w+)`).outsideFunc(),
		},
		keywords: set("const var fn pub return if else while for switch break continue defer errdefer try catch orelse and or struct enum union error comptime inline test usingnamespace undefined null true false void")},
	{name: "dart", closers: []string{"}"}, exts: []string{".dart"}, line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: `"'`,
		decls: []decl{
			d(KindClass, `^\s*(?:abstract\s+|sealed\s+|base\s+|final\s+|interface\s+)*(?:class|mixin)\s+(?P<name>\w+)`),
			d(KindEnum, `^\s*enum\s+(?P<name>\w+)`),
			d(KindTrait, `^\s*extension\s+(?P<name>\w+)\s+on\b`),
			d(KindType, `^\s*typedef\s+(?P<name>\w+)`),
			// A named constructor Cart.empty( is "empty" in class Cart; a
			// body may be a block or an arrow (=> expr;).
			d(KindFunc, `^\s*(?:static\s+|external\s+|factory\s+|const\s+|@\w+\s+)*(?:[\w<>?,\[\]]+\s+)?(?:get\s+|set\s+)?(?:[A-Z]\w*\.)?(?P<name>[A-Za-z_]\w*)\s*(?:<[^>]*>)?\((?:[^;]*$|.*\)\s*(?:async\s*)?=>)`).outsideFunc(),
			// An unnamed constructor whose body is ";" (Cart(); const Item(this.name);).
			d(KindFunc, `^\s+(?:const\s+)?(?P<name>[A-Z]\w*)\(.*\)\s*(?::[^;]*)?;\s*$`).outsideFunc(),
			d(KindFunc, `^\s*(?:static\s+)?(?:[\w<>?,\[\]]+\s+)?get\s+(?P<name>[A-Za-z_]\w*)\s*(?:=>|\{)`).outsideFunc(),
			d(KindConst, `^(?:const|final)\s+(?:[\w<>?]+\s+)?(?P<name>[A-Za-z_]\w*)\s*=`).topLevel(),
		},
		keywords: set("if for while switch return catch else new const final var class import library part export show hide await async assert super this")},
	{name: "julia", closers: []string{"end"}, exts: []string{".jl"}, line: []string{"#"}, block: [][2]string{{"#=", "=#"}}, nest: true, quotes: `"`,
		decls: []decl{
			d(KindFunc, `^\s*(?:@\w+\s+)*function\s+(?P<name>[\w.!]+)`),
			d(KindStruct, `^\s*(?:mutable\s+)?struct\s+(?P<name>\w+)`),
			d(KindType, `^\s*abstract\s+type\s+(?P<name>\w+)`),
			d(KindModule, `^\s*(?:bare)?module\s+(?P<name>\w+)`),
			d(KindMacro, `^\s*macro\s+(?P<name>\w+)`),
			d(KindConst, `^\s*const\s+(?P<name>\w+)`),
			d(KindFunc, `^(?P<name>[A-Za-z_][\w!]*)\([^)]*\)\s*=[^=]`).topLevel(),
		},
		keywords: set("function end if else elseif for while return begin let local global using import export module struct mutable abstract type const do try catch finally true false nothing")},
	{name: "perl", closers: []string{"}"}, exts: []string{".pl", ".pm", ".t", ".psgi"}, line: []string{"#"}, quotes: `"'`,
		// POD, from a "=word" line to "=cut", is documentation.
		block: [][2]string{{"=pod", "=cut"}, {"=head", "=cut"}, {"=over", "=cut"}, {"=item", "=cut"}, {"=begin", "=cut"}, {"=for", "=cut"}, {"=encoding", "=cut"}},
		decls: []decl{
			d(KindModule, `^\s*package\s+(?P<name>[\w:]+)`),
			d(KindFunc, `^\s*sub\s+(?P<name>[\w:]+)`),
		},
		keywords: set("my our local sub package use require return if elsif else unless while for foreach last next and or not eq ne lt gt le ge qw shift")},
	{name: "r", closers: []string{"}"}, exts: []string{".r"}, line: []string{"#'", "#"}, quotes: `"'`, identChars: ".",
		decls: []decl{
			d(KindFunc, `^\s*(?P<name>[A-Za-z.][\w.]*)\s*(?:<-|<<-|=)\s*function\b`),
			d(KindClass, `^\s*(?:[A-Za-z.][\w.]*\s*(?:<-|=)\s*)?(?:methods::|R6::)?(?:setClass|setRefClass|R6Class)\(\s*(?:Class\s*=\s*|classname\s*=\s*)?"(?P<name>[\w.]+)"`),
		},
		keywords: set("function if else for while repeat return in next break TRUE FALSE NULL NA library require")},
	{name: "clojure", exts: []string{".clj", ".cljs", ".cljc", ".edn"}, line: []string{";"}, quotes: `"`, multiline: true, docBelow: true, identChars: "-?!*<>'+=",
		decls: []decl{
			d(KindModule, `^\s*\(ns\s+(?P<name>[\w.\-]+)`),
			d(KindFunc, `^\s*\(defn-?\s+(?:\^\S+\s+)?(?P<name>[\w\-?!*<>'+=/]+)`),
			d(KindMacro, `^\s*\(defmacro\s+(?P<name>[\w\-?!*<>'+=]+)`),
			d(KindInterface, `^\s*\(defprotocol\s+(?P<name>[\w\-]+)`),
			d(KindStruct, `^\s*\(def(?:record|type)\s+(?P<name>[\w\-]+)`),
			d(KindFunc, `^\s*\(defmulti\s+(?P<name>[\w\-?!*<>]+)`),
			d(KindVar, `^\s*\(def(?:once)?\s+(?:\^\S+\s+)?(?P<name>[\w\-?!*<>'+=]+)`),
		},
		keywords: set("def defn fn let if do when cond loop recur ns require nil true false")},
	{name: "erlang", exts: []string{".erl", ".hrl", ".escript"}, line: []string{"%"}, quotes: `"`, docSkip: []string{"-spec"},
		decls: []decl{
			d(KindModule, `^-module\((?P<name>\w+)\)`),
			d(KindStruct, `^-record\((?P<name>\w+)`),
			d(KindType, `^-(?:type|opaque)\s+(?P<name>\w+)\(`),
			d(KindMacro, `^-define\((?P<name>\w+)`),
			d(KindFunc, `^(?P<name>[a-z]\w*)\(.*->`).topLevel(),
		},
		keywords: set("fun end case of if when receive after try catch begin module export import record define spec type ok error true false")},
	{name: "fsharp", exts: []string{".fs", ".fsi", ".fsx"}, line: []string{"//"}, block: [][2]string{{"(*", "*)"}}, quotes: `"`, charQuote: '\'', identChars: "'",
		decls: []decl{
			d(KindModule, `^\s*(?:namespace|module)\s+(?:rec\s+)?(?P<name>[\w.]+)`),
			d(KindType, `^\s*(?:and|type)\s+(?:private\s+|internal\s+)?(?P<name>[A-Za-z_]\w*)`),
			d(KindMethod, `^\s*(?:static\s+)?(?:member|override|abstract|default)\s+(?:\w+\.)?(?P<name>\w+)`),
			d(KindFunc, `^\s*let\s+(?:rec\s+|inline\s+|private\s+|mutable\s+)*(?P<name>[A-Za-z_][\w']*)`).outsideFunc(),
		},
		keywords: set("let rec in if then else elif match with fun function type module namespace open member val mutable return yield do done for while true false null")},
	{name: "nim", exts: []string{".nim", ".nims", ".nimble"}, line: []string{"#"}, block: [][2]string{{"#[", "]#"}}, nest: true, quotes: `"`, charQuote: '\'', docBelow: true,
		decls: []decl{
			d(KindFunc, `^\s*(?:proc|func|method|iterator|converter)\s+(?P<name>\w+|`+"`[^`]+`"+`)`),
			d(KindMacro, `^\s*(?:macro|template)\s+(?P<name>\w+)`),
			d(KindType, `^\s*(?:type\s+)?(?P<name>[A-Z]\w*)\*?\s*(?:\[[^\]]*\])?\s*=\s*(?:ref\s+|ptr\s+)?(?:object|enum|tuple|distinct|concept)\b`),
			d(KindConst, `^(?:const|let|var)\s+(?P<name>\w+)\*?\s*(?::[^=]*)?=`).topLevel(),
		},
		keywords: set("proc func method iterator macro template type var let const if elif else case of when while for in return result discard and or not import from export include object ref ptr")},
	{name: "ocaml-interface", closers: []string{"end"}, exts: []string{".mli"}, block: [][2]string{{"(*", "*)"}}, nest: true, quotes: `"`, charQuote: '\'', identChars: "'",
		decls: []decl{
			d(KindModule, `^\s*module\s+(?:type\s+)?(?P<name>[A-Z]\w*)`),
			d(KindType, `^\s*(?:type|and)\s+(?:nonrec\s+)?(?:'\w+\s+|\([^)]*\)\s+)?(?P<name>[a-z_]\w*)\s*(?:=|$|\(\*)`), // abstract: type t
			d(KindFunc, `^(?:let|and)\s+(?:rec\s+)?(?P<name>[a-z_][\w']*)`).topLevel(),
			d(KindFunc, `^\s*val\s+(?P<name>[a-z_][\w']*)\s*:`),
		},
		keywords: set("let rec in and if then else match with fun function type module struct sig end open val begin true false")},
	{name: "shell", closers: []string{"}"}, exts: []string{".zsh", ".ksh"}, line: []string{"#"}, quotes: `"'`,
		decls: []decl{
			d(KindFunc, `^\s*(?:function\s+)?(?P<name>[A-Za-z_][\w:.-]*)\s*\(\)\s*\{?`),
			d(KindFunc, `^\s*function\s+(?P<name>[A-Za-z_][\w:.-]*)`),
		},
		keywords: set("if then else elif fi for while do done case esac in function return local export echo set")},
	{name: "make", exts: []string{".mk", ".make"}, bases: []string{"Makefile", "makefile", "GNUmakefile"}, line: []string{"#"},
		decls: []decl{
			d(KindVar, `^(?:export\s+|override\s+)?(?P<name>[A-Za-z_][\w.]*)\s*(?:\?|:|::|\+|!)?=`),
			d(KindJob, `^(?P<name>[A-Za-z0-9_/$(){}%-][\w./$(){}%-]*)(?:\s+[\w./$(){}%-]+)*\s*::?(?:[^=]|$)`),
		},
		keywords: set("ifeq ifneq ifdef ifndef else endif define endef include export override")},
	{name: "tcl", closers: []string{"}"}, exts: []string{".tcl"}, line: []string{"#"}, quotes: `"`,
		decls: []decl{d(KindFunc, `^\s*proc\s+(?P<name>[\w:]+)`), d(KindModule, `^\s*namespace\s+eval\s+(?P<name>[\w:]+)`)}},
	{name: "fortran", closers: []string{"end", "END"}, exts: []string{".f90", ".f95", ".f03", ".f08"}, line: []string{"!>", "!"}, quotes: `"'`,
		decls: []decl{
			d(KindModule, `(?i)^\s*(?:module|submodule\s*\([\w:]+\)|program)\s+(?P<name>\w+)\s*$`),
			d(KindFunc, `(?i)^\s*(?:\w+\s+)*(?:subroutine|function)\s+(?P<name>\w+)`),
			d(KindType, `(?i)^\s*type\s*(?:,[^:]*::\s*|::\s*|\s+)(?P<name>\w+)\s*$`),
		}},
}

var (
	heurByExt  = map[string]*heurLang{}
	heurByBase = map[string]*heurLang{}
	heurByName = map[string]*heurLang{}
)

func init() {
	for _, h := range heurLangs {
		heurByName[h.name] = h
		for _, e := range h.exts {
			heurByExt[e] = h
		}
		for _, b := range h.bases {
			heurByBase[b] = h
		}
	}
	heurByName[textLang] = &heurLang{name: textLang}
}

// Heuristic reports whether lang ("haskell", "zig", "text", …) is indexed
// by the lexical extractor rather than a grammar: its definitions, if any,
// were found by declaration patterns, not parsed.
func Heuristic(lang string) bool {
	h, ok := heurByName[lang]
	return ok && h.sections == nil && specs[lang] == nil
}

// Method says how files of language lang are indexed: "grammar" (a
// tree-sitter grammar and queries), "headings" (reStructuredText and
// AsciiDoc: heading rules), "patterns" (declaration patterns and a
// lexical scan), "lexical" (identifiers, comments and text only: "text"),
// or "" for an unknown name.
func Method(lang string) string {
	switch {
	case specs[lang] != nil:
		return "grammar"
	case lang == textLang:
		return "lexical"
	case heurByName[lang] != nil && heurByName[lang].sections != nil:
		return "headings"
	case heurByName[lang] != nil:
		return "patterns"
	}
	return ""
}

// noiseBases are text files whose words would only crowd the index:
// license texts are the same in thousands of repositories and answer no
// question about the code.
var noiseBases = map[string]string{
	"LICENSE": "license text", "LICENCE": "license text", "COPYING": "license text",
	"LICENSE.txt": "license text", "LICENCE.txt": "license text", "COPYING.txt": "license text",
	"UNLICENSE": "license text", "go.sum": "checksum list", "yarn.lock": "lock file",
	"Cargo.lock": "lock file", "poetry.lock": "lock file", "Gemfile.lock": "lock file",
	"composer.lock": "lock file", "pnpm-lock.yaml": "lock file", "package-lock.json": "lock file", "npm-shrinkwrap.json": "lock file",
	"Pipfile.lock": "lock file", "flake.lock": "lock file", "mix.lock": "lock file",
	// Ignore lists name paths the index leaves out anyway.
	".gitignore": "ignore list", ".dockerignore": "ignore list", ".npmignore": "ignore list",
	".wikitoolkitignore": "ignore list", ".prettierignore": "ignore list", ".eslintignore": "ignore list",
	".gitattributes": "git attributes", ".gitmodules": "git submodules",
}

// binaryExts lists extensions of files that are never source text; they
// are not opened.
var binaryExts = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".bmp": true, ".ico": true,
	".webp": true, ".tif": true, ".tiff": true, ".psd": true, ".icns": true,
	".zip": true, ".gz": true, ".tgz": true, ".bz2": true, ".xz": true, ".zst": true,
	".7z": true, ".rar": true, ".tar": true, ".jar": true, ".war": true, ".whl": true,
	".so": true, ".a": true, ".o": true, ".obj": true, ".lib": true, ".dylib": true,
	".exe": true, ".dll": true, ".class": true, ".pyc": true, ".pyo": true, ".wasm": true,
	".pdf": true, ".woff": true, ".woff2": true, ".ttf": true, ".otf": true, ".eot": true,
	".mp3": true, ".mp4": true, ".wav": true, ".ogg": true, ".flac": true, ".avi": true,
	".mov": true, ".mkv": true, ".webm": true, ".iso": true, ".dmg": true, ".img": true,
	".db": true, ".sqlite": true, ".parquet": true, ".npy": true, ".pkl": true, ".pt": true,
	".onnx": true, ".bin": true, ".deb": true, ".rpm": true,
	".jks": true, ".keystore": true, ".p12": true, ".der": true, ".dat": true, ".pack": true,
	".idx": true, ".xcf": true, ".svgz": true, ".ai": true, ".sketch": true, ".fig": true,
	".xls": true, ".xlsx": true, ".doc": true, ".docx": true, ".ppt": true, ".pptx": true,
	".odt": true, ".ods": true, ".mo": true, ".beam": true, ".hi": true, ".dyn_hi": true,
}

// BinaryName reports whether the file name's extension is one of files
// that are never text (images, archives, objects, fonts, media, …).
func BinaryName(p string) bool {
	return binaryExts[strings.ToLower(path.Ext(p))]
}

// NotIndexedReason returns why Detect rejects the file at p ("binary (by
// extension)", "license text", "lock file", …), or "" when Detect accepts
// it.
func NotIndexedReason(p string) string {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	if l, ok := langByBase[base]; ok && l != "" {
		return ""
	}
	ext := strings.ToLower(path.Ext(base))
	if _, ok := langByBase[base]; !ok && ext != "" && langByExt[ext] != "" {
		return ""
	}
	if r, ok := noiseBases[base]; ok {
		return r
	}
	if binaryExts[ext] {
		return "binary (by extension)"
	}
	return ""
}

// detectFallback is Detect's answer for a name no registered language
// claims: a heuristic language by exact name, then by extension, else
// "text" unless the name is binary or noise.
func detectFallback(base, ext string) string {
	if base == "." || base == "/" || base == "" {
		return ""
	}
	if h, ok := heurByBase[base]; ok {
		return h.name
	}
	if h, ok := heurByExt[ext]; ok {
		return h.name
	}
	if _, ok := noiseBases[base]; ok {
		return ""
	}
	if binaryExts[ext] {
		return ""
	}
	return textLang
}

// lexicalFor returns the table of the lexical extractor for the file at
// path, or nil when a grammar parses it (or nothing does).
func lexicalFor(p string) *heurLang {
	lang := Detect(p)
	if specs[lang] != nil {
		return nil
	}
	return heurByName[lang]
}
