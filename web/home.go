package web

import (
	"cmp"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
	"github.com/wikitoolkit/wikitoolkit/graph/walk"
)

// homeView is the repository at a glance.
type homeView struct {
	head
	Root                 string
	Name                 string // the root's folder name
	Generation           int
	Counts               []count // pages by kind
	Files                int
	Languages            []count
	Modules              []moduleRow
	ModulesCut           int
	TopFiles             []item
	Notes                []noteRow
	StaleNotes           []noteRow
	Memories             []item
	Build                wiki.LastBuild
	Partial              string
	NotIndexed           string
	Skipped              int
	Failed               int
	StaleFiles           int
	Building             bool
	BuildError           string
	RememberAction, CSRF string
	LinkID               string // always empty: a memory from home is about nothing
}

type count struct {
	Name string
	N    int
}

// moduleRow is one module of the tree: its depth and the files and
// symbols under it (its submodules included).
type moduleRow struct {
	Href, Name  string
	Depth       int
	Files, Syms int
}

// noteRow is a note listed on the home page.
type noteRow struct {
	Href, Page, Text, Time, State string
}

// repoStats are the home page's numbers drawn from the graph, computed once
// per generation.
type repoStats struct {
	modules  []moduleRow // every module, in path order, hrefs empty
	moduleID []string
	topFiles []string // the most referenced files, most first
	topRefs  []int    // their references from other files
}

// statsCache keeps the stats of the last generation asked.
// It is keyed by the generation's number, not its Snapshot, so that it
// never keeps a retired generation's graph alive.
type statsCache struct {
	mu    sync.Mutex
	gen   int
	stats *repoStats
}

// maxHomeDepth is the deepest module level the home tree shows (deeper
// ones are on the module pages), maxHomeModules the rows it shows at most.
const (
	maxHomeDepth   = 2
	maxHomeModules = 400
	maxTopFiles    = 15
	maxHomeNotes   = 10
)

func (c *statsCache) get(snap *graph.Snapshot) (*repoStats, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen == snap.Generation && c.stats != nil {
		return c.stats, nil
	}
	st, err := computeStats(snap)
	if err != nil {
		return nil, err
	}
	c.gen, c.stats = snap.Generation, st
	return st, nil
}

// computeStats counts files and symbols under each module and references
// into each file from other files, from the generation's counts
// (graph.Snapshot.FileCounts: one pass over the segments, not the whole
// graph).
func computeStats(snap *graph.Snapshot) (*repoStats, error) {
	mods, err := snap.ModulePaths()
	if err != nil {
		return nil, err
	}
	counts, err := snap.FileCounts()
	if err != nil {
		return nil, err
	}
	return statsOf(mods, counts), nil
}

// statsOf is the stats of the modules mods (sorted) and the files'
// counts.
func statsOf(mods []string, counts map[string]graph.FileCount) *repoStats {
	files, syms := map[string]int{}, map[string]int{}
	var top []string
	for p, fc := range counts {
		for d := path.Dir(p); ; d = path.Dir(d) {
			files[d]++
			syms[d] += fc.Symbols
			if d == "." {
				break
			}
		}
		if fc.RefsIn > 0 {
			top = append(top, p)
		}
	}
	st := &repoStats{}
	for _, m := range mods {
		depth := 0
		if m != "." {
			depth = strings.Count(m, "/") + 1
		}
		st.modules = append(st.modules, moduleRow{Name: m, Depth: depth, Files: files[m], Syms: syms[m]})
		st.moduleID = append(st.moduleID, graph.ModuleID(m))
	}
	slices.SortFunc(top, func(a, b string) int {
		return cmp.Or(cmp.Compare(counts[b].RefsIn, counts[a].RefsIn), cmp.Compare(a, b))
	})
	st.topFiles = top[:min(len(top), maxTopFiles)]
	for _, p := range st.topFiles {
		st.topRefs = append(st.topRefs, counts[p].RefsIn)
	}
	return st
}

