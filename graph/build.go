package graph

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/wikitoolkit/wikitoolkit/graph/walk"
	"github.com/wikitoolkit/wikitoolkit/parser"
)

// Progress receives build progress; the cli draws it as a bar. Nil-safe
// callers: BuildOptions.Progress may be nil. Start may come again with the
// total: a large tree's first build starts parsing before its walk is
// done, with the total -1 (not known yet), and starts again once it is
// known, adding what was parsed meanwhile.
type Progress interface {
	Start(total int)
	Add(n int)
	Finish()
}

// BuildOptions configures Build.
type BuildOptions struct {
	Root     string // repository root (absolute or relative; made absolute)
	IndexDir string // index directory; "" → Root/.wikitoolkit
	Full     bool   // reparse every file even when an index exists
	Walk     walk.Options
	Workers  int // parse workers; 0 → GOMAXPROCS
	Progress Progress
	// Segment derives more data of each segment the build writes (the
	// ranking index), stored as blobs of the segment: g holds the
	// segment's pages and the edges among them, ext its edges to pages of
	// other segments.
	Segment func(g *Graph, ext []ExtLink) (map[string][]byte, error)
	// Weigh, when set, is given readers of the blobs of every segment of a
	// full build, and returns the BlobsFunc that weighs one segment under
	// the statistics of them all (engine.Weighed), so that readers use the
	// impacts as stored: the build passes it each segment's blobs as
	// Segment made them and stores the ones it returns instead. The last
	// batch is weighed before it is written; the segments of the batches
	// before it are rewritten when pass 2 changes their pieces, else copied
	// with the blobs Weigh changed (firstbuild.go).
	Weigh func(segs []func(name string) ([]byte, error)) (BlobsFunc, error)
	// Waiting is called once if another build holds the lock (when Build
	// takes it: Lock nil).
	Waiting func()
	// Lock, when set, is the index directory's build lock (LockBuild),
	// held by the caller so that more than the build runs under it (the
	// service layer imports shared notes before and stamps anchors after);
	// Build then neither takes nor releases it. Nil: Build takes the lock
	// for its own duration.
	Lock *Lock
	// Changed, when not nil, names every path (repo-relative, "/"-
	// separated; files or directories, present or gone) that may differ
	// from the live generation: what a file watcher saw. An incremental
	// build then walks just them (walk.WalkPaths) instead of the whole
	// tree, and keeps what the live generation says of the rest. When they
	// cannot be walked alone (walk.ErrWalkAll), or there is no live
	// generation to build on, the whole tree is walked.
	Changed []string
	// PauseGC, for a short-lived process (the CLI's build), runs an
	// incremental build of a small change without the garbage collector
	// (pauseGC): its garbage is the fixed cost's, which the process exit
	// frees. A long-running process (the server) leaves it false, so that
	// its heap does not grow by a build's garbage.
	PauseGC bool
	// BlobsFormat names the form of what Segment stores; a generation
	// written with another BlobsFormat (or graph FormatVersion) is rebuilt
	// in full rather than reused.
	BlobsFormat string
}

// FormatVersion is the version of everything graph stores in a
// generation (codec.go, record.go, graphcodec.go); bump it with any change.
const FormatVersion = 10 // 7: segments; 8: typed references (Ref.Type); 9: edge attributes (EdgeAttr); 10: qualified names beside their names (appendQual, encodeSummary)

func (opt *BuildOptions) format() string {
	return fmt.Sprintf("graph%d/%s", FormatVersion, opt.BlobsFormat)
}

