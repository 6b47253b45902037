package engine

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/benchmarks/synth"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
)

// A segmented is a graph split into segments as an incremental store
// would hold it, and the graph of its live pages built in one go.
type segmented struct {
	segs    []SegmentData
	names   []NameSegment
	live    *graph.Graph
	removed map[string]bool // IDs of the group pages removed (dead, with no newer copy)
	updated map[string]bool // ... replaced by a copy in the last segment
}

// textBlobOf is the stored form of a graph's page records (x/text), as
// graph.Build writes it.
func textBlobOf(g *graph.Graph) []byte {
	off, rec := graph.EncodeText(g, graph.Groups(g))
	b := binary.AppendUvarint(nil, uint64(len(off)))
	var last uint32
	for _, x := range off {
		b = binary.AppendUvarint(b, uint64(x-last))
		last = x
	}
	return append(b, rec...)
}

// splitSegments assigns g's group pages (files with their symbols and
// sections, modules) at random to k segments, then gives a share of them
// a copy in a last, newer segment (the earlier copy dead) and marks
// another share removed (dead, no copy). Each segment holds its edges
// among its pages and lists the others as external links.
func splitSegments(t testing.TB, g *graph.Graph, k int, seed uint64, updateShare, removeShare float64) segmented {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 99))
	group := graph.Groups(g)
	const (
		normal = iota
		updated
		removed
	)
	assign := map[uint32]int{}
	state := map[uint32]int{}
	for i, gp := range group {
		if uint32(i) != gp {
			continue
		}
		assign[gp] = r.IntN(k)
		switch x := r.Float64(); {
		case x < updateShare:
			state[gp] = updated
		case x < updateShare+removeShare:
			state[gp] = removed
		}
	}
	nseg := k + 1
	members := make([][]uint32, nseg) // original page numbers per segment, in order
	for i := range g.Pages {
		gp := group[i]
		members[assign[gp]] = append(members[assign[gp]], uint32(i))
	}
	for i := range g.Pages {
		if state[group[i]] == updated {
			members[k] = append(members[k], uint32(i))
		}
	}
	sd := segmented{removed: map[string]bool{}, updated: map[string]bool{}}
	deadIn := make([]map[string]bool, nseg)
	for s := range nseg {
		deadIn[s] = map[string]bool{}
	}
	for gp, st := range state {
		id := g.Pages[gp].ID
		switch st {
		case updated:
			deadIn[assign[gp]][id] = true
			sd.updated[id] = true
		case removed:
			deadIn[assign[gp]][id] = true
			sd.removed[id] = true
		}
	}
	var livePages []graph.Page
	liveAt := map[uint32]uint32{} // original page → live graph page
	for s := range nseg {
		if len(members[s]) == 0 {
			continue
		}
		local := map[uint32]uint32{}
		var pages []graph.Page
		for _, i := range members[s] {
			local[i] = uint32(len(pages))
			pages = append(pages, g.Pages[i])
			if !deadIn[s][g.Pages[group[i]].ID] {
				liveAt[i] = uint32(len(livePages))
				livePages = append(livePages, g.Pages[i])
			}
		}
		var edges []graph.Edge
		var ext []ExtLink
		for _, e := range g.Edges() {
			from, ok := local[e.From]
			if !ok {
				continue
			}
			if to, ok := local[e.To]; ok {
				edges = append(edges, graph.Edge{From: from, To: to, Type: e.Type})
			} else {
				ext = append(ext, ExtLink{Page: from, ID: g.Pages[e.To].ID})
			}
		}
		sg := graph.NewGraph(pages, edges)
		b, err := BuildSegment(sg, ext)
		if err != nil {
			t.Fatal(err)
		}
		dead := deadIn[s]
		isDead := func(id string) bool { return dead[id] }
		sd.segs = append(sd.segs, SegmentData{Engine: b, Text: textBlobOf(sg), Dead: isDead})
		dir, chunks := chunkNames(buildNames(sg), 512) // small chunks: lookups cross them
		sd.names = append(sd.names, NameSegment{Dir: dir, Chunk: func(i int) ([]byte, error) {
			if i < 0 || i >= len(chunks) {
				return nil, errors.New("no such chunk")
			}
			return chunks[i], nil
		}, Dead: isDead})
	}
	var liveEdges []graph.Edge
	for _, e := range g.Edges() {
		a, ok1 := liveAt[e.From]
		b, ok2 := liveAt[e.To]
		if ok1 && ok2 {
			liveEdges = append(liveEdges, graph.Edge{From: a, To: b, Type: e.Type})
		}
	}
	sd.live = graph.NewGraph(livePages, liveEdges)
	return sd
}

