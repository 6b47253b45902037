package wiki

import (
	"bufio"
	"context"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
	"github.com/wikitoolkit/wikitoolkit/graph/walk"
)

// Status is the health of an index, as `status --json` and wiki_status show it.
type Status struct {
	Index      string         `json:"index"`
	Root       string         `json:"root"`
	Generation int            `json:"generation"`
	Pages      map[string]int `json:"pages"`
	Edges      map[string]int `json:"edges"`
	Files      int            `json:"files"`
	Languages  map[string]int `json:"languages"`
	LastBuild  LastBuild      `json:"last_build"`
	StaleFiles int            `json:"stale_files"`
	Stale      []string       `json:"stale,omitempty"`
	IndexBytes int64          `json:"index_bytes"`
	// IndexParts splits the stored bytes by part: "engine" (ranking
	// index), "text" (page text the ranking index and the graph share),
	// "graph" (the rest of pages, and edges), "facts" (for incremental
	// builds), "names" (the hook's name index), "meta".
	IndexParts  map[string]int64 `json:"index_parts"`
	SourceBytes int64            `json:"source_bytes"`
	Skipped     []walk.Skip      `json:"skipped"`
	// NotIndexed counts the files the last build left out, by extension
	// and reason; Indexed the indexed files by method and language.
	NotIndexed []walk.NotIndexed         `json:"not_indexed"`
	Indexed    map[string]map[string]int `json:"indexed"`
	// DiagnosticFiles are the files with syntax diagnostics, at path:line.
	DiagnosticFiles []graph.FileDiagnostic `json:"diagnostic_files,omitempty"`
	Failed          []walk.Skip            `json:"failed,omitempty"`
	Diagnostics     int                    `json:"diagnostics"`
	Notes           int                    `json:"notes"`
	NotedPages      int                    `json:"noted_pages"`
	OrphanNotes     int                    `json:"orphan_notes"`
	Orphans         []string               `json:"orphans,omitempty"`
	// StaleNotes are possibly stale (their page's code changed since they
	// were written or confirmed); MovedNotes followed a renamed or moved
	// symbol. The Memories counts are the same for memories with a link.
	StaleNotes     int        `json:"stale_notes"`
	MovedNotes     int        `json:"moved_notes"`
	StaleMemories  int        `json:"stale_memories"`
	MovedMemories  int        `json:"moved_memories"`
	OrphanMemories int        `json:"orphan_memories"`
	Hook           HookEvents `json:"bypass"` // the searches the hook saw bypass the wiki
	Building       bool       `json:"building,omitempty"`
	BuildError     string     `json:"build_error,omitempty"`
	// Watching is how a running server notices saved files: "fsnotify",
	// "partial" (file watches ran out: the directories whose files
	// changed last are watched, the tree is checked for the others every
	// PollSeconds), "polling" (no file watch could be had: the tree is
	// checked every PollSeconds) or "off"; empty outside a server.
	Watching string `json:"watching,omitempty"`
	// WatchedDirs of Dirs directories are watched ("partial").
	WatchedDirs int `json:"watched_dirs,omitempty"`
	Dirs        int `json:"dirs,omitempty"`
	// PollSeconds is the period of the checks of the whole tree while
	// polling ("partial", "polling"): longer on a tree whose check takes
	// long.
	PollSeconds float64 `json:"poll_seconds,omitempty"`
	// Partial is set when the live generation is partial: a first build
	// running (or stopped) has indexed Files of Total files so far.
	Partial *engine.Partial `json:"partial,omitempty"`
}

// LastBuild summarises the build that wrote the live generation.
type LastBuild struct {
	Time           string  `json:"time"`
	Seconds        float64 `json:"seconds"`
	Mode           string  `json:"mode"`
	FilesParsed    int     `json:"files_parsed"`
	FilesUnchanged int     `json:"files_unchanged"`
	FilesRemoved   int     `json:"files_removed"`
}

// HookEvents counts the hook calls: the searches agents ran with their own
// tools (Grep, Glob, grep/rg/find in Bash) instead of the wiki, as the
// Claude Code hook recorded them.
type HookEvents struct {
	Events int    `json:"events"`
	Last   string `json:"last,omitempty"`
}

