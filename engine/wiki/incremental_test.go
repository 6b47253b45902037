package wiki

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
	"github.com/wikitoolkit/wikitoolkit/graph/walk"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// incrQueries are asked of both indexes after every step.
var incrQueries = []string{
	"normalize isbn",
	"restock copies of a book",
	"how is the inventory value computed",
	"incremental helper",
	"catalog stock",
	"shelf report",
}

// incrRun is the state of one random edit sequence on a copy of the
// polyglot fixture.
type incrRun struct {
	t     *testing.T
	root  string
	rng   *rand.Rand
	steps []string // what each step did, for the failure message
	n     int      // counter for new names
	clock time.Time
	// added are the functions the run appended, by language ("go", "py"),
	// as path and name, so later ones can call them.
	added map[string][][2]string
}

// TestIncrementalEqualsFull applies random edits, additions, removals and
// renames to a copy of fixtures/polyglot and, after each, checks that an
// incremental Build gives the same pages, edges, query answers and related
// pages as a full build of the same tree into another index folder.
// WIKITOOLKIT_INCR_STEPS sets the number of steps (default 25, 6 under
// -short); WIKITOOLKIT_INCR_SEED the seed.
func TestIncrementalEqualsFull(t *testing.T) {
	steps := 25
	if testing.Short() {
		steps = 6
	}
	incrementalEqualsFull(t, steps, 13, incrWalk, nil)
}

// TestIncrementalEqualsFullShards is TestIncrementalEqualsFull with the
// module pages cut into shards of two (graph.ModuleShardPages): each
// incremental build reads, patches and cuts again only the modules
// segments holding a directory its change can alter. The full builds
// compared with them keep every module page in one segment, so this also
// holds that answers do not depend on how directories fell into shards.
func TestIncrementalEqualsFullShards(t *testing.T) {
	was := graph.ModuleShardPages
	graph.ModuleShardPages, fullShardPages = 2, 1<<30
	t.Cleanup(func() { graph.ModuleShardPages, fullShardPages = was, 0 })
	steps := 20
	if testing.Short() {
		steps = 6
	}
	var kept, shards []int // per build: modules segments standing from the one before, and in all
	var last map[string]bool
	incrementalEqualsFull(t, steps, 53, incrWalk, func(i int, index string) {
		ids := modulesSegments(t, index)
		n := 0
		for _, id := range ids {
			if last[id] {
				n++
			}
		}
		last = map[string]bool{}
		for _, id := range ids {
			last[id] = true
		}
		if i >= 0 {
			kept, shards = append(kept, n), append(shards, len(ids))
		}
	})
	// The fixture's ~29 directories make ~14 shards; a change touches few.
	keptAll, all := 0, 0
	for i := range kept {
		keptAll += kept[i]
		all += shards[i]
	}
	if shards[0] < 8 || keptAll*2 < all {
		t.Errorf("modules segments per build %v, of them standing from the build before %v: want many, most standing", shards, kept)
	}
	t.Logf("modules segments per build %v, of them standing from the build before %v", shards, kept)
}

// fullShardPages, when set, is graph.ModuleShardPages for the full builds
// incrementalEqualsFull compares with (2 for the others).
var fullShardPages int

// modulesSegments returns the IDs of the modules segments the live
// generation of index names, as its manifest lists them.
func modulesSegments(t *testing.T, index string) []string {
	var out []string
	for _, sg := range graphtest.LiveManifest(t, index).Segments {
		if sg.Kind == "modules" {
			out = append(out, strconv.Itoa(sg.ID))
		}
	}
	return out
}

// TestIncrementalEqualsFullResolved is TestIncrementalEqualsFull with no
// stored copy read for the files parsed (WIKITOOLKIT_STORED_COPY_FILES=0:
// graph's reuseEdges resolves each again, as it does a file of a large
// segment in an index of few segments); the fixture's segments are small,
// so the other test always reads them.
func TestIncrementalEqualsFullResolved(t *testing.T) {
	t.Setenv("WIKITOOLKIT_STORED_COPY_FILES", "0")
	steps := 15
	if testing.Short() {
		steps = 6
	}
	incrementalEqualsFull(t, steps, 29, incrWalk, nil)
}

