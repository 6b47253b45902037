package graph

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/wikitoolkit/wikitoolkit/parser"
)

// ExtLink is an edge of a segment's page (Page, an index in the segment's
// graph) to or from a page of another segment (ID).
type ExtLink struct {
	Page uint32
	ID   string
}

// SegmentFunc derives more data of one segment (BuildOptions.Segment).
type SegmentFunc func(g *Graph, ext []ExtLink) (map[string][]byte, error)

// publish commits generation next and removes what no generation needs.
func publish(dir string, next int, m manifest, info *BuildInfo, start time.Time) (*BuildInfo, error) {
	info.Seconds = time.Since(start).Seconds()
	m.Info = *info
	if err := commitGeneration(dir, next, m); err != nil {
		return nil, NotWritable(dir, err)
	}
	removeStale(dir, next)
	removeLastBuild(dir)
	return info, nil
}

func nextGeneration(dir string) int {
	gens := generations(dir)
	next := 1
	if len(gens) > 0 {
		next = gens[len(gens)-1] + 1
	}
	if cur, err := CurrentGeneration(dir); err == nil && cur >= next {
		next = cur + 1
	}
	return next
}

// incrementalBuild writes a generation that differs from prev by the
// parsed files, the files whose pieces they change, and the removed ones:
// their pieces go into one new delta segment, their old copies become
// tombstones. It reads of prev only the keys the change names (the name,
// reference and import keys of the segments, the summaries of the changed
// files) and the entries of the files it re-resolves: its cost follows the
// change, not the repository. prevStats are the stats of the files of
// prev that the build's walk looked at (all, or those at or below
// BuildOptions.Changed): it asks them only of the files it parsed, skipped
// or found removed.
func incrementalBuild(ctx context.Context, opt BuildOptions, root, dir string, start time.Time, info *BuildInfo,
	prev *Snapshot, prevStats map[string]FileStat, parsed []*FileRecord, reused map[string]FileStat, removedFiles []string,
	lap func(string), closePrev func()) (*BuildInfo, error) {
	slices.SortFunc(parsed, func(a, b *FileRecord) int { return strings.Compare(a.Path, b.Path) })
	goMod := goModulePath(root)
	if err := prev.openSegments(); err != nil {
		return nil, prevError{err}
	}
	segs := prev.fileSegs()
	// The files of the old and the new tree.
	gone := map[string]bool{} // stored copies that no longer count
	for _, r := range parsed {
		if _, ok := prevStats[r.Path]; ok {
			gone[r.Path] = true
		}
	}
	removed := map[string]bool{}
	for _, p := range removedFiles {
		removed[p] = true
		gone[p] = true
	}
	for _, s := range info.Skipped {
		if _, ok := prevStats[s.Path]; ok {
			removed[s.Path], gone[s.Path] = true, true
		}
	}
	for _, s := range info.Failed {
		if _, ok := prevStats[s.Path]; ok {
			removed[s.Path], gone[s.Path] = true, true
		}
	}
	// The old paths in order (Stats is sorted, and decoded already); the
	// new ones merged in, as the change is small and the tree large.
	sorted, err := prev.Stats()
	if err != nil {
		return nil, prevError{err}
	}
	oldPaths := make([]string, len(sorted))
	for i, st := range sorted {
		oldPaths[i] = st.Path
	}
	var added []string // parsed is sorted
	for _, r := range parsed {
		if _, ok := prevStats[r.Path]; !ok {
			added = append(added, r.Path)
		}
	}
	newPaths := make([]string, 0, len(oldPaths)+len(added))
	for _, p := range oldPaths {
		for len(added) > 0 && added[0] < p {
			newPaths, added = append(newPaths, added[0]), added[1:]
		}
		if !removed[p] {
			newPaths = append(newPaths, p)
		}
	}
	newPaths = append(newPaths, added...)

	// What the changed files were: their summaries (d/PATH).
	oldSums := map[string]fileSummary{}
	where := map[string]*segment{} // the segment holding each changed file's stored copy
	for _, sg := range segs {
		var names []string
		for p := range gone {
			names = append(names, p)
		}
		if err := sg.lookup("d/", names, func(p string, v []byte) {
			if sg.dead[p] {
				return
			}
			if sum, ok := decodeSummary(v, sg.info.Langs); ok {
				oldSums[p], where[p] = sum, sg
			}
		}); err != nil {
			return nil, prevError{err}
		}
	}
	was := newSegWorld(segs, oldPaths, nil, nil, prevGoModule(prev, goMod))
	now := newSegWorld(segs, newPaths, gone, parsed, goMod)
	oldDefs := map[string][]DefInfo{}
	var oldChanged []string
	for p := range gone {
		if _, ok := oldSums[p]; !ok {
			continue // not stored before: an added file
		}
		oldChanged = append(oldChanged, p)
		for _, d := range oldSums[p].Defs {
			oldDefs[d.Name] = append(oldDefs[d.Name], DefInfo{ID: SymbolID(p, d.Qualified), Qualified: d.Qualified, Path: p, Lang: oldSums[p].Lang})
		}
	}
	change := changesFromDefs(oldDefs, oldChanged, parsed, was, now)
	// The files whose content changed or went; gone grows below by the
	// dependents re-resolved, whose content (docs, diagnostics) stands.
	contentGone := maps.Clone(gone)
	lap("load")

	// The files the change can alter: the reverse keys name candidates;
	// Affects decides from their records.
	cands := map[string]*segment{}
	for _, sg := range segs {
		// A segment's stats are decoded only when a key names its files.
		var stats []FileStat
		var statsErr error
		add := func(_ string, v []byte) {
			if stats == nil && statsErr == nil {
				if stats, statsErr = sg.cachedStats(); statsErr != nil {
					return
				}
			}
			d := dec{b: v}
			var ord uint64
			for len(d.b) > 0 && d.err == nil {
				ord += d.uint()
				if ord < uint64(len(stats)) {
					if p := stats[ord].Path; !sg.dead[p] && !gone[p] {
						cands[p] = sg
					}
				}
			}
		}
		var names, keys []string
		for n := range change.Names {
			names = append(names, n)
		}
		for k := range change.Keys {
			keys = append(keys, k)
		}
		if err := sg.lookup("r/", names, add); err != nil {
			return nil, prevError{err}
		}
		if err := sg.lookup("i/", keys, add); err != nil {
			return nil, prevError{err}
		}
		if statsErr != nil {
			return nil, prevError{statsErr}
		}
	}
	var affected []*segPiece
	if len(cands) > 0 {
		bySeg := map[*segment][]string{}
		for p, sg := range cands {
			bySeg[sg] = append(bySeg[sg], p)
		}
		for sg, paths := range bySeg {
			pcs, err := sg.readPiecesOf(paths)
			if err != nil {
				return nil, prevError{err}
			}
			for _, pc := range pcs {
				if change.Affects(pc.rec, now) {
					// Its stored record has the time it was parsed at; a
					// touch since lives in the manifest's Touched, which
					// the new copy replaces.
					if st, ok := reused[pc.Path]; ok {
						pc.rec.ModTime = st.ModTime
					} else if t, ok := prev.man.Touched[pc.Path]; ok {
						pc.rec.ModTime = t
					}
					affected = append(affected, pc)
				}
			}
		}
	}
	// Re-resolve the parsed and affected files against the new tree.
	toResolve := slices.Clone(parsed)
	for _, pc := range affected {
		toResolve = append(toResolve, pc.rec)
	}
	slices.SortFunc(toResolve, func(a, b *FileRecord) int { return strings.Compare(a.Path, b.Path) })
	var names []string
	for _, r := range toResolve {
		names = append(names, RefNames(r)...)
	}
	now.prefetch(names)
	resolved := ResolvePieces(toResolve, now)
	var delta []*segPiece
	oldAffected := map[string]*segPiece{}
	for _, pc := range affected {
		oldAffected[pc.Path] = pc
	}
	for i := range resolved {
		pc := &segPiece{Piece: resolved[i], rec: toResolve[i]}
		if old := oldAffected[pc.Path]; old != nil {
			if piecesEqual(old, pc) {
				continue // resolution gave the same edges: the stored copy stands
			}
			gone[pc.Path] = true
			where[pc.Path] = cands[pc.Path]
			oldSums[pc.Path] = summarize(old, old.rec)
		}
		delta = append(delta, pc)
	}
	lap("resolve")

	// Modules: rebuilt from the doc candidates when the tree's directories
	// or a candidate changed.
	ms := prev.modulesSeg()
	var oldMods, mods Piece
	var docs []docCandidate
	if ms != nil {
		var err error
		if docs, err = ms.docs(); err != nil {
			return nil, prevError{err}
		}
	}
	oldDocs := docs
	docs = updateDocs(docs, contentGone, parsed)
	// Module pages follow from the directories and the doc candidates
	// alone: with the same files and candidates they stand, and remaking
	// them (a record per file of the tree: 250 ms at 100k files) is saved.
	pathsMoved := len(removed) > 0 || len(newPaths) != len(oldPaths)
	writeMods := false
	if ms == nil || pathsMoved || !slices.Equal(docs, oldDocs) {
		if ms != nil {
			var err error
			if oldMods, err = ms.readModules(); err != nil {
				return nil, prevError{err}
			}
		}
		mods = modulesOf(newPaths, docs)
		// The candidates are kept even when the pages stand: a candidate
		// that loses today wins when the winner goes.
		writeMods = ms == nil || !modsEqual(mods, oldMods) || !slices.Equal(docs, oldDocs)
	}

	// The generation's numbers: the old ones, less what the replaced
	// copies held, plus what the new ones hold.
	newSums := make([]fileSummary, len(delta))
	for i, pc := range delta {
		newSums[i] = summarize(pc, pc.rec)
	}
	var lost []fileSummary
	for p := range gone {
		if sum, ok := oldSums[p]; ok {
			lost = append(lost, sum)
		}
	}
	old := prev.Info()
	info.Pages, info.Edges, info.Languages = cloneCounts(old.Pages), cloneCounts(old.Edges), cloneCounts(old.Languages)
	info.Files, info.SourceBytes, info.Diagnostics = old.Files, old.SourceBytes, old.Diagnostics
	fillInfoDelta(info, oldMods, mods, newSums, lost)
	info.DiagnosticFiles = mergeDiagnostics(old.DiagnosticFiles, contentGone, parsed)

	// Write: the modules segment if it changed, the delta, and the
	// manifest with the tombstones; merge deltas past the limit.
	next := nextGeneration(dir)
	info.Generation = next
	id := nextSegmentID(dir, prev)
	var m manifest
	if writeMods {
		if _, err := writeModulesSegment(dir, id, mods, docs, opt.Segment); err != nil {
			return nil, err
		}
		m.Segments = append(m.Segments, manifestSeg{ID: id, Kind: segModules})
		id++
	} else {
		m.Segments = append(m.Segments, manifestSeg{ID: ms.id, Kind: segModules})
	}
	touched := map[string]int64{}
	for p, t := range prev.man.Touched {
		if !gone[p] {
			touched[p] = t
		}
	}
	for p, st := range reused {
		if !gone[p] {
			touched[p] = st.ModTime
		}
	}
	dead := map[int][]string{}
	for p := range gone {
		if sg := where[p]; sg != nil {
			dead[sg.id] = append(dead[sg.id], p)
		}
	}
	stay, merge := keepSegments(prev, dead)
	if len(merge) > 0 {
		// Merged: the live files of the merged segments join the delta.
		inDelta := map[string]bool{}
		for _, pc := range delta {
			inDelta[pc.Path] = true
		}
		for _, sg := range segs {
			if !merge[sg.id] {
				continue
			}
			pcs, err := sg.readPieces(true)
			if err != nil {
				return nil, prevError{err}
			}
			for _, pc := range pcs {
				if !inDelta[pc.Path] && !gone[pc.Path] {
					if t, ok := touched[pc.Path]; ok {
						pc.rec.ModTime = t
						delete(touched, pc.Path)
					}
					delta = append(delta, pc)
				}
			}
		}
	}
	m.Segments = append(m.Segments, stay...)
	slices.SortFunc(delta, func(a, b *segPiece) int { return strings.Compare(a.Path, b.Path) })
	for _, run := range cutSegments(delta) {
		if _, err := writeFileSegment(dir, id, run, len(run) < segMaxFiles()/8, opt.Segment, goMod); err != nil {
			return nil, err
		}
		m.Segments = append(m.Segments, manifestSeg{ID: id, Kind: segFiles})
		id++
	}
	if len(touched) > 0 {
		m.Touched = touched
	}
	m.GoModule = &goMod
	lap("write")
	closePrev() // so that removeStale can delete what the new generation dropped
	info, err = publish(dir, next, m, info, start)
	if err == nil {
		written := make([]FileStat, len(delta))
		for i, pc := range delta {
			r := pc.rec
			written[i] = FileStat{Path: r.Path, Size: r.Size, ModTime: r.ModTime, Hash: r.Hash}
		}
		saveNextStatTable(dir, next, nextStats(sorted, gone, written, m.Touched))
	}
	return info, err
}

