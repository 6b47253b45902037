package parser

// DefKind is the kind of a definition. The zero value is KindUnknown.
type DefKind uint8

// Definition kinds shared by all languages. A language maps its own node
// types onto these; Section is a Markdown heading.
const (
	KindUnknown DefKind = iota
	KindFunc
	KindMethod
	KindType // Go type spec other than struct/interface, type alias, typedef
	KindStruct
	KindInterface
	KindClass
	KindEnum
	KindTrait
	KindModule // namespace, Rust mod, Ruby module, PHP namespace
	KindConst
	KindVar
	KindField
	KindMacro
	KindSection
	KindKey      // a configuration key (YAML, TOML, JSON)
	KindTable    // a TOML table, an SQL table or view
	KindJob      // a CI job (a GitHub workflow's jobs)
	KindStage    // a build stage (Dockerfile FROM … AS name)
	KindSelector // a CSS selector
	KindElement  // an HTML element with an id
	KindBlock    // a named block: template block, HCL/Terraform block
)

var kindNames = [...]string{"unknown", "func", "method", "type", "struct", "interface", "class", "enum",
	"trait", "module", "const", "var", "field", "macro", "section", "key", "table", "job", "stage", "selector",
	"element", "block"}

// String returns the lower-case name used in page titles and JSON ("func", "class", ...).
func (k DefKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// ParseKind is the inverse of String; it returns KindUnknown for an unknown name.
func ParseKind(s string) DefKind {
	for i, n := range kindNames {
		if n == s {
			return DefKind(i)
		}
	}
	return KindUnknown
}

// RefKind says how an identifier is used.
type RefKind uint8

// Reference kinds.
const (
	RefCall     RefKind = iota // f(), obj.m(), new T()
	RefType                    // a type name in a declaration, cast, composite literal
	RefSelector                // x.Field / pkg.Name / obj.attr not called
)

// Def is one definition in a file.
type Def struct {
	Kind DefKind
	// Name is the bare identifier ("Query"); for a Section, the heading text.
	Name string
	// Qualified adds the enclosing receiver, class, namespace or impl joined by
	// "." ("Ranker.Query", "ns.Class.method"); for a Section, the heading's slug
	// (lower-case, non-alphanumerics folded to "-").
	Qualified string
	// Parent is the index in Facts.Defs of the enclosing definition, or -1.
	Parent int
	// StartLine and EndLine are 1-based and inclusive.
	StartLine, EndLine int
	// Signature is the definition's first line(s) without its body, on one
	// line, whitespace folded, at most 200 bytes ("func (r *Ranker) Query(q string) Result").
	Signature string
	// Doc is the doc comment or docstring with comment markers removed, at most
	// 1000 bytes; for a Section, the section's text up to the next heading.
	Doc string
}

// Ref is one use of an identifier.
type Ref struct {
	Name string
	// Qualifier is the text left of the last selector when short and simple
	// ("strings" in strings.Split, "self" in self.run); empty otherwise.
	Qualifier string
	// Type is the qualifier's type when the syntax says it: a Go
	// receiver, parameter, `var x T` or `x := T{}` / `&T{}` ("Reader",
	// "url.URL": pointers and type arguments dropped), the declared type
	// of field f for a qualifier x.f (Go, the struct in the same file), a
	// Python, Java, TypeScript or Rust annotation or constructor, or the
	// enclosing class for self, this and cls ("Flask", "Outer.Inner"). Empty when
	// unknown. Resolution links such a reference to the type's member,
	// to nothing when the type is not in the repository, and leaves it to
	// the name's other tiers when the type is there without that member
	// (promoted from an embedded type, inherited).
	Type string
	// Selected reports a use through a selector (x.Name, a::Name), the
	// qualifier plain or not: a member, or a module's name.
	Selected bool
	Kind     RefKind
	Line     int32
	// Enclosing is the index in Facts.Defs of the innermost definition
	// containing the use, or -1 at file level.
	Enclosing int32
}

// Literal is one distinct string literal of a definition (or of the file
// level): config keys, flag names, messages and file patterns are often
// only written there.
//
// A definition (or the file level) keeps its first MaxLiterals, in source
// order: what the graph ranks a page's text by.
type Literal struct {
	// Text is the literal's content without quotes or prefix, whitespace
	// folded, at most maxLiteralBytes bytes.
	Text string
	// Enclosing is the index in Facts.Defs of the innermost definition
	// containing the literal, or -1 at file level.
	Enclosing int
}

// Import is one import, include, use or require.
type Import struct {
	// Path is the imported module as written, quotes stripped
	// ("github.com/x/y", "os.path", "./util", "stdio.h", "crate::graph::Page").
	Path string
	// Alias is the local name when one is given.
	Alias string
	Line  int
}

// Diagnostic is a syntax problem found while parsing; it is data, not an error.
type Diagnostic struct {
	Line, Column int
	Message      string
}

// Facts is everything extracted from one file. The zero value is an empty file.
type Facts struct {
	Language string // "go", "python", ... as returned by Detect
	// Doc is the file or package doc: Go package comment, Python module
	// docstring, leading comment block, or a Markdown file's first paragraph.
	Doc         string
	Defs        []Def
	Refs        []Ref
	Literals    []Literal // distinct per enclosing definition, in source order
	Imports     []Import
	Diagnostics []Diagnostic
}