// buildHome assembles the home page of generation g.
func (s *Server) buildHome(g *wiki.Gen, a *annotate.Annotations, l links) (*homeView, error) {
	st, err := s.stats.get(g.Snap)
	if err != nil {
		return nil, err
	}
	tops := make([]string, len(st.topFiles))
	for i, p := range st.topFiles {
		tops[i] = graph.FileID(p)
	}
	gr, _ := g.Snap.Neighbourhood(nil, tops...) // the listed files' pages
	info := g.Snap.Info()
	v := &homeView{head: s.head(l, "wiki"), Root: s.live.Root(g), Generation: g.Snap.Generation, Files: info.Files,
		Skipped: len(info.Skipped), Failed: len(info.Failed)}
	v.Name = filepath.Base(v.Root)
	v.head.Title = v.Name + " · wiki"
	for _, k := range []string{"module", "file", "symbol", "doc"} {
		v.Counts = append(v.Counts, count{k, info.Pages[k]})
	}
	if a != nil {
		v.Counts = append(v.Counts, count{"memory", len(a.Memories())})
	}
	for name, n := range info.Languages {
		v.Languages = append(v.Languages, count{name, n})
	}
	slices.SortFunc(v.Languages, func(a, b count) int { return cmp.Or(cmp.Compare(b.N, a.N), cmp.Compare(a.Name, b.Name)) })
	for i, m := range st.modules {
		if m.Depth > maxHomeDepth {
			continue
		}
		if len(v.Modules) == maxHomeModules {
			v.ModulesCut++
			continue
		}
		m.Href = l.page(st.moduleID[i])
		if m.Name == "." {
			m.Name = "(root)"
		} else {
			m.Name = path.Base(m.Name)
		}
		v.Modules = append(v.Modules, m)
	}
	pl := wiki.PlaceAnnotations(g.Snap, a)
	for i, p := range st.topFiles {
		it := describe(gr, pl, graph.FileID(p), l)
		it.Kind, it.Where = "", fmt.Sprintf("%d refs", st.topRefs[i])
		v.TopFiles = append(v.TopFiles, it)
	}
	if pl != nil {
		notes := slices.Clone(pl.AllNotes())
		slices.SortStableFunc(notes, func(a, b annotate.PlacedNote) int { return b.Time.Compare(a.Time) })
		for _, n := range notes {
			row := noteRow{Page: n.ShownOn, Text: clip(n.Text, 200), Time: n.Time.Local().Format("2006-01-02 15:04"), State: n.State.String()}
			if n.State != annotate.StateOrphan {
				row.Href = l.page(n.ShownOn)
			}
			if n.State != annotate.StateFresh && len(v.StaleNotes) < maxHomeNotes*2 {
				v.StaleNotes = append(v.StaleNotes, row)
			}
			if len(v.Notes) < maxHomeNotes {
				v.Notes = append(v.Notes, row)
			}
		}
		mems := slices.Clone(pl.Memories())
		slices.SortStableFunc(mems, func(a, b annotate.PlacedMemory) int { return b.Created.Compare(a.Created) })
		for _, m := range mems[:min(len(mems), maxHomeNotes)] {
			it := describe(gr, pl, m.ID(), l)
			it.Where = m.Created.Local().Format("2006-01-02")
			if d := m.Describe(m.Created); d != "" {
				it.Where += " · " + d
			}
			v.Memories = append(v.Memories, it)
		}
	}
	v.Build = wiki.LastBuild{Time: info.Started.Local().Format(time.DateTime), Seconds: info.Seconds, Mode: info.Mode,
		FilesParsed: info.FilesParsed, FilesUnchanged: info.FilesUnchanged, FilesRemoved: info.FilesRemoved}
	if p := wiki.PartialOf(g.Snap); p != nil {
		v.Partial = strings.TrimSpace(wiki.PartialLine(p))
	}
	if len(info.NotIndexed) > 0 {
		v.NotIndexed = walk.NotIndexedLine(info.NotIndexed, 12)
	}
	if !l.export {
		f := s.live.Freshness()
		v.StaleFiles, v.Building, v.BuildError = f.StaleCount, f.Building, f.BuildError
		v.RememberAction, v.CSRF = "/remember", s.csrf
	}
	return v, nil
}
