package graph

import (
	"slices"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/parser"
)

// Incremental resolution: which unchanged files must be re-resolved.
//
// A file's piece is a function of its own record and of the World answers
// its resolution reads: for each name its references use, Defs(name); for
// each import, the HasFile, HasDir, FileWithSuffix, DirWithSuffix and
// GoModule questions resolveImport asks. So an unchanged file F keeps its
// piece unless one of those answers changes, and a change of the files C
// (edited, added, removed; a rename is a removal and an addition) can
// change only
//
//   - Defs(n) for the names n whose definitions in C differ between the old
//     and new records of C (added, removed, or a different page ID,
//     qualified name, path or language): ChangedNames;
//   - the answers to import keys that name the paths added or removed, any
//     of their suffixes, or a directory that appeared or emptied, or any of
//     its suffixes — those whose answer actually differs: Change.Keys;
//   - GoModule, when go.mod changed (the key "gomod").
//
// The rule: re-resolve F (unchanged) when one of F's import keys
// (ImportKeys) is in Change.Keys, or when a reference of F names a changed
// name n and one of the definitions of n added or removed, in F's language
// family, is one that a resolution tier of that reference looks at:
//
//   - the reference's qualifier names an import (alias tier): a definition
//     in that import's directory — no other tier is tried;
//   - a qualifier q other than self/this/cls: a definition whose qualified
//     name continues q + ".";
//   - a definition in F's directory (F's own are there too);
//   - a definition in a directory F imports;
//   - the unique-anywhere tier: the name had one definition in the family
//     before the change, or has one after.
//
// A reference whose qualifier has a known type (Ref.Type) is first looked
// up among the type's members in the type's directory, which is F's or one
// F imports: the tests above see those. Whether the type itself is in the
// repository decides whether the reference falls through to the other
// tiers; that needs no test of its own, because the type is named by
// another reference of F (Go declares x's type where x is bound, and a
// field's type in its struct, which a typed x.f needs in F: a type
// reference, qualified by the package when imported), or is F's own class
// (self, this).
//
// Each tier keeps a subset of Defs(n) selected by one of those tests, and a
// tier with more than maxFanOut definitions (1 for an untyped Go member:
// resolve) decides with no edge, so a
// definition that passes none of the tests changes no tier's set, hence no
// decision; one that passes a test may add edges, move the reference to
// another tier, or push a tier over maxFanOut and remove edges. The tiers'
// order does not matter to the rule: any change to the set a tier sees
// re-resolves the file. A reverse index serves the rule from two keys a
// file holds: RefNames (name → files) and ImportKeys (key → files); then
// Change.Affects filters those candidates by tier.

// Import keys: the questions resolveImport asks a World.
const (
	keyFile    = "file:" // HasFile(path)
	keyDir     = "dir:"  // HasDir(dir)
	keyFileSfx = "file~" // FileWithSuffix(s)
	keyDirSfx  = "dir~"  // DirWithSuffix(s)
	keyGoMod   = "gomod" // GoModule()
)

