package graph

import (
	"encoding/binary"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/wikitoolkit/wikitoolkit/parser"
)

// Which segments a full build's pass 2 must resolve again.
//
// Pass 1 resolves batch k against the world of batches 0..k; pass 2 asks
// whether the batches after k could change what that resolution read, as
// an incremental build asks it of a change (depend.go: the rule and
// Change.Affects): the batches after k are a change that adds their files.
// A file's piece reads, of the world, Defs of the names its references
// use and the answers to its imports' questions; adding definitions
// changes the decision of a reference only through a tier that sees one
// of them. So each batch, once resolved, records what could change its
// pieces — its sensitivity, keys hashed to 64 bits:
//
//   - 'i' KEY: each question its files' imports ask (contextKeys);
//   - 'd' NAME FAM DIR: for each reference, a definition of its name in
//     its family in a directory a tier looks in: the alias's directory
//     when its qualifier names an import (the alias tier decides alone),
//     else the file's own and those it imports;
//   - 'q' NAME FAM Q: a definition whose qualified name continues the
//     reference's qualifier Q (not self, this, cls);
//   - 'u' NAME FAM: any definition of the name in the family, when the
//     world held at most one (the unique-anywhere tier: one before, or
//     one after, decides).
//
// and each batch records what its files bring — its emissions: per
// definition 'd' NAME FAM DIR, 'u' NAME FAM and a 'q' key for each prefix
// of its qualified name before a "."; per file the import questions whose
// answers it may change ('i' file:PATH and file~SUFFIX), and per
// directory it is the first to hold 'i' dir:DIR and dir~SUFFIX. A batch
// none of whose sensitivity keys a later batch emits keeps the pieces pass
// 1 wrote, and pass 2 only weighs them (its resolution, against the whole
// world, would read the same answers); a hash collision only makes a
// batch resolve again. At 100k synthetic files pass 2 resolved every
// segment again (10 of its 14 CPU-seconds reading and resolving) and
// changed none. TestPassTwoKeepsEqualsResolving builds trees in many
// batches with and without the skip and compares the indexes.

// keySet is a set of hashed keys, sorted and distinct.
type keySet []uint64

// keyer hashes keys without allocating.
type keyer struct {
	buf []byte
	out []uint64
}

func (k *keyer) add(kind byte, parts ...string) {
	k.buf = append(k.buf[:0], kind)
	for _, p := range parts {
		k.buf = binary.AppendUvarint(k.buf, uint64(len(p)))
		k.buf = append(k.buf, p...)
	}
	k.out = append(k.out, xxhash.Sum64(k.buf))
}

// set returns the keys added, never nil (standing takes nil for unknown).
func (k *keyer) set() keySet {
	slices.Sort(k.out)
	return append(keySet{}, slices.Compact(k.out)...)
}

// familyAtMost counts the definitions of name in family fam, up to limit.
func familyAtMost(w World, name, fam string, limit int) int {
	if mw, ok := w.(*MemWorld); ok {
		return mw.familyAtMost(name, fam, limit)
	}
	n := 0
	for _, d := range w.Defs(name) {
		if defFamily(&d) == fam {
			if n++; n >= limit {
				break
			}
		}
	}
	return n
}

// familyAtMost is the package function on a MemWorld, without making the
// definitions (a name like Count has 100k of them).
func (w *MemWorld) familyAtMost(name, fam string, limit int) int {
	c, ok := w.byName[name]
	if !ok {
		return 0
	}
	n := 0
	for i := c.head; i >= 0 && n < limit; i = w.defs.at(int(i)).next {
		d := w.defs.at(int(i))
		f := w.fileTab.at(int(d.file))
		qual, ok := w.quals[i]
		if !ok {
			qual = w.ids.get(d.id)[len("symbol:")+len(f.path)+1:]
		}
		di := DefInfo{Qualified: qual, Lang: f.lang}
		if defFamily(&di) == fam {
			n++
		}
	}
	return n
}

