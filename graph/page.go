package graph

import (
	"errors"
	"fmt"
	"strings"
)

// Kind is a page kind. The zero value is KindModule.
type Kind uint8

// Page kinds, in the order DESIGN.md lists them.
const (
	KindModule Kind = iota
	KindFile
	KindSymbol
	KindDoc
	KindMemory
	numKinds
)

var kindNames = [numKinds]string{"module", "file", "symbol", "doc", "memory"}

// String returns the ID prefix of the kind ("module", "file", ...).
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "unknown"
}

// ParseKind returns the kind named s, or false.
func ParseKind(s string) (Kind, bool) {
	for i, n := range kindNames {
		if n == s {
			return Kind(i), true
		}
	}
	return 0, false
}

// Kinds lists every page kind.
func Kinds() []Kind { return []Kind{KindModule, KindFile, KindSymbol, KindDoc, KindMemory} }

// Page is one node of the graph. Pages are values: the Graph owns them and
// callers must not modify a Page they did not build.
type Page struct {
	ID   string
	Kind Kind
	// Title is what a result stub shows: the signature of a symbol, the path of
	// a file, the heading of a doc section, the directory of a module.
	Title string
	// Name is the bare name: identifier, file base name, heading, directory base.
	Name string
	// Qualified is a symbol's qualified name or a doc section's slug.
	Qualified string
	// SymKind is the parser's definition kind for symbol pages ("func", "class", ...).
	SymKind string
	// Path is repo-relative with "/", empty for modules and memories... except
	// that a module's Path is its directory ("." for the root).
	Path          string
	Line, EndLine int
	Lang          string
	// Doc is the doc comment, docstring, module doc or section text.
	Doc string
	// Idents are the distinct identifiers used inside a symbol's body (or at a
	// file's top level), for text ranking.
	Idents []string
	// Literals are the distinct string literals in a symbol's body (or at
	// a file's top level), for text ranking.
	Literals []string
	// Test reports a page in a test file or test directory.
	Test bool
	// Local reports a definition nested in a function or method (a
	// closure, a helper inside a function): only code of its own file
	// can name it, and never through a selector.
	Local bool
	// Hash fingerprints the page's source text (a symbol's or section's
	// lines, a file's bytes); notes anchored to the page compare it to tell
	// that the code changed under them. BodyHash fingerprints a symbol's
	// lines after its first (its body without the signature), which
	// survives a rename, so a note can follow a moved or renamed symbol.
	// Zero means unknown (modules, memories, one-line definitions' bodies).
	Hash, BodyHash uint32
}

// EdgeType is the type of an edge.
type EdgeType uint8

// Edge types. Relates carries a memory's user relation (Edge.Rel).
const (
	Contains EdgeType = iota
	References
	Imports
	Relates
	numEdgeTypes
)

var edgeNames = [numEdgeTypes]string{"contains", "references", "imports", "relates"}

// String returns the edge type's name.
func (t EdgeType) String() string {
	if t < numEdgeTypes {
		return edgeNames[t]
	}
	return "unknown"
}

// ParseEdgeType returns the edge type named s, or false.
func ParseEdgeType(s string) (EdgeType, bool) {
	for i, n := range edgeNames {
		if n == s {
			return EdgeType(i), true
		}
	}
	return 0, false
}

// Edge joins two pages of one Graph by their index in Graph.Pages.
type Edge struct {
	From, To uint32
	Type     EdgeType
	Attr     EdgeAttr // references only; 0 on other types
}

// EdgeAttr is what a references edge knows of itself: how the source used
// the target (any of UseCall, UseType, UseSelector: the syntax says) and
// how sure resolution is of the target (a Confidence). The zero EdgeAttr
// says nothing (contains, imports, and references of an older index).
type EdgeAttr uint8

// The uses an EdgeAttr may carry, as bits.
const (
	UseCall     EdgeAttr = 1 << iota // f(), obj.m(), new T()
	UseType                          // a type in a declaration, cast or composite literal
	UseSelector                      // x.Field, pkg.Name, obj.attr not called
	useBits     = iota
	usesMask    = 1<<useBits - 1
)

// Confidence says what resolved a references edge to its target, the
// surest first.
type Confidence uint8

// Confidences, from the surest to the least sure.
const (
	ConfUnknown Confidence = iota // not recorded
	// ConfTyped: the qualifier's declared type (a receiver, parameter,
	// local, field, self/this), or a qualifier naming the target's type
	// (Type.method, pkg.Type.Method), holds the target.
	ConfTyped
	// ConfImport: the qualifier names an import, and the target is in
	// the imported module.
	ConfImport
	// ConfScope: the name's only definition in the file, its directory,
	// or the modules the file imports.
	ConfScope
	// ConfName: the name's only definition in the repository, with no
	// other evidence.
	ConfName
	// ConfLoose: one of several definitions of the name in the scope
	// that decided (a common method name): kept for the --loose views,
	// left out of callers, callees, impact and ranking.
	ConfLoose
	numConfidences
)