// Build indexes the repository: it walks opt.Root, reparses added and
// changed files, reuses the facts of unchanged ones, resolves references,
// and writes a new generation that becomes live only when complete. With
// nothing changed it writes nothing. One build at a time writes to an
// index directory: Build holds its build lock (LockBuild) throughout.
func Build(ctx context.Context, opt BuildOptions) (*BuildInfo, error) {
	start := time.Now()
	opened := start
	root, err := filepath.Abs(opt.Root)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("cannot index %s: not a directory", opt.Root)
	}
	dir := opt.IndexDir
	if dir == "" {
		dir = filepath.Join(root, IndexDirName)
	}
	switch {
	case opt.Lock == nil:
		lock, err := LockBuild(dir, opt.Waiting)
		if err != nil {
			return nil, err
		}
		defer lock.Unlock()
	case opt.Lock.path != buildLockPath(dir):
		return nil, fmt.Errorf("build of %s given the lock %s: take the index's own with LockBuild", dir, opt.Lock.path)
	}

	var repaired string
	if !opt.Full {
		prev, err := openForBuild(dir)
		opened = time.Now()
		switch {
		case errors.Is(err, ErrNoIndex):
		case err != nil:
			// A damaged or unreadable previous generation is not fatal:
			// it is derived data, so build from scratch and say so.
			repaired = reasonOf(err)
			opt.Full = true
		default:
			info, err := buildFrom(ctx, opt, root, dir, start, opened, prev)
			var pe prevError
			if !errors.As(err, &pe) {
				return info, err
			}
			repaired = reasonOf(pe.err)
			opt.Full = true
		}
	}
	info, err := buildFrom(ctx, opt, root, dir, start, time.Now(), nil)
	if err == nil {
		info.Repaired = repaired
	}
	return info, err
}

// openForBuild opens the live generation for a build holding the build
// lock (so CURRENT stands still): its seals checked, its segments opened
// when first needed (openGenerationLazy).
func openForBuild(dir string) (*Snapshot, error) {
	n, err := CurrentGeneration(dir)
	if err != nil {
		return nil, err
	}
	s, err := openGenerationLazy(dir, n)
	if err != nil && !errors.Is(err, ErrDamaged) {
		return nil, fmt.Errorf("open index %s: %w (run `wikitoolkit build --full` to rebuild it)", dir, err)
	}
	return s, err
}

// prevError is a failure to read the previous generation during an
// incremental build; Build then rebuilds in full.
type prevError struct{ err error }

func (e prevError) Error() string { return "read previous index: " + e.err.Error() }
func (e prevError) Unwrap() error { return e.err }

// buildWalk is the walk of a build: the source's (SourceWalk), with the
// parser's languages and reasons unless opt names others.
func buildWalk(opt walk.Options) walk.Options {
	if opt.Detect == nil {
		opt.Detect = parser.Detect
		if opt.Reason == nil {
			opt.Reason = parser.NotIndexedReason
		}
	}
	return SourceWalk(opt)
}

// SourceWalk returns opt with the index folder (IndexDirName, at any depth)
// omitted: what every walk of a repository's source needs, as its files are
// not source. Other folders to leave out (the shared notes folder) are the
// caller's to name in opt.OmitPaths.
func SourceWalk(opt walk.Options) walk.Options {
	opt.OmitNames = append(slices.Clip(opt.OmitNames), IndexDirName)
	return opt
}

// stamps returns the size and modification time of each file of stats.
func stamps(stats map[string]FileStat) map[string]walk.Stamp {
	out := make(map[string]walk.Stamp, len(stats))
	for p, s := range stats {
		out[p] = walk.Stamp{Size: s.Size, ModTime: s.ModTime}
	}
	return out
}

// reasonOf is the part of an error worth repeating in a warning.
func reasonOf(err error) string {
	var de *DamagedError
	if errors.As(err, &de) {
		return de.Reason
	}
	return err.Error()
}

