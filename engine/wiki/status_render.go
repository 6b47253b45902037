package wiki

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/walk"
)

// maxSkippedShown caps the skipped files the status text lists.
const maxSkippedShown = 50

// RenderStatus writes the status as text.
func RenderStatus(w *strings.Builder, st *Status) {
	fmt.Fprintf(w, "index      %s (generation %d, %s on disk for %s of source)\n", st.Index, st.Generation, HumanBytes(st.IndexBytes), HumanBytes(st.SourceBytes))
	if len(st.IndexParts) > 0 {
		names := slices.Sorted(maps.Keys(st.IndexParts))
		slices.SortStableFunc(names, func(a, b string) int { return cmp.Compare(st.IndexParts[b], st.IndexParts[a]) })
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = n + " " + HumanBytes(st.IndexParts[n])
		}
		fmt.Fprintf(w, "           %s\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "root       %s\n", st.Root)
	if p := st.Partial; p != nil {
		what := thousands(p.Files) + " of " + thousands(p.Total) + " files indexed so far"
		if p.Total <= 0 { // published before the walk of the tree was done
			what = thousands(p.Files) + " files indexed so far, the rest of the tree not listed yet"
		}
		fmt.Fprintf(w, "partial    %s: the first build is running or stopped (answers cover those; 'wikitoolkit build' completes it)\n", what)
	}
	fmt.Fprintf(w, "last build %s, %s, %.2fs (%d parsed, %d unchanged, %d removed)\n", st.LastBuild.Time, st.LastBuild.Mode, st.LastBuild.Seconds,
		st.LastBuild.FilesParsed, st.LastBuild.FilesUnchanged, st.LastBuild.FilesRemoved)
	fmt.Fprintf(w, "pages      %s\n", CountsLine(st.Pages, []string{"module", "file", "symbol", "doc", "memory"}))
	fmt.Fprintf(w, "edges      %s\n", CountsLine(st.Edges, []string{"contains", "references", "imports", "relates", graph.LooseEdges}))
	fmt.Fprintf(w, "files      %d: %s\n", st.Files, CountsLine(st.Languages, nil))
	if len(st.NotIndexed) > 0 {
		fmt.Fprintf(w, "not indexed %s\n", walk.NotIndexedLine(st.NotIndexed, 12))
	}
	if st.Diagnostics > 0 {
		fmt.Fprintf(w, "syntax     %d diagnostics in parsed files (indexed anyway)\n", st.Diagnostics)
		for i, d := range st.DiagnosticFiles {
			if i == 10 {
				fmt.Fprintf(w, "  … %d more files\n", len(st.DiagnosticFiles)-10)
				break
			}
			fmt.Fprintf(w, "  %s:%d: %s\n", d.Path, d.Line, d.Message)
		}
	}
	switch {
	case st.StaleFiles > 0 && st.Building:
		fmt.Fprintf(w, "stale      %d files changed since the build; refreshing now\n", st.StaleFiles)
	case st.StaleFiles > 0:
		fmt.Fprintf(w, "stale      %d files changed since the build; run 'wikitoolkit build'\n", st.StaleFiles)
	default:
		fmt.Fprintln(w, "stale      none")
	}
	if st.BuildError != "" {
		fmt.Fprintf(w, "refresh    failed: %s\n", st.BuildError)
	}
	switch st.Watching {
	case "":
	case WatchPartial:
		fmt.Fprintf(w, "watching   partial: file watches ran out; saved files are noticed at once in the %d of %d directories whose files changed last, in the others by a check every %s (the server's log says how to raise the limit)\n",
			st.WatchedDirs, st.Dirs, pollText(st.PollSeconds))
	case WatchPolling:
		fmt.Fprintf(w, "watching   polling: file watches ran out, changed files are looked for every %s (the server's log says why)\n", pollText(st.PollSeconds))
	case WatchOff:
		fmt.Fprintln(w, "watching   off: changed files are noticed when a tool is called")
	default:
		fmt.Fprintf(w, "watching   %s: saved files are noticed at once\n", st.Watching)
	}
	fmt.Fprintf(w, "notes      %d on %d pages", st.Notes, st.NotedPages)
	if st.OrphanNotes > 0 {
		fmt.Fprintf(w, " (%d on pages that no longer exist, kept: %s)", st.OrphanNotes, strings.Join(st.Orphans, ", "))
	}
	fmt.Fprintln(w)
	if n := st.StaleNotes + st.StaleMemories; n > 0 {
		fmt.Fprintf(w, "           %d notes and %d memories possibly stale (their code changed): check them, then confirm with 'wikitoolkit note --confirm ID'\n",
			st.StaleNotes, st.StaleMemories)
	}
	if n := st.MovedNotes + st.MovedMemories; n > 0 {
		fmt.Fprintf(w, "           %d notes and %d memories followed a renamed or moved symbol\n", st.MovedNotes, st.MovedMemories)
	}
	if st.OrphanMemories > 0 {
		fmt.Fprintf(w, "           %d memories link to pages that no longer exist (kept)\n", st.OrphanMemories)
	}
	if st.Hook.Events > 0 {
		fmt.Fprintf(w, "bypass     %d searches with Grep/Glob/grep instead of the wiki (last %s)\n", st.Hook.Events, st.Hook.Last)
	}
	if len(st.Skipped) > 0 {
		fmt.Fprintf(w, "skipped    %d\n", len(st.Skipped))
		for i, s := range st.Skipped {
			if i == maxSkippedShown {
				fmt.Fprintf(w, "  … %d more\n", len(st.Skipped)-maxSkippedShown)
				break
			}
			fmt.Fprintf(w, "  %s: %s\n", s.Path, s.Reason)
		}
	}
	for _, s := range st.Failed {
		fmt.Fprintf(w, "failed     %s: %s\n", s.Path, s.Reason)
	}
}

// pollText is a poll period of secs seconds as status prints it.
func pollText(secs float64) string {
	if secs <= 0 {
		secs = pollEvery.Seconds()
	}
	return (time.Duration(secs*10) * time.Second / 10).String()
}
