package graph

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/benchmarks/synth"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
	"github.com/wikitoolkit/wikitoolkit/parser"
)

// treeRecords builds root with a real build and returns its file records
// (from the store, as an incremental build would see them) and Go module.
func treeRecords(t *testing.T, root string) ([]*FileRecord, string) {
	t.Helper()
	build(t, root, true)
	s := open(t, root)
	recs := indexRecords(t, s)
	return recs, goModulePath(root)
}

// testTrees returns the trees the piece tests resolve: the polyglot
// fixture, each fixtures/languages tree, and a 300-file synthetic one.
func testTrees(t *testing.T) map[string]string {
	trees := map[string]string{"polyglot": walktest.CopyFixture(t, "polyglot")}
	dirs, err := os.ReadDir(filepath.Join("..", "fixtures", "languages"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if d.IsDir() {
			trees[d.Name()] = walktest.CopyFixture(t, filepath.Join("languages", d.Name()))
		}
	}
	root := t.TempDir()
	if _, err := synth.Write(root, synth.Options{Files: 300, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	trees["synth"] = root
	// A Go module whose packages import each other by module path, with
	// names defined in every package (New, Close: fan-out) and in few.
	root = t.TempDir()
	walktest.WriteFile(t, root, "go.mod", "module example.com/m\n")
	for i := range 12 {
		dir := fmt.Sprintf("p%02d", i)
		walktest.WriteFile(t, root, dir+"/a.go", fmt.Sprintf(`package %s

import q "example.com/m/p%02d"

type Server struct{}

func New() *Server { return nil }

func (s *Server) Close() { s.flush(); New(); q.New(); Helper%d(); Boot() }

func (s *Server) flush() { Server.Close(nil); q.Stop() }

func Use(x *q.Server, w Writer) { x.Close(); w.Flush(); x.flush() }
`, dir, (i+1)%12, i%3))
		walktest.WriteFile(t, root, dir+"/b.go", fmt.Sprintf("package %s\n\nimport \"example.com/m/p%02d\"\n\nfunc Helper%d() { New(); Only(); p%02d.Helper%d() }\n", dir, (i+5)%12, i%3, (i+5)%12, (i+5)%3))
		if i%4 == 0 {
			walktest.WriteFile(t, root, dir+"/boot.go", fmt.Sprintf("package %s\n\nfunc Boot() {}\n\nfunc Stop() {}\n", dir))
		}
	}
	walktest.WriteFile(t, root, "z/only.go", "package z\n\nfunc Only() {}\n")
	trees["gomodule"] = root
	return trees
}

// dumpPieces renders pieces as text, one line per page and edge.
func dumpPieces(pcs []Piece) []string {
	var out []string
	for _, pc := range pcs {
		for i, p := range pc.Pages {
			out = append(out, fmt.Sprintf("%s %d %+v", pc.Path, i, p))
		}
		for _, e := range pc.Edges {
			from := "module"
			if e.From != FromModule {
				from = pc.Pages[e.From].ID
			}
			out = append(out, fmt.Sprintf("%s -%s-> %s", from, e.Type, e.To))
		}
	}
	return out
}

// TestResolvePiecesIsBuildGraph: pieces resolved against a MemWorld of the
// whole tree assemble into the graph a full build makes, page for page and
// edge for edge (the goldens check buildGraph itself).
func TestResolvePiecesIsBuildGraph(t *testing.T) {
	for name, root := range testTrees(t) {
		recs, gm := treeRecords(t, root)
		want := dumpGraph(t, buildGraph(recs, gm))
		got := dumpGraph(t, AssembleGraph(ModulePiece(recs), ResolvePieces(recs, NewMemWorld(recs, gm))))
		if i, x, y, ok := walktest.FirstDiff(strings.Split(want, "\n"), strings.Split(got, "\n")); ok {
			t.Fatalf("%s: assembled pieces differ from buildGraph at line %d:\n  buildGraph: %s\n  pieces:     %s", name, i, x, y)
		}
	}
}

// cloneRecord deep-copies what the mutations below change.
func cloneRecord(r *FileRecord) *FileRecord {
	c := *r
	if r.Facts != nil {
		f := *r.Facts
		f.Defs = slices.Clone(f.Defs)
		f.Refs = slices.Clone(f.Refs)
		f.Literals = slices.Clone(f.Literals)
		f.Imports = slices.Clone(f.Imports)
		c.Facts = &f
	}
	c.DefHash, c.BodyHash = slices.Clone(r.DefHash), slices.Clone(r.BodyHash)
	return &c
}

// mutator makes seeded random changes to a tree's records.
type mutator struct {
	r    *rand.Rand
	recs map[string]*FileRecord
	// uses are the (qualifier, name) pairs of the tree's references, by
	// language family: the names worth defining.
	uses map[string][][2]string
	n    int
	// gm is the tree's Go module path; gm0 the one it started with.
	gm, gm0 string
}

func (m *mutator) paths() []string {
	var ps []string
	for p := range m.recs {
		ps = append(ps, p)
	}
	slices.Sort(ps)
	return ps
}

func (m *mutator) pick() *FileRecord {
	ps := m.paths()
	return m.recs[ps[m.r.IntN(len(ps))]]
}

// useFor returns a name (and maybe a qualifier) that references of f's
// language family use, else a fresh name.
func (m *mutator) useFor(f *FileRecord) (q, name string) {
	us := m.uses[langFamily(f.Lang)]
	if len(us) == 0 || m.r.IntN(8) == 0 {
		m.n++
		return "", fmt.Sprintf("fresh%d", m.n)
	}
	u := us[m.r.IntN(len(us))]
	return u[0], u[1]
}

// symbolDefs returns the indexes of f's non-section definitions.
func symbolDefs(f *FileRecord) []int {
	var out []int
	if f.Facts != nil {
		for i, d := range f.Facts.Defs {
			if d.Kind != parser.KindSection {
				out = append(out, i)
			}
		}
	}
	return out
}

// change applies one random change; it returns what it did and the paths
// it touched.
func (m *mutator) change() (string, []string) {
	f := m.pick()
	switch k := m.r.IntN(12); {
	case k < 2: // add a definition
		c := cloneRecord(f)
		if c.Facts == nil {
			c.Facts = &parser.Facts{Language: c.Lang}
		}
		q, name := m.useFor(c)
		d := parser.Def{Kind: parser.KindFunc, Name: name, Qualified: name, Parent: -1, StartLine: 900, EndLine: 901}
		if q != "" && q != "self" && q != "this" && q != "cls" && m.r.IntN(2) == 0 {
			d.Qualified, d.Kind = q+"."+name, parser.KindMethod
		}
		c.Facts.Defs = append(c.Facts.Defs, d)
		if c.DefHash != nil {
			c.DefHash, c.BodyHash = append(c.DefHash, 7), append(c.BodyHash, 0)
		}
		m.recs[c.Path] = c
		return "add " + d.Qualified + " to " + c.Path, []string{c.Path}
	case k < 4: // rename a definition
		defs := symbolDefs(f)
		if len(defs) == 0 {
			return "", nil
		}
		c := cloneRecord(f)
		d := &c.Facts.Defs[defs[m.r.IntN(len(defs))]]
		_, name := m.useFor(c)
		old := d.Qualified
		if i := strings.LastIndexByte(d.Qualified, '.'); i >= 0 {
			d.Qualified = d.Qualified[:i+1] + name
		} else {
			d.Qualified = name
		}
		d.Name = name
		m.recs[c.Path] = c
		return "rename " + old + " to " + d.Qualified + " in " + c.Path, []string{c.Path}
	case k < 5: // remove a definition that encloses no other
		var leaves []int
		for _, i := range symbolDefs(f) {
			if !slices.ContainsFunc(f.Facts.Defs, func(d parser.Def) bool { return d.Parent == i }) {
				leaves = append(leaves, i)
			}
		}
		if len(leaves) == 0 {
			return "", nil
		}
		c := cloneRecord(f)
		x := leaves[m.r.IntN(len(leaves))]
		what := "remove " + c.Facts.Defs[x].Qualified + " from " + c.Path
		parent := c.Facts.Defs[x].Parent
		shift := func(i int) int {
			switch {
			case i == x:
				return shiftIndex(parent, x)
			case i > x:
				return i - 1
			}
			return i
		}
		c.Facts.Defs = slices.Delete(c.Facts.Defs, x, x+1)
		for i := range c.Facts.Defs {
			c.Facts.Defs[i].Parent = shift(c.Facts.Defs[i].Parent)
		}
		for i := range c.Facts.Refs {
			c.Facts.Refs[i].Enclosing = int32(shift(int(c.Facts.Refs[i].Enclosing)))
		}
		for i := range c.Facts.Literals {
			c.Facts.Literals[i].Enclosing = shift(c.Facts.Literals[i].Enclosing)
		}
		if x < len(c.DefHash) && x < len(c.BodyHash) {
			c.DefHash, c.BodyHash = slices.Delete(c.DefHash, x, x+1), slices.Delete(c.BodyHash, x, x+1)
		}
		m.recs[c.Path] = c
		return what, []string{c.Path}
	case k < 6: // edit a body: no definition changes
		c := cloneRecord(f)
		c.Hash++
		m.recs[c.Path] = c
		return "body " + c.Path, []string{c.Path}
	case k < 7: // add a file: a copy of this one, beside it or in a new folder
		c := cloneRecord(f)
		c.Path = m.newPath(f.Path)
		m.recs[c.Path] = c
		return "add " + c.Path, []string{c.Path}
	case k < 8: // add a file that defines and uses nothing: it moves imports alone
		c := cloneRecord(f)
		c.Path = m.newPath(f.Path)
		if c.Facts != nil {
			c.Facts.Defs, c.Facts.Refs, c.Facts.Literals = nil, nil, nil
		}
		c.DefHash, c.BodyHash = nil, nil
		m.recs[c.Path] = c
		return "add empty " + c.Path, []string{c.Path}
	case k < 9: // add such a file in a new folder named as an import ends
		var imps []string
		for _, p := range m.paths() {
			if r := m.recs[p]; r.Facts != nil {
				for _, im := range r.Facts.Imports {
					imps = append(imps, im.Path)
				}
			}
		}
		if len(imps) == 0 {
			return "", nil
		}
		s := strings.NewReplacer(".", "/", "::", "/", "\\", "/").Replace(imps[m.r.IntN(len(imps))])
		var parts []string
		for _, e := range strings.Split(s, "/") {
			if e != "" {
				parts = append(parts, e)
			}
		}
		if len(parts) == 0 {
			return "", nil
		}
		parts = parts[max(0, len(parts)-1-m.r.IntN(2)):]
		m.n++
		c := cloneRecord(f)
		c.Path = fmt.Sprintf("zz%d/%s/%s", m.n, strings.Join(parts, "/"), path.Base(f.Path))
		if m.r.IntN(2) == 0 {
			c.Path = fmt.Sprintf("%s/%s", strings.Join(parts, "/"), path.Base(f.Path))
		}
		if c.Facts != nil {
			c.Facts.Defs, c.Facts.Refs, c.Facts.Literals = nil, nil, nil
		}
		c.DefHash, c.BodyHash = nil, nil
		if m.recs[c.Path] != nil {
			return "", nil
		}
		m.recs[c.Path] = c
		return "add empty " + c.Path, []string{c.Path}
	case k < 10: // go.mod names another module, or the first again
		if m.gm0 == "" {
			return "", nil
		}
		if m.gm == m.gm0 {
			m.gm = "example.org/other"
		} else {
			m.gm = m.gm0
		}
		return "go.mod: module " + m.gm, nil
	case k < 11:
		if len(m.recs) < 2 {
			return "", nil
		}
		delete(m.recs, f.Path)
		return "remove " + f.Path, []string{f.Path}
	default:
		c := cloneRecord(f)
		c.Path = m.newPath(f.Path)
		delete(m.recs, f.Path)
		m.recs[c.Path] = c
		return "rename " + f.Path + " to " + c.Path, []string{f.Path, c.Path}
	}
}

func shiftIndex(parent, x int) int {
	if parent > x {
		return parent - 1
	}
	return parent
}

// newPath returns a path for a copy of p: in its folder, in a new
// subfolder, or in another existing folder.
func (m *mutator) newPath(p string) string {
	m.n++
	dir, base := path.Split(p)
	switch m.r.IntN(3) {
	case 0:
		return fmt.Sprintf("%sc%d_%s", dir, m.n, base)
	case 1:
		return fmt.Sprintf("%snew%d/%s", dir, m.n, base)
	}
	other := dirOf(m.pick().Path)
	if other == "." {
		other = ""
	} else {
		other += "/"
	}
	return fmt.Sprintf("%sm%d_%s", other, m.n, base)
}

func sortedRecords(m map[string]*FileRecord) []*FileRecord {
	var out []*FileRecord
	for _, r := range m {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *FileRecord) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// reverseIndex maps names and import keys to the files that use them, as
// a store would keep it.
type reverseIndex struct {
	byName, byKey map[string][]string
}

func newReverseIndex(recs []*FileRecord, goModule string) *reverseIndex {
	ri := &reverseIndex{byName: map[string][]string{}, byKey: map[string][]string{}}
	for _, r := range recs {
		for _, n := range RefNames(r) {
			ri.byName[n] = append(ri.byName[n], r.Path)
		}
		for _, k := range ImportKeys(r, goModule) {
			ri.byKey[k] = append(ri.byKey[k], r.Path)
		}
	}
	return ri
}

// TestIncrementalPiecesEqualFull: after each of a seeded sequence of random
// changes (definitions added, renamed, removed; bodies edited; files added,
// removed, renamed; go.mod's module changed), the pieces kept from before
// for the files the rule leaves alone, plus the changed files and their
// dependents resolved again against the new tree, equal the pieces of the
// new tree resolved in full.
func TestIncrementalPiecesEqualFull(t *testing.T) {
	trees := testTrees(t)
	names := make([]string, 0, len(trees))
	for n := range trees {
		names = append(names, n)
	}
	slices.Sort(names)
	var sum incrStats
	for ti, name := range names {
		recs, gm := treeRecords(t, trees[name])
		n := 30
		if name == "synth" || name == "polyglot" || name == "gomodule" {
			n = 120
		}
		st := checkIncremental(t, name, recs, gm, n, uint64(ti))
		sum.steps += st.steps
		sum.deps += st.deps
		sum.needed += st.needed
		sum.naiveWrong += st.naiveWrong
	}
	t.Logf("%d changes, %d dependents re-resolved, %d of them needed; %d changes would be wrong with no dependents", sum.steps, sum.deps, sum.needed, sum.naiveWrong)
	// The changes must exercise the rule: some move other files' edges.
	if sum.naiveWrong < 20 || sum.needed < 20 {
		t.Fatalf("only %d changes alter other files' pieces (%d dependents needed): the test does not exercise dependents", sum.naiveWrong, sum.needed)
	}
}

// incrStats counts what checkIncremental saw.
type incrStats struct {
	steps      int // changes made
	deps       int // dependents re-resolved
	needed     int // dependents whose piece changed
	naiveWrong int // changes after which some unchanged file's piece moved
	maxDeps    int
}

// checkIncremental makes n seeded random changes to a tree's records and
// after each checks that the incremental pieces equal the full ones.
func checkIncremental(t *testing.T, name string, recs []*FileRecord, gm string, n int, seed uint64) incrStats {
	t.Helper()
	var st incrStats
	m := &mutator{r: rand.New(rand.NewPCG(seed, 13)), recs: map[string]*FileRecord{}, uses: map[string][][2]string{}, gm: gm, gm0: gm}
	for _, r := range recs {
		m.recs[r.Path] = r
		if r.Facts != nil {
			for _, rf := range r.Facts.Refs {
				fam := langFamily(r.Lang)
				m.uses[fam] = append(m.uses[fam], [2]string{rf.Qualifier, rf.Name})
				if rf.Type != "" { // the type's member, and the type
					m.uses[fam] = append(m.uses[fam], [2]string{typeBase(rf.Type), rf.Name}, [2]string{"", typeBase(rf.Type)})
				}
			}
		}
	}
	cur := map[string]Piece{}
	for _, pc := range ResolvePieces(recs, NewMemWorld(recs, gm)) {
		cur[pc.Path] = pc
	}
	for step := range n {
		oldRecs := sortedRecords(m.recs)
		oldByPath := recordsByPath(oldRecs)
		oldGM := m.gm
		what, touched := m.change()
		if what == "" {
			continue
		}
		st.steps++
		newRecs := sortedRecords(m.recs)
		was, now := NewMemWorld(oldRecs, oldGM), NewMemWorld(newRecs, m.gm)
		var oldC, newC []*FileRecord
		changed := map[string]bool{}
		for _, p := range touched {
			changed[p] = true
			if r := oldByPath[p]; r != nil {
				oldC = append(oldC, r)
			}
			if r := m.recs[p]; r != nil {
				newC = append(newC, r)
			}
		}
		c := Changes(oldC, newC, was, now)
		// Candidates from the reverse index of the old tree, then the tier filter.
		ri := newReverseIndex(oldRecs, oldGM)
		cand := map[string]bool{}
		for n := range c.Names {
			for _, p := range ri.byName[n] {
				cand[p] = true
			}
		}
		for k := range c.Keys {
			for _, p := range ri.byKey[k] {
				cand[p] = true
			}
		}
		redo := slices.Clone(newC)
		var depPaths []string
		for p := range cand {
			if r := m.recs[p]; r != nil && !changed[p] && c.Affects(r, now) {
				redo = append(redo, r)
				depPaths = append(depPaths, p)
			}
		}
		st.deps += len(depPaths)
		st.maxDeps = max(st.maxDeps, len(depPaths))
		if strings.HasPrefix(what, "body ") && len(depPaths) > 0 {
			t.Errorf("%s step %d: %s: a body-only edit has dependents %v", name, step, what, depPaths)
		}
		full := map[string]Piece{}
		for _, pc := range ResolvePieces(newRecs, now) {
			full[pc.Path] = pc
		}
		next := map[string]Piece{}
		for _, r := range newRecs {
			if !changed[r.Path] {
				next[r.Path] = cur[r.Path]
			}
		}
		naive := 0 // pieces a rule with no dependents would get wrong
		for p := range next {
			if !reflect.DeepEqual(next[p], full[p]) {
				naive++
			}
		}
		if naive > 0 {
			st.naiveWrong++
		}
		for _, pc := range ResolvePieces(redo, now) {
			next[pc.Path] = pc
		}
		for _, p := range depPaths {
			if !reflect.DeepEqual(cur[p], full[p]) {
				st.needed++
			}
		}
		for _, r := range newRecs {
			p := r.Path
			if !reflect.DeepEqual(next[p], full[p]) {
				a, b := dumpPieces([]Piece{full[p]}), dumpPieces([]Piece{next[p]})
				_, x, y, _ := walktest.FirstDiff(a, b)
				t.Fatalf("%s step %d (%s): the incremental piece of %s differs from the full one (dependents %v):\n  full:        %s\n  incremental: %s",
					name, step, what, p, depPaths, x, y)
			}
		}
		if len(depPaths) > 100 { // worth a look
			nd := 0
			for _, p := range depPaths {
				if !reflect.DeepEqual(cur[p], full[p]) {
					nd++
				}
			}
			t.Logf("%s step %d (%s): %d dependents, %d of them needed", name, step, what, len(depPaths), nd)
		}
		cur = next
	}
	return st
}

func recordsByPath(recs []*FileRecord) map[string]*FileRecord {
	out := make(map[string]*FileRecord, len(recs))
	for _, r := range recs {
		out[r.Path] = r
	}
	return out
}

// TestAssembleSubset: the pieces of some files, resolved against the whole
// tree, assemble into the full graph restricted to their pages (and the
// modules): edges to pages of files left out are dropped, none are lost.
func TestAssembleSubset(t *testing.T) {
	recs, gm := treeRecords(t, walktest.CopyFixture(t, "polyglot"))
	pieces := ResolvePieces(recs, NewMemWorld(recs, gm))
	modules := ModulePiece(recs)
	edgeSet := func(g *Graph, keep func(id string) bool) []string {
		var out []string
		for _, e := range g.Edges() {
			if a, b := g.Pages[e.From].ID, g.Pages[e.To].ID; keep(a) && keep(b) {
				out = append(out, fmt.Sprintf("%s -%s-> %s", a, e.Type, b))
			}
		}
		slices.Sort(out)
		return out
	}
	full := AssembleGraph(modules, pieces)
	var half []Piece
	for i, pc := range pieces {
		if i%2 == 0 {
			half = append(half, pc)
		}
	}
	part := AssembleGraph(modules, half)
	in := func(id string) bool { _, ok := part.Lookup(id); return ok }
	want, got := edgeSet(full, in), edgeSet(part, func(string) bool { return true })
	if i, x, y, ok := walktest.FirstDiff(want, got); ok {
		t.Fatalf("assembled half differs from the full graph restricted to it at %d:\n  full: %s\n  half: %s", i, x, y)
	}
	if len(got) == 0 || len(part.Pages) >= len(full.Pages) {
		t.Fatalf("half assembled %d edges, %d of %d pages", len(got), len(part.Pages), len(full.Pages))
	}
	refs := 0
	for _, e := range part.Edges() {
		if e.Type == References {
			refs++
		}
	}
	if refs == 0 {
		t.Fatal("no reference edges among the half: the test checks nothing")
	}
}

// TestAffectsTypedQualifier: a reference through a qualifier of known type
// resolves differently once the type is in the repository (w.Flush() with
// w a Writer: no edge while Writer is not defined here, the name's tiers
// once it is, Flush promoted from an embedded type), so defining the type
// must re-resolve the file that uses it (through the reference to Writer
// in w's declaration: see depend.go).
func TestAffectsTypedQualifier(t *testing.T) {
	root := t.TempDir()
	walktest.WriteFile(t, root, "go.mod", "module example.com/m\n")
	walktest.WriteFile(t, root, "p/a.go", "package p\n\nfunc Use(w Writer) { w.Flush() }\n")
	walktest.WriteFile(t, root, "p/b.go", "package p\n\ntype Buf struct{}\n\nfunc (b *Buf) Flush() {}\n")
	before, gm := treeRecords(t, root)
	walktest.WriteFile(t, root, "p/c.go", "package p\n\ntype Writer struct{ *Buf }\n")
	after, _ := treeRecords(t, root)
	use := recordsByPath(after)["p/a.go"]
	edges := func(recs []*FileRecord) []string {
		for _, pc := range ResolvePieces(recs, NewMemWorld(recs, gm)) {
			if pc.Path == "p/a.go" {
				return dumpPieces([]Piece{pc})
			}
		}
		return nil
	}
	if a, b := edges(before), edges(after); slices.Equal(a, b) {
		t.Fatalf("defining Writer did not change a.go's piece (the test needs it to):\n%s", strings.Join(a, "\n"))
	}
	c := Changes(nil, []*FileRecord{recordsByPath(after)["p/c.go"]}, NewMemWorld(before, gm), NewMemWorld(after, gm))
	if !c.Affects(use, NewMemWorld(after, gm)) {
		t.Fatal("defining the type of w does not re-resolve the file that calls w.Flush()")
	}
}