// RefNames returns the distinct names f's references look up, sorted: the
// names whose Defs f's piece depends on.
func RefNames(f *FileRecord) []string {
	if f.Facts == nil {
		return nil
	}
	out := make([]string, 0, len(f.Facts.Refs))
	for _, rf := range f.Facts.Refs {
		out = append(out, rf.Name)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ImportKeys returns the import keys f's imports may ask of any World
// whose Go module path is goModule, sorted: "file:P" (HasFile), "dir:D"
// (HasDir), "file~S" (FileWithSuffix), "dir~S" (DirWithSuffix), "gomod".
// It runs the import resolver against a World that has nothing: since a
// found answer only ever ends an import's search, that World is asked
// every question any other could be.
func ImportKeys(f *FileRecord, goModule string) []string {
	if f.Facts == nil || len(f.Facts.Imports) == 0 {
		return nil
	}
	k := &keyRecorder{goModule: goModule, keys: map[string]bool{}}
	for _, im := range f.Facts.Imports {
		resolveImport(k, f, im.Path)
	}
	out := make([]string, 0, len(k.keys))
	for s := range k.keys {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// contextKeys is ImportKeys with the questions importedNames asks too
// (the module a Python `from M import name` takes a name from): every
// question about the tree's paths that resolving f's references reads
// an answer of.
func contextKeys(f *FileRecord, goModule string) []string {
	keys := ImportKeys(f, goModule)
	if f.Facts == nil || langFamily(f.Lang) != "python" {
		return keys
	}
	k := &keyRecorder{goModule: goModule, keys: map[string]bool{}}
	for _, im := range f.Facts.Imports {
		if mod := fromModule(im); im.Alias != "" && mod != "" {
			resolveImport(k, f, mod)
		}
	}
	for s := range k.keys {
		keys = append(keys, s)
	}
	return keys
}

// keyRecorder is a World with no files and no definitions that records
// the questions it is asked.
type keyRecorder struct {
	goModule string
	keys     map[string]bool
}

func (k *keyRecorder) Defs(string) []DefInfo { return nil }
func (k *keyRecorder) HasFile(p string) bool { k.keys[keyFile+p] = true; return false }
func (k *keyRecorder) HasDir(d string) bool  { k.keys[keyDir+d] = true; return false }
func (k *keyRecorder) FileWithSuffix(s string) (string, int) {
	k.keys[keyFileSfx+s] = true
	return "", 0
}
func (k *keyRecorder) DirWithSuffix(s string) (string, bool) {
	k.keys[keyDirSfx+s] = true
	return "", false
}
func (k *keyRecorder) GoModule() string { k.keys[keyGoMod] = true; return k.goModule }

// Change is what changing some files alters in the World: see the rule
// above. Build it with Changes.
type Change struct {
	// Names holds, per name whose definitions changed, the difference.
	Names map[string]*NameChange
	// Keys holds the import keys whose answer differs between the worlds.
	Keys map[string]bool
}

// NameChange is how a name's definitions changed.
type NameChange struct {
	Added, Removed []DefInfo
	// Before and After count the name's definitions per language family
	// (langFamily) in the old and the new World.
	Before, After map[string]int
}

// defsOf returns the definitions the records give to the World (its
// symbol pages with a name), by name.
func defsOf(recs []*FileRecord) map[string][]DefInfo {
	out := map[string][]DefInfo{}
	var pages []Page
	for _, f := range recs {
		pages = filePages(f, pages[:0])
		for i := range pages {
			if pg := &pages[i]; pg.Kind == KindSymbol && pg.Name != "" {
				out[pg.Name] = append(out[pg.Name], DefInfo{ID: pg.ID, Qualified: pg.Qualified, Path: pg.Path, Lang: pg.Lang, Local: pg.Local})
			}
		}
	}
	return out
}

// ChangedNames returns, sorted, the names whose definitions differ between
// old and new, the old and new records of the changed files (an added file
// only in new, a removed one only in old).
func ChangedNames(old, new []*FileRecord) []string {
	var out []string
	for n := range diffDefs(old, new) {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func diffDefs(old, new []*FileRecord) map[string]*NameChange {
	return diffDefMaps(defsOf(old), defsOf(new))
}

func diffDefMaps(was, now map[string][]DefInfo) map[string]*NameChange {
	out := map[string]*NameChange{}
	diff := func(a, b map[string][]DefInfo, add func(*NameChange, DefInfo)) {
		for n, ds := range a {
			for _, d := range ds {
				if !slices.Contains(b[n], d) {
					nc := out[n]
					if nc == nil {
						nc = &NameChange{}
						out[n] = nc
					}
					add(nc, d)
				}
			}
		}
	}
	diff(now, was, func(nc *NameChange, d DefInfo) { nc.Added = append(nc.Added, d) })
	diff(was, now, func(nc *NameChange, d DefInfo) { nc.Removed = append(nc.Removed, d) })
	return out
}

// Changes returns what replacing the records old by new (see ChangedNames)
// alters between the World before, was, and after, now.
func Changes(old, new []*FileRecord, was, now World) *Change {
	oldPaths := make([]string, len(old))
	for i, f := range old {
		oldPaths[i] = f.Path
	}
	return changes(defsOf(old), oldPaths, defsOf(new), new, was, now)
}

// changesFromDefs is Changes given the old definitions of the changed
// files by name (wasDefs) and their paths, not their old records: what a
// store keeps of a file without its whole record.
func changesFromDefs(wasDefs map[string][]DefInfo, oldPaths []string, new []*FileRecord, was, now World) *Change {
	return changes(wasDefs, oldPaths, defsOf(new), new, was, now)
}

func changes(wasDefs map[string][]DefInfo, oldPaths []string, nowDefs map[string][]DefInfo, new []*FileRecord, was, now World) *Change {
	c := &Change{Names: diffDefMaps(wasDefs, nowDefs), Keys: map[string]bool{}}
	count := func(w World, n string) map[string]int {
		m := map[string]int{}
		for _, d := range w.Defs(n) {
			m[defFamily(&d)]++
		}
		return m
	}
	for n, nc := range c.Names {
		nc.Before, nc.After = count(was, n), count(now, n)
	}
	// Paths added or removed, and the directories above them.
	present := map[string]int{} // 1: in old, 2: in new
	for _, p := range oldPaths {
		present[p] |= 1
	}
	for _, f := range new {
		present[f.Path] |= 2
	}
	dirs := map[string]bool{}
	suffixes := func(s string, each func(string)) {
		for {
			each(s)
			j := strings.IndexByte(s, '/')
			if j < 0 {
				return
			}
			s = s[j+1:]
		}
	}
	for p, in := range present {
		if in == 3 {
			continue
		}
		if was.HasFile(p) != now.HasFile(p) {
			c.Keys[keyFile+p] = true
		}
		suffixes(p, func(s string) {
			a, an := was.FileWithSuffix(s)
			b, bn := now.FileWithSuffix(s)
			if a != b || min(an, 2) != min(bn, 2) {
				c.Keys[keyFileSfx+s] = true
			}
		})
		for d := dirOf(p); d != "." && !dirs[d]; d = dirOf(d) {
			dirs[d] = true
		}
	}
	for d := range dirs {
		if was.HasDir(d) == now.HasDir(d) {
			continue
		}
		c.Keys[keyDir+d] = true
		suffixes(d, func(s string) {
			a, aok := was.DirWithSuffix(s)
			b, bok := now.DirWithSuffix(s)
			if a != b || aok != bok {
				c.Keys[keyDirSfx+s] = true
			}
		})
	}
	if was.GoModule() != now.GoModule() {
		c.Keys[keyGoMod] = true
	}
	return c
}

// Affects reports whether the change can alter the piece of f, a file it
// did not change, by the rule above; now is the World after the change.
// (f's imports resolve against now: if their answers changed, Keys says
// so first.)
func (c *Change) Affects(f *FileRecord, now World) bool {
	if f.Facts == nil {
		return false
	}
	if len(f.Facts.Imports) > 0 && len(c.Keys) > 0 {
		for _, k := range ImportKeys(f, now.GoModule()) {
			if c.Keys[k] {
				return true
			}
		}
	}
	if len(c.Names) == 0 {
		return false
	}
	fam := langFamily(f.Lang)
	dir := dirOf(f.Path)
	var imported, aliasDir map[string]string
	imports := importNames(f)
	for i := range f.Facts.Refs {
		rf := &f.Facts.Refs[i]
		nc := c.Names[rf.Name]
		if nc == nil {
			continue
		}
		if imported == nil { // resolved imports, on first need
			imported, aliasDir = map[string]string{}, map[string]string{}
			for _, im := range f.Facts.Imports {
				if _, d, ok := resolveImport(now, f, im.Path); ok {
					imported[d] = d
					aliasDir[importLocal(im)] = d
				}
			}
		}
		if c.refSees(nc, rf, refFamily(fam, rf, imports), dir, imported, aliasDir) {
			return true
		}
	}
	return false
}

// refSees reports whether reference rf, from a file in directory dir,
// looking up definitions of family fam (refFamily), has a tier that sees
// one of the definitions nc added or removed. (The same-file tier needs no
// test of its own: a definition in the file lies in its directory, and it
// changes only when the file does; the typed tier keeps definitions in
// the file's directory or an imported one, which the tests below see.)
func (c *Change) refSees(nc *NameChange, rf *parser.Ref, fam, dir string, imported, aliasDir map[string]string) bool {
	q := rf.Qualifier
	alias, isAlias := aliasDir[q]
	isAlias = isAlias && q != "" && rf.Type == ""
	qualified := q != "" && q != "self" && q != "this" && q != "cls"
	// The unique-anywhere tier, reached unless the alias tier decides.
	unique := !isAlias && (nc.Before[fam] == 1 || nc.After[fam] == 1)
	seen := func(d DefInfo) bool {
		if defFamily(&d) != fam {
			return false
		}
		dd := dirOf(d.Path)
		if isAlias {
			return dd == alias // the alias tier decides alone
		}
		if unique || qualified && hasQualifier(d.Qualified, q) || dd == dir {
			return true
		}
		_, imp := imported[dd]
		return imp
	}
	return slices.ContainsFunc(nc.Added, seen) || slices.ContainsFunc(nc.Removed, seen)
}

// Partial re-resolution. A file re-resolved because its own definitions
// changed (a function added) or because a name it references changed
// (an affected file) keeps the stored edges of the references the change
// cannot alter, so that only the names the change touches are looked up:
// at 100k files the names of an edited file's other references (Count,
// New, Err) have definitions in most segments, and looking them all up
// opened 30 of 70.
//
// The edges a reference adds all go to definitions of its name (the
// candidates of Ref.Name), and follow from the reference as resolution
// reads it (all but its line), the ID of the page it comes from, the
// file's path, language and imports with their answers, and the World's
// Defs of its name and, for a typed reference, of its type's last name
// (hasType). Group a file's references by key (the ID of the page they
// come from, their name): the stored edges from page P to definitions
// named n are the edges the references of key (P, n) added. When the
// key's references read the same in the stored record and the new one,
// the file's imports and their answers are the same (the same imports,
// the same Go module, none of the questions they ask about the tree's
// paths in Change.Keys: contextKeys), and neither
// n nor a type any of them names had a definition added or removed, the
// key's edges are the stored ones; every other key is resolved again.
// The stored edges of a resolved key go: those from P to a definition
// named n before the change (the World's Defs of n, the old one's for a
// changed n, and the file's own old pages named n).

// refGroup groups a file's references: the page ID they come from, their
// name.
type refGroup struct{ from, name string }

// refsByGroup returns the references of f by key, as resolution reads them
// (Line and Enclosing cleared), each set as a map; pages are f's pages.
func refsByGroup(f *FileRecord, pages []Page) map[refGroup]map[parser.Ref]bool {
	out := map[refGroup]map[parser.Ref]bool{}
	if f.Facts == nil {
		return out
	}
	for i := range f.Facts.Refs {
		k, sig := refGroupOf(f, pages, i)
		set := out[k]
		if set == nil {
			set = map[parser.Ref]bool{}
			out[k] = set
		}
		set[sig] = true
	}
	return out
}

// refGroupOf is the key of reference i of f and the reference as
// resolution reads it.
func refGroupOf(f *FileRecord, pages []Page, i int) (refGroup, parser.Ref) {
	rf := f.Facts.Refs[i]
	from := 0
	if rf.Enclosing >= 0 && int(rf.Enclosing) < len(f.Facts.Defs) {
		from = 1 + int(rf.Enclosing)
	}
	rf.Line, rf.Enclosing = 0, 0
	return refGroup{pages[from].ID, rf.Name}, rf
}

// partialPlan is what a partial re-resolution of a record does.
type partialPlan struct {
	only  []bool                     // the references of the record resolved again
	drop  map[string]map[string]bool // page ID → names whose stored edges from it go
	names []string                   // the names those references look up
}

// planPartial returns the plan for rec (pages: its pages) whose stored
// copy is old, dirty holding the names whose definitions changed (a
// key naming one, or naming one as the type of a reference, resolves
// again). The caller has checked the file's imports and their answers.
func planPartial(rec *FileRecord, pages []Page, old *segPiece, dirty map[string]bool) partialPlan {
	was, now := refsByGroup(old.rec, old.Pages), refsByGroup(rec, pages)
	again := func(k refGroup) bool {
		if dirty[k.name] {
			return true
		}
		a, b := was[k], now[k]
		if len(a) != len(b) {
			return true
		}
		for rf := range b {
			if !a[rf] || rf.Type != "" && dirty[typeBase(rf.Type)] {
				return true
			}
		}
		return false
	}
	plan := partialPlan{drop: map[string]map[string]bool{}}
	for k := range was {
		if again(k) {
			if plan.drop[k.from] == nil {
				plan.drop[k.from] = map[string]bool{}
			}
			plan.drop[k.from][k.name] = true
		}
	}
	if rec.Facts == nil {
		return plan
	}
	plan.only = make([]bool, len(rec.Facts.Refs))
	for i := range rec.Facts.Refs {
		k, rf := refGroupOf(rec, pages, i)
		if _, ok := was[k]; ok && !again(k) {
			continue
		}
		plan.only[i] = true
		plan.names = append(plan.names, rf.Name)
		if rf.Type != "" {
			plan.names = append(plan.names, typeBase(rf.Type))
		}
	}
	return plan
}