// buildFrom runs one build with the lock held, from the previous generation
// prev (nil: a full build), which it closes; opened is when prev was open
// (its seals checked), for the phase "open".
func buildFrom(ctx context.Context, opt BuildOptions, root, dir string, start, opened time.Time, prev *Snapshot) (*BuildInfo, error) {
	closePrev := func() {
		if prev != nil {
			prev.Close()
			prev = nil
		}
	}
	defer closePrev()
	if prev != nil && prev.Info().Format != opt.format() {
		// Written by another version: rebuild everything.
		closePrev()
	}
	if prev != nil && prev.Info().Mode == "partial" {
		// Published by a first build that stopped: build it again in full.
		closePrev()
	}
	var prevSorted []FileStat // by path
	resumeGC := func() {}
	if prev != nil && opt.PauseGC {
		// An edit's build: no collection while its garbage is the fixed
		// cost's (pauseGC); collected again once the change proves large.
		resumeGC = pauseGC()
		defer resumeGC()
	}
	// Without a watcher's paths, the sketch of the live generation's walk
	// names those that may have changed (walksketch.go). It is read and
	// decoded while the stat table is: both are a file read and a decode
	// of 82k directories or 100k files at 100k files, 10–40 ms each, and
	// the cores are otherwise idle until Since stats the tree.
	watched := opt.Changed != nil
	type loadedSketch struct {
		sk  *walk.Sketch
		sum uint64
	}
	var sketchLoad chan loadedSketch
	if prev != nil && !watched {
		sketchLoad = make(chan loadedSketch, 1)
		go func(gen int) {
			sk, sum := loadSketch(dir, gen)
			sketchLoad <- loadedSketch{sk, sum}
		}(prev.Generation)
	}
	if prev != nil {
		stats, err := prev.Stats()
		if err != nil {
			if sketchLoad != nil {
				<-sketchLoad
			}
			return nil, prevError{err}
		}
		prevSorted = stats
	}
	statsRead := time.Now()

	var sketch *walk.Sketch
	var sketchHash uint64
	var sketchDirs map[string]walk.DirStamp
	if sketchLoad != nil {
		ls := <-sketchLoad
		sk, sum := ls.sk, ls.sum
		if sk != nil {
			paths, dirs, ok := sk.Since(ctx, root, buildWalk(opt.Walk), knownFiles(prevSorted, prev.Info()))
			if ok {
				opt.Changed = append([]string{}, paths...) // not nil: nothing changed is an answer too
				sketch, sketchHash, sketchDirs = sk, sum, dirs
			}
		}
	}
	sketched := time.Now()
	var listed *walk.Result
	var scope *walk.Scope
	var firstFiles []walk.File // a large tree's first batch, before its walk is done (firstwalk.go)
	var tw *treeWalk
	var err error
	if prev == nil {
		wopt := buildWalk(opt.Walk)
		wopt.Sketch = true
		listed, firstFiles, tw, err = firstWalk(ctx, root, wopt, dir)
	} else {
		listed, scope, err = walkChanged(ctx, opt, root, true)
	}
	if err != nil {
		return nil, err
	}
	if tw != nil {
		defer tw.stop()
	}
	// Writes the sketch of the generation this build leaves, once it is live.
	var writeSketch func(gen int)
	switch {
	case scope == nil:
		writeSketch = func(gen int) { saveSketch(dir, gen, listed.Sketch) }
	case sketch != nil:
		writeSketch = func(gen int) {
			if sketch.Same(opt.Changed, sketchDirs, listed) {
				retagSketch(dir, gen, sketchHash) // no directory moved: the file stands
				return
			}
			saveSketch(dir, gen, sketch.Update(opt.Changed, sketchDirs, listed))
		}
	default: // a watcher's paths: the sketch stands (keepSketch), unless they met a symbolic link
		sum, ok := sketchTag(dir, prev.Generation)
		ok = ok && !listed.MetDirLink()
		writeSketch = func(gen int) { keepSketch(dir, gen, sum, ok) }
	}
	saveNext := func(info *BuildInfo, err error) (*BuildInfo, error) {
		if err == nil {
			writeSketch(info.Generation)
		}
		return info, err
	}
	// The stats of the files the walk looked at: all of them, or with
	// opt.Changed those at or below the paths (all that is asked of them).
	var prevStats map[string]FileStat
	if scope != nil {
		prevStats = scopedStats(prevSorted, *scope)
	} else {
		prevStats = make(map[string]FileStat, len(prevSorted))
		for _, s := range prevSorted {
			prevStats[s.Path] = s
		}
	}
	newInfo := func() *BuildInfo {
		return &BuildInfo{Root: root, Mode: "full", Started: start.UTC(), Phases: map[string]float64{}, Format: opt.format()}
	}
	info := newInfo()
	if prev != nil {
		// What an edit's build pays before it knows what changed.
		info.Phases["open"] = opened.Sub(start).Seconds()
		info.Phases["stats"] = statsRead.Sub(opened).Seconds()
		info.Phases["sketch"] = sketched.Sub(statsRead).Seconds()
	}
	phase := start
	if prev != nil {
		phase = sketched
	}
	lap := func(name string) {
		now := time.Now()
		info.Phases[name] += now.Sub(phase).Seconds()
		phase = now
	}
	lap("walk")
	// What the walk found, for the build info.
	walked := func(info *BuildInfo) {
		info.DirsRead = listed.Dirs
		info.Walked, info.Unwalked = "tree", listed.Unwalked
		info.Links, info.DirLink = listed.Links(), listed.MetDirLink()
		if scope != nil && watched {
			info.Walked = "changed"
		}
		if prev != nil {
			info.Mode = "incremental"
		}
		info.Skipped = append(info.Skipped, listed.Skipped...)
		if listed.TrackedErr != nil {
			info.Warnings = append(info.Warnings, "tracked files matched by ignore rules left out: "+listed.TrackedErr.Error())
		}
	}
	if tw != nil {
		// A large tree's first build: the first batch is under way before
		// the walk is done (firstwalk.go).
		early := &earlyBatch{files: firstFiles, rest: func() ([]walk.File, func([]walk.Skip) []walk.NotIndexed, error) {
			res, err := tw.wait()
			if err != nil {
				return nil, nil, err
			}
			listed = res
			walked(info)
			return listed.Files, listed.NotIndexed, nil
		}}
		got, err := fullBuild(ctx, opt, root, dir, start, info, nil, nil, lap, early)
		if !errors.Is(err, errPrefixMoved) {
			if err == nil {
				got, err = saveNext(got, nil)
			}
			if err == nil {
				saveStatTableOf(dir, got.Generation)
			}
			return got, err
		}
		// The tree changed under the walk: build from the walk's list.
		info = newInfo()
		info.Phases["walk"] = time.Since(start).Seconds()
	}
	walked(info)

	// Which files need reading: new ones and ones whose size or mtime moved.
	if scope != nil {
		keepOutside(info, prev.Info(), *scope)
	}
	changes := walk.Diff(listed.Files, stamps(prevStats), nil)
	// The indexed files outside the paths walked are unchanged.
	unchanged := len(changes.Unchanged) + len(prevSorted) - len(prevStats)
	todo := append(changes.Added, changes.Modified...)
	slices.SortFunc(todo, func(a, b walk.File) int { return strings.Compare(a.Path, b.Path) })
	info.FilesRemoved += len(changes.Removed)
	if len(todo)+len(changes.Removed) > pauseGCFiles {
		resumeGC()
	}

	if prev == nil {
		info, err := saveNext(fullBuild(ctx, opt, root, dir, start, info, todo, listed.NotIndexed, lap, nil))
		if err == nil {
			saveStatTableOf(dir, info.Generation)
		}
		return info, err
	}
	results, err := parseFiles(ctx, todo, prevStats, opt)
	if err != nil {
		return nil, err
	}
	lap("parse")
	reused := map[string]FileStat{} // content unchanged despite a new mtime
	var parsed []*FileRecord
	for _, res := range results {
		switch {
		case res.skip != "":
			info.Skipped = append(info.Skipped, walk.Skip{Path: res.entry.Path, Reason: res.skip})
		case res.fail != "":
			info.Failed = append(info.Failed, walk.Skip{Path: res.entry.Path, Reason: res.fail})
		case res.rec == nil:
			ps := prevStats[res.entry.Path]
			ps.ModTime = res.entry.ModTime
			reused[ps.Path] = ps
		default:
			parsed = append(parsed, res.rec)
		}
	}
	info.FilesParsed = len(parsed)
	info.FilesUnchanged = unchanged + len(reused)
	info.FilesSkipped = len(info.Skipped)
	info.FilesFailed = len(info.Failed)
	// A file that used to be indexed and is now skipped counts as removed.
	for _, s := range info.Skipped {
		if _, ok := prevStats[s.Path]; ok {
			info.FilesRemoved++
		}
	}
	for _, s := range info.Failed {
		if _, ok := prevStats[s.Path]; ok {
			info.FilesRemoved++
		}
	}
	sort.Slice(info.Skipped, func(i, j int) bool { return info.Skipped[i].Path < info.Skipped[j].Path })
	info.NotIndexed = listed.NotIndexed(info.Skipped)
	if scope != nil {
		// The counts of the files Detect rejects outside the paths are not
		// known: the last build's, with its skips replaced by this one's.
		info.NotIndexed = walk.Reskip(prev.Info().NotIndexed, prev.Info().Skipped, info.Skipped)
	}

	if prev != nil && len(parsed) == 0 && info.FilesRemoved == 0 {
		// Nothing to write: the live generation stays.
		old := prev.Info()
		info.Generation = old.Generation
		info.Pages, info.Edges, info.Languages, info.Files = old.Pages, old.Edges, old.Languages, old.Files
		info.SourceBytes, info.Diagnostics, info.DiagnosticFiles = old.SourceBytes, old.Diagnostics, old.DiagnosticFiles
		info.Format = old.Format
		info.Seconds = time.Since(start).Seconds()
		// What this build saw (skipped files, not indexed) must outlive it
		// although it wrote no generation: status reads it from here.
		saveLastBuild(dir, info)
		if !prev.fromTable {
			saveStatTable(dir, prev.Generation, prev.statTableKey(), prevSorted)
		}
		if len(opt.Changed) > 0 || scope == nil {
			writeSketch(info.Generation)
		}
		// A build stopped after switching CURRENT left the generation before
		// it (and perhaps a partial one): remove them here too.
		removeStale(dir, old.Generation)
		return info, nil
	}

	return saveNext(incrementalBuild(ctx, opt, root, dir, start, info, prev, prevStats, parsed, reused, changes.Removed, lap, closePrev, resumeGC))
}

