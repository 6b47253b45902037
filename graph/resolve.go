package graph

import (
	"github.com/wikitoolkit/wikitoolkit/graph/walk"

	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/parser"
)

// Reference resolution limits.
const (
	// maxFanOut: a name matched by more definitions than this within one
	// scope tier (String, New, Close, ...) gets no edge at all: thousands of
	// edges from one ambiguous call would drown the real ones.
	maxFanOut = 4
	// maxIdents caps the identifiers kept per page for text ranking.
	maxIdents = 96
	// maxLiterals caps the string literals kept per page for text ranking.
	maxLiterals = 64
)

// langFamily groups languages whose definitions may call each other.
func langFamily(lang string) string {
	switch lang {
	case "javascript", "typescript", "tsx", "svelte":
		return "js"
	case "c", "cpp":
		return "c"
	}
	return lang
}

func dirOf(p string) string {
	d := path.Dir(p)
	if d == "" {
		return "."
	}
	return d
}

// resolver turns file records into pages and edges.
type resolver struct {
	files    []*FileRecord
	pages    []Page
	edges    []Edge
	fileIdx  map[string]uint32 // path → file page
	modIdx   map[string]uint32 // dir → module page
	byName   map[string][]uint32
	fileSfx  map[string][]string
	dirSfx   map[string][]string
	goModule string
	// pageMod holds, per page, the module page of its directory, so scope
	// tests compare integers (path.Dir per candidate was 4 % of a build).
	pageMod []uint32
	cands   map[candKey]*candSet
	scratch []uint32
}

// candSet holds the definitions of one name in one language family, in
// page order, with indexes by module and by qualifier built on first use
// when the list is long: a name defined in thousands of places (New,
// String, Close in a large monorepo) must not make every reference to it
// scan them all — that made resolution quadratic (50k files: 320 s).
type candSet struct {
	all      []uint32
	byMod    map[uint32][]uint32
	byPrefix map[string][]uint32
}

type candKey struct{ name, fam string }

// candIndexMin is the candidate count from which a candSet builds indexes.
var candIndexMin = 32 // a variable so tests can force either path

func (r *resolver) candidates(name, fam string) *candSet {
	k := candKey{name, fam}
	if cs, ok := r.cands[k]; ok {
		return cs
	}
	cs := &candSet{}
	for _, c := range r.byName[name] {
		if langFamily(r.pages[c].Lang) == fam {
			cs.all = append(cs.all, c)
		}
	}
	r.cands[k] = cs
	return cs
}

// inMod returns the candidates in module page d.
func (r *resolver) inMod(cs *candSet, d uint32) []uint32 {
	if len(cs.all) < candIndexMin {
		out := r.scratch[:0]
		for _, c := range cs.all {
			if r.pageMod[c] == d {
				out = append(out, c)
			}
		}
		r.scratch = out
		return out
	}
	if cs.byMod == nil {
		cs.byMod = map[uint32][]uint32{}
		for _, c := range cs.all {
			cs.byMod[r.pageMod[c]] = append(cs.byMod[r.pageMod[c]], c)
		}
	}
	return cs.byMod[d]
}

// withQualifier returns the candidates whose qualified name continues
// q + "." ("Server" of s.Server.Close; "pkg.Type" of pkg.Type.Method).
func (r *resolver) withQualifier(cs *candSet, q string) []uint32 {
	if len(cs.all) < candIndexMin {
		out := r.scratch[:0]
		for _, c := range cs.all {
			if qual := r.pages[c].Qualified; len(qual) > len(q) && qual[len(q)] == '.' && strings.HasPrefix(qual, q) {
				out = append(out, c)
			}
		}
		r.scratch = out
		return out
	}
	if cs.byPrefix == nil {
		cs.byPrefix = map[string][]uint32{}
		for _, c := range cs.all {
			qual := r.pages[c].Qualified
			for i := range len(qual) {
				if qual[i] == '.' {
					cs.byPrefix[qual[:i]] = append(cs.byPrefix[qual[:i]], c)
				}
			}
		}
	}
	return cs.byPrefix[q]
}

// inRange returns the candidates c with lo < c < hi (all is in page order).
func inRange(all []uint32, lo, hi uint32) []uint32 {
	i, _ := slices.BinarySearch(all, lo+1)
	j, _ := slices.BinarySearch(all, hi)
	return all[i:max(i, j)]
}