// TestIncrementalEqualsFullSketch is TestIncrementalEqualsFull with the
// walk's sketch trusted (walk.RacyMargin shortened, the tree let settle
// before each build): the builds find what changed by the times of the
// directories, not a walk, and must read no more than the directories
// whose times moved; they give what a full build gives.
func TestIncrementalEqualsFullSketch(t *testing.T) {
	old := walk.RacyMargin
	walk.RacyMargin = 20 * time.Millisecond
	t.Cleanup(func() { walk.RacyMargin = old })
	steps := 20
	if testing.Short() {
		steps = 6
	}
	sketched := 0
	incrementalEqualsFull(t, steps, 41, incrWalk, func(i int, index string) {
		time.Sleep(60 * time.Millisecond) // before the next build: the times settle
		if i < 0 {
			return
		}
		snap := graphtest.Open(t, index)
		info := snap.Info()
		snap.Close()
		if info.DirsRead < 5 {
			sketched++
		}
	})
	if sketched < steps/2 {
		t.Errorf("%d of %d builds found their changes from the sketch (read under 5 directories), want most", sketched, steps)
	}
}

// TestIncrementalEqualsFullChanged is TestIncrementalEqualsFull with each
// incremental build given the paths that changed, as a file watcher sees
// them (BuildOptions.Changed: created, edited and removed files, both
// names of a renamed one, a new directory by its name), and steps that
// make a new directory of files and files the ignore rules exclude; the
// builds given paths must read no directory but the new ones (DirsRead),
// and give what a full build gives.
func TestIncrementalEqualsFullChanged(t *testing.T) {
	steps := 25
	if testing.Short() {
		steps = 8
	}
	incrementalEqualsFull(t, steps, 17, incrChanged, nil)
}

// TestIncrementalEqualsFullChangedThenSketch is TestIncrementalEqualsFullChanged
// as `build --changed` is used, the walk's sketch trusted
// (walk.RacyMargin shortened, the tree let settle before each build): one
// step in two the paths given leave one out, which the next build without
// paths must find from the sketch that the builds given paths kept
// (graph's keepSketch), reading a few directories, not the tree; the
// others are compared as they are. Both give what a full build gives.
func TestIncrementalEqualsFullChangedThenSketch(t *testing.T) {
	old := walk.RacyMargin
	walk.RacyMargin = 20 * time.Millisecond
	t.Cleanup(func() { walk.RacyMargin = old })
	steps := 24
	if testing.Short() {
		steps = 8
	}
	incrementalEqualsFull(t, steps, 53, incrChangedSome, nil)
}

// TestIncrementalEqualsFullSegments is TestIncrementalEqualsFull with
// segments of at most 12 files (WIKITOOLKIT_SEGMENT_FILES), so that the
// fixture's files fall into at least 3 file segments and the random steps
// tombstone files in several segments at once and merge segments (a
// segment whose dead files outnumber its live ones); the test fails if
// either never happened, since then it proved nothing more than the
// unsegmented one.
func TestIncrementalEqualsFullSegments(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "12")
	steps := 40
	if testing.Short() {
		steps = 12
	}
	var manyDead, merges int
	var prev map[int]int // live files of each file segment of the previous generation
	incrementalEqualsFull(t, steps, 29, incrWalk, func(i int, index string) {
		m := graphtest.LiveManifest(t, index)
		files := 0
		withDead := 0
		now := map[int]int{}
		for _, sg := range m.Segments {
			if sg.Kind != "files" {
				continue
			}
			files++
			if len(sg.Dead) > 0 {
				withDead++
			}
			now[sg.ID] = 1
		}
		if i < 0 {
			if files < 3 {
				t.Fatalf("the full build wrote %d file segments, want at least 3 (is WIKITOOLKIT_SEGMENT_FILES read?)", files)
			}
		}
		if withDead >= 2 {
			manyDead++
		}
		for id := range prev {
			if now[id] == 0 {
				merges++ // a segment of the previous generation is gone: merged or emptied
			}
		}
		prev = now
	})
	t.Logf("%d generations with tombstones in 2+ segments, %d segments merged or emptied", manyDead, merges)
	if manyDead == 0 || merges == 0 {
		t.Fatalf("the steps never tombstoned files in 2+ segments at once (%d) or never dropped a segment (%d): the test proved nothing about segments", manyDead, merges)
	}
}