var confNames = [numConfidences]string{"", "typed", "import", "scope", "name", "loose"}

// String returns the confidence's name ("" when unknown).
func (c Confidence) String() string {
	if c < numConfidences {
		return confNames[c]
	}
	return ""
}

// MakeAttr returns the attribute of a reference used as uses, resolved with confidence c.
func MakeAttr(uses EdgeAttr, c Confidence) EdgeAttr {
	return uses&usesMask | EdgeAttr(c)<<useBits
}

// Uses returns the use bits of a.
func (a EdgeAttr) Uses() EdgeAttr { return a & usesMask }

// Confidence returns a's confidence.
func (a EdgeAttr) Confidence() Confidence { return Confidence(a >> useBits) }

// Loose reports an edge matched by name among several definitions.
func (a EdgeAttr) Loose() bool { return a.Confidence() == ConfLoose }

// UseNames returns a's uses as words ("call", "type", "selector"), or nil.
func (a EdgeAttr) UseNames() []string {
	var out []string
	for i, n := range [...]string{"call", "type", "selector"} {
		if a&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// mergeAttr joins the attributes of two references from one page to
// another: every use either saw, at the surer confidence.
func mergeAttr(a, b EdgeAttr) EdgeAttr {
	ca, cb := a.Confidence(), b.Confidence()
	c := ca
	if ca == ConfUnknown || cb != ConfUnknown && cb < ca {
		c = cb
	}
	return MakeAttr(a.Uses()|b.Uses(), c)
}

// ErrNotFound is returned when a page, index or generation does not exist.
var ErrNotFound = errors.New("not found")

// ErrBadID is returned for a page ID that is malformed or unsafe.
var ErrBadID = errors.New("bad page ID")

// ModuleID, FileID, SymbolID and DocID build page IDs as DESIGN.md fixes them.
func ModuleID(dir string) string        { return "module:" + dir }
func FileID(path string) string         { return "file:" + path }
func SymbolID(path, qual string) string { return "symbol:" + path + "#" + qual }
func DocID(path, slug string) string    { return "doc:" + path + "#" + slug }
func MemoryID(slug string) string       { return "memory:" + slug }

// ParseID splits a page ID into kind, path and fragment (qualified name,
// slug), rejecting absolute paths, ".." components, backslashes and NUL.
func ParseID(id string) (kind Kind, path, frag string, err error) {
	prefix, rest, ok := strings.Cut(id, ":")
	if !ok {
		return 0, "", "", fmt.Errorf("%w %q: want KIND:..., e.g. file:main.go", ErrBadID, id)
	}
	kind, ok = ParseKind(prefix)
	if !ok {
		return 0, "", "", fmt.Errorf("%w %q: unknown kind %q (module, file, symbol, doc, memory)", ErrBadID, id, prefix)
	}
	if strings.ContainsRune(id, 0) {
		return 0, "", "", fmt.Errorf("%w: contains NUL", ErrBadID)
	}
	path = rest
	switch kind {
	case KindSymbol, KindDoc:
		var hasFrag bool
		path, frag, hasFrag = strings.Cut(rest, "#")
		if !hasFrag || frag == "" {
			return 0, "", "", fmt.Errorf("%w %q: want %s:PATH#NAME", ErrBadID, id, prefix)
		}
	case KindMemory:
		if rest == "" || strings.ContainsAny(rest, "/\\") {
			return 0, "", "", fmt.Errorf("%w %q: want memory:SLUG", ErrBadID, id)
		}
		return kind, "", rest, nil
	}
	if err := CheckPath(path); err != nil {
		return 0, "", "", fmt.Errorf("%w %q: %v", ErrBadID, id, err)
	}
	return kind, path, frag, nil
}

// CheckPath reports whether p is a clean repo-relative slash path ("." allowed).
func CheckPath(p string) error {
	switch {
	case p == "":
		return errors.New("empty path")
	case p == ".":
		return nil
	case strings.HasPrefix(p, "/") || (len(p) > 1 && p[1] == ':'):
		return errors.New("absolute path")
	case strings.ContainsAny(p, "\\\x00"):
		return errors.New("backslash or NUL in path")
	}
	for _, c := range strings.Split(p, "/") {
		if c == ".." || c == "" || c == "." {
			return errors.New("path must be clean and relative, without . or .. components")
		}
	}
	return nil
}
