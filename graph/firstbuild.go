package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgraph-io/badger/v4"

	"github.com/wikitoolkit/wikitoolkit/graph/walk"
	"github.com/wikitoolkit/wikitoolkit/parser"
)

// A full build runs in bounded memory and answers while it runs.
//
// Pass 1 takes the files to parse in path order, in batches of one segment
// each (the limits of cutSegments: segMaxFiles files or segMaxBytes of
// source, cut where the directory changes past three quarters; the first
// of a large tree is a quarter of that, firstBatchFiles). For each
// batch it parses the files, adds their definitions, paths and directories
// to the world (a MemWorld that grows by definitions only: the records are
// not kept), and hands the batch to a writer goroutine, which resolves it
// against the world so far (references to files of later batches are
// missing; the next batch is added to the world once it is done), writes
// it as a file segment while the next batch parses, and,
// after the first batch, the last one, and whenever the files have grown
// by a quarter since the last one (the modules segment of each costs what
// the files so far do, so publications stay O(log n) and their cost O(n)),
// publishes a partial generation (Mode "partial", FilesTotal beside Files;
// 0 while the first batch of a large tree is published before the walk of
// the tree is done, firstwalk.go):
// the segments so far and a modules segment of the files so far, so that a
// server started on an unindexed repository answers within a batch, each
// answer flagged partial (not when a complete generation is live: a
// `build --full` leaves it answering until the new one is whole). The
// batch's records are then dropped.
//
// Weighing. The ranking data of a segment (BuildOptions.Segment's blobs)
// is weighed under the statistics of every segment (BuildOptions.Weigh),
// so that readers use its stored impacts. Pass 1 writes the batches
// before the last unweighed; the last batch, whose pieces are final, is
// laid out, its blobs made and, with the stored statistics of the
// segments before it, weighed before it is written: a tree of one batch
// is written once, weighed, and has no pass 2.
//
// Pass 2 reads each segment but the last batch's back (its pieces and
// records), re-resolves it against the full world, and rewrites it
// (weighed) when a piece changed; when none did it copies the segment's
// keys with the blobs Weigh changes replaced (the ranking index: no
// re-derivation, no new layout), and keeps it when Weigh changes nothing.
// A batch no later batch can change (stand.go: what the world answered
// its references and imports, against what the later batches bring) is
// not read back nor resolved again: its segments are only weighed (100k
// files: every segment, pass 2 10.5 s -> 5.1 s, 14 -> 4 CPU-s; the
// sensitivities and emissions cost 3.5 CPU-s on the writer).
// It publishes the final generation (Mode "full") once all are written;
// each segment's counts go into the build info as it is done.
//
// Resolving on the writer takes it off the path between two batches'
// parses: at 100k files (70 batches) the main goroutine spent 9.7 s of a
// 125 s build resolving on one core while the other waited; 2.8 s after
// (116.6 s, one run each).
//
// Memory: the world (definitions, paths, directories: compact, about 180
// bytes a definition, TestMemWorldBytesPerDefinition) plus two batches:
// a batch is resolved and written on a goroutine of its own while the next one parses,
// and pass 2 re-resolves two segments at once. The last batch is resolved
// against the complete world one segment (run) at a time, each on both
// cores (encodeLast: two resolvers over its halves, its blobs made while
// its keys encode), and each run's records, pieces and layout go once its
// keys are encoded (TestLastBatchReleasesRecordsByRun); with no pass 2 the
// world goes too. The encoded runs (compressed keys and blobs, a few MB)
// are committed two at a time, each run's blobs weighed and compressed
// on a goroutine of their own while the runs before commit (finishLast),
// and this tail is collected under a memory limit (paceTail; pass 2 at the
// default): it allocates several times what it keeps.
// Moby (3,165 files, one batch, three segments): peak RSS 297–311 MB
// before, 209–214 MB (session 8), 179–181 MB (session 9: each run's
// records unreachable once encoded, GOGC 30). A segment writer holds its
// keys and opens Badger at commit with a memtable of their size
// (segWriterOptions). A build killed in either pass leaves the last
// partial generation live; the next build sees it partial and builds in
// full again.

// smallTree is the most batches a tree builds in one: a tree of up to
// smallTree segments (moby, 3,000 files, builds in about 5 s on two cores)
// is parsed whole, then resolved and written, as it would gain little
// from partial generations and pay for the second pass (moby in two
// batches, with the copy of unchanged segments: 340–369 MB peak against
// 296–297 MB in one, and no faster, on a loaded machine). Memory stays bounded: by smallTree batches.
const smallTree = 3

// testBatchFiles, when positive, caps the files of a batch of a full build
// below segMaxFiles. A test hook: the environment variable
// WIKITOOLKIT_TEST_BATCH_FILES (read at each full build) sets it, so that
// tests, of real processes too, can make a small tree build in several
// batches; unset, batches follow the segment limits.
func testBatchFiles() int {
	n, _ := strconv.Atoi(os.Getenv("WIKITOOLKIT_TEST_BATCH_FILES"))
	return n
}