// segmentQuestions derives questions from a graph's pages: names,
// qualified names, doc words, paths with a line, components, traces, some
// with a focus file or --explain.
func segmentQuestions(g *graph.Graph, n int) []struct {
	q   string
	opt Options
} {
	var out []struct {
		q   string
		opt Options
	}
	add := func(q string, opt Options) {
		out = append(out, struct {
			q   string
			opt Options
		}{q, opt})
	}
	r := rand.New(rand.NewPCG(5, 6))
	var files []string
	for i := range g.Pages {
		if g.Pages[i].Kind == graph.KindFile {
			files = append(files, g.Pages[i].Path)
		}
	}
	for tries := 0; len(out) < n && tries < 50*n; tries++ {
		p := &g.Pages[r.IntN(len(g.Pages))]
		var opt Options
		switch len(out) % 4 {
		case 1:
			opt.Explain = true
		case 2:
			if len(files) > 0 {
				opt.Focus = []string{files[r.IntN(len(files))]}
			}
		}
		words := strings.Fields(p.Doc)
		switch tries % 7 {
		case 0:
			if p.Kind == graph.KindSymbol && p.Name != "" {
				add(p.Name, opt)
			}
		case 1:
			if len(words) >= 3 {
				add("how does "+strings.Join(words[:min(5, len(words))], " ")+" work", opt)
			}
		case 2:
			if p.Kind == graph.KindSymbol && strings.Contains(p.Qualified, ".") {
				add("fix "+p.Qualified+" when it fails", opt)
			}
		case 3:
			if p.Kind == graph.KindFile {
				add(fmt.Sprintf("see %s:%d for the bug", p.Path, 1+r.IntN(30)), opt)
			}
		case 4:
			if p.Kind == graph.KindModule || p.Kind == graph.KindFile {
				add(path.Base(p.Path)+": "+strings.Join(words[:min(4, len(words))], " ")+" is wrong", opt)
			}
		case 5:
			if p.Kind == graph.KindSymbol {
				add(fmt.Sprintf("panic: boom\n\tpkg.%s(0x1)\n\t/src/%s:%d +0x1d", p.Name, p.Path, p.Line), opt)
			}
		case 6:
			if len(p.Idents) > 1 {
				add("`"+p.Idents[0]+"` and "+p.Idents[1]+" handling", opt)
			}
		}
	}
	return out
}

// synthSnapshot indexes a synthetic tree of files files.
func synthSnapshot(t *testing.T, files int) *graph.Snapshot {
	t.Helper()
	root := t.TempDir()
	if _, err := synth.Write(root, synth.Options{Files: files, Seed: 11}); err != nil {
		t.Fatal(err)
	}
	dir := root + "/.wikitoolkit"
	graphtest.Build(t, graph.BuildOptions{Root: root, IndexDir: dir, Segment: BuildBlobs, BlobsFormat: Format})
	return graphtest.Open(t, dir)
}

// synthSegments splits the graph of a synthetic tree of files files into
// an index of k segments (splitSegments' shares of updated and removed
// files).
func synthSegments(t *testing.T, files, k int, seed uint64, updateShare, removeShare float64) (*graph.Graph, segmented, *Index) {
	t.Helper()
	g, err := synthSnapshot(t, files).Graph()
	if err != nil {
		t.Fatal(err)
	}
	sd := splitSegments(t, g, k, seed, updateShare, removeShare)
	ix, err := OpenSegments(sd.segs)
	if err != nil {
		t.Fatal(err)
	}
	return g, sd, ix
}

