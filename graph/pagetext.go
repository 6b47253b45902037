package graph

import (
	"encoding/binary"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Page text ("x/text") is the one stored copy of what both the graph and
// the ranking index show of a page: its ID, title, path, name, qualified
// name, line and the first line of its doc (the snippet). The ranking index
// reads single records at query time (it aliases the blob and decodes only
// the pages an answer shows); the graph reads them all and adds the rest of
// each doc from x/graph. Before, x/graph and the ranking index each held a
// copy (moby: signatures, qualified names and snippets were ~0.6 MB of the
// 5.7 MB index).
//
// The blob is a uvarint count of offsets (pages+1), the uvarint difference
// of each offset from the one before, then the records. A record stores only
// what cannot be derived: a uvarint header of the Text* flags, then the
// strings the flags say are present, in this order — path, name, title, id
// — then qualified name, snippet and line (strings are uvarint length and
// bytes). By default a page takes its path from its group page (Groups), a
// name from its qualified name's last part (a file's and module's from its
// path), a title equal to its path or its name, and an ID built from kind,
// path and qualified name as SymbolID and friends do.
const (
	TextPath        = 1 << iota // path stored
	TextName                    // name stored
	TextTitle                   // title stored (else TextTitleName says which default)
	TextTitleName               // title is the name (else the path)
	TextID                      // id stored
	TextTitleMark               // the stored title has NameMark where the name was (first occurrence)
	TextSnippetMark             // the snippet likewise
)

// NameMark stands for the page's name in a stored title or snippet: a
// signature holds its symbol's name and a Go doc comment starts with it,
// and names are the least compressible part of both (moby: −0.1 MB).
const NameMark = "\x00"

// markAt is where EncodeText puts NameMark in s in place of the first
// occurrence of name, or -1 when it leaves s alone (a name too short to
// be worth it, or a mark already in s, which UnmarkName could not undo).
func markAt(s, name string) int {
	if len(name) < 2 || strings.Contains(s, NameMark) {
		return -1
	}
	return strings.Index(s, name)
}

// UnmarkName undoes EncodeText's mark (markAt): s with its first NameMark replaced by name.
func UnmarkName(s, name string) string {
	i := strings.Index(s, NameMark)
	if i < 0 {
		return s
	}
	return s[:i] + name + s[i+len(NameMark):]
}

// SnippetMaxBytes bounds the stored first line of a page's doc.
const SnippetMaxBytes = 200

// Groups returns the page that groups each page in answers: a symbol's or
// doc section's file page when the graph has one, else the page itself.
func Groups(g *Graph) []uint32 {
	group := make([]uint32, len(g.Pages))
	for i := range g.Pages {
		p := &g.Pages[i]
		group[i] = uint32(i)
		if (p.Kind == KindSymbol || p.Kind == KindDoc) && p.Path != "" {
			if f, ok := g.Lookup(FileID(p.Path)); ok && int(f) < len(g.Pages) {
				group[i] = f
			}
		}
	}
	return group
}

// EncodeText returns the page text of g (see above) as its record offsets
// and records. group is Groups(g).
func EncodeText(g *Graph, group []uint32) (off []uint32, rec []byte) {
	off = make([]uint32, 0, len(g.Pages)+1)
	rec = make([]byte, 0, 64*len(g.Pages))
	for i := range g.Pages {
		off = append(off, uint32(len(rec)))
		rec = appendText(rec, g, i, group[i])
	}
	return append(off, uint32(len(rec))), rec
}

// textBlob is the stored form of EncodeText's offsets and records.
func textBlob(off []uint32, rec []byte) []byte {
	b, _ := textBlobCut(off, rec)
	return b
}

// textBlobCut is textBlob, and where its records start: compressed as a
// frame of offsets and one of records (compressParts), moby's text took
// 0.8 % less in 40 % of the time of one frame.
func textBlobCut(off []uint32, rec []byte) ([]byte, int) {
	blob := make([]byte, 0, len(rec)+2*len(off)+8)
	blob = binary.AppendUvarint(blob, uint64(len(off)))
	var last uint32
	for _, x := range off {
		blob = binary.AppendUvarint(blob, uint64(x-last))
		last = x
	}
	return append(blob, rec...), len(blob)
}

func appendText(b []byte, g *Graph, i int, grp uint32) []byte {
	p := &g.Pages[i]
	var flags uint64
	if grp == uint32(i) || g.Pages[grp].Path != p.Path {
		flags |= TextPath
	}
	if p.Name != DefaultName(p.Kind, p.Path, p.Qualified) {
		flags |= TextName
	}
	switch p.Title {
	case p.Path:
	case p.Name:
		flags |= TextTitleName
	default:
		flags |= TextTitle
	}
	if !isDefaultID(p.ID, p.Kind, p.Path, p.Name, p.Qualified) {
		flags |= TextID
	}
	// The marked title and snippet are written in place, not built as
	// strings first, and the default ID is compared by its parts: no
	// string per page (moby: EncodeText 30 → 19 ms and 70,796 → 39
	// allocations, BenchmarkEncodeText, 3 runs a side).
	title, titleAt := p.Title, -1
	if flags&TextTitle != 0 {
		if titleAt = markAt(title, p.Name); titleAt >= 0 {
			flags |= TextTitleMark
		}
	}
	snippet := FirstLine(p.Doc, SnippetMaxBytes)
	snippetAt := markAt(snippet, p.Name)
	if snippetAt >= 0 {
		flags |= TextSnippetMark
	}
	b = binary.AppendUvarint(b, flags)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	marked := func(s string, at int) {
		if at < 0 {
			str(s)
			return
		}
		b = binary.AppendUvarint(b, uint64(len(s)-len(p.Name)+len(NameMark)))
		b = append(b, s[:at]...)
		b = append(b, NameMark...)
		b = append(b, s[at+len(p.Name):]...)
	}
	if flags&TextPath != 0 {
		str(p.Path)
	}
	if flags&TextName != 0 {
		str(p.Name)
	}
	if flags&TextTitle != 0 {
		marked(title, titleAt)
	}
	if flags&TextID != 0 {
		str(p.ID)
	}
	str(p.Qualified)
	marked(snippet, snippetAt)
	return binary.AppendUvarint(b, uint64(max(0, p.Line)))
}

// DecodeText reads the offsets of a page-text blob; the records alias b.
func DecodeText(b []byte) (off []uint32, rec []byte, err error) {
	d := dec{b: b}
	n := d.count()
	off = make([]uint32, n)
	var last uint64
	for i := range off {
		last += d.uint()
		if last > uint64(len(b)) {
			d.fail()
			break
		}
		off[i] = uint32(last)
	}
	if d.err != nil || n == 0 || off[0] != 0 || int(off[n-1]) != len(d.b) {
		return nil, nil, fmt.Errorf("page text: %w", errCorrupt)
	}
	for i := 1; i < n; i++ {
		if off[i] < off[i-1] {
			return nil, nil, fmt.Errorf("page text: %w", errCorrupt)
		}
	}
	return off, d.b, nil
}

// DefaultName is the name a page record leaves out: a file's or module's
// base name, else the last dot-separated part of the qualified name.
func DefaultName(k Kind, p, qual string) string {
	switch k {
	case KindFile, KindModule:
		return path.Base(p)
	}
	return qual[strings.LastIndexByte(qual, '.')+1:]
}

// DefaultID is the ID a page record leaves out.
func DefaultID(k Kind, path, name, qual string) string {
	switch k {
	case KindModule:
		return ModuleID(path)
	case KindFile:
		return FileID(path)
	case KindSymbol:
		return SymbolID(path, qual)
	case KindDoc:
		return DocID(path, qual)
	case KindMemory:
		return MemoryID(name)
	}
	return ""
}

// isDefaultID reports whether id is DefaultID(k, path, name, qual),
// without building it.
func isDefaultID(id string, k Kind, path, name, qual string) bool {
	switch k {
	case KindModule:
		return joins(id, "module:", path, "", "")
	case KindFile:
		return joins(id, "file:", path, "", "")
	case KindSymbol:
		return joins(id, "symbol:", path, "#", qual)
	case KindDoc:
		return joins(id, "doc:", path, "#", qual)
	case KindMemory:
		return joins(id, "memory:", name, "", "")
	}
	return id == ""
}

// joins reports whether s is a+b+c+d.
func joins(s, a, b, c, d string) bool {
	if len(s) != len(a)+len(b)+len(c)+len(d) {
		return false
	}
	i := len(a)
	j := i + len(b)
	k := j + len(c)
	return s[:i] == a && s[i:j] == b && s[j:k] == c && s[k:] == d
}

// FirstLine returns the first non-empty line of s, at most maxBytes, cut at
// a rune boundary (and then marked with "…").
func FirstLine(s string, maxBytes int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if len(s) > maxBytes {
		s = s[:maxBytes]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		s += "…"
	}
	return s
}

// textReader walks one page-text record; its strings alias the record.
type textReader struct {
	b   []byte
	bad bool
}

// uint reads a uvarint.
func (r *textReader) uint() uint64 {
	var x uint64
	var s uint
	for i, c := range r.b {
		if i == 10 {
			break
		}
		if c < 0x80 {
			r.b = r.b[i+1:]
			return x | uint64(c)<<s
		}
		x |= uint64(c&0x7f) << s
		s += 7
	}
	r.bad, r.b = true, nil
	return 0
}

// str reads a string without copying it.
func (r *textReader) str() string {
	l := r.uint()
	if r.bad || uint64(len(r.b)) < l {
		r.bad, r.b = true, nil
		return ""
	}
	s := r.b[:l]
	r.b = r.b[l:]
	if len(s) == 0 {
		return ""
	}
	return unsafe.String(&s[0], len(s))
}

// pageText is one decoded record, before defaults are applied.
type pageText struct {
	flags                                uint64
	path, name, title, id, qual, snippet string
	line                                 int
}

func readText(rec []byte) (pageText, bool) {
	r := textReader{b: rec}
	var t pageText
	t.flags = r.uint()
	if t.flags&TextPath != 0 {
		t.path = r.str()
	}
	if t.flags&TextName != 0 {
		t.name = r.str()
	}
	if t.flags&TextTitle != 0 {
		t.title = r.str()
	}
	if t.flags&TextID != 0 {
		t.id = r.str()
	}
	t.qual = r.str()
	t.snippet = r.str()
	t.line = int(r.uint())
	return t, !r.bad && len(r.b) == 0
}