// testGate is a test hook: when the environment variable
// WIKITOOLKIT_TEST_BUILD_GATE names a file, a full build waits after each
// partial generation it publishes until that file exists (or ctx ends), so
// that a test can query a partial index deterministically.
func testGate(ctx context.Context) {
	gate := os.Getenv("WIKITOOLKIT_TEST_BUILD_GATE")
	if gate == "" {
		return
	}
	for ctx.Err() == nil {
		if _, err := os.Stat(gate); err == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// batchHook, when set (tests), is called after each publication of a
// partial generation, with the build lock held, on the goroutine that
// wrote it.
var batchHook func(info *BuildInfo)

// liveRecords counts the file records pass 1 and pass 2 hold at once (tests
// assert it is bounded by two batches, whatever the tree's size).
var liveRecords struct {
	sync.Mutex
	now, peak int
}

func holdRecords(n int) {
	liveRecords.Lock()
	defer liveRecords.Unlock()
	liveRecords.now += n
	liveRecords.peak = max(liveRecords.peak, liveRecords.now)
}

// cutBatches groups files (in path order) into the batches of a full build.
func cutBatches(files []walk.File) [][]walk.File {
	maxFiles := batchMaxFiles()
	var out [][]walk.File
	for len(files) > 0 {
		n := batchLen(files, maxFiles)
		out = append(out, files[:n])
		files = files[n:]
	}
	return out
}

// batchMaxFiles is the most files a batch of a full build holds: a
// segment's, or fewer under testBatchFiles.
func batchMaxFiles() int {
	if n := testBatchFiles(); n > 0 {
		return min(segMaxFiles(), n)
	}
	return segMaxFiles()
}

// batchLen is how many of files (in path order) the next batch takes: up
// to maxFiles files or segMaxBytes of source, cut where the directory
// changes past three quarters of either.
func batchLen(files []walk.File, maxFiles int) int {
	var bytes int64
	for i, f := range files {
		bytes += f.Size
		n := i + 1
		full := n >= maxFiles || bytes >= segMaxBytes
		soft := (n >= maxFiles*3/4 || bytes >= segMaxBytes*3/4) && n < len(files) &&
			dirOf(files[n].Path) != dirOf(f.Path)
		if full || soft {
			return n
		}
	}
	return len(files)
}

// firstBatchFiles is about how many files the first batch of a large tree
// (more than smallTree batches) holds: its partial generation is the first
// answer of a server started with no index, which comes sooner the fewer
// files it waits for. A quarter of a full segment (one of fewer than an
// eighth is a delta: segMaxFiles). On the synthetic 100k-file tree (a first
// batch of 380 files instead of 1,500) a server started with no index
// answered after 1.45–1.66 s instead of 2.35–2.40 s, and 7.5–9.8 s instead
// of 9.1–11.4 s on a cold cache (benchmarks/cold.sh's loop device), for one
// segment more; the full build's pages and edges are the same.
const firstBatchFiles = segFilesDefault / 4

// splitFirst cuts the first of batches in two when it holds more than
// twice firstBatchFiles: a batch cut as the others are, to firstBatchFiles
// (batchLen), and the rest.
func splitFirst(batches [][]walk.File) [][]walk.File {
	first := batches[0]
	if len(first) <= 2*firstBatchFiles {
		return batches
	}
	k := batchLen(first, firstBatchFiles)
	return append([][]walk.File{first[:k], first[k:]}, batches[1:]...)
}

// addOnly passes a batch's parse progress on to the build's, which started
// once with every file.
type addOnly struct{ p Progress }

func (a addOnly) Start(int) {}
func (a addOnly) Add(n int) { a.p.Add(n) }
func (a addOnly) Finish()   {}
func progressOf(opt BuildOptions) Progress {
	if opt.Progress == nil {
		return nil
	}
	return addOnly{opt.Progress}
}

// fullBuild parses todo (every file of the tree, in path order) batch by
// batch and writes the generation as full segments (see above). With
// early, todo is not known yet: the first batch is early's, and the rest
// of the tree comes from early.rest once that batch is under way
// (firstwalk.go).
func fullBuild(ctx context.Context, opt BuildOptions, root, dir string, start time.Time, info *BuildInfo,
	todo []walk.File, notIndexed func([]walk.Skip) []walk.NotIndexed, lap func(string), early *earlyBatch) (*BuildInfo, error) {
	goMod := goModulePath(root)
	world := newMemWorld(goMod)
	var batches [][]walk.File
	switch {
	case early != nil:
		// A copy: parseFiles orders a batch by size, and the batch is
		// checked against the walk's list in path order.
		batches = [][]walk.File{slices.Clone(early.files)}
	case len(cutBatches(todo)) <= smallTree:
		// A small tree builds in seconds: in one batch, with no partial
		// generation and no second pass.
		batches = [][]walk.File{todo}
	default:
		batches = splitFirst(cutBatches(todo))
	}
	// More than one batch: pass 2 keeps the pieces of those no later one
	// can change, by what each one's are sensitive to and what each brings.
	multi := len(batches) > 1 || early != nil
	if opt.Progress != nil {
		if early != nil {
			opt.Progress.Start(-1) // the total once the walk is done
		} else {
			opt.Progress.Start(len(todo))
		}
		defer opt.Progress.Finish()
	}
	popt := opt
	popt.Progress = progressOf(opt)
	fillInfo(info, Piece{}, nil, nil, nil)
	info.Mode = "partial"
	info.FilesTotal = len(todo) // 0 while an early batch waits for the walk: not known yet
	if notIndexed == nil {
		notIndexed = func([]walk.Skip) []walk.NotIndexed { return nil }
	}

	var paths []string // the files parsed so far, in path order
	var docs []docCandidate
	var diags []FileDiagnostic
	var segs []manifestSeg // file segments, in path order
	var segBatch []int     // the batch of each of segs
	// Per batch: what could change its pieces, and what it brings
	// (stand.go); pass 2 keeps the pieces of a batch no later one can
	// change.
	sens := make([]keySet, len(batches))
	emit := make([]keySet, len(batches))
	keepPieces := passTwoKeeps()
	var prevMods Piece
	var reweigh BlobsFunc     // Weigh's, once the last batch is weighed
	var lastReweigh BlobsFunc // reweigh, for finishLast to apply to the last batch's runs
	lastWeighed := false
	// The segments of the last batch that had files, and their summaries:
	// resolved against the whole tree.
	var lastSums []fileSummary
	lastSegs := 0
	settle := func() { // the counts of skipped and failed files so far
		sortSkips(info.Skipped)
		info.FilesSkipped, info.FilesFailed = len(info.Skipped), len(info.Failed)
		info.NotIndexed = notIndexed(info.Skipped)
	}
	partials := replaceable(dir)
	pubFiles := 0 // the files of the last partial generation
	id := nextSegmentID(dir, nil)
	next := nextGeneration(dir)
	// A batch before the last is resolved and written (and its partial
	// generation published) on a goroutine of its own while the next one
	// parses: two batches are held at most. Its resolution reads the world
	// as it stood after the batch was added: the next batch is added once
	// it is done (resolving). The writer hands back the summaries of its
	// files, which wait adds to info (a partial generation it publishes
	// adds them to its own copy).
	type written struct {
		sums []fileSummary
		segs int // the segments of the batch
		err  error
	}
	var pending chan written
	var resolving chan struct{} // closed once the writer no longer reads the world
	resolved := func() {
		if resolving != nil {
			<-resolving
			resolving = nil
		}
	}
	wait := func() error {
		if pending == nil {
			return nil
		}
		w := <-pending
		pending, resolving = nil, nil
		if w.err != nil {
			return w.err
		}
		fillInfoDelta(info, Piece{}, Piece{}, w.sums, nil)
		if w.segs > 0 {
			lastSums, lastSegs = w.sums, w.segs
		}
		return nil
	}
	defer wait() // never leave a writer running past the build lock
	// The GC settings of the last batch's tail (paceTail), restored
	// before pass 2, whose world a lower one would mark more often.
	restoreGC := func() {}
	defer func() { restoreGC() }()
	for bi := 0; bi < len(batches); bi++ {
		batch := batches[bi]
		unpace := paceParse()
		results, err := parseFiles(ctx, batch, nil, popt)
		unpace()
		if err != nil {
			return nil, err
		}
		var recs []*FileRecord
		for _, res := range results {
			switch {
			case res.skip != "":
				info.Skipped = append(info.Skipped, walk.Skip{Path: res.entry.Path, Reason: res.skip})
			case res.fail != "":
				info.Failed = append(info.Failed, walk.Skip{Path: res.entry.Path, Reason: res.fail})
			case res.rec != nil:
				recs = append(recs, res.rec)
			}
		}
		results = nil
		slices.SortFunc(recs, func(a, b *FileRecord) int { return strings.Compare(a.Path, b.Path) })
		holdRecords(len(recs))
		info.FilesParsed += len(recs)
		lap("parse")
		parser.ReleaseMemory()
		resolved()
		world.addBatch(recs)
		prevLast := ""
		if len(paths) > 0 {
			prevLast = paths[len(paths)-1]
		}
		for _, r := range recs {
			paths = append(paths, r.Path)
		}
		docs = append(docs, docCandidates(recs)...)
		if len(diags) < maxDiagnosticFiles {
			diags = append(diags, fileDiagnostics(recs)...)
			diags = diags[:min(len(diags), maxDiagnosticFiles)]
		}
		last := bi == len(batches)-1 && (early == nil || bi > 0)
		recRuns := cutRecords(recs)
		runIDs := make([]int, len(recRuns))
		for i := range runIDs {
			runIDs[i] = id + i
		}
		// The last batch's pieces are final: its runs are resolved, laid
		// out and encoded one by one (encodeLast), each dropping its
		// records and pieces once encoded; with the blobs of its runs and
		// the stored ones of the segments before, it is weighed before it
		// is committed, and pass 2 leaves it alone.
		encLast := last && len(recRuns) > 0
		weighLast := encLast && opt.Weigh != nil && len(segs)+len(recRuns) > 1
		var encoded []*lastSeg
		var sums []fileSummary
		nrec := len(recs)
		batchRecs := recs // resolved by the writer when not the last batch
		if encLast {
			// The last batch's tail (encoding, weighing, committing) allocates
			// several times what it keeps: paced by paceTail, moby's peak
			// RSS is 60 MB lower than at the default 100 % (its peak is in
			// the first run, its records and world live), for fewer
			// collections than a lower GOGC.
			restoreGC = paceTail()
			if keepPieces && multi {
				emit[bi] = emissions(recs, prevLast) // the last batch's pieces are final: what it brings is all pass 2 asks of it
			}
			var err error
			encoded, sums, err = encodeLast(dir, recRuns, runIDs, world, opt.Segment, goMod)
			if err != nil {
				holdRecords(-nrec)
				return nil, err
			}
			nrec = 0 // encodeLast let them go
			if len(batches) == 1 {
				world = nil // no pass 2 to re-resolve with it
			}
			fillInfoDelta(info, Piece{}, Piece{}, sums, nil)
		}
		recRuns, recs = nil, nil
		lap("resolve")
		if err := wait(); err != nil {
			abortLast(encoded)
			return nil, err
		}
		lap("write")
		if err := ctx.Err(); err != nil {
			abortLast(encoded)
			holdRecords(-nrec)
			return nil, err
		}
		for range runIDs {
			segs = append(segs, manifestSeg{ID: id, Kind: segFiles})
			segBatch = append(segBatch, bi)
			id++
		}
		// The files so far: this batch's are not in info until its writer
		// is done, unless it is the last.
		files := info.Files
		if encLast {
			lastSums, lastSegs = sums, len(runIDs)
		} else {
			files += nrec
		}
		// A partial generation: the segments so far, the modules of the
		// files so far; none when the one segment is final.
		publishing := partials && !(last && len(segs) == lastSegs) &&
			(last || pubFiles == 0 || files*4 >= pubFiles*5)
		var m manifest
		var pinfo *BuildInfo
		var shards []modShard
		var modSegs []manifestSeg
		if publishing {
			mods := modulesOf(paths, docs)
			fillInfoDelta(info, prevMods, mods, nil, nil)
			prevMods, pubFiles = mods, files
			info.DiagnosticFiles = diags
			settle()
			info.Generation = next
			shards = cutModules(mods, docs, nil, moduleShardPages())
			modSegs = shardEntries(id, shards)
			m = manifest{Segments: append(slices.Clip(modSegs), segs...), GoModule: &goMod}
			pinfo = cloneInfo(info)
			id += len(shards)
			next++
		}
		if weighLast {
			blobs := make([]map[string][]byte, len(encoded))
			for i, ls := range encoded {
				blobs[i] = ls.blobs
			}
			var err error
			reweigh, err = weighed(dir, segs[:len(segs)-len(encoded)], blobs, opt.Weigh)
			if err != nil {
				abortLast(encoded)
				return nil, err
			}
			// Each run's blobs are weighed by finishLast, while the runs
			// before are committed.
			lastReweigh = reweigh
			lastWeighed = true
		}
		pending = make(chan written, 1)
		var resolvingNow chan struct{}
		if !encLast {
			resolvingNow = make(chan struct{})
			resolving = resolvingNow
		}
		go func() {
			var w written
			w.err = func() error {
				var err error
				if encoded != nil {
					err = finishLast(encoded, lastReweigh)
				} else {
					var runs [][]*segPiece
					runs, w.sums = resolveBatch(batchRecs, world)
					if keepPieces && multi {
						// What the world answered it, before the next
						// batch is added; what it brings, after.
						sens[bi] = sensitivity(batchRecs, world, goMod)
						close(resolvingNow)
						emit[bi] = emissions(batchRecs, prevLast)
					} else {
						close(resolvingNow)
					}
					batchRecs = nil
					w.segs = len(runIDs)
					if pinfo != nil {
						fillInfoDelta(pinfo, Piece{}, Piece{}, w.sums, nil)
					}
					err = writeRuns(dir, runs, runIDs, opt.Segment, goMod)
				}
				encoded = nil
				holdRecords(-nrec)
				if err != nil {
					return err
				}
				if !publishing {
					return nil
				}
				if err := writeModuleShards(dir, modSegs, shards, opt.Segment); err != nil {
					return err
				}
				if _, err := publish(dir, pinfo.Generation, m, pinfo, start); err != nil {
					return err
				}
				if batchHook != nil {
					batchHook(pinfo)
				}
				testGate(ctx)
				return nil
			}()
			pending <- w
		}()
		if early != nil && bi == 0 {
			// The first batch published (the walk is held until then),
			// the rest of the tree, once the walk is done.
			if err := wait(); err != nil {
				return nil, err
			}
			lap("write")
			all, ni, err := early.rest()
			if err != nil {
				return nil, err
			}
			lap("walk") // the wait for the walk, beside the time before the first batch
			k := len(early.files)
			if len(all) <= k || !slices.Equal(all[:k], early.files) {
				return nil, errPrefixMoved
			}
			notIndexed = ni // sens and emit grow below: the writer is done with them
			info.FilesTotal = len(all)
			more := cutBatches(all[k:])
			batches = append(batches, more...)
			sens = append(sens, make([]keySet, len(more))...)
			emit = append(emit, make([]keySet, len(more))...)
			if opt.Progress != nil {
				opt.Progress.Start(len(all))
				opt.Progress.Add(k)
			}
		}
	}
	if err := wait(); err != nil {
		return nil, err
	}
	restoreGC()
	restoreGC = func() {}
	lap("write")

	// Pass 2: the segments before the last, re-resolved against the whole
	// tree, two at a time.
	settle()
	info.Mode, info.FilesTotal = "full", 0
	fillInfo(info, Piece{}, nil, nil, nil)
	final := slices.Clone(segs)
	// Weighing: every segment's impacts are computed under the statistics
	// of them all (BuildOptions.Weigh), so that an index over them reads
	// its stored impacts as they are. The last batch was weighed before it
	// was written (when there was more than one segment); pass 2 rewrites
	// a segment before it whose pieces change, and copies one whose pieces
	// stay with the blobs Weigh changes.
	extra := opt.Segment
	redo := len(segs) - lastSegs
	if opt.Weigh != nil && len(segs) > 1 && !lastWeighed {
		// No batch was weighed: the last one was empty (or had no files).
		var err error
		if reweigh, err = weighed(dir, segs, nil, opt.Weigh); err != nil {
			return nil, err
		}
		redo, lastSums = len(segs), nil
	}
	if reweigh != nil {
		extra = weighedSegment(opt.Segment, reweigh)
	}
	if redo > 0 {
		// The candidate sets the batches' resolvers shared go: most of
		// pass 2 keeps its segments, and its collector then paces by a
		// smaller live heap (100k files: the build's peak RSS 856 → 740
		// MB; 687 MB with no set shared). A segment re-resolved builds
		// the sets it needs again, once, for both goroutines.
		if world != nil {
			world.dropShared()
		}
		var stands []bool
		if keepPieces {
			stands = standing(sens, emit)
		}
		sens, emit = nil, nil
		outs := make([]int, redo)
		errs := make([]error, redo)
		base := id
		id += len(outs)
		var mu sync.Mutex // info
		var nextSeg atomic.Int64
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := int(nextSeg.Add(1) - 1); i < len(outs) && ctx.Err() == nil; i = int(nextSeg.Add(1) - 1) {
					var sums []fileSummary
					if stands != nil && stands[segBatch[i]] {
						outs[i], sums, errs[i] = keepResolved(dir, segs[i].ID, base+i, reweigh)
						keptSegments.Add(1)
					} else {
						outs[i], sums, errs[i] = reresolve(dir, segs[i].ID, base+i, world, extra, reweigh, goMod)
					}
					mu.Lock()
					fillInfoDelta(info, Piece{}, Piece{}, sums, nil)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		for i, o := range outs {
			final[i].ID = o
		}
	}
	fillInfoDelta(info, Piece{}, Piece{}, lastSums, nil)
	lap("rewrite")
	mods := modulesOf(paths, docs)
	fillInfoDelta(info, Piece{}, mods, nil, nil)
	info.DiagnosticFiles = diags
	info.Generation = next
	m := manifest{GoModule: &goMod}
	shards := cutModules(mods, docs, nil, moduleShardPages())
	modSegs := shardEntries(id, shards)
	if err := writeModuleShards(dir, modSegs, shards, opt.Segment); err != nil {
		return nil, err
	}
	m.Segments = append(modSegs, final...)
	lap("write")
	return publish(dir, next, m, info, start)
}

// summaries summarizes pieces with their records.
func summaries(pcs []*segPiece) []fileSummary {
	out := make([]fileSummary, len(pcs))
	for i, pc := range pcs {
		out[i] = summarize(pc, pc.rec)
	}
	return out
}

// reresolve re-resolves the files of segment old against w: when a piece
// changed it writes them as segment id (its blobs by extra) and returns
// id; when none did but reweigh changes its blobs, it copies the segment
// to id with those blobs replaced and returns id; else it returns old. It
// returns the summaries of the final pieces either way.
func reresolve(dir string, old, id int, w World, extra SegmentFunc, reweigh BlobsFunc, goMod string) (int, []fileSummary, error) {
	sg, err := openSegment(dir, old, nil)
	if err != nil {
		return 0, nil, err
	}
	defer sg.close()
	pcs, err := sg.readPieces(true)
	if err != nil {
		return 0, nil, err
	}
	holdRecords(len(pcs))
	defer holdRecords(-len(pcs))
	recs := make([]*FileRecord, len(pcs))
	for i, pc := range pcs {
		recs[i] = pc.rec
	}
	resolved := ResolvePieces(recs, w)
	same := true
	news := make([]*segPiece, len(resolved))
	for i := range resolved {
		news[i] = &segPiece{Piece: resolved[i], rec: recs[i]}
		if same && !piecesEqual(pcs[i], news[i]) {
			same = false
		}
	}
	sums := summaries(news)
	pcs, resolved, recs = nil, nil, nil
	if !same {
		if _, err := writeFileSegment(dir, id, news, false, extra, goMod); err != nil {
			return 0, nil, err
		}
		return id, sums, nil
	}
	news = nil
	return weighSegment(dir, sg, old, id, sums, reweigh)
}

// weighSegment ends pass 2 for a segment sg (old) whose pieces stand: its
// blobs weighed (reweigh) and, when that changes one, the segment copied
// as segment id with them; sums are its files' summaries.
func weighSegment(dir string, sg *segment, old, id int, sums []fileSummary, reweigh BlobsFunc) (int, []fileSummary, error) {
	if reweigh == nil {
		return old, sums, nil
	}
	changed, err := reweigh(sg.blob)
	if err != nil {
		return 0, nil, fmt.Errorf("segment %d: %w", old, err)
	}
	if len(changed) == 0 {
		return old, sums, nil
	}
	if err := copySegment(dir, sg, id, changed); err != nil {
		return 0, nil, err
	}
	return id, sums, nil
}

// keepResolved is reresolve of a segment whose pieces stand (standing):
// its files' summaries read from its d/ keys, its blobs weighed and, when
// reweigh changes one, the segment copied with them.
func keepResolved(dir string, old, id int, reweigh BlobsFunc) (int, []fileSummary, error) {
	sg, err := openSegment(dir, old, nil)
	if err != nil {
		return 0, nil, err
	}
	defer sg.close()
	sums, err := sg.summaries()
	if err != nil {
		return 0, nil, err
	}
	return weighSegment(dir, sg, old, id, sums, reweigh)
}

// summaries reads the summaries of the segment's files (d/ keys).
func (sg *segment) summaries() ([]fileSummary, error) {
	var out []fileSummary
	err := sg.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte("d/")})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			err := it.Item().Value(func(v []byte) error {
				s, ok := decodeSummary(v, sg.info.Langs)
				if !ok {
					return fmt.Errorf("segment %d: %s is unreadable", sg.id, it.Item().Key())
				}
				out = append(out, s)
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// keptSegments counts the segments pass 2 kept without resolving them
// again (tests).
var keptSegments atomic.Int64

// passTwoKeeps reports whether pass 2 keeps the pieces of the batches no
// later one can change (stand.go); WIKITOOLKIT_PASS2_RESOLVE_ALL=1 (tests,
// and to measure) resolves every one again.
func passTwoKeeps() bool { return os.Getenv("WIKITOOLKIT_PASS2_RESOLVE_ALL") != "1" }

// copySegment writes segment sg again as segment id, with the blobs of
// blobs (uncompressed) in place of its own of those names.
func copySegment(dir string, sg *segment, id int, blobs map[string][]byte) error {
	w, err := newSegWriter(dir, id, false)
	if err != nil {
		return NotWritable(dir, err)
	}
	info := sg.info
	info.ID = id
	js, err := json.Marshal(info)
	if err == nil {
		err = w.set("m/seg", js)
	}
	if err == nil {
		err = sg.db.View(func(txn *badger.Txn) error {
			it := txn.NewIterator(badger.IteratorOptions{})
			defer it.Close()
			for it.Rewind(); it.Valid(); it.Next() {
				k := string(it.Item().Key())
				if k == "m/seg" {
					continue
				}
				if name, ok := blobName(k); ok && blobs[name] != nil {
					continue
				}
				v, err := it.Item().ValueCopy(nil)
				if err != nil {
					return err
				}
				if err := w.set(k, v); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err != nil {
		w.abort()
		return fmt.Errorf("copy segment %d: %w", sg.id, err)
	}
	return w.finish(nil, blobs)
}

// blobName returns NAME of a blob chunk's key x/NAME/nnnnnn.
func blobName(key string) (string, bool) {
	if !strings.HasPrefix(key, "x/") {
		return "", false
	}
	j := strings.LastIndexByte(key, '/')
	if j < 2 {
		return "", false
	}
	return key[2:j], true
}

// weighedSegment is extra with its blobs weighed by reweigh.
func weighedSegment(extra SegmentFunc, reweigh BlobsFunc) SegmentFunc {
	return func(g *Graph, ext []ExtLink) (map[string][]byte, error) {
		blobs, err := extra(g, ext)
		if err != nil {
			return nil, err
		}
		return blobs, weighRuns([]map[string][]byte{blobs}, reweigh)
	}
}

// weighRuns replaces, in each of blobs, those reweigh changes.
func weighRuns(blobs []map[string][]byte, reweigh BlobsFunc) error {
	for _, bs := range blobs {
		changed, err := reweigh(memBlobs(bs))
		if err != nil {
			return err
		}
		maps.Copy(bs, changed)
	}
	return nil
}

// memBlobs reads blobs by name, as segment.blob does a segment's.
func memBlobs(blobs map[string][]byte) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		b, ok := blobs[name]
		if !ok {
			return nil, ErrNotFound
		}
		return b, nil
	}
}

// addBatch adds the files of recs, their symbol pages and their
// directories. It keeps no part of the records: the strings it keeps are
// copies, so that a batch's facts can go once the batch is written.
func (w *MemWorld) addBatch(recs []*FileRecord) {
	var pages []Page
	for _, f := range recs {
		pages = namePages(f, pages[:0])
		w.addFile(f.Path, pages, -1, true)
	}
	w.addDirs(recs)
}

// BlobsFunc turns the blobs a SegmentFunc made of a segment (read by
// name) into the ones to store instead: it returns those it changes
// (none: store them as they are). BuildOptions.Weigh makes one.
type BlobsFunc func(blob func(name string) ([]byte, error)) (map[string][]byte, error)

func sortSkips(s []walk.Skip) {
	slices.SortFunc(s, func(a, b walk.Skip) int { return strings.Compare(a.Path, b.Path) })
}

// cloneInfo copies info for a publication on another goroutine.
func cloneInfo(info *BuildInfo) *BuildInfo {
	c := *info
	c.Pages, c.Edges, c.Languages = cloneCounts(info.Pages), cloneCounts(info.Edges), cloneCounts(info.Languages)
	c.Phases = maps.Clone(info.Phases)
	c.Skipped, c.Failed = slices.Clone(info.Skipped), slices.Clone(info.Failed)
	c.NotIndexed, c.DiagnosticFiles = slices.Clone(info.NotIndexed), slices.Clone(info.DiagnosticFiles)
	c.Warnings = slices.Clone(info.Warnings)
	return &c
}

// writeRuns writes each run as a full segment (ids), two at a time.
func writeRuns(dir string, runs [][]*segPiece, ids []int, extra SegmentFunc, goMod string) error {
	return twoAtATime(len(runs), func(i int) error {
		_, err := writeFileSegment(dir, ids[i], runs[i], false, extra, goMod)
		return err
	})
}

// lastSeg is a segment of a full build's last batch encoded but for its
// blobs (not committed yet), with the blobs its SegmentFunc made and the
// summaries of its files: its records and pieces are gone.
type lastSeg struct {
	w     *segWriter
	blobs map[string][]byte
	sums  []fileSummary
}

// encodeLast resolves each run of records (path order) against the
// complete world w, lays it out as segment ids[i], makes its blobs (extra)
// while it encodes its keys, and lets its records and pieces go. It
// returns the encoded segments and the summaries of every file, in order.
// The runs are taken one at a time, each on both cores (its files
// resolved in two halves, its blobs made while its keys are encoded), so
// that what a build holds beyond the world and the records is one run's
// pieces, layout and blobs (moby: 113 MB live at two runs at once, 297 MB
// peak RSS). The records of runs are no longer held (holdRecords) when
// it returns.
func encodeLast(dir string, runs [][]*FileRecord, ids []int, w World, extra SegmentFunc, goMod string) ([]*lastSeg, []fileSummary, error) {
	out := make([]*lastSeg, len(runs))
	var sums []fileSummary
	for i := range runs {
		if runHook != nil {
			liveRecords.Lock()
			runHook(liveRecords.now, runs[i])
			liveRecords.Unlock()
		}
		ls, err := encodeRun(dir, runs[i], ids[i], w, extra, goMod)
		holdRecords(-len(runs[i]))
		// The runs are windows on one array of the batch's records (and
		// the caller's slice of them): its entries are cleared, not only
		// the window dropped, or every record stays reachable until the
		// last run is done (moby: 12 MB of references alone).
		clear(runs[i])
		runs[i] = nil
		if err != nil {
			for _, r := range runs[i+1:] {
				holdRecords(-len(r))
			}
			abortLast(out)
			return nil, nil, err
		}
		out[i] = ls
		sums = append(sums, ls.sums...)
		ls.sums = nil
	}
	return out, sums, nil
}

// runHook, when set (tests), is called by encodeLast before each run with
// the number of file records the build holds (holdRecords) and the run's
// records.
var runHook func(held int, run []*FileRecord)

// encodeRun is encodeLast's work for one run.
func encodeRun(dir string, recs []*FileRecord, id int, w World, extra SegmentFunc, goMod string) (*lastSeg, error) {
	resolved := resolveHalves(recs, w)
	pcs := make([]*segPiece, len(resolved))
	for j := range resolved {
		pcs[j] = &segPiece{Piece: resolved[j], rec: recs[j]}
	}
	resolved = nil
	ls := &lastSeg{sums: summaries(pcs)}
	fs, err := prepareFileSegment(id, pcs)
	if err != nil {
		return nil, err
	}
	fs.sums = ls.sums
	pcs = nil
	var berr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		if extra != nil {
			ls.blobs, berr = extra(fs.g, fs.links())
		}
	}()
	sw, _, err := fs.encode(dir, false, goMod)
	<-done
	if err == nil && berr != nil {
		sw.abort()
		err = berr
	}
	if err != nil {
		return nil, err
	}
	ls.w = sw
	return ls, nil
}

// resolveBatch resolves the records of a batch before the last against
// w, as it stands after the batch was added, and returns its pieces cut
// into the runs of its segments, and the summaries of its files.
func resolveBatch(recs []*FileRecord, w World) ([][]*segPiece, []fileSummary) {
	resolved := ResolvePieces(recs, w)
	pieces := make([]*segPiece, len(resolved))
	for i := range resolved {
		pieces[i] = &segPiece{Piece: resolved[i], rec: recs[i]}
	}
	return cutSegments(pieces), summaries(pieces)
}

// resolveHalves is ResolvePieces(files, w) on two cores: each half of
// files resolved by a resolver of its own (w is only read).
func resolveHalves(files []*FileRecord, w World) []Piece {
	if len(files) < 2 {
		return ResolvePieces(files, w)
	}
	half := len(files) / 2
	var second []Piece
	done := make(chan struct{})
	go func() {
		defer close(done)
		second = ResolvePieces(files[half:], w)
	}()
	first := ResolvePieces(files[:half], w)
	<-done
	return append(first, second...)
}

// tailGCPercent is the GC percentage of a full build's last batch when
// the process sets its own GOGC or GOMEMLIMIT (lowerGC). Moby (median of
// 3, alternated, loaded machine): 201 MB peak RSS at 50, 179 MB at 30.
const tailGCPercent = 30

// tailHeadroom is what a full build's last batch may allocate beyond its
// live heap at the start (times 1.3) before paceTail's limit makes the
// collector run. Peak RSS follows it about one for one. It was 80 MB
// while the C heap parsing left (26 MB on moby) stayed resident through
// the tail; with that returned (parser.ReleaseMemory), 105 MB takes the
// peak back to 183–186 MB, from 160–163, for a build 3 % faster (moby,
// 5 pairs alternated: 3.62 against 3.74 s, 6.93 against 7.12 CPU-s).
const tailHeadroom = 105 << 20

// paceTail paces the collector through a full build's last batch, which
// allocates several times what it keeps, and returns what restores the
// settings it found. Where GOGC 30 ran a collection each time the heap
// grew by 30 % of what was live (moby: 53 collections, each marking the
// world and the records), a soft memory limit of 1.3 times the heap live
// at the start plus tailHeadroom, over the default 100 %, lets the heap
// grow to the same size once and collects only there: moby 35–40
// collections, peak RSS 159–179 MB against 176–181 MB (the limit is
// lower than the peak GOGC 30 reached). A process that sets GOGC or
// GOMEMLIMIT itself, or a lower limit, keeps lowerGC(tailGCPercent).
func paceTail() func() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return lowerGC(tailGCPercent)
	}
	limit := tailLimit(heapLive())
	oldLimit := debug.SetMemoryLimit(-1)
	if oldLimit <= limit {
		return lowerGC(tailGCPercent)
	}
	old := debug.SetGCPercent(100)
	if old >= 0 && old < 100 {
		debug.SetGCPercent(old)
		return lowerGC(tailGCPercent)
	}
	debug.SetMemoryLimit(limit)
	return func() {
		debug.SetMemoryLimit(oldLimit)
		debug.SetGCPercent(old)
	}
}

// parseHeadroom is what paceParse lets a full build's parsing allocate
// beyond 1.3 times its live heap before a collection.
const parseHeadroom = 48 << 20

// paceParse paces the collector while a full build parses a batch, and
// returns what stops it and restores the settings it found. At the default
// 100 % a small heap is collected each time it doubles: moby's parsing
// (its records growing from 4 to 46 MB live) ran 20 collections. Instead
// the percentage is off and a goroutine keeps a soft memory limit at
// parseLimit of the live heap, every 10 ms: never below what 100 % allows
// (twice the live heap, so a large tree's batches collect no more often
// than before), and at least parseHeadroom above 1.3 times it, so that a
// small heap is collected a few times (moby: 5–6) instead. A process that
// sets GOGC, GOMEMLIMIT, a limit of its own or a lower percentage keeps
// its settings.
func paceParse() func() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	oldLimit := debug.SetMemoryLimit(-1)
	if oldLimit != math.MaxInt64 {
		return func() {}
	}
	old := debug.SetGCPercent(-1)
	if old < 100 {
		debug.SetGCPercent(old)
		return func() {}
	}
	set := func() { debug.SetMemoryLimit(parseLimit(heapLive())) }
	set()
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				set()
			}
		}
	}()
	return func() {
		close(stop)
		<-done
		debug.SetMemoryLimit(oldLimit)
		debug.SetGCPercent(old)
	}
}