// sensitivity returns what could change the pieces of recs, resolved
// against w (see above).
func sensitivity(recs []*FileRecord, w World, goMod string) keySet {
	var k keyer
	type nameFam struct{ name, fam string }
	rare := map[nameFam]bool{} // at most one definition in w
	for _, f := range recs {
		if f.Facts == nil {
			continue
		}
		for _, key := range contextKeys(f, goMod) {
			k.add('i', key)
		}
		fam := langFamily(f.Lang)
		dir := dirOf(f.Path)
		var imported []string
		aliasDir := map[string]string{}
		for _, im := range f.Facts.Imports {
			if _, d, ok := resolveImport(w, f, im.Path); ok {
				if !slices.Contains(imported, d) {
					imported = append(imported, d)
				}
				aliasDir[importLocal(im)] = d
			}
		}
		imports := importNames(f)
		for i := range f.Facts.Refs {
			rf := &f.Facts.Refs[i]
			n := rf.Name
			rfam := refFamily(fam, rf, imports)
			q := rf.Qualifier
			if alias, ok := aliasDir[q]; ok && q != "" && rf.Type == "" {
				k.add('d', n, rfam, alias)
				continue
			}
			k.add('d', n, rfam, dir)
			for _, d := range imported {
				k.add('d', n, rfam, d)
			}
			if q != "" && q != "self" && q != "this" && q != "cls" {
				k.add('q', n, rfam, q)
			}
			nf := nameFam{n, rfam}
			r, seen := rare[nf]
			if !seen {
				r = familyAtMost(w, n, rfam, 2) <= 1
				rare[nf] = r
			}
			if r {
				k.add('u', n, rfam)
			}
		}
	}
	return k.set()
}

// emissions returns what recs (a batch, in path order) bring to the
// world (see above); prev is the last path of the batches before ("" for
// none): a directory that holds it held files before.
func emissions(recs []*FileRecord, prev string) keySet {
	var k keyer
	newDirs := map[string]bool{}
	for _, f := range recs {
		dir := dirOf(f.Path)
		var defs []parser.Def
		if f.Facts != nil {
			defs = f.Facts.Defs
		}
		// Its symbol pages' (filePages): a definition's name, and its
		// qualified name but for the "~N" pageQual gives a repeated one,
		// which adds no dot.
		for i := range defs {
			d := &defs[i]
			if d.Name == "" || d.Kind == parser.KindSection {
				continue
			}
			qual := d.Qualified
			if qual == "" {
				qual = d.Name
			}
			di := DefInfo{Qualified: qual, Lang: f.Lang}
			fam := defFamily(&di)
			k.add('d', d.Name, fam, dir)
			k.add('u', d.Name, fam)
			for j := range len(qual) {
				if qual[j] == '.' {
					k.add('q', d.Name, fam, qual[:j])
				}
			}
		}
		k.add('i', keyFile+f.Path)
		for _, s := range pathSuffixes(f.Path) {
			k.add('i', keyFileSfx+s)
		}
		for d := dirOf(f.Path); d != "." && !newDirs[d] && !strings.HasPrefix(prev, d+"/"); d = dirOf(d) {
			newDirs[d] = true
			k.add('i', keyDir+d)
			for _, s := range pathSuffixes(d) {
				k.add('i', keyDirSfx+s)
			}
		}
	}
	return k.set()
}

// standing returns, for each batch, whether no later batch emits one of
// its sensitivity keys: pass 2 may keep its pieces. sens[k] and emit[k]
// are batch k's (sens[k] nil: unknown, resolve it again).
func standing(sens, emit []keySet) []bool {
	// Every key emitted, with the last batch that emits it.
	var all []uint64
	for _, e := range emit {
		all = slices.Grow(all, len(e))
	}
	const batchBits = 20
	for b, e := range emit {
		for _, h := range e {
			all = append(all, h&^(1<<batchBits-1)|uint64(b))
		}
	}
	slices.Sort(all)
	last := all[:0]
	for i, v := range all {
		if i+1 < len(all) && all[i+1]>>batchBits == v>>batchBits {
			continue
		}
		last = append(last, v)
	}
	out := make([]bool, len(sens))
	for k, s := range sens {
		if s == nil || len(emit) > 1<<batchBits {
			continue
		}
		out[k] = true
		for _, h := range s {
			i, _ := slices.BinarySearchFunc(last, h>>batchBits, func(v, key uint64) int {
				switch {
				case v>>batchBits < key:
					return -1
				case v>>batchBits > key:
					return 1
				}
				return 0
			})
			if i < len(last) && last[i]>>batchBits == h>>batchBits && int(last[i]&(1<<batchBits-1)) > k {
				out[k] = false
				break
			}
		}
	}
	return out
}