// buildGraph derives every page and edge from the file records (sorted by path).
func buildGraph(files []*FileRecord, goModule string) *Graph {
	r := &resolver{
		files:    files,
		fileIdx:  make(map[string]uint32, len(files)),
		modIdx:   make(map[string]uint32),
		byName:   make(map[string][]uint32),
		fileSfx:  make(map[string][]string),
		dirSfx:   make(map[string][]string),
		goModule: goModule,
		cands:    make(map[candKey]*candSet),
	}
	r.addModules()
	symStart := r.addFilesAndSymbols()
	r.addImportsAndRefs(symStart)
	return NewGraph(r.pages, r.edges)
}

func (r *resolver) add(p Page) uint32 {
	r.pages = append(r.pages, p)
	return uint32(len(r.pages) - 1)
}

// addInDir adds a page that lives in the directory of module page mod.
func (r *resolver) addInDir(p Page, mod uint32) uint32 {
	for len(r.pageMod) < len(r.pages) {
		r.pageMod = append(r.pageMod, 0)
	}
	r.pageMod = append(r.pageMod, mod)
	return r.add(p)
}

func (r *resolver) edge(from, to uint32, t EdgeType) {
	if from != to {
		r.edges = append(r.edges, Edge{From: from, To: to, Type: t})
	}
}

func (r *resolver) addModules() {
	dirs := map[string]bool{".": true}
	for _, f := range r.files {
		for d := dirOf(f.Path); !dirs[d]; d = dirOf(d) {
			dirs[d] = true
		}
	}
	sorted := make([]string, 0, len(dirs))
	for d := range dirs {
		sorted = append(sorted, d)
	}
	sort.Strings(sorted)
	// Module doc: a Go package comment (doc.go first), else the README's first paragraph.
	docs := map[string]string{}
	prio := map[string]int{}
	for _, f := range r.files {
		if f.Facts == nil || f.Facts.Doc == "" {
			continue
		}
		base := strings.ToLower(path.Base(f.Path))
		p := 0
		switch {
		case base == "doc.go":
			p = 4
		case strings.HasPrefix(base, "readme"):
			p = 3
		case base == "__init__.py" || base == "mod.rs" || base == "lib.rs" || base == "index.ts" || base == "index.js":
			p = 2
		case f.Lang == "go" && strings.HasPrefix(f.Facts.Doc, "Package "):
			p = 1
		default:
			continue
		}
		d := dirOf(f.Path)
		if p > prio[d] {
			prio[d], docs[d] = p, f.Facts.Doc
		}
	}
	for _, d := range sorted {
		name := path.Base(d)
		if d == "." {
			name = "."
		}
		i := r.add(Page{ID: ModuleID(d), Kind: KindModule, Title: d, Name: name, Path: d, Doc: docs[d], Test: d != "." && walk.IsTest(d+"/x")})
		r.modIdx[d] = i
		if d != "." {
			r.edge(r.modIdx[dirOf(d)], i, Contains)
		}
		for s := d; d != "."; {
			r.dirSfx[s] = append(r.dirSfx[s], d)
			j := strings.IndexByte(s, '/')
			if j < 0 {
				break
			}
			s = s[j+1:]
		}
	}
}

// identKey is a name used inside one definition (-1: the file's top level).
type identKey struct {
	enclosing int
	name      string
}

// identsByDef returns, at index e+1 for each e from -1 (the file's top
// level) to defs-1, the distinct names the refs enclosed by e use, in
// order, at most limit of them: in one pass over the refs, not one per
// definition (which cost defs × refs on large files).
func identsByDef(refs []parser.Ref, defs, limit int) [][]string {
	out := make([][]string, defs+1)
	seen := make(map[identKey]struct{}, len(refs))
	for _, rf := range refs {
		e := rf.Enclosing
		if e < -1 || e >= defs || len(out[e+1]) >= limit {
			continue
		}
		k := identKey{e, rf.Name}
		if _, ok := seen[k]; ok {
			continue
		}
		seen[k] = struct{}{}
		out[e+1] = append(out[e+1], rf.Name)
	}
	return out
}

// literalsByDef groups a file's literals by definition: index 0 is the
// file level, i+1 definition i; at most limit each (the parser already
// made them distinct per definition).
func literalsByDef(f *parser.Facts, limit int) [][]string {
	if len(f.Literals) == 0 {
		return nil
	}
	out := make([][]string, len(f.Defs)+1)
	for _, l := range f.Literals {
		if i := l.Enclosing + 1; i >= 0 && i < len(out) && len(out[i]) < limit {
			out[i] = append(out[i], l.Text)
		}
	}
	return out
}