// sameResult reports how two answers to one question differ: IDs and
// their order, symbols, snippets, explanations, counts exactly, scores
// within 1e-4 relative.
func sameResult(a, b Result) error {
	if len(a.Results) != len(b.Results) || a.More != b.More || a.Truncated != b.Truncated || a.UsedTokens != b.UsedTokens {
		return fmt.Errorf("%d results (more %d, %d tokens), want %d (more %d, %d tokens)", len(a.Results), a.More, a.UsedTokens, len(b.Results), b.More, b.UsedTokens)
	}
	if (a.ExactMatch == nil) != (b.ExactMatch == nil) || a.ExactMatch != nil && *a.ExactMatch != *b.ExactMatch || a.Note != b.Note {
		return fmt.Errorf("exact match %v %q, want %v %q", a.ExactMatch, a.Note, b.ExactMatch, b.Note)
	}
	for i := range a.Results {
		x, y := a.Results[i], b.Results[i]
		if x.ID != y.ID || x.Title != y.Title || x.Snippet != y.Snippet || x.Line != y.Line || !slices.Equal(x.Symbols, y.Symbols) {
			return fmt.Errorf("result %d: %s %v, want %s %v", i, x.ID, x.Symbols, y.ID, y.Symbols)
		}
		if math.Abs(x.Score-y.Score) > 1e-4*math.Max(1, math.Abs(y.Score)) {
			return fmt.Errorf("result %d (%s): score %v, want %v", i, x.ID, x.Score, y.Score)
		}
		if x.Explain != y.Explain {
			return fmt.Errorf("result %d (%s): explain\n%s\nwant\n%s", i, x.ID, x.Explain, y.Explain)
		}
	}
	return nil
}

// TestSegmentsEqualOneGo: an index opened over segments — files split at
// random into k segments, some replaced by copies in a newer segment,
// some removed — answers every question exactly as NewIndex over the
// graph of the live pages built in one go, for the polyglot fixture and a
// synthetic tree of 300 files.
func TestSegmentsEqualOneGo(t *testing.T) {
	graphs := map[string]*graph.Graph{}
	for name, snap := range map[string]*graph.Snapshot{"polyglot": polyglotSnapshot(t), "synth300": synthSnapshot(t, 300)} {
		g, err := snap.Graph()
		if err != nil {
			t.Fatal(err)
		}
		graphs[name] = g
	}
	compared := 0
	for _, name := range []string{"polyglot", "synth300"} {
		g := graphs[name]
		for _, k := range []int{1, 2, 5} {
			for _, dead := range []bool{false, true} {
				if k == 1 && dead {
					continue
				}
				t.Run(fmt.Sprintf("%s/k=%d/dead=%v", name, k, dead), func(t *testing.T) {
					up, rm := 0.0, 0.0
					if dead {
						up, rm = 0.12, 0.06
					}
					sd := splitSegments(t, g, k, uint64(k*7+len(name)), up, rm)
					ix, err := OpenSegments(sd.segs)
					if err != nil {
						t.Fatal(err)
					}
					want := NewIndex(sd.live)
					if ix.Pages() != len(sd.live.Pages) {
						t.Fatalf("%d live pages, want %d", ix.Pages(), len(sd.live.Pages))
					}
					if ix.avgLen != want.avgLen {
						t.Fatalf("mean field lengths differ:\n%v\nwant\n%v", ix.avgLen, want.avgLen)
					}
					exact := 0
					for _, sg := range ix.segs {
						if sg.exact {
							exact++
						}
					}
					if k > 1 && exact == len(ix.segs) {
						t.Fatal("every segment reads its stored impacts: the split tests nothing")
					}
					qs := segmentQuestions(sd.live, 40)
					if name == "polyglot" {
						for _, c := range rankingCases {
							qs = append(qs, struct {
								q   string
								opt Options
							}{c.q, Options{}})
						}
					}
					if len(qs) < 40 {
						t.Fatalf("only %d questions", len(qs))
					}
					for _, c := range qs {
						got := query(t, ix, c.q, c.opt)
						exp := query(t, want, c.q, c.opt)
						if err := sameResult(got, exp); err != nil {
							t.Errorf("%q (focus %v): %v", c.q, c.opt.Focus, err)
						}
						compared++
					}
				})
			}
		}
	}
	t.Logf("compared %d answers", compared)
}