// compareStats compares the stats of the files of an incremental index
// (from its stat table, graph/stattable.go, when it has one) with a full
// build's (from its segments). times false leaves out the modification
// times: a build that found only files touched, their bytes the same,
// writes no generation and keeps their old times (the next build that
// writes one records them).
func compareStats(t *testing.T, incDir string, full *graph.Snapshot, times bool) string {
	inc := graphtest.Open(t, incDir) // its own: Stats is read once per snapshot
	defer inc.Close()
	read := graph.StatTableBytes()
	si, err := inc.Stats()
	if err != nil {
		return "incremental stats: " + err.Error()
	}
	if graph.StatTableBytes() > read {
		statTablesRead++
	}
	sf, err := full.Stats()
	if err != nil {
		return "full stats: " + err.Error()
	}
	byPath := map[string]graph.FileStat{}
	for _, st := range sf {
		byPath[st.Path] = st
	}
	for _, st := range si {
		if f, ok := byPath[st.Path]; ok && (f.Size != st.Size || f.Hash != st.Hash || times && f.ModTime != st.ModTime) {
			return fmt.Sprintf("file stat of %s: incremental %v, full %v", st.Path, st, f)
		}
	}
	line := func(st graph.FileStat) string {
		if !times {
			st.ModTime = 0
		}
		return fmt.Sprint(st)
	}
	var a, b []string
	for _, st := range si {
		a = append(a, line(st))
	}
	for _, st := range sf {
		b = append(b, line(st))
	}
	return firstDiff("file stat", a, b)
}

// statTablesRead counts the comparisons (compareIndexes) whose incremental
// stats came from a stat table.
var statTablesRead int

// incrementalEqualsFull runs the random steps of TestIncrementalEqualsFull
// (steps of them, from seed unless the environment sets them); after the
// first build (i -1) and each incremental one, check, if not nil, is
// given the index folder. With changed, each incremental build is given
// the paths the step changed (see TestIncrementalEqualsFullChanged).
// incrMode is how incrementalEqualsFull's incremental builds learn what
// changed.
type incrMode int

const (
	incrWalk        incrMode = iota // by a walk (or the sketch)
	incrChanged                     // given the changed paths (BuildOptions.Changed)
	incrChangedSome                 // given them, one step in two less one, then a build without paths
)

func incrementalEqualsFull(t *testing.T, steps int, seed uint64, mode incrMode, check func(i int, index string)) {
	changed := mode != incrWalk
	if s := os.Getenv("WIKITOOLKIT_INCR_STEPS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("WIKITOOLKIT_INCR_STEPS=%q: want a positive number of steps", s)
		}
		steps = n
	}
	if s := os.Getenv("WIKITOOLKIT_INCR_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("WIKITOOLKIT_INCR_SEED=%q: want a number", s)
		}
		seed = n
	}
	r := &incrRun{t: t, root: walktest.CopyFixture(t, "polyglot"), rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		clock: time.Now().Add(-time.Hour).Truncate(time.Second), added: map[string][][2]string{}}
	ctx := context.Background()
	index := filepath.Join(r.root, graph.IndexDirName)
	if changed {
		r.write(".gitignore", "*_ignored.go\nscratch/\n")
	}
	if mode == incrChangedSome {
		time.Sleep(60 * time.Millisecond) // the first build's sketch is trusted
	}
	if _, err := Build(ctx, BuildOptions{Root: r.root}); err != nil {
		t.Fatal(err)
	}
	if check != nil {
		check(-1, index)
	}
	walkedDirs := 0
	forgotten, sketchedAfter := 0, 0 // builds after one given paths less one; of them, those the sketch served
	statTablesRead = 0
	snap := graphtest.Open(t, index)
	gen := snap.Generation
	snap.Close()
	stale := false
	for i := 0; i < steps; i++ {
		before := r.listing()
		r.step()
		if i%4 == 3 {
			// Also a file given a new time, its bytes the same: the
			// manifest's Touched and the stat table's times.
			files := r.files()
			rel := files[(i*7)%len(files)]
			r.touch(rel)
			r.steps = append(r.steps, "touch "+rel)
		}
		var paths []string
		newDirs := 0
		if changed {
			r.extraStep()
			after := r.listing()
			paths = changedPaths(before, after)
			for p := range after {
				if _, ok := before[p]; !ok && strings.HasSuffix(p, "/") {
					newDirs++
				}
			}
		}
		forgot := ""
		if mode == incrChangedSome {
			if i%2 == 1 && len(paths) > 1 {
				k := r.rng.IntN(len(paths))
				forgot, paths = paths[k], slices.Delete(slices.Clone(paths), k, k+1)
				r.steps = append(r.steps, "build --changed without "+forgot)
			}
			time.Sleep(60 * time.Millisecond) // the times settle: the sketch is trusted
		}
		res, err := Build(ctx, BuildOptions{Root: r.root, Changed: paths})
		if err != nil {
			t.Fatalf("incremental build after %s: %v", r.trace(), err)
		}
		ignoreFile := slices.ContainsFunc(paths, func(p string) bool { return filepath.Base(p) == ".gitignore" })
		if forgot != "" {
			if res.Generation != gen {
				gen = res.Generation
				stale = false
			}
			res, err = Build(ctx, BuildOptions{Root: r.root})
			if err != nil {
				t.Fatalf("build after %s: %v", r.trace(), err)
			}
			forgotten++
		} else if changed && !ignoreFile { // a changed ignore file makes the build walk the tree
			if res.DirsRead > newDirs {
				t.Fatalf("the build given %q read %d directories, want at most %d (the new ones)", paths, res.DirsRead, newDirs)
			}
			walkedDirs += res.DirsRead
		}
		if check != nil {
			check(i, index)
		}
		fullDir := filepath.Join(t.TempDir(), "full")
		if fullShardPages > 0 {
			was := graph.ModuleShardPages
			graph.ModuleShardPages = fullShardPages
			defer func() { graph.ModuleShardPages = was }()
		}
		fullRes, err := Build(ctx, BuildOptions{Root: r.root, IndexDir: fullDir, Full: true})
		if fullShardPages > 0 {
			graph.ModuleShardPages = 2
		}
		if err != nil {
			t.Fatalf("full build after %s: %v", r.trace(), err)
		}
		if forgot != "" && res.DirsRead < fullRes.DirsRead {
			sketchedAfter++ // the sketch named what to read: not the whole tree
		}
		inc := graphtest.Open(t, filepath.Join(r.root, graph.IndexDirName))
		full := graphtest.Open(t, fullDir)
		if diff := compareIndexes(ctx, inc, full); diff != "" {
			t.Fatalf("seed %d: incremental and full builds differ after %s:\n%s", seed, r.trace(), diff)
		}
		// A watcher's paths name a touched file once: when the build
		// they went to wrote nothing, its old time stays (graph.Build).
		stale = stale || changed && res.Generation == gen
		if diff := compareStats(t, index, full, res.Generation != gen && !stale); diff != "" {
			t.Fatalf("seed %d: incremental and full builds differ after %s:\n%s", seed, r.trace(), diff)
		}
		gen = res.Generation
		inc.Close()
		full.Close()
	}
	if statTablesRead < steps/2 {
		t.Errorf("the stats of %d of %d incremental generations came from a stat table, want most", statTablesRead, steps)
	}
	if mode == incrChangedSome && (forgotten < steps/4 || sketchedAfter*2 < forgotten) {
		t.Errorf("%d builds found a path left out of the paths given, %d of them from the sketch (read fewer directories than the tree has): want %d, most from the sketch", forgotten, sketchedAfter, steps/4)
	}
	if mode == incrChanged && walkedDirs == 0 {
		t.Errorf("no build given paths walked a new directory: the steps did not test it")
	}
	t.Logf("seed %d: %d steps, incremental equals full after each:%s", seed, steps, r.trace())
}