// parseLimit is paceParse's memory limit for a live heap of live bytes:
// the larger of twice it and 1.3 times it plus parseHeadroom.
func parseLimit(live uint64) int64 {
	return int64(live + max(live, live*3/10+parseHeadroom))
}

// tailLimit is paceTail's memory limit for a live heap of live bytes.
func tailLimit(live uint64) int64 {
	return int64(live+live*3/10) + tailHeadroom
}

// heapLive is the heap the last collection found live, in bytes.
func heapLive() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// lowerGC sets the garbage collector's percentage to pct unless it is lower
// already (GOGC, or a server's own setting), and returns what restores it.
func lowerGC(pct int) func() {
	old := debug.SetGCPercent(pct)
	if old >= 0 && old <= pct {
		debug.SetGCPercent(old)
	}
	return func() { debug.SetGCPercent(old) }
}

// finishLast commits each of lss with its blobs, two at a time: a commit
// waits on Badger's flush and on fsync as much as it computes, and two at
// once cut moby's write phase from 0.585 to 0.485 s (medians of 6,
// alternated) at the same peak RSS (171–178 MB; in session 9, when the
// records were still live here, two writers held 50 MB more). Meanwhile
// a goroutine of its own prepares the blobs of the segments in turn (the
// changes of reweigh, when not nil, then compressAll), so that a
// segment's blobs are weighed and compressed while the ones before are
// committed, and each segment's uncompressed blobs go once compressed. A
// segment whose blobs fail to weigh is dropped, and so is every one after
// it.
func finishLast(lss []*lastSeg, reweigh BlobsFunc) error {
	type prepared struct {
		blobs map[string][]byte
		err   error
	}
	ready := make([]chan prepared, len(lss))
	for i := range ready {
		ready[i] = make(chan prepared, 1)
	}
	blobs := make([]map[string][]byte, len(lss))
	fast := make([]bool, len(lss))
	for i, ls := range lss {
		blobs[i], ls.blobs = ls.blobs, nil
		fast[i] = ls.w.fast
	}
	go func() {
		var err error
		for i := range blobs {
			var p prepared
			if err == nil && reweigh != nil {
				err = weighRuns(blobs[i:i+1], reweigh)
			}
			if p.err = err; err == nil {
				p.blobs = compressAll(blobs[i], fast[i])
			}
			blobs[i] = nil
			ready[i] <- p
		}
	}()
	errs := make([]error, len(lss))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, ls := range lss {
		lss[i] = nil
		p := <-ready[i]
		if p.err != nil {
			ls.w.abort()
			errs[i] = p.err
			continue
		}
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			errs[i] = ls.w.finishCompressed(nil, p.blobs)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// abortLast drops the segments of lss that were encoded.
func abortLast(lss []*lastSeg) {
	for _, ls := range lss {
		if ls != nil && ls.w != nil {
			ls.w.abort()
		}
	}
}

// twoAtATime runs fn(0..n-1), two at a time, and joins their errors.
func twoAtATime(n int, fn func(i int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = fn(i)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// replaceable reports whether a full build may publish partial generations
// in dir: when no generation is live, or the live one is partial or cannot
// be read. A complete one (a `build --full` over an index) stays live until
// the new one is whole.
func replaceable(dir string) bool {
	cur, err := CurrentGeneration(dir)
	if err != nil {
		return true
	}
	m, err := readManifest(dir, cur)
	return err != nil || m.Info.Mode == "partial"
}

// weighed returns the BlobsFunc that weighs segments under the
// statistics of the segments segs and of the blobs mem of segments not
// yet written (opt.Weigh over their blobs).
func weighed(dir string, segs []manifestSeg, mem []map[string][]byte, weigh func([]func(string) ([]byte, error)) (BlobsFunc, error)) (BlobsFunc, error) {
	var opened []*segment
	defer func() {
		for _, sg := range opened {
			sg.close()
		}
	}()
	readers := make([]func(string) ([]byte, error), 0, len(segs)+len(mem))
	for _, ms := range segs {
		sg, err := openSegment(dir, ms.ID, nil)
		if err != nil {
			return nil, err
		}
		opened = append(opened, sg)
		readers = append(readers, sg.blob)
	}
	for _, bs := range mem {
		readers = append(readers, memBlobs(bs))
	}
	return weigh(readers)
}