// walkChanged lists the files of the build: those at or below
// opt.Changed (with their scope) when given and an incremental build may
// walk them alone, else the whole tree (nil scope).
func walkChanged(ctx context.Context, opt BuildOptions, root string, incremental bool) (*walk.Result, *walk.Scope, error) {
	wopt := buildWalk(opt.Walk)
	wopt.Sketch = true
	if incremental && opt.Changed != nil {
		listed, err := walk.WalkPaths(ctx, root, wopt, opt.Changed)
		if err == nil {
			sc, _ := walk.NewScope(opt.Changed)
			return listed, &sc, nil
		}
		if !errors.Is(err, walk.ErrWalkAll) {
			return nil, nil, err
		}
	}
	listed, err := walk.Walk(ctx, root, wopt)
	return listed, nil, err
}

// scopedStats returns the files of stats (sorted by path) inside sc.
func scopedStats(stats []FileStat, sc walk.Scope) map[string]FileStat {
	out := map[string]FileStat{}
	find := func(p string) int {
		i, _ := slices.BinarySearchFunc(stats, p, func(s FileStat, p string) int { return strings.Compare(s.Path, p) })
		return i
	}
	for _, p := range sc.Paths() {
		if i := find(p); i < len(stats) && stats[i].Path == p {
			out[p] = stats[i]
		}
		for i := find(p + "/"); i < len(stats) && strings.HasPrefix(stats[i].Path, p+"/"); i++ {
			out[stats[i].Path] = stats[i]
		}
	}
	return out
}