// saveNextStatTable writes stats as the stat table of generation gen, just
// published (its manifest's hash is read back from its seal).
func saveNextStatTable(dir string, gen int, stats []FileStat) {
	seal, err := readSeal(dir, genDir(dir, gen))
	if err != nil {
		return
	}
	for _, sf := range seal {
		if sf.name == manifestName {
			saveStatTable(dir, gen, sf.hash, stats)
		}
	}
}

// prevGoModule is the Go module path the live generation resolved with.
func prevGoModule(prev *Snapshot, now string) string {
	if prev.man.GoModule != nil {
		return *prev.man.GoModule
	}
	return now
}

// keepSegments returns the live generation's file segments with their new
// tombstones, less those left with no live file and those to merge (as
// merge): deltas (small segments) past maxDeltas, and segments with more
// dead files than live ones.
func keepSegments(prev *Snapshot, dead map[int][]string) (stay []manifestSeg, merge map[int]bool) {
	type kept struct {
		ms          manifestSeg
		files, live int
		small       bool
	}
	var ks []kept
	for _, sg := range prev.fileSegs() {
		ms := manifestSeg{ID: sg.id, Kind: segFiles}
		for _, ps := range prev.man.Segments {
			if ps.ID == sg.id {
				ms.Dead = slices.Clone(ps.Dead)
			}
		}
		ms.Dead = append(ms.Dead, dead[sg.id]...)
		slices.Sort(ms.Dead)
		ms.Dead = slices.Compact(ms.Dead)
		k := kept{ms: ms, files: sg.info.Files, small: sg.info.Files < segMaxFiles()/8}
		k.live = k.files - len(ms.Dead)
		if k.live > 0 {
			ks = append(ks, k)
		}
	}
	deltas := 0
	for _, k := range ks {
		if k.small {
			deltas++
		}
	}
	merge = map[int]bool{}
	for _, k := range ks {
		if k.small && deltas+1 > maxDeltas || k.live*2 < k.files {
			merge[k.ms.ID] = true
			continue
		}
		stay = append(stay, k.ms)
	}
	return stay, merge
}

