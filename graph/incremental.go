package graph

import (
	"context"
	"maps"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
	lap func(string), closePrev, resumeGC func()) (*BuildInfo, error) {
	slices.SortFunc(parsed, func(a, b *FileRecord) int { return strings.Compare(a.Path, b.Path) })
	goMod := goModulePath(root)
	// The file segments, each opened only when its filter says it may
	// hold a key the change asks (segfilter.go).
	segs, err := prev.fileRefs()
	if err != nil {
		return nil, prevError{err}
	}
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
	// The paths added or removed, for patchModules.
	pathsChanged := slices.Clone(added)
	for p := range removed {
		pathsChanged = append(pathsChanged, p)
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
	where := map[string]*segRef{} // the segment holding each changed file's stored copy
	var goneNames []string
	for p := range gone {
		goneNames = append(goneNames, p)
	}
	for _, sr := range segs {
		// A segment holding only dead copies of the files is not asked
		// (an agent editing one file over and over left a copy in each
		// delta before; each asked was a segment opened).
		names := goneNames
		if len(sr.dead) > 0 {
			names = nil
			for _, p := range goneNames {
				if !sr.dead[p] {
					names = append(names, p)
				}
			}
		}
		if err := sr.lookup("d/", names, func(sg *segment, p string, v []byte) {
			if sr.dead[p] {
				return
			}
			if sum, ok := decodeSummary(v, sg.info.Langs); ok {
				oldSums[p], where[p] = sum, sr
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
	cands := map[string]*segRef{}
	var names, keys []string
	for n := range change.Names {
		names = append(names, n)
	}
	for k := range change.Keys {
		keys = append(keys, k)
	}
	for _, sr := range segs {
		// A segment's stats are decoded only when a key names its files.
		var stats []FileStat
		var statsErr error
		add := func(sg *segment, _ string, v []byte) {
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
					if p := stats[ord].Path; !sr.dead[p] && !gone[p] {
						cands[p] = sr
					}
				}
			}
		}
		if err := sr.lookup("r/", names, add); err != nil {
			return nil, prevError{err}
		}
		if err := sr.lookup("i/", keys, add); err != nil {
			return nil, prevError{err}
		}
		if statsErr != nil {
			return nil, prevError{statsErr}
		}
	}
	var affected []*segPiece
	if len(cands) > pauseGCFiles {
		// Many candidates (a field name such as Count, defined in the
		// file: 33k of 100k files reference it) are many records read:
		// collected as they go, not held to the 1 GB limit of pauseGC.
		resumeGC()
	}
	if len(cands) > 0 {
		bySeg := map[*segRef][]string{}
		for p, sr := range cands {
			bySeg[sr] = append(bySeg[sr], p)
		}
		var srs []*segRef
		for sr := range bySeg {
			srs = append(srs, sr)
		}
		slices.SortFunc(srs, func(a, b *segRef) int { return a.i - b.i })
		// Affects reads of a candidate its references and imports: those
		// alone are decoded for every candidate, the whole piece only for
		// the few it affects; two segments at a time (now is safe for
		// concurrent reads). A file removed at 100k files, whose Count
		// field 33k files use: 3.1–3.9 s and 1.07 GB before, 1.9 s and
		// 306 MB (its directory goes too, so a modules segment is
		// rewritten).
		found := make([][]*segPiece, len(srs))
		errs := make([]error, len(srs))
		var next atomic.Int64
		var wg sync.WaitGroup
		for range min(2, len(srs)) {
			wg.Go(func() {
				for k := int(next.Add(1)) - 1; k < len(srs); k = int(next.Add(1)) - 1 {
					found[k], errs[k] = affectedIn(srs[k], bySeg[srs[k]], change, now)
				}
			})
		}
		wg.Wait()
		for k := range srs {
			if errs[k] != nil {
				return nil, prevError{errs[k]}
			}
			for _, pc := range found[k] {
				// Its stored record has the time it was parsed at; a
				// touch since lives in the manifest's Touched, which the
				// new copy replaces.
				if st, ok := reused[pc.Path]; ok {
					pc.rec.ModTime = st.ModTime
				} else if t, ok := prev.man.Touched[pc.Path]; ok {
					pc.rec.ModTime = t
				}
				affected = append(affected, pc)
			}
		}
	}
	// Re-resolve the parsed and affected files against the new tree, but
	// for the parsed files whose stored edges stand (reuseEdges), and, of
	// the others, but for the references the change cannot alter
	// (depend.go: partial re-resolution).
	var reusedEdges []*segPiece
	var stored map[string]*segPiece // stored copies of parsed files reuseEdges read
	toResolve := parsed
	sameGoMod := prevGoModule(prev, goMod) == goMod
	if sameGoMod {
		if reusedEdges, toResolve, stored, err = reuseEdges(parsed, oldSums, where, len(segs), change, now); err != nil {
			return nil, prevError{err}
		}
	}
	toResolve = slices.Clone(toResolve)
	for _, pc := range affected {
		toResolve = append(toResolve, pc.rec)
	}
	slices.SortFunc(toResolve, func(a, b *FileRecord) int { return strings.Compare(a.Path, b.Path) })
	pathsMoved := len(removed) > 0 || len(newPaths) != len(oldPaths)
	oldAffected := map[string]*segPiece{}
	for _, pc := range affected {
		oldAffected[pc.Path] = pc
	}
	// A partial re-resolution needs the answers of the file's imports to
	// stand: the same Go module, and with paths added or removed, none of
	// the questions its imports ask about them answered otherwise.
	partialOK := func(r *FileRecord) bool {
		if !sameGoMod || change.Keys[keyGoMod] {
			return false
		}
		if pathsMoved && len(change.Keys) > 0 {
			for _, k := range contextKeys(r, goMod) {
				if change.Keys[k] {
					return false
				}
			}
		}
		return true
	}
	plans := map[string]*partialPlan{}
	olds := map[string]*segPiece{}
	var full []*FileRecord
	var refNames []string
	for _, r := range toResolve {
		old := oldAffected[r.Path]
		dirty := map[string]bool{}
		for n := range change.Names {
			dirty[n] = true
		}
		if old == nil {
			if old = stored[r.Path]; old != nil {
				// The file's own definitions, as its stored record has them
				// (Local included, which its summary does not keep).
				for n := range diffDefs([]*FileRecord{old.rec}, []*FileRecord{r}) {
					dirty[n] = true
				}
			}
		}
		if old == nil || old.rec == nil || old.rec.Lang != r.Lang || !sameImports(old.rec, r) || !partialOK(r) {
			full = append(full, r)
			refNames = append(refNames, RefNames(r)...)
			continue
		}
		plan := planPartial(r, filePages(r, nil), old, dirty)
		plans[r.Path], olds[r.Path] = &plan, old
		refNames = append(refNames, plan.names...)
	}
	now.prefetch(refNames)
	partialFiles.Add(int64(len(plans)))
	fullPieces := ResolvePieces(full, now)
	// before is the IDs of a name's definitions before the change: now's,
	// and was's for a name whose definitions changed (looked up already).
	before := func(old *segPiece) func(string) []string {
		return func(n string) []string {
			var ids []string
			for _, d := range now.Defs(n) {
				ids = append(ids, d.ID)
			}
			if change.Names[n] != nil {
				for _, d := range was.Defs(n) {
					ids = append(ids, d.ID)
				}
			}
			for i := range old.Pages {
				if pg := &old.Pages[i]; pg.Kind == KindSymbol && pg.Name == n {
					ids = append(ids, pg.ID)
				}
			}
			return ids
		}
	}
	resolved := make([]Piece, len(toResolve))
	for i, r := range toResolve {
		if plan := plans[r.Path]; plan != nil {
			resolved[i] = resolvePartial(r, olds[r.Path], plan, now, before(olds[r.Path]))
		} else {
			resolved[i], fullPieces = fullPieces[0], fullPieces[1:]
		}
	}
	delta := reusedEdges
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
	// or a candidate changed. With the same paths and every changed file's
	// candidate as its stored copy's, neither can have: the modules
	// segments stand unread (their candidates are every package doc of the
	// tree: 25 ms to decode and merge at 100k files). Else only the shards
	// holding a directory the change can alter are read (modshard.go).
	oldShards := prev.moduleShards()
	standing := len(oldShards) > 0 && !pathsMoved && sameCandidates(contentGone, parsed, stored)
	var hit []int // of oldShards, those read
	var read []modShard
	if !standing && len(oldShards) > 0 {
		froms := make([]string, len(oldShards))
		for k, sh := range oldShards {
			froms[k] = sh.from
		}
		in := map[int]bool{}
		for d := range changedDirs(pathsChanged, contentGone, parsed) {
			in[shardOfDir(froms, d)] = true
		}
		for k := range oldShards {
			if in[k] {
				hit = append(hit, k)
			}
		}
	}
	var hitSegs []*segment
	var docs []docCandidate
	for _, k := range hit {
		sg, err := prev.segmentAt(oldShards[k].at)
		if err != nil {
			return nil, prevError{err}
		}
		d, err := sg.docs()
		if err != nil {
			return nil, prevError{err}
		}
		hitSegs = append(hitSegs, sg)
		read = append(read, modShard{from: oldShards[k].from, docs: d})
		docs = append(docs, d...)
	}
	slices.SortFunc(docs, func(a, b docCandidate) int { return strings.Compare(a.Path, b.Path) })
	oldDocs := docs
	if !standing {
		docs = updateDocs(docs, contentGone, parsed)
	}
	// Module pages follow from the directories and the doc candidates
	// alone: with the same directories and candidates they stand, and
	// remaking them (a record per file of the tree: 250 ms at 100k files)
	// is saved. A file added to or removed from a directory that keeps
	// files moves paths but no directory: Change.Keys then holds no dir:
	// key (changes sets one for each directory that appeared or emptied).
	dirsMoved := false
	for k := range change.Keys {
		if strings.HasPrefix(k, keyDir) {
			dirsMoved = true
			break
		}
	}
	var oldMods, mods Piece
	// The modules entries of the new manifest: the old ones, but for the
	// shards rewritten.
	var modSegs []manifestSeg
	for _, sh := range oldShards {
		modSegs = append(modSegs, manifestSeg{ID: sh.id, Kind: segModules, From: sh.from})
	}
	var writeShards []modShard
	if !standing && (len(oldShards) == 0 || dirsMoved || !slices.Equal(docs, oldDocs)) {
		for i, sg := range hitSegs {
			var err error
			if read[i].pc, err = sg.readModules(); err != nil {
				return nil, prevError{err}
			}
		}
		oldMods, _ = joinModules(read)
		if len(oldMods.Pages) > 0 || len(hit) < len(oldShards) {
			// Only the directories of the paths and candidates that
			// changed are looked at again (patchModules).
			mods = patchModules(oldMods, newPaths, pathsChanged, docs, oldDocs)
		} else {
			mods = modulesOf(newPaths, docs)
		}
		modulesRemade.Add(1)
		// The candidates are kept even when the pages stand: a candidate
		// that loses today wins when the winner goes.
		if len(oldShards) == 0 {
			writeShards = cutModules(mods, docs, nil, moduleShardPages())
			modSegs = nil
		} else if !modsEqual(mods, oldMods) || !slices.Equal(docs, oldDocs) {
			var stand []bool
			writeShards, stand = reshard(read, mods, docs, moduleShardPages())
			drop := map[int]bool{}
			for i, k := range hit {
				drop[oldShards[k].id] = !stand[i]
			}
			modSegs = slices.DeleteFunc(modSegs, func(e manifestSeg) bool { return drop[e.ID] })
		}
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

	// Write: the modules shards that changed, the delta, and the
	// manifest with the tombstones; merge deltas past the limit.
	next := nextGeneration(dir)
	info.Generation = next
	id := nextSegmentID(dir, prev)
	var m manifest
	if len(writeShards) > 0 {
		ents := shardEntries(id, writeShards)
		if err := writeModuleShards(dir, ents, writeShards, opt.Segment); err != nil {
			return nil, err
		}
		id += len(ents)
		modSegs = append(modSegs, ents...)
		slices.SortStableFunc(modSegs, func(a, b manifestSeg) int { return strings.Compare(a.From, b.From) })
	}
	if len(modSegs) > 0 {
		modSegs[0].From = "" // the first shard's range is open below
	}
	m.Segments = append(m.Segments, modSegs...)
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
		if sr := where[p]; sr != nil {
			dead[sr.id] = append(dead[sr.id], p)
		}
	}
	stay, merge := keepSegments(prev, segs, dead)
	if len(merge) > 0 {
		// Merged: the live files of the merged segments join the delta.
		inDelta := map[string]bool{}
		for _, pc := range delta {
			inDelta[pc.Path] = true
		}
		for _, sr := range segs {
			if !merge[sr.id] {
				continue
			}
			sg, err := sr.open()
			if err != nil {
				return nil, prevError{err}
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
		lap("publish")
		written := make([]FileStat, len(delta))
		for i, pc := range delta {
			r := pc.rec
			written[i] = FileStat{Path: r.Path, Size: r.Size, ModTime: r.ModTime, Hash: r.Hash}
		}
		saveNextStatTable(dir, next, prev.statBase, sorted, gone, written, m.Touched)
		lap("stattable")
	}
	return info, err
}

// saveNextStatTable writes the stat table of generation gen, just
// published (its manifest's hash is read back from its seal), whose stats
// are nextStats(old, gone, written, touched): a delta from base, the table
// the generation before was read from (with its delta, when it had one),
// when small; found from the paths the build changed alone (statDeltaNext),
// without the stats of the whole tree merged and compared.
func saveNextStatTable(dir string, gen int, base *statBase, old []FileStat, gone map[string]bool, written []FileStat, touched map[string]int64) {
	seal, err := readSeal(dir, genDir(dir, gen))
	if err != nil {
		return
	}
	for _, sf := range seal {
		if sf.name != manifestName {
			continue
		}
		if base != nil {
			if dgone, dchanged, ok := statDeltaNext(base, old, gone, written, touched); ok {
				writeStatDelta(dir, gen, sf.hash, base, dgone, dchanged)
				return
			}
		}
		saveStatDelta(dir, gen, sf.hash, base, nextStats(old, gone, written, touched))
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
func keepSegments(prev *Snapshot, segs []*segRef, dead map[int][]string) (stay []manifestSeg, merge map[int]bool) {
	type kept struct {
		ms          manifestSeg
		files, live int
		small       bool
	}
	var ks []kept
	for _, sr := range segs {
		ms := manifestSeg{ID: sr.id, Kind: segFiles}
		ms.Dead = slices.Clone(prev.man.Segments[sr.i].Dead)
		ms.Dead = append(ms.Dead, dead[sr.id]...)
		slices.Sort(ms.Dead)
		ms.Dead = slices.Compact(ms.Dead)
		k := kept{ms: ms, files: sr.files(), small: sr.files() < segMaxFiles()/8}
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

// storedCopyFiles is reuseEdges' bound: decoding a segment costs about
// 30 µs a file it holds, looking names up about 3 ms a file segment. The
// environment variable WIKITOOLKIT_STORED_COPY_FILES (a test hook) sets
// it, so that tests of small trees, whose copies are always read, can
// have every file resolved again instead (0).
func storedCopyFiles() int {
	if n, err := strconv.Atoi(os.Getenv("WIKITOOLKIT_STORED_COPY_FILES")); err == nil && n >= 0 {
		return n
	}
	return 100
}

// reuseEdges returns, of the parsed files, those whose stored edges stand
// as the pieces of their new records (reused), the others (todo), and
// the stored copies it read (of every parsed file stored in the same
// language, up to partialMaxFiles parsed files: a file it does not reuse
// is resolved again in part from its copy, resolvePartial). A file's edges follow from its path, language,
// definitions, references (all but their lines) and imports, and from
// the World's answers to the questions those ask; so when all of them
// read as in its stored copy and change does not affect the stored copy,
// resolving it again gives the edges it has. A line edit that changes no
// definition then looks no name up: at 100k files its references' names
// (Count, New, Err) have definitions in most segments, which resolving
// opened and decoded.
//
// Reading a stored copy decodes its whole segment (graph, page text,
// records), and resolving a file looks its names up in the segments whose
// filters may hold them; so a file whose segment holds more than
// storedCopyFiles files per file segment of the index is resolved again
// instead (nsegs: the index's file segments). A first edit of a file of
// a full segment (1.5k files) on moby (3 segments): 12–15 ms resolving
// against 60 ms reading its copy (build 0.08–0.09 s against 0.14 s); at
// 100k files (70 segments) 128 ms resolving against 40 ms reading.
func reuseEdges(parsed []*FileRecord, oldSums map[string]fileSummary, where map[string]*segRef, nsegs int, change *Change, now World) (reused []*segPiece, todo []*FileRecord, stored map[string]*segPiece, err error) {
	pages := map[string][]Page{}
	bySeg := map[*segRef][]string{}
	maxFiles := storedCopyFiles() * nsegs
	for _, r := range parsed {
		sum, ok := oldSums[r.Path]
		sr := where[r.Path]
		if !ok || sr == nil || sum.Lang != r.Lang || sr.files() > maxFiles {
			continue
		}
		ps := filePages(r, nil)
		var defs []defName
		for i := range ps {
			if p := &ps[i]; p.Kind == KindSymbol && p.Name != "" {
				defs = append(defs, defName{p.Name, p.Qualified})
			}
		}
		if slices.Equal(defs, sum.Defs) {
			pages[r.Path] = ps
		} else if len(parsed) > partialMaxFiles {
			continue // resolved in full: its segment is not decoded for it
		}
		bySeg[sr] = append(bySeg[sr], r.Path)
	}
	if len(bySeg) == 0 {
		return nil, parsed, nil, nil
	}
	stored = map[string]*segPiece{}
	for sr, paths := range bySeg {
		sg, err := sr.open()
		if err != nil {
			return nil, nil, nil, err
		}
		pcs, err := sg.readPiecesOf(paths)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, pc := range pcs {
			stored[pc.Path] = pc
		}
	}
	for _, r := range parsed {
		old := stored[r.Path]
		if old == nil || pages[r.Path] == nil || !sameResolution(old.rec, r) || change.Affects(old.rec, now) {
			todo = append(todo, r)
			continue
		}
		reused = append(reused, &segPiece{Piece: Piece{Path: r.Path, Pages: pages[r.Path], Edges: slices.Clone(old.Edges)}, rec: r})
	}
	return reused, todo, stored, nil
}

// partialMaxFiles is the most parsed files a build reads the stored
// copies of when their definitions changed, to resolve them in part: a
// large change (a branch switched) resolves them in full, and decodes no
// segment for them.
const partialMaxFiles = 256

// affectedIn returns the stored pieces, with their records, of the files
// of paths (candidates in segment sr) whose pieces change can alter.
func affectedIn(sr *segRef, paths []string, change *Change, now World) ([]*segPiece, error) {
	sg, err := sr.open()
	if err != nil {
		return nil, err
	}
	recs, err := sg.readRefsOf(paths)
	if err != nil {
		return nil, err
	}
	var hit []string
	for _, r := range recs {
		if change.Affects(r, now) {
			hit = append(hit, r.Path)
		}
	}
	if len(hit) == 0 {
		return nil, nil
	}
	return sg.readPiecesOf(hit)
}

// modulesRemade counts the incremental builds that remade the module
// pages of the tree (tests).
var modulesRemade atomic.Int64

// partialFiles counts the files resolved in part (tests).
var partialFiles atomic.Int64

// PartialResolves returns how many files incremental builds of this
// process resolved in part (resolvePartial) so far.
func PartialResolves() int64 { return partialFiles.Load() }

// sameImports reports whether records a and b of one path import the
// same, in the same order.
func sameImports(a, b *FileRecord) bool {
	var ia, ib []parser.Import
	if a.Facts != nil {
		ia = a.Facts.Imports
	}
	if b.Facts != nil {
		ib = b.Facts.Imports
	}
	if len(ia) != len(ib) {
		return false
	}
	for i := range ia {
		if ia[i].Path != ib[i].Path || ia[i].Alias != ib[i].Alias {
			return false
		}
	}
	return true
}

// sameCandidates reports whether every file of gone is a parsed file
// whose stored copy (of stored) was the same module-doc candidate, or the
// same non-candidate, as its new record: then the modules segment's
// candidates are what they were.
func sameCandidates(gone map[string]bool, parsed []*FileRecord, stored map[string]*segPiece) bool {
	now := make(map[string]*FileRecord, len(parsed))
	for _, r := range parsed {
		now[r.Path] = r
	}
	for p := range gone {
		old, r := stored[p], now[p]
		if old == nil || old.rec == nil || r == nil {
			return false
		}
		if !slices.Equal(docCandidates([]*FileRecord{old.rec}), docCandidates([]*FileRecord{r})) {
			return false
		}
	}
	return true
}

// sameResolution reports whether records a and b of one path ask
// resolution the same questions: the same language, definitions (kind,
// names, parent), references but for their lines, and imports.
func sameResolution(a, b *FileRecord) bool {
	if a.Path != b.Path || a.Lang != b.Lang || (a.Facts == nil) != (b.Facts == nil) {
		return false
	}
	if a.Facts == nil {
		return true
	}
	fa, fb := a.Facts, b.Facts
	if len(fa.Defs) != len(fb.Defs) || len(fa.Refs) != len(fb.Refs) || len(fa.Imports) != len(fb.Imports) {
		return false
	}
	for i := range fa.Defs {
		x, y := &fa.Defs[i], &fb.Defs[i]
		if x.Kind != y.Kind || x.Name != y.Name || x.Qualified != y.Qualified || x.Parent != y.Parent {
			return false
		}
	}
	for i := range fa.Refs {
		x, y := fa.Refs[i], fb.Refs[i]
		x.Line, y.Line = 0, 0
		if x != y {
			return false
		}
	}
	for i := range fa.Imports {
		if x, y := &fa.Imports[i], &fb.Imports[i]; x.Path != y.Path || x.Alias != y.Alias {
			return false
		}
	}
	return true
}

// pauseGCFiles is the most files an incremental build may parse or remove
// with the garbage collector paused (pauseGC).
const pauseGCFiles = 256

// pauseGCLimit is the heap at which a paused collector runs anyway.
const pauseGCLimit = 1 << 30

// pauseGC stops the garbage collector for an incremental build and returns
// what restores it (idempotent). An edit's build allocates little beyond
// its fixed cost (the stat table, the sketch and the plan of the stat walk:
// about 60 MB at 100k files, most of it live until the walk ends), and a
// collection cycle during the walk (ten at GOGC 100) stops its two
// statting goroutines at every mark; a short-lived process (the CLI) then
// exits without one. A soft memory limit (pauseGCLimit, or a lower one
// already set) collects if the build proves large; the caller resumes the
// collector once the change has more than pauseGCFiles files. An explicit
// GOGC, or a collector already off, is left alone.
func pauseGC() func() {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(-1)
	if old < 0 {
		return func() {}
	}
	oldLimit := debug.SetMemoryLimit(-1)
	if oldLimit > pauseGCLimit {
		debug.SetMemoryLimit(pauseGCLimit)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			debug.SetMemoryLimit(oldLimit)
			debug.SetGCPercent(old)
		})
	}
}