// keepOutside adds to info the files the last build skipped or failed on
// outside sc: a walk of the whole tree would have listed (and the build
// tried) them again, with the same outcome as nothing there changed.
func keepOutside(info *BuildInfo, old BuildInfo, sc walk.Scope) {
	for _, s := range old.Skipped {
		if !sc.Contains(s.Path) {
			info.Skipped = append(info.Skipped, s)
		}
	}
	for _, s := range old.Failed {
		if !sc.Contains(s.Path) {
			info.Failed = append(info.Failed, s)
		}
	}
}

// compressAll compresses the blobs on all cores.
func compressAll(blobs map[string][]byte, small bool) map[string][]byte {
	names := make([]string, 0, len(blobs))
	for name := range blobs {
		names = append(names, name)
	}
	// Largest first, so that one large blob does not finish last alone.
	slices.SortFunc(names, func(a, b string) int { return len(blobs[b]) - len(blobs[a]) })
	out := make([][]byte, len(names))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(names)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(names); i = int(next.Add(1) - 1) {
				out[i] = compressBlob(names[i], blobs[names[i]], small)
			}
		}()
	}
	wg.Wait()
	m := make(map[string][]byte, len(names))
	for i, name := range names {
		m[name] = out[i]
	}
	return m
}

type parseResult struct {
	entry walk.File
	rec   *FileRecord // nil with no skip/fail: content unchanged
	skip  string
	fail  string
}