// TestSegmentsDeadNeverAnswer: no page of a removed file is in any answer,
// even to a question that names it.
func TestSegmentsDeadNeverAnswer(t *testing.T) {
	g, sd, ix := synthSegments(t, 120, 3, 4, 0.1, 0.25)
	if len(sd.removed) == 0 {
		t.Fatal("nothing removed")
	}
	want := NewIndex(sd.live)
	inRemoved := func(id string) bool {
		gid, ok := groupID(id)
		return ok && sd.removed[gid]
	}
	asked := 0
	for i := range g.Pages {
		p := &g.Pages[i]
		if !inRemoved(p.ID) || p.Kind != graph.KindSymbol && p.Kind != graph.KindFile {
			continue
		}
		for _, q := range []string{p.Name, p.Path, "fix " + p.Qualified + " in " + p.Path, "`" + p.Name + "` fails"} {
			asked++
			opt := Options{BudgetTokens: MaxBudgetTokens, Focus: []string{p.Path}}
			r := query(t, ix, q, opt)
			for _, st := range r.Results {
				if inRemoved(st.ID) {
					t.Fatalf("%q: answer holds %s of a removed file", q, st.ID)
				}
			}
			if err := sameResult(r, query(t, want, q, opt)); err != nil {
				t.Fatalf("%q: %v", q, err)
			}
		}
		if id, ok := ix.lookupID(p.ID); ok && p.Kind == graph.KindFile {
			t.Fatalf("lookupID(%s) finds dead page %d", p.ID, id)
		}
	}
	if asked == 0 {
		t.Fatal("asked nothing")
	}
}

// TestSegmentNamesEqualOneGo: name lookups across segments, dead pages
// left out, equal the lookups of the live pages' table built in one go.
func TestSegmentNamesEqualOneGo(t *testing.T) {
	snap := synthSnapshot(t, 150)
	g, err := snap.Graph()
	if err != nil {
		t.Fatal(err)
	}
	sd := splitSegments(t, g, 4, 8, 0.15, 0.15)
	x := OpenNames(sd.names)
	table := buildNames(sd.live)
	var names []string
	for i := range g.Pages { // live and dead pages' names
		if p := &g.Pages[i]; p.Kind == graph.KindSymbol || p.Kind == graph.KindFile {
			names = append(names, p.Name, strings.ToUpper(p.Name), "pkg."+p.Name)
		}
	}
	names = append(names, "Context", "err", "")
	hits := 0
	for i, n := range names {
		group := names[i:min(len(names), i+3)]
		got := x.Lookup(group, 20)
		want := LookupNames(table, group, 20)
		if !slices.Equal(got, want) {
			t.Fatalf("Lookup(%q) = %v, want %v", group, got, want)
		}
		hits += len(got)
		_ = n
	}
	if hits == 0 {
		t.Fatal("no name found anything")
	}
}