// StatusOptions say how CollectStatus finds stale files.
type StatusOptions struct {
	// Stale, when non-nil, supplies stale files (from a server's background
	// check) instead of stat'ing every indexed file.
	Stale func() (paths []string, n int, ok bool)
	// Walk are the walk options of the builds (what Stale's check uses),
	// for the check CollectStatus runs itself: graph.Snapshot.Changes.
	Walk walk.Options
}

// CollectStatus reports on snap, the authored data a (may be nil) and the
// hook's bypass log.
func CollectStatus(snap *graph.Snapshot, a *annotate.Annotations, opt StatusOptions) (*Status, error) {
	info := snap.Info()
	st := &Status{Index: snap.Dir, Root: info.Root, Generation: snap.Generation, Pages: maps.Clone(info.Pages), Edges: maps.Clone(info.Edges),
		Files: info.Files, Languages: info.Languages, IndexBytes: snap.SizeBytes(), IndexParts: snap.PartSizes(), SourceBytes: info.SourceBytes,
		Skipped: info.Skipped, Failed: info.Failed, Diagnostics: info.Diagnostics,
		LastBuild: LastBuild{Time: info.Started.Local().Format(time.RFC3339), Seconds: round3(info.Seconds), Mode: info.Mode,
			FilesParsed: info.FilesParsed, FilesUnchanged: info.FilesUnchanged, FilesRemoved: info.FilesRemoved}}
	st.Partial = PartialOf(snap)
	if st.Skipped == nil {
		st.Skipped = []walk.Skip{}
	}
	st.NotIndexed, st.Indexed, st.DiagnosticFiles = info.NotIndexed, graph.IndexedBy(info.Languages), info.DiagnosticFiles
	if st.NotIndexed == nil {
		st.NotIndexed = []walk.NotIndexed{}
	}
	done := false
	if opt.Stale != nil {
		var paths []string
		paths, st.StaleFiles, done = opt.Stale()
		st.Stale = paths
	}
	if !done {
		c, err := snap.Changes(context.Background(), info.Root, opt.Walk)
		if err != nil {
			return nil, err
		}
		paths := c.Paths()
		st.StaleFiles, st.Stale = len(paths), paths[:min(len(paths), maxStaleListed)]
	}
	if a != nil {
		if st.Pages == nil {
			st.Pages = map[string]int{}
		}
		st.Pages["memory"] = len(a.Memories())
		st.Notes, st.NotedPages = a.NoteCount()
		r := PlaceAnnotations(snap, a)
		seen := map[string]bool{}
		for _, n := range r.AllNotes() {
			if n.State == annotate.StateOrphan && !seen[n.PageID] {
				seen[n.PageID] = true
				if len(st.Orphans) < maxStaleListed {
					st.Orphans = append(st.Orphans, n.PageID)
				}
			}
		}
		st.OrphanNotes, st.StaleNotes, st.MovedNotes = r.NoteCount(annotate.StateOrphan), r.NoteCount(annotate.StateStale), r.NoteCount(annotate.StateMoved)
		st.StaleMemories, st.MovedMemories, st.OrphanMemories = r.MemoryCount(annotate.StateStale), r.MemoryCount(annotate.StateMoved), r.MemoryCount(annotate.StateOrphan)
		if st.Edges != nil {
			n := 0
			for _, m := range a.Memories() {
				if m.Link != "" {
					n++
				}
			}
			st.Edges["relates"] += n
		}
	}
	st.Hook = ReadHookEvents(snap.Dir)
	return st, nil
}

func round3(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }

// HookLogName is the file in the index directory where the hook records
// each bypassing search, one JSON line per event.
const HookLogName = "hook.log"

// ReadHookEvents counts the hook's recorded events.
func ReadHookEvents(indexDir string) HookEvents {
	var b HookEvents
	for _, name := range []string{HookLogName + ".1", HookLogName} {
		f, err := os.Open(filepath.Join(indexDir, name))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if len(sc.Bytes()) > 0 {
				b.Events++
			}
		}
		f.Close()
		if fi, err := os.Stat(filepath.Join(indexDir, name)); err == nil && b.Events > 0 {
			b.Last = fi.ModTime().Local().Format(time.RFC3339)
		}
	}
	return b
}