// parseFiles reads, classifies, hashes and parses files on N workers,
// largest first (so one huge file does not finish last alone).
func parseFiles(ctx context.Context, todo []walk.File, prev map[string]FileStat, opt BuildOptions) ([]parseResult, error) {
	slices.SortStableFunc(todo, func(a, b walk.File) int {
		switch {
		case a.Size > b.Size:
			return -1
		case a.Size < b.Size:
			return 1
		}
		return 0
	})
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if opt.Progress != nil {
		opt.Progress.Start(len(todo))
		defer opt.Progress.Finish()
	}
	results := make([]parseResult, len(todo))
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// One thread per worker: glibc gives each thread that allocates
			// an arena of its own, which keeps the largest tree it held, and
			// a goroutine that moves between threads spreads its trees over
			// many (moby's full build: 215-230 MB peak, 190-195 MB so).
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			p := parser.NewParser()
			defer p.Close()
			buf := make([]byte, 0, 64<<10)
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(todo) || ctx.Err() != nil {
					return
				}
				results[i], buf = parseOne(ctx, p, todo[i], prev, buf)
				if opt.Progress != nil {
					opt.Progress.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return results, nil
}

func parseOne(ctx context.Context, p *parser.Parser, fe walk.File, prev map[string]FileStat, buf []byte) (res parseResult, _ []byte) {
	res.entry = fe
	defer func() {
		if r := recover(); r != nil {
			res.rec, res.fail = nil, fmt.Sprintf("parser crashed: %v", r)
		}
	}()
	src, err := readFileInto(fe.Abs, buf[:0], fe.Size)
	if err != nil {
		res.skip = walk.SkipReason(err)
		return res, buf
	}
	buf = src
	if reason := walk.ClassifyContent(fe.Path, src); reason != "" {
		res.skip = reason
		return res, buf
	}
	h := xxhash.Sum64(src)
	if ps, ok := prev[fe.Path]; ok && ps.Hash == h && ps.Size == int64(len(src)) {
		return res, buf // same content, new mtime
	}
	facts, err := p.Parse(ctx, fe.Path, src)
	if err != nil {
		res.fail = err.Error()
		return res, buf
	}
	dedupeRefs(facts)
	res.rec = &FileRecord{Path: fe.Path, Lang: fe.Lang, Size: int64(len(src)), ModTime: fe.ModTime, Hash: h, Facts: facts}
	res.rec.fingerprint(src)
	return res, buf
}