// TestOpenSegmentsBadBytes: truncated or altered segments are an
// ErrBadIndex or an index that answers, never a panic.
func TestOpenSegmentsBadBytes(t *testing.T) {
	sd := splitSegments(t, testGraph(t), 2, 1, 0.3, 0.2)
	for _, s := range sd.segs {
		if _, err := OpenSegments([]SegmentData{{Engine: s.Engine}}); !errors.Is(err, ErrBadIndex) {
			t.Fatalf("a segment without its text opened: %v", err)
		}
	}
	r := rand.New(rand.NewPCG(1, 1))
	for i := range 3000 {
		segs := slices.Clone(sd.segs)
		j := r.IntN(len(segs))
		b := slices.Clone(segs[j].Engine)
		switch i % 3 {
		case 0:
			b = b[:r.IntN(len(b))]
		default:
			for range 1 + r.IntN(4) {
				b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
			}
		}
		segs[j].Engine = b
		ix, err := OpenSegments(segs)
		if err != nil {
			if !errors.Is(err, ErrBadIndex) {
				t.Fatalf("error %v is not ErrBadIndex", err)
			}
			continue
		}
		for _, q := range []string{"how are tokens counted", "parseConfig", "engine/rank.go:3", "parser: yaml"} {
			if _, err := ix.Query(context.Background(), q, Options{Explain: true, Focus: []string{"engine/pack.go"}}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestSegmentsConcurrent: concurrent first queries of a segmented index
// (impacts computed and cached, neighbour lists built, meanwhile), every
// term decoded on two cores (onHalves), answer as the same questions asked
// one at a time, each term decoded in one pass.
func TestSegmentsConcurrent(t *testing.T) {
	sd := splitSegments(t, synthGraph(3000), 3, 2, 0.1, 0.05)
	qs := segmentQuestions(sd.live, 24)
	seq, err := OpenSegments(sd.segs)
	if err != nil {
		t.Fatal(err)
	}
	oldMin, oldProcs := halvesMinBytes, runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
	t.Cleanup(func() { halvesMinBytes = oldMin; runtime.GOMAXPROCS(oldProcs) })
	halvesMinBytes = math.MaxInt
	want := make([]Result, len(qs))
	for i, c := range qs {
		want[i] = query(t, seq, c.q, c.opt)
	}
	halvesMinBytes = 0
	ix, err := OpenSegments(sd.segs)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8*len(qs))
	done := make(chan struct{})
	for w := range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			for j := range qs {
				i := (j + w*5) % len(qs)
				r, err := ix.Query(context.Background(), qs[i].q, qs[i].opt)
				if err == nil {
					err = sameResult(r, want[i])
				}
				if err != nil {
					errs <- fmt.Errorf("%q: %v", qs[i].q, err)
				}
			}
		}()
	}
	for range 8 {
		<-done
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if ix.stats.halved.Load() == 0 {
		t.Error("no term was decoded on two cores")
	}
}

// TestOpenSegmentsKeepsOnlyWhatQueriesRead: segments whose stored impacts
// stand (a full build's, reweighted under the statistics of them all)
// open without their term frequencies and page lengths, and once settled
// hold their page records compressed, without aliasing the bytes they
// were decoded from: scribbling over those bytes changes no answer.
func TestOpenSegmentsKeepsOnlyWhatQueriesRead(t *testing.T) {
	g, err := polyglotSnapshot(t).Graph()
	if err != nil {
		t.Fatal(err)
	}
	defer func(n uint32, k int) { recChunkBytes, recCacheSlots = n, k }(recChunkBytes, recCacheSlots)
	recChunkBytes, recCacheSlots = 120, 16 // chunks of a few records: the cache of decoded ones evicts
	sd := splitSegments(t, g, 4, 5, 0, 0)
	var all Stats
	for _, s := range sd.segs {
		st, err := SegmentStats(s.Engine)
		if err != nil {
			t.Fatal(err)
		}
		all.Add(st)
	}
	for i := range sd.segs {
		if sd.segs[i].Engine, err = Reweight(sd.segs[i].Engine, all); err != nil {
			t.Fatal(err)
		}
		sd.segs[i].Dead = nil
	}
	ix, err := OpenSegments(sd.segs)
	if err != nil {
		t.Fatal(err)
	}
	if st, n := ix.StoredImpacts(); st != n || n != len(sd.segs) {
		t.Fatalf("%d of %d segments read their stored impacts, want all %d", st, n, len(sd.segs))
	}
	for i, sg := range ix.segs {
		if sg.tfs != nil || sg.lens != nil || sg.tfOffRaw != nil || sg.lenOffRaw != nil {
			t.Errorf("segment %d keeps its term frequencies or page lengths", i)
		}
	}
	if _, err := ix.MarshalBinary(); err == nil && len(ix.segs) == 1 {
		t.Error("a detached index encoded")
	}
	<-ix.Warm()
	if ix.ranks() == nil || ix.idle.Load() == nil {
		t.Fatal("warm, but the ID ranks or the idle scratch are not made")
	}
	for p := range uint32(ix.n) {
		if graph.Kind(ix.kind[p]) == graph.KindFile && ix.facts[p].Load() == 0 {
			t.Fatalf("warm, but file page %d has no file fact", p)
		}
	}
	chunks := 0
	for i, sg := range ix.segs {
		v := sg.recs.Load()
		if v.chunks == nil || v.rec != nil || sg.rec != nil {
			t.Fatalf("segment %d keeps its page records as stored", i)
		}
		chunks += len(v.chunks.data)
	}
	if chunks <= recCacheSlots {
		t.Fatalf("%d chunks of records: the cache never evicts", chunks)
	}
	for _, s := range sd.segs {
		for j := range s.Engine {
			s.Engine[j] = 0xa5
		}
		for j := range s.Text {
			s.Text[j] = 0x5a
		}
	}
	want := NewIndex(sd.live)
	qs := segmentQuestions(sd.live, 40)
	for _, c := range rankingCases {
		qs = append(qs, struct {
			q   string
			opt Options
		}{c.q, Options{}})
	}
	for _, c := range qs {
		if err := sameResult(query(t, ix, c.q, c.opt), query(t, want, c.q, c.opt)); err != nil {
			t.Errorf("%q: %v", c.q, err)
		}
	}
}
