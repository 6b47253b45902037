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