func cloneCounts(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// docCandidate is a file whose doc may stand for its directory's module
// (ModuleDocPriority > 0): what the modules segment keeps so that an
// incremental build remakes the module pages without the other files.
type docCandidate struct {
	Path, Lang, Doc string
}

const docsBlob = "docs"

func docCandidates(all []*FileRecord) []docCandidate {
	var out []docCandidate
	for _, f := range all {
		if ModuleDocPriority(f) > 0 {
			out = append(out, docCandidate{f.Path, f.Lang, f.Facts.Doc})
		}
	}
	return out
}

// updateDocs drops the candidates of gone files and adds those of parsed.
func updateDocs(docs []docCandidate, gone map[string]bool, parsed []*FileRecord) []docCandidate {
	out := docs[:0:0]
	for _, d := range docs {
		if !gone[d.Path] {
			out = append(out, d)
		}
	}
	out = append(out, docCandidates(parsed)...)
	slices.SortFunc(out, func(a, b docCandidate) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// modulesOf is ModulePiece of the tree's paths with the doc candidates.
func modulesOf(paths []string, docs []docCandidate) Piece {
	recs := make([]*FileRecord, 0, len(paths))
	j := 0
	for _, p := range paths {
		for j < len(docs) && docs[j].Path < p {
			j++
		}
		r := &FileRecord{Path: p}
		if j < len(docs) && docs[j].Path == p {
			r.Lang, r.Facts = docs[j].Lang, &parser.Facts{Doc: docs[j].Doc}
		}
		recs = append(recs, r)
	}
	return ModulePiece(recs)
}

func encodeDocs(docs []docCandidate) []byte {
	e := enc{}
	e.uint(uint64(len(docs)))
	for _, d := range docs {
		e.str(d.Path)
		e.str(d.Lang)
		e.str(d.Doc)
	}
	return e.b
}

// docs reads the modules segment's doc candidates.
func (sg *segment) docs() ([]docCandidate, error) {
	b, err := sg.blob(docsBlob)
	if err != nil {
		return nil, err
	}
	d := dec{b: b}
	n := d.count()
	out := make([]docCandidate, 0, n)
	for range n {
		out = append(out, docCandidate{d.str(), d.str(), d.str()})
	}
	return out, d.err
}

// mergeDiagnostics is the diagnostic list of old without gone files, with
// parsed's.
func mergeDiagnostics(old []FileDiagnostic, gone map[string]bool, parsed []*FileRecord) []FileDiagnostic {
	var out []FileDiagnostic
	for _, d := range old {
		if !gone[d.Path] {
			out = append(out, d)
		}
	}
	out = append(out, fileDiagnostics(parsed)...)
	slices.SortFunc(out, func(a, b FileDiagnostic) int { return strings.Compare(a.Path, b.Path) })
	if len(out) > maxDiagnosticFiles {
		out = out[:maxDiagnosticFiles]
	}
	return out
}