// addFilesAndSymbols adds file, symbol and doc pages; it returns, per file,
// the page index of its first definition (defs are added in order).
func (r *resolver) addFilesAndSymbols() []uint32 {
	symStart := make([]uint32, len(r.files))
	// Every file and definition is a page: sized up front, the pages are
	// not copied as they grow, which held two or three copies of them at
	// once (50k-file repo: 344 MB for 127 MB of pages, at the build's peak).
	more := len(r.files)
	for _, f := range r.files {
		if f.Facts != nil {
			more += len(f.Facts.Defs)
		}
	}
	r.pages = slices.Grow(r.pages, more)
	r.pageMod = slices.Grow(r.pageMod, len(r.pages)+more-len(r.pageMod))
	for fi, f := range r.files {
		facts := f.Facts
		if facts == nil {
			facts = &parser.Facts{}
		}
		test := walk.IsTest(f.Path)
		mod := r.modIdx[dirOf(f.Path)]
		idents := identsByDef(facts.Refs, len(facts.Defs), maxIdents)
		lits := literalsByDef(facts, maxLiterals)
		litsOf := func(i int) []string {
			if i+1 < len(lits) {
				return lits[i+1]
			}
			return nil
		}
		fp := r.addInDir(Page{ID: FileID(f.Path), Kind: KindFile, Title: f.Path, Name: path.Base(f.Path), Path: f.Path,
			Line: 1, Lang: f.Lang, Doc: facts.Doc, Idents: idents[0], Literals: litsOf(-1), Test: test,
			Hash: uint32(f.Hash) | 1}, mod)
		r.fileIdx[f.Path] = fp
		r.edge(r.modIdx[dirOf(f.Path)], fp, Contains)
		for s := f.Path; ; {
			r.fileSfx[s] = append(r.fileSfx[s], f.Path)
			j := strings.IndexByte(s, '/')
			if j < 0 {
				break
			}
			s = s[j+1:]
		}
		symStart[fi] = uint32(len(r.pages))
		seen := map[string]int{}
		for di := range facts.Defs {
			d := &facts.Defs[di]
			qual := pageQual(seen, d)
			p := Page{Name: d.Name, Qualified: qual, Path: f.Path, Line: d.StartLine, EndLine: d.EndLine, Lang: f.Lang,
				Doc: d.Doc, Test: test}
			if di < len(f.DefHash) && di < len(f.BodyHash) {
				p.Hash, p.BodyHash = f.DefHash[di], f.BodyHash[di]
			}
			if d.Kind == parser.KindSection {
				p.ID, p.Kind, p.Title = DocID(f.Path, qual), KindDoc, d.Name
			} else {
				p.ID, p.Kind, p.SymKind = SymbolID(f.Path, qual), KindSymbol, d.Kind.String()
				p.Title = d.Signature
				if p.Title == "" {
					p.Title = d.Kind.String() + " " + d.Qualified
				}
				p.Idents = idents[di+1]
				p.Literals = litsOf(di)
			}
			pi := r.addInDir(p, mod)
			parent := fp
			if d.Parent >= 0 && d.Parent < di {
				parent = symStart[fi] + uint32(d.Parent)
			}
			r.edge(parent, pi, Contains)
			if p.Kind == KindSymbol && d.Name != "" {
				r.byName[d.Name] = append(r.byName[d.Name], pi)
			}
		}
	}
	return symStart
}

// pageQual is the qualified name of a definition's page: its own, else
// its name, else "_", with "~n" added to the nth of a file's definitions
// that share it. seen counts them in the file so far. (Stored facts count
// on this: derivedDefs.)
func pageQual(seen map[string]int, d *parser.Def) string {
	qual := d.Qualified
	if qual == "" {
		qual = d.Name
	}
	if qual == "" {
		qual = "_"
	}
	seen[qual]++
	if n := seen[qual]; n > 1 {
		qual += "~" + strconv.Itoa(n)
	}
	return qual
}