// listing maps every file and directory of the tree (the index folder left
// out; directories with a trailing "/") to its size and modification time.
func (r *incrRun) listing() map[string][2]int64 {
	out := map[string][2]int64{}
	err := filepath.WalkDir(r.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == graph.IndexDirName {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(r.root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			out[rel+"/"] = [2]int64{}
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[rel] = [2]int64{fi.Size(), fi.ModTime().UnixNano()}
		return nil
	})
	if err != nil {
		r.t.Fatal(err)
	}
	return out
}

// changedPaths is what a watcher would report between two listings: the
// files added, changed or gone, and a new directory by its own name for
// everything in it.
func changedPaths(before, after map[string][2]int64) []string {
	var newDirs []string
	for p := range after {
		if _, ok := before[p]; !ok && strings.HasSuffix(p, "/") {
			newDirs = append(newDirs, strings.TrimSuffix(p, "/"))
		}
	}
	inNew := func(p string) bool {
		for _, d := range newDirs {
			if strings.HasPrefix(p, d+"/") {
				return true
			}
		}
		return false
	}
	var out []string
	for _, d := range newDirs {
		if !inNew(d) {
			out = append(out, d)
		}
	}
	for p, st := range after {
		if old, ok := before[p]; (!ok || old != st) && !strings.HasSuffix(p, "/") && !inNew(p) {
			out = append(out, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, strings.TrimSuffix(p, "/"))
		}
	}
	slices.Sort(out)
	return out
}

// extraStep, one step in three, makes a new directory of files (one in
// a subdirectory) or a file the ignore rules exclude (TestIncrementalEqualsFullChanged).
func (r *incrRun) extraStep() {
	r.n++
	n := r.n
	switch r.rng.IntN(6) {
	case 0, 1:
		dir := fmt.Sprintf("fresh%d", n)
		r.write(dir+"/fresh.go", fmt.Sprintf("// Package fresh%d is an incremental helper package.\npackage fresh%d\n\n// FreshValue%d is a fresh helper.\nfunc FreshValue%d() int { return %d }\n", n, n, n, n, n))
		r.write(dir+"/sub/more.py", fmt.Sprintf("\"\"\"Fresh module %d.\"\"\"\n\n\ndef fresh_more_%d():\n    \"\"\"Fresh helper %d.\"\"\"\n    return %d\n", n, n, n, n))
		r.steps = append(r.steps, "make "+dir+"/fresh.go and "+dir+"/sub/more.py")
	case 2:
		rel := fmt.Sprintf("go/inventory/x%d_ignored.go", n)
		if r.rng.IntN(2) == 0 {
			rel = fmt.Sprintf("scratch/x%d.go", n)
		}
		r.write(rel, fmt.Sprintf("package inventory\n\n// IgnoredHelper%d is ignored.\nfunc IgnoredHelper%d() {}\n", n, n))
		r.steps = append(r.steps, "write the ignored "+rel)
	}
}

func (r *incrRun) trace() string {
	var b strings.Builder
	for i, s := range r.steps {
		fmt.Fprintf(&b, "\n  %d. %s", i+1, s)
	}
	return b.String()
}

// files lists the tree's files (repo-relative, "/"), the index folder left out.
func (r *incrRun) files() []string {
	var out []string
	err := filepath.WalkDir(r.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == graph.IndexDirName {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(r.root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		r.t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// write writes content to rel and gives it a new modification time, later
// than any before, so that no edit hides behind an unchanged stamp.
func (r *incrRun) write(rel, content string) {
	walktest.WriteFile(r.t, r.root, rel, content)
	r.touch(rel)
}

func (r *incrRun) touch(rel string) {
	r.clock = r.clock.Add(time.Second)
	if err := os.Chtimes(filepath.Join(r.root, filepath.FromSlash(rel)), r.clock, r.clock); err != nil {
		r.t.Fatal(err)
	}
}

func (r *incrRun) read(rel string) string {
	b, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(rel)))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(b)
}

func (r *incrRun) pick(list []string) string { return list[r.rng.IntN(len(list))] }

// call returns a call of a function added earlier in lang, or def.
func (r *incrRun) call(lang, def string) string {
	if fs := r.added[lang]; len(fs) > 0 {
		return fs[r.rng.IntN(len(fs))][1] + "()"
	}
	return def
}

// step applies one random change and records it.
func (r *incrRun) step() {
	for {
		var did string
		switch k := r.rng.IntN(10); {
		case k < 4:
			did = r.edit()
		case k < 6:
			did = r.add()
		case k < 8:
			did = r.rename()
		default:
			did = r.remove()
		}
		if did != "" {
			r.steps = append(r.steps, did)
			return
		}
	}
}

// edit appends a documented function to a file in its language, or
// changes the body of a function the run added.
func (r *incrRun) edit() string {
	r.n++
	n := r.n
	if r.rng.IntN(3) == 0 {
		if did := r.neutral(n); did != "" {
			return did
		}
	}
	if r.rng.IntN(3) == 0 {
		for _, lang := range []string{"go", "py"} {
			fs := r.added[lang]
			if len(fs) == 0 {
				continue
			}
			f := fs[r.rng.IntN(len(fs))]
			src := r.read(f[0])
			marker := "incr body of " + f[1]
			i := strings.Index(src, marker)
			if i < 0 {
				continue
			}
			var body string
			if lang == "go" {
				body = marker + " changed " + strconv.Itoa(n) + "\"\n\t_ = " + r.call("go", "NormalizeISBN(\"x\")")
			} else {
				body = marker + " changed " + strconv.Itoa(n) + "\"\n    " + r.call("py", "normalize_isbn(\"x\")")
			}
			end := strings.Index(src[i:], "\"")
			src = src[:i] + body + src[i+end+1:]
			r.write(f[0], src)
			return "change the body of " + f[1] + " in " + f[0]
		}
	}
	files := r.files()
	rel := r.pick(files)
	src := r.read(rel)
	if !strings.HasSuffix(src, "\n") {
		src += "\n"
	}
	name := fmt.Sprintf("incrHelper%d", n)
	var add string
	switch filepath.Ext(rel) {
	case ".go":
		if !strings.HasPrefix(src, "package ") && !strings.Contains(src, "\npackage ") {
			return ""
		}
		pkgCall := "_ = 0"
		if strings.Contains(rel, "inventory/") {
			pkgCall = "_ = " + r.call("go", "NormalizeISBN(\"x\")")
		}
		add = fmt.Sprintf("\n// %s is incremental helper %d.\nfunc %s() {\n\t_ = \"incr body of %s\"\n\t%s\n}\n", name, n, name, name, pkgCall)
		if strings.Contains(rel, "inventory/") && !strings.HasSuffix(rel, "_test.go") {
			r.added["go"] = append(r.added["go"], [2]string{rel, name})
		}
	case ".py":
		name = fmt.Sprintf("incr_helper_%d", n)
		add = fmt.Sprintf("\n\ndef %s():\n    \"\"\"Incremental helper %d.\"\"\"\n    x = \"incr body of %s\"\n    %s\n", name, n, name, r.call("py", "len(x)"))
		if strings.Contains(rel, "bookstore/") {
			r.added["py"] = append(r.added["py"], [2]string{rel, name})
		}
	case ".js", ".ts":
		add = fmt.Sprintf("\n/** %s is incremental helper %d. */\nexport function %s() {\n  return %d;\n}\n", name, n, name, n)
	case ".rs":
		add = fmt.Sprintf("\n/// Incremental helper %d.\npub fn incr_helper_%d() -> i32 {\n    %d\n}\n", n, n, n)
	case ".c", ".cpp":
		add = fmt.Sprintf("\n/* Incremental helper %d. */\nint incr_helper_%d(void) {\n    return %d;\n}\n", n, n, n)
	case ".rb":
		add = fmt.Sprintf("\n# Incremental helper %d.\ndef incr_helper_%d\n  %d\nend\n", n, n, n)
	case ".md":
		add = fmt.Sprintf("\n## Incremental section %d\n\nThe incremental helper %d is described here.\n", n, n)
	default:
		return ""
	}
	r.write(rel, src+add)
	return "append " + name + " to " + rel
}

// neutral makes an edit that changes no definition, reference or
// import: a comment line appended, or a line added to a Go package doc
// (which changes the module page's doc). The build keeps such a file's
// stored edges (graph's reuseEdges) and, but for a doc change, leaves the
// modules segment unread: both must give what a full build gives.
func (r *incrRun) neutral(n int) string {
	if r.rng.IntN(2) == 0 {
		var docs []string
		for _, rel := range r.files() {
			if strings.HasSuffix(rel, ".go") && strings.Contains(r.read(rel), "\n// Package ") || strings.HasPrefix(r.read(rel), "// Package ") {
				docs = append(docs, rel)
			}
		}
		if len(docs) > 0 {
			rel := r.pick(docs)
			src := r.read(rel)
			i := strings.Index(src, "// Package ")
			end := i + strings.IndexByte(src[i:], '\n') + 1
			r.write(rel, src[:end]+fmt.Sprintf("// It carries incremental note %d.\n", n)+src[end:])
			return "add a line to the package doc of " + rel
		}
	}
	rel := r.pick(r.files())
	src := r.read(rel)
	if !strings.HasSuffix(src, "\n") {
		src += "\n"
	}
	switch filepath.Ext(rel) {
	case ".go":
		src += fmt.Sprintf("// incremental note %d\n", n)
	case ".js", ".ts", ".rs", ".c", ".cpp":
		src += fmt.Sprintf("// incremental note %d\n", n)
	case ".py", ".rb":
		src += fmt.Sprintf("# incremental note %d\n", n)
	default:
		return ""
	}
	r.write(rel, src)
	return "append a comment line to " + rel
}

// add writes a new Go file in the inventory package or a new Python module
// in bookstore, calling and importing existing code.
func (r *incrRun) add() string {
	r.n++
	n := r.n
	if r.rng.IntN(2) == 0 {
		rel := fmt.Sprintf("go/inventory/incr%d.go", n)
		if r.rng.IntN(3) == 0 {
			rel = fmt.Sprintf("go/incr%d/incr.go", n)
			src := fmt.Sprintf("// Package incr%d is incremental helper package %d.\npackage incr%d\n\nimport \"example.com/bookstore/go/inventory\"\n\n// Value%d is incremental helper %d.\nfunc Value%d() int {\n\treturn inventory.NewStore().Value()\n}\n", n, n, n, n, n, n)
			r.write(rel, src)
			return "add " + rel
		}
		name := fmt.Sprintf("IncrNew%d", n)
		src := fmt.Sprintf("package inventory\n\nimport \"strings\"\n\n// %s is incremental helper %d.\nfunc %s() string {\n\t_ = \"incr body of %s\"\n\t_ = %s\n\treturn strings.ToUpper(NormalizeISBN(\"x\"))\n}\n", name, n, name, name, r.call("go", "NewStore()"))
		r.write(rel, src)
		r.added["go"] = append(r.added["go"], [2]string{rel, name})
		return "add " + rel
	}
	rel := fmt.Sprintf("python/bookstore/incr%d.py", n)
	name := fmt.Sprintf("incr_new_%d", n)
	imp := ""
	if fs := r.added["py"]; len(fs) > 0 {
		f := fs[r.rng.IntN(len(fs))]
		mod := strings.TrimSuffix(filepath.Base(f[0]), ".py")
		imp = fmt.Sprintf("from .%s import %s\n", mod, f[1])
		_ = mod
	}
	src := fmt.Sprintf("\"\"\"Incremental helper module %d.\"\"\"\n\nfrom .catalog import Catalog\nfrom .models import normalize_isbn\n%s\n\ndef %s():\n    \"\"\"Incremental helper %d.\"\"\"\n    x = \"incr body of %s\"\n    Catalog().restock(normalize_isbn(x), 1)\n", n, imp, name, n, name)
	r.write(rel, src)
	r.added["py"] = append(r.added["py"], [2]string{rel, name})
	return "add " + rel
}

// rename moves a file, to another name in its folder or into another
// (possibly new) folder.
func (r *incrRun) rename() string {
	files := r.files()
	if len(files) < 10 {
		return ""
	}
	rel := r.pick(files)
	r.n++
	base := filepath.Base(rel)
	ext := filepath.Ext(base)
	var to string
	switch r.rng.IntN(3) {
	case 0:
		to = filepath.ToSlash(filepath.Join(filepath.Dir(rel), fmt.Sprintf("renamed%d%s", r.n, ext)))
	case 1:
		to = filepath.ToSlash(filepath.Join(filepath.Dir(r.pick(files)), base))
	default:
		to = filepath.ToSlash(filepath.Join(fmt.Sprintf("moved%d", r.n), base))
	}
	if _, err := os.Stat(filepath.Join(r.root, filepath.FromSlash(to))); err == nil {
		return ""
	}
	if err := os.MkdirAll(filepath.Dir(filepath.Join(r.root, filepath.FromSlash(to))), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(r.root, filepath.FromSlash(rel)), filepath.Join(r.root, filepath.FromSlash(to))); err != nil {
		r.t.Fatal(err)
	}
	r.forget(rel, to)
	return "rename " + rel + " to " + to
}

// remove deletes a file.
func (r *incrRun) remove() string {
	files := r.files()
	if len(files) < 10 {
		return ""
	}
	rel := r.pick(files)
	if err := os.Remove(filepath.Join(r.root, filepath.FromSlash(rel))); err != nil {
		r.t.Fatal(err)
	}
	r.forget(rel, "")
	return "remove " + rel
}

// forget moves (to != "") or drops the added functions of file rel.
func (r *incrRun) forget(rel, to string) {
	for lang, fs := range r.added {
		var keep [][2]string
		for _, f := range fs {
			if f[0] == rel {
				if to == "" || (lang == "go" && filepath.Dir(to) != filepath.Dir(rel)) || (lang == "py" && filepath.Dir(to) != filepath.Dir(rel)) {
					continue
				}
				f[0] = to
			}
			keep = append(keep, f)
		}
		r.added[lang] = keep
	}
}

// compareIndexes describes the first difference between two indexes, or
// returns "": pages, edges, query answers and related pages.
func compareIndexes(ctx context.Context, inc, full *graph.Snapshot) string {
	gi, err := inc.Graph()
	if err != nil {
		return "incremental graph: " + err.Error()
	}
	gf, err := full.Graph()
	if err != nil {
		return "full graph: " + err.Error()
	}
	// The counts an incremental build carries forward.
	ai, af := inc.Info(), full.Info()
	for _, c := range []struct {
		what      string
		inc, full any
	}{
		{"pages", ai.Pages, af.Pages}, {"edges", ai.Edges, af.Edges}, {"languages", ai.Languages, af.Languages},
		{"files", ai.Files, af.Files}, {"source bytes", ai.SourceBytes, af.SourceBytes},
		{"diagnostics", ai.Diagnostics, af.Diagnostics}, {"diagnostic files", ai.DiagnosticFiles, af.DiagnosticFiles},
	} {
		if !reflect.DeepEqual(c.inc, c.full) {
			return fmt.Sprintf("build info %s: incremental %v, full %v", c.what, c.inc, c.full)
		}
	}
	pi, pf := pageLines(gi), pageLines(gf)
	if d := firstDiff("page", pi, pf); d != "" {
		return d
	}
	if d := firstDiff("edge", edgeLines(gi), edgeLines(gf)); d != "" {
		return d
	}
	ii, err := engine.Load(inc)
	if err != nil {
		return "incremental ranking index: " + err.Error()
	}
	fi, err := engine.Load(full)
	if err != nil {
		return "full ranking index: " + err.Error()
	}
	for _, q := range incrQueries {
		ri, err1 := ii.Query(ctx, q, engine.Options{})
		rf, err2 := fi.Query(ctx, q, engine.Options{})
		if err1 != nil || err2 != nil {
			return fmt.Sprintf("query %q: incremental %v, full %v", q, err1, err2)
		}
		var ids, idf []string
		for _, s := range ri.Results {
			ids = append(ids, s.ID)
		}
		for _, s := range rf.Results {
			idf = append(idf, s.ID)
		}
		if d := orderedDiff(fmt.Sprintf("answer to %q", q), ids, idf); d != "" {
			return d
		}
	}
	// Related pages of every tenth page (both graphs hold the same pages here).
	for i := 0; i < len(gf.Pages); i += 10 {
		id := gf.Pages[i].ID
		var lines [2][]string
		for k, s := range []*graph.Snapshot{inc, full} {
			p, err := LoadPage(s, nil, id, PageOptions{})
			if err != nil {
				return fmt.Sprintf("page %s: %v", id, err)
			}
			for _, n := range Related(s, nil, p, "", "both", 0, true).Neighbors {
				lines[k] = append(lines[k], n.Direction+" "+n.Rel+" "+n.ID+" "+n.Title+" "+n.Use+" "+n.Confidence)
			}
		}
		if d := orderedDiff("related of "+id, lines[0], lines[1]); d != "" {
			return d
		}
	}
	return ""
}

func pageLines(g *graph.Graph) []string {
	out := make([]string, 0, len(g.Pages))
	for _, p := range g.Pages {
		out = append(out, fmt.Sprintf("%s kind=%s title=%q lines=%d-%d doc=%q", p.ID, p.Kind, p.Title, p.Line, p.EndLine, p.Doc))
	}
	slices.Sort(out)
	return out
}

func edgeLines(g *graph.Graph) []string {
	out := make([]string, 0, len(g.Edges()))
	for _, e := range g.Edges() {
		out = append(out, fmt.Sprintf("%s -%s-> %s", g.Pages[e.From].ID, e.Type, g.Pages[e.To].ID))
	}
	slices.Sort(out)
	return out
}

// firstDiff names the first line of two sorted lists that only one holds.
func firstDiff(what string, inc, full []string) string {
	i, j := 0, 0
	for i < len(inc) || j < len(full) {
		switch {
		case i < len(inc) && j < len(full) && inc[i] == full[j]:
			i++
			j++
		case j >= len(full) || (i < len(inc) && inc[i] < full[j]):
			other := ""
			if j < len(full) {
				other = "; the full build has there: " + full[j]
			}
			return fmt.Sprintf("%s only in the incremental build (%d vs %d): %s%s", what, len(inc), len(full), inc[i], other)
		default:
			return fmt.Sprintf("%s only in the full build (%d vs %d): %s", what, len(inc), len(full), full[j])
		}
	}
	return ""
}

// orderedDiff names the first place where two ordered lists differ.
func orderedDiff(what string, inc, full []string) string {
	if i, a, b, ok := walktest.FirstDiff(inc, full); ok {
		return fmt.Sprintf("%s differs at %d:\n  incremental: %s\n  full:        %s", what, i+1, a, b)
	}
	return ""
}

// TestPageViewsAfterEdits holds the page views (graph.Snapshot's
// Neighbourhood and PagesOf) to the whole graph on every page of the
// index after each random step of TestIncrementalEqualsFull, in small
// segments and module shards: replaced copies of files (tombstones), delta
// segments, merges and edges to pages whose file moved to a later segment.
func TestPageViewsAfterEdits(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "12")
	was := graph.ModuleShardPages
	graph.ModuleShardPages, fullShardPages = 2, 1<<30
	t.Cleanup(func() { graph.ModuleShardPages, fullShardPages = was, 0 })
	steps := 15
	if testing.Short() {
		steps = 5
	}
	dead := 0
	incrementalEqualsFull(t, steps, 71, incrWalk, func(i int, index string) {
		for _, sg := range graphtest.LiveManifest(t, index).Segments {
			dead += len(sg.Dead)
		}
		snap := graphtest.Open(t, index)
		defer snap.Close()
		if d := graphtest.CheckViews(t, snap); d != "" {
			t.Fatalf("after step %d: %s", i, d)
		}
	})
	if dead == 0 {
		t.Fatal("no generation had a tombstone: the test proved nothing about replaced copies")
	}
}
