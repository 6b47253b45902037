package graph

import (
	"github.com/wikitoolkit/wikitoolkit/parser"
)

// FileRecord is what a generation keeps of one indexed file: its stat and
// content hash (for incremental builds) and its parser facts (so an
// incremental build re-resolves references without reparsing).
type FileRecord struct {
	Path    string
	Lang    string
	Size    int64
	ModTime int64  // UnixNano
	Hash    uint64 // xxhash64 of the content
	Facts   *parser.Facts
}

func encodeFacts(e *enc, f *parser.Facts) {
	e.str(f.Language)
	e.str(f.Doc)
	e.uint(uint64(len(f.Defs)))
	for _, d := range f.Defs {
		e.uint(uint64(d.Kind))
		e.str(d.Name)
		e.str(d.Qualified)
		e.int(d.Parent)
		e.int(d.StartLine)
		e.int(d.EndLine - d.StartLine)
		e.str(d.Signature)
		e.str(d.Doc)
	}
	e.uint(uint64(len(f.Refs)))
	for _, r := range f.Refs {
		e.str(r.Name)
		e.str(r.Qualifier)
		e.uint(uint64(r.Kind))
		e.int(r.Line)
		e.int(r.Enclosing)
	}
	e.uint(uint64(len(f.Imports)))
	for _, im := range f.Imports {
		e.str(im.Path)
		e.str(im.Alias)
		e.int(im.Line)
	}
	e.uint(uint64(len(f.Diagnostics)))
	for _, dg := range f.Diagnostics {
		e.int(dg.Line)
		e.int(dg.Column)
		e.str(dg.Message)
	}
}

func decodeFacts(d *dec) *parser.Facts {
	f := &parser.Facts{Language: d.str(), Doc: d.str()}
	if n := d.count(); n > 0 {
		f.Defs = make([]parser.Def, n)
		for i := range f.Defs {
			df := &f.Defs[i]
			df.Kind = parser.DefKind(d.uint())
			df.Name = d.str()
			df.Qualified = d.str()
			df.Parent = d.int()
			df.StartLine = d.int()
			df.EndLine = df.StartLine + d.int()
			df.Signature = d.str()
			df.Doc = d.str()
		}
	}
	if n := d.count(); n > 0 {
		f.Refs = make([]parser.Ref, n)
		for i := range f.Refs {
			r := &f.Refs[i]
			r.Name = d.str()
			r.Qualifier = d.str()
			r.Kind = parser.RefKind(d.uint())
			r.Line = d.int()
			r.Enclosing = d.int()
		}
	}
	if n := d.count(); n > 0 {
		f.Imports = make([]parser.Import, n)
		for i := range f.Imports {
			f.Imports[i] = parser.Import{Path: d.str(), Alias: d.str(), Line: d.int()}
		}
	}
	if n := d.count(); n > 0 {
		f.Diagnostics = make([]parser.Diagnostic, n)
		for i := range f.Diagnostics {
			f.Diagnostics[i] = parser.Diagnostic{Line: d.int(), Column: d.int(), Message: d.str()}
		}
	}
	return f
}

// MarshalFileRecord encodes r (facts included).
func (r *FileRecord) marshal() []byte {
	e := enc{b: make([]byte, 0, 256)}
	e.str(r.Path)
	e.str(r.Lang)
	e.int(int(r.Size))
	e.int(int(r.ModTime))
	e.uint(r.Hash)
	encodeFacts(&e, r.Facts)
	return e.b
}

func unmarshalFileRecord(b []byte) (*FileRecord, error) {
	d := dec{b: b}
	r := &FileRecord{Path: d.str(), Lang: d.str(), Size: int64(d.int()), ModTime: int64(d.int()), Hash: d.uint()}
	r.Facts = decodeFacts(&d)
	return r, d.err
}

// PageRecord is a page as stored: the page itself plus its neighbours'
// IDs grouped by edge type and direction. In-edge lists of very popular
// pages are capped at MaxStoredEdges (InTotal keeps the real count).
type PageRecord struct {
	Page
	Out     [numEdgeTypes][]string
	In      [numEdgeTypes][]string
	InTotal [numEdgeTypes]int
}

// MaxStoredEdges caps the neighbour list stored per page, type and
// direction: a page shows its first 200 callers; status and related report
// the total.
const MaxStoredEdges = 200

func encodePage(e *enc, p *Page) {
	e.str(p.ID)
	e.uint(uint64(p.Kind))
	e.str(p.Title)
	e.str(p.Name)
	e.str(p.Qualified)
	e.str(p.SymKind)
	e.str(p.Path)
	e.int(p.Line)
	e.int(p.EndLine - p.Line)
	e.str(p.Lang)
	e.str(p.Doc)
	e.bool(p.Test)
}

func decodePage(d *dec, p *Page) {
	p.ID = d.str()
	p.Kind = Kind(d.uint())
	p.Title = d.str()
	p.Name = d.str()
	p.Qualified = d.str()
	p.SymKind = d.str()
	p.Path = d.str()
	p.Line = d.int()
	p.EndLine = p.Line + d.int()
	p.Lang = d.str()
	p.Doc = d.str()
	p.Test = d.bool()
}

func (r *PageRecord) marshal() []byte {
	e := enc{b: make([]byte, 0, 256)}
	encodePage(&e, &r.Page)
	for t := range numEdgeTypes {
		e.strs(r.Out[t])
		e.strs(r.In[t])
		e.int(r.InTotal[t])
	}
	return e.b
}

func unmarshalPageRecord(b []byte) (*PageRecord, error) {
	d := dec{b: b}
	r := &PageRecord{}
	decodePage(&d, &r.Page)
	for t := range numEdgeTypes {
		r.Out[t] = d.strs()
		r.In[t] = d.strs()
		r.InTotal[t] = d.int()
	}
	return r, d.err
}