// resolveImport finds the file or module an import names, or false.
func (r *resolver) resolveImport(f *FileRecord, imp string) (uint32, bool) {
	dir := dirOf(f.Path)
	lookFile := func(p string) (uint32, bool) {
		p = path.Clean(p)
		i, ok := r.fileIdx[p]
		return i, ok
	}
	lookSuffix := func(s string, exts []string) (uint32, bool) {
		for _, e := range exts {
			if c := r.fileSfx[s+e]; len(c) > 0 {
				return r.fileIdx[shortest(c)], true
			}
		}
		if c := r.dirSfx[s]; len(c) > 0 {
			return r.modIdx[shortest(c)], true
		}
		return 0, false
	}
	switch f.Lang {
	case "go":
		if r.goModule != "" && strings.HasPrefix(imp, r.goModule+"/") {
			if i, ok := r.modIdx[strings.TrimPrefix(imp, r.goModule+"/")]; ok {
				return i, true
			}
		}
		first, _, _ := strings.Cut(imp, "/")
		if !strings.Contains(first, ".") {
			return 0, false // standard library
		}
		parts := strings.Split(imp, "/")
		for i := 0; i < len(parts)-1; i++ {
			if c := r.dirSfx[strings.Join(parts[i:], "/")]; len(c) > 0 {
				return r.modIdx[shortest(c)], true
			}
		}
	case "python":
		dots := len(imp) - len(strings.TrimLeft(imp, "."))
		rest := strings.ReplaceAll(imp[dots:], ".", "/")
		exts := []string{".py", "/__init__.py", ".pyi"}
		if dots > 0 {
			base := dir
			for i := 1; i < dots; i++ {
				base = dirOf(base)
			}
			for _, e := range exts {
				if i, ok := lookFile(path.Join(base, rest) + e); ok {
					return i, true
				}
			}
			if i, ok := r.modIdx[path.Clean(path.Join(base, rest))]; ok {
				return i, true
			}
			return 0, false
		}
		if rest != "" {
			return lookSuffix(rest, exts)
		}
	case "javascript", "typescript", "tsx":
		if strings.HasPrefix(imp, ".") {
			base := path.Join(dir, imp)
			for _, e := range []string{"", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".d.ts", "/index.ts", "/index.tsx", "/index.js"} {
				if i, ok := lookFile(base + e); ok {
					return i, true
				}
			}
			if i, ok := r.modIdx[path.Clean(base)]; ok {
				return i, true
			}
		}
	case "svelte":
		// A component's script imports modules and components by relative path.
		if strings.HasPrefix(imp, ".") {
			base := path.Join(dir, imp)
			for _, e := range []string{"", ".ts", ".js", ".svelte", "/index.ts", "/index.js"} {
				if i, ok := lookFile(base + e); ok {
					return i, true
				}
			}
		}
	case "html":
		// Jinja extends/include/import name a template by its path under a
		// templates folder: the file whose path ends with it.
		if c := r.fileSfx[strings.TrimPrefix(imp, "/")]; len(c) > 0 {
			return r.fileIdx[shortest(c)], true
		}
	case "c", "cpp":
		if i, ok := lookFile(path.Join(dir, imp)); ok {
			return i, true
		}
		if c := r.fileSfx[imp]; len(c) > 0 && strings.Contains(imp, "/") || len(c) == 1 {
			return r.fileIdx[shortest(c)], true
		}
	case "rust":
		s := imp
		for _, p := range []string{"crate::", "self::", "super::"} {
			s = strings.TrimPrefix(s, p)
		}
		parts := strings.Split(s, "::")
		for n := len(parts); n > 0; n-- {
			if i, ok := lookSuffix(strings.Join(parts[:n], "/"), []string{".rs", "/mod.rs"}); ok {
				return i, true
			}
		}
	case "java", "csharp":
		s := strings.TrimSuffix(imp, ".*")
		ext := ".java"
		if f.Lang == "csharp" {
			ext = ".cs"
		}
		if i, ok := lookSuffix(strings.ReplaceAll(s, ".", "/"), []string{ext}); ok && strings.Contains(s, ".") {
			return i, true
		}
	case "kotlin", "scala", "groovy":
		// A package path names a file by its class (a.b.Cart → a/b/Cart.kt),
		// a member of one (a.b.Cart.empty), or the package's folder.
		exts := map[string][]string{"kotlin": {".kt", ".kts"}, "scala": {".scala", ".sc"}, "groovy": {".groovy", ".gradle"}}[f.Lang]
		parts := strings.Split(strings.TrimSuffix(strings.TrimSuffix(imp, ".*"), "._"), ".")
		for n := len(parts); n > 1 && n >= len(parts)-1; n-- {
			if i, ok := lookSuffix(strings.Join(parts[:n], "/"), exts); ok {
				return i, true
			}
		}
	case "swift":
		// import Inventory (or Inventory.Sub) names a module of the
		// package: its target folder, Sources/Inventory (SwiftPM), else a
		// top-level folder of that name (an Xcode project). Frameworks
		// (Foundation, UIKit) have neither.
		name, _, _ := strings.Cut(imp, ".")
		if name == "" || strings.ContainsAny(name, "/\\ ") {
			return 0, false
		}
		if c := r.dirSfx["Sources/"+name]; len(c) > 0 {
			return r.modIdx[shortest(c)], true
		}
		if i, ok := r.modIdx[name]; ok {
			return i, true
		}
	case "ruby":
		if i, ok := lookFile(path.Join(dir, imp) + ".rb"); ok {
			return i, true
		}
		return lookSuffix(imp, []string{".rb"})
	case "php":
		s := strings.ReplaceAll(strings.TrimPrefix(imp, "\\"), "\\", "/")
		if strings.HasSuffix(s, ".php") {
			if i, ok := lookFile(path.Join(dir, s)); ok {
				return i, true
			}
		}
		return lookSuffix(strings.TrimSuffix(s, ".php"), []string{".php"})
	case "lua":
		// require("lazy.core.config") → lua/lazy/core/config.lua or
		// .../config/init.lua.
		if s := strings.ReplaceAll(imp, ".", "/"); s != "" && !strings.ContainsAny(imp, "/\\") {
			return lookSuffix(s, []string{".lua", "/init.lua"})
		}
	case "bash":
		// source ./lib.sh, . "$DIR/lib.sh", source "${NVM_DIR}/nvm.sh": a
		// leading variable stands for some directory of the repository.
		s := imp
		if strings.HasPrefix(s, "$") {
			j := strings.IndexByte(s, '/')
			if j < 0 {
				return 0, false
			}
			s = s[j+1:]
		} else if i, ok := lookFile(path.Join(dir, s)); ok {
			return i, true
		}
		if s != "" && !strings.ContainsAny(s, "$`*?") {
			if c := r.fileSfx[path.Clean(s)]; len(c) > 0 {
				return r.fileIdx[shortest(c)], true
			}
		}
	case "elixir":
		// alias Plug.Conn → plug/conn.ex: module names end the path of the
		// file that defines them. A one-word name (Logger) must be a file
		// at lib/ to count: most are the standard library's.
		if imp == "" || strings.ContainsAny(imp, "{} ") {
			return 0, false
		}
		parts := strings.Split(imp, ".")
		for i, p := range parts {
			parts[i] = snakeCase(p)
		}
		s := strings.Join(parts, "/")
		if len(parts) == 1 {
			return lookFile("lib/" + s + ".ex")
		}
		return lookSuffix(s, []string{".ex"})
	case "ocaml":
		// open Foo.Bar → foo.ml (the file is the module); Bar may be a
		// module of a wrapped library, bar.ml.
		parts := strings.Split(imp, ".")
		for _, p := range []string{parts[0], parts[len(parts)-1]} {
			if p == "" {
				continue
			}
			name := strings.ToLower(p[:1]) + p[1:]
			if c := r.fileSfx[name+".ml"]; len(c) > 0 {
				return r.fileIdx[shortest(c)], true
			}
		}
	case "elm":
		// import Api.Endpoint → src/Api/Endpoint.elm.
		if imp != "" {
			if c := r.fileSfx[strings.ReplaceAll(imp, ".", "/")+".elm"]; len(c) > 0 {
				return r.fileIdx[shortest(c)], true
			}
		}
	case "hcl":
		// A Terraform module source that is a local path names a folder.
		if strings.HasPrefix(imp, "./") || strings.HasPrefix(imp, "../") {
			if i, ok := r.modIdx[path.Clean(path.Join(dir, imp))]; ok {
				return i, true
			}
		}
	case "protobuf":
		// Relative to an include root: the file itself, else the one
		// whose path ends so.
		if i, ok := lookFile(path.Join(dir, imp)); ok {
			return i, true
		}
		if c := r.fileSfx[imp]; len(c) > 0 {
			return r.fileIdx[shortest(c)], true
		}
	case "cue":
		// A module path (example.com/infra/kube): the folder whose path
		// ends with the longest tail of it; standard packages have no dot.
		first, _, _ := strings.Cut(imp, "/")
		if !strings.Contains(first, ".") {
			return 0, false
		}
		imp, _, _ = strings.Cut(imp, ":") // a package qualifier
		parts := strings.Split(imp, "/")
		for i := 1; i < len(parts); i++ {
			if c := r.dirSfx[strings.Join(parts[i:], "/")]; len(c) > 0 {
				return r.modIdx[shortest(c)], true
			}
		}
	}
	return 0, false
}

// snakeCase turns an Elixir module name segment into its file name the way
// Macro.underscore does: "Conn" → "conn", "HTTPServer" → "http_server",
// "CSRFProtection" → "csrf_protection".
func snakeCase(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			if i > 0 {
				prev := s[i-1]
				nextLower := i+1 < len(s) && s[i+1] >= 'a' && s[i+1] <= 'z'
				if prev >= 'a' && prev <= 'z' || prev >= '0' && prev <= '9' || prev >= 'A' && prev <= 'Z' && nextLower {
					sb.WriteByte('_')
				}
			}
			c += 'a' - 'A'
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

func shortest(c []string) string {
	best := c[0]
	for _, s := range c[1:] {
		if len(s) < len(best) || len(s) == len(best) && s < best {
			best = s
		}
	}
	return best
}

func (r *resolver) addImportsAndRefs(symStart []uint32) {
	for fi, f := range r.files {
		if f.Facts == nil {
			continue
		}
		fp := r.fileIdx[f.Path]
		fam := langFamily(f.Lang)
		imported := map[uint32]bool{}   // module pages of imported modules and files
		aliasDir := map[string]uint32{} // local name → imported module page
		mod := r.pageMod[fp]
		symEnd := uint32(len(r.pages))
		if fi+1 < len(r.files) {
			symEnd = r.fileIdx[r.files[fi+1].Path]
		}
		for _, im := range f.Facts.Imports {
			t, ok := r.resolveImport(f, im.Path)
			if !ok {
				continue
			}
			r.edge(fp, t, Imports)
			d := t
			if r.pages[t].Kind == KindFile {
				d = r.pageMod[t]
			}
			imported[d] = true
			local := im.Alias
			if local == "" {
				local = path.Base(strings.NewReplacer(".", "/", "::", "/", "\\", "/").Replace(im.Path))
			}
			aliasDir[local] = d
		}
		for _, rf := range f.Facts.Refs {
			if len(r.byName[rf.Name]) == 0 {
				continue
			}
			cs := r.candidates(rf.Name, fam)
			if len(cs.all) == 0 {
				continue
			}
			from := fp
			if rf.Enclosing >= 0 && rf.Enclosing < len(f.Facts.Defs) {
				from = symStart[fi] + uint32(rf.Enclosing)
			}
			// A qualifier naming an import narrows to that module.
			if d, ok := aliasDir[rf.Qualifier]; ok && rf.Qualifier != "" {
				r.link(from, r.inMod(cs, d))
				continue
			}
			if rf.Qualifier != "" && rf.Qualifier != "self" && rf.Qualifier != "this" && rf.Qualifier != "cls" {
				if r.link(from, r.withQualifier(cs, rf.Qualifier)) {
					continue
				}
			}
			switch {
			case r.link(from, inRange(cs.all, fp, symEnd)):
			case r.link(from, r.inMod(cs, mod)):
			case len(imported) > 0 && r.link(from, r.inImported(cs, imported)):
			case len(cs.all) == 1:
				r.edge(from, cs.all[0], References)
			}
		}
	}
}

// inImported returns the candidates in any of the imported modules, in page order.
func (r *resolver) inImported(cs *candSet, imported map[uint32]bool) []uint32 {
	if len(cs.all) < candIndexMin || len(imported) > len(cs.all) {
		out := r.scratch[:0]
		for _, c := range cs.all {
			if imported[r.pageMod[c]] {
				out = append(out, c)
			}
		}
		r.scratch = out
		return out
	}
	var out []uint32
	for d := range imported {
		out = append(out, r.inMod(cs, d)...)
	}
	slices.Sort(out)
	return out
}

// link adds reference edges from `from` to the candidates a tier kept,
// unless there are none or more than maxFanOut. It reports whether the
// tier decided the reference (some matched), so lower tiers are not tried.
func (r *resolver) link(from uint32, kept []uint32) bool {
	if len(kept) == 0 {
		return false
	}
	if len(kept) > maxFanOut {
		return true
	}
	for _, c := range kept {
		r.edge(from, c, References)
	}
	return true
}

// goModulePath reads the module path of root/go.mod, or "".
func goModulePath(root string) string {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], "\"`")
		}
	}
	return ""
}
