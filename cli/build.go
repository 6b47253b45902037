package cli

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
	"github.com/wikitoolkit/wikitoolkit/graph/walk"
)

// buildJSON is the `build --json` document (DESIGN.md).
type buildJSON struct {
	Mode           string      `json:"mode"`
	FilesParsed    int         `json:"files_parsed"`
	FilesUnchanged int         `json:"files_unchanged"`
	FilesRemoved   int         `json:"files_removed"`
	FilesSkipped   int         `json:"files_skipped"`
	FilesFailed    int         `json:"files_failed"`
	Pages          int         `json:"pages"`
	Edges          int         `json:"edges"`
	Seconds        float64     `json:"seconds"`
	Skipped        []walk.Skip `json:"skipped"`
	Failed         []walk.Skip `json:"failed,omitempty"`
	Generation     int         `json:"generation"`
	Index          string      `json:"index"`
	// Shared is what the build imported from the repository's .wiki/ folder.
	Shared *annotate.SharedImport `json:"shared,omitempty"`
	// Repaired says why the previous index could not be read when the
	// build therefore rebuilt it in full (a damaged index).
	Repaired string `json:"repaired,omitempty"`
	// NotIndexed counts the files left out, by extension and reason.
	NotIndexed []walk.NotIndexed `json:"not_indexed"`
	// Indexed counts the indexed files by method ("grammar", "headings",
	// "patterns", "lexical") and language.
	Indexed map[string]map[string]int `json:"indexed"`
	// DiagnosticFiles are the files with syntax diagnostics, at path:line.
	DiagnosticFiles []graph.FileDiagnostic `json:"diagnostic_files,omitempty"`
	// Walked is what the walk read with --changed: "changed" (just the
	// paths) or "tree" (the paths needed a walk of the whole tree).
	Walked string `json:"walked,omitempty"`
	// Watcher is what a server watching the index told the build:
	// "changes" when the build updated the paths it named, else why the
	// build looked at every file; absent when no server answered.
	Watcher string `json:"watcher,omitempty"`
	// ChangedLeftOut are the --changed paths that exist but that no build
	// indexes (ignored, omitted, not indexed, below a vendored or ignored
	// directory), with why.
	ChangedLeftOut []walk.Skip `json:"changed_left_out,omitempty"`
	// Phases are the seconds the build spent in each of its phases (walk,
	// parse, resolve, write, …; an incremental build also open, stats and
	// sketch before its walk): where a slow build's time went.
	Phases map[string]float64 `json:"phases,omitempty"`
}

func runBuild(e *env, args []string) error {
	fs := newFlags(e, "build")
	full := fs.Bool("full", false, "reparse every file, ignoring the previous index")
	quiet := fs.Bool("quiet", false, "no progress bar and no summary line")
	asJSON := fs.Bool("json", false, "print the summary as one JSON document")
	maxBytes := fs.Int64("max-file-bytes", walk.DefaultMaxFileBytes, "skip files larger than this (default: what the index's last build used, else the default)")
	exclude := fs.String("exclude-dirs", strings.Join(walk.DefaultExcludeDirs, ","), "vendored directory names to skip, comma-separated (default: what the index's last build used, else the default)")
	verbose := fs.Bool("verbose", false, "list every skipped file with its reason, and where the build's time went, by phase")
	changedArg := fs.String("changed", "", "update only these paths (comma-separated; - reads one a line from stdin): files or directories added, modified, deleted or renamed (both names)")
	noWatcher := fs.Bool("no-watcher", false, "look at every file's size and time even when a server watching this index could say what changed")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("build takes at most one PATH, got %d", len(pos))
	}
	root := findRoot(".")
	if len(pos) == 1 {
		root = pos[0]
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return fmt.Errorf("cannot index %s: not a directory", root)
	}
	indexDir := e.indexDir
	if indexDir == "" {
		indexDir = filepath.Join(abs, graph.IndexDirName)
	}
	var changed []string
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "changed" {
			changed = []string{} // given: nothing listed means nothing changed
		}
	})
	if changed != nil {
		if *full {
			return usagef("build: --changed and --full exclude each other: --full reparses every file")
		}
		list, err := changedList(e, *changedArg)
		if err != nil {
			return err
		}
		if changed, err = repoPaths(abs, list); err != nil {
			return err
		}
	}
	opt := wiki.BuildOptions{
		Root:     abs,
		IndexDir: indexDir,
		Full:     *full,
		Changed:  changed,
		PauseGC:  true, // the process exits after the build
		// Changed, --full and other walk options leave it out (wiki.Build).
		AskWatcher: !*noWatcher,
		Waiting: func() {
			if !*quiet {
				fmt.Fprintln(e.stderr, "wikitoolkit: another build of this index is running; waiting for it to finish")
			}
		},
	}
	// Walk options given on the command line replace the stored ones;
	// the others stay as the index's last build had them.
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "max-file-bytes":
			opt.MaxFileBytes = *maxBytes
		case "exclude-dirs":
			opt.ExcludeDirs = []string{}
			for _, d := range strings.Split(*exclude, ",") {
				if d = strings.TrimSpace(d); d != "" {
					opt.ExcludeDirs = append(opt.ExcludeDirs, d)
				}
			}
		}
	})
	if !*quiet && !*asJSON {
		opt.Progress = newBar(e)
	}
	stopProfile, err := startProfiles(e.stderr)
	if err != nil {
		return err
	}
	info, err := wiki.Build(e.ctx, opt)
	stopProfile()
	if err != nil {
		return err
	}
	pages, edges := 0, 0
	for _, n := range info.Pages {
		pages += n
	}
	for _, n := range info.Edges {
		edges += n
	}
	if *asJSON {
		skipped := info.Skipped
		if skipped == nil {
			skipped = []walk.Skip{}
		}
		walked := ""
		if changed != nil {
			walked = info.Walked
		}
		return writeJSON(e.stdout, buildJSON{Mode: info.Mode, FilesParsed: info.FilesParsed, FilesUnchanged: info.FilesUnchanged,
			FilesRemoved: info.FilesRemoved, FilesSkipped: info.FilesSkipped, FilesFailed: info.FilesFailed,
			Pages: pages, Edges: edges, Seconds: round3(info.Seconds), Skipped: skipped, Failed: info.Failed,
			Generation: info.Generation, Index: indexDir, Shared: info.Shared, Repaired: info.Repaired,
			NotIndexed: notIndexedList(info.NotIndexed), Indexed: graph.IndexedBy(info.Languages), DiagnosticFiles: info.DiagnosticFiles,
			Walked: walked, ChangedLeftOut: info.Unwalked, Watcher: info.Watcher, Phases: roundPhases(info.Phases)})
	}
	if *quiet {
		return nil
	}
	if info.Repaired != "" {
		fmt.Fprintf(e.stdout, "the previous index could not be read (%s); rebuilt it in full\n", info.Repaired)
	}
	fmt.Fprintf(e.stdout, "%s build: %d files parsed, %d unchanged, %d removed, %d skipped, %d failed; %d pages, %d edges; %.2fs\n",
		info.Mode, info.FilesParsed, info.FilesUnchanged, info.FilesRemoved, info.FilesSkipped, info.FilesFailed, pages, edges, info.Seconds)
	if info.Watcher == "changes" {
		fmt.Fprintf(e.stdout, "  changed files: as the server watching this index saw them (--no-watcher looks at every file)\n")
	} else if info.Watcher != "" && *verbose {
		fmt.Fprintf(e.stdout, "  note: looked at every file: the server watching this index could not say what changed (%s)\n", info.Watcher)
	}
	if len(info.NotIndexed) > 0 {
		fmt.Fprintf(e.stdout, "  not indexed: %s\n", walk.NotIndexedLine(info.NotIndexed, 8))
	}
	for _, s := range info.Unwalked {
		fmt.Fprintf(e.stdout, "  changed path left out %s: %s\n", s.Path, s.Reason)
	}
	if changed != nil && info.Walked == "tree" && *verbose {
		fmt.Fprintf(e.stdout, "  note: the changed paths needed a walk of the whole tree (an ignore file, a symbolic link or a git-ignored directory among them, or other walk options)\n")
	}
	if *verbose && len(info.Phases) > 0 {
		fmt.Fprintf(e.stdout, "  phases: %s\n", phaseLine(info.Phases))
	}
	if *verbose {
		for _, g := range info.NotIndexed {
			fmt.Fprintf(e.stdout, "  not indexed %d %s: %s\n", g.Files, g.Kind, g.Reason)
		}
		for _, d := range info.DiagnosticFiles {
			fmt.Fprintf(e.stdout, "  syntax %s:%d:%d: %s (%d in the file; indexed anyway)\n", d.Path, d.Line, d.Column, d.Message, d.Count)
		}
		for _, s := range info.Skipped {
			fmt.Fprintf(e.stdout, "  skipped %s: %s\n", s.Path, s.Reason)
		}
		for _, w := range info.Warnings {
			fmt.Fprintf(e.stdout, "  note: %s\n", w)
		}
	}
	if sh := info.Shared; sh != nil {
		if sh.Memories+sh.Notes > 0 {
			fmt.Fprintf(e.stdout, "  loaded %d memories and %d notes (new or changed) from %s/\n", sh.Memories, sh.Notes, annotate.SharedDirName)
		}
		for _, s := range sh.Errors {
			fmt.Fprintf(e.stdout, "  not loaded %s/%s: %s\n", annotate.SharedDirName, s.Path, s.Reason)
		}
	}
	for _, s := range info.Failed {
		fmt.Fprintf(e.stdout, "  failed %s: %s\n", s.Path, s.Reason)
	}
	if len(info.Skipped) > 0 && !*verbose {
		fmt.Fprintf(e.stdout, "  (skipped files and reasons: 'wikitoolkit build --verbose' or 'wikitoolkit status')\n")
	}
	return nil
}

// roundPhases rounds a build's phase times to the millisecond.
func roundPhases(ph map[string]float64) map[string]float64 {
	if len(ph) == 0 {
		return nil
	}
	out := make(map[string]float64, len(ph))
	for k, v := range ph {
		out[k] = round3(v)
	}
	return out
}

// phaseLine lists a build's phases, longest first: "parse 1.20 s, write
// 310 ms, …" (milliseconds under a second).
func phaseLine(ph map[string]float64) string {
	names := slices.Collect(maps.Keys(ph))
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(ph[b], ph[a]), strings.Compare(a, b)) })
	parts := make([]string, len(names))
	for i, n := range names {
		if ph[n] < 1 {
			parts[i] = fmt.Sprintf("%s %.0f ms", n, ph[n]*1000)
		} else {
			parts[i] = fmt.Sprintf("%s %.2f s", n, ph[n])
		}
	}
	return strings.Join(parts, ", ")
}

// changedList returns the paths of --changed: comma-separated, or with
// "-" one a line read from stdin (empty lines dropped).
func changedList(e *env, arg string) ([]string, error) {
	var raw []string
	if arg == "-" {
		if e.stdin == nil {
			return nil, usagef("build --changed -: no standard input to read the paths from")
		}
		b, err := io.ReadAll(e.stdin)
		if err != nil {
			return nil, fmt.Errorf("build --changed -: reading the paths from stdin: %w", err)
		}
		raw = strings.Split(string(b), "\n")
	} else {
		raw = strings.Split(arg, ",")
	}
	var out []string
	for _, p := range raw {
		if p = strings.TrimRight(p, "\r"); strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out, nil
}

// repoPaths returns paths (absolute, or relative to the current
// directory) as repo-relative slash paths of root (absolute), or an error
// naming the first one outside it. A path that exists is compared with its
// directory's symbolic links resolved, as is root, so that /tmp/x and its
// real path agree; one that is gone, by its cleaned name.
func repoPaths(root string, paths []string) ([]string, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		rel, ok := relInside(root, abs)
		if !ok {
			// The path's directory resolved (the path itself may be gone,
			// or a symbolic link that is the change).
			if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
				rel, ok = relInside(realRoot, filepath.Join(dir, filepath.Base(abs)))
			}
		}
		if !ok {
			return nil, usagef("build --changed: %s is outside the repository %s; give paths inside it (absolute, or relative to the current directory)", p, root)
		}
		out = append(out, rel)
	}
	return out, nil
}

// relInside returns abs relative to root as a slash path when it lies
// inside root ("." for root itself).
func relInside(root, abs string) (string, bool) {
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// notIndexedList is groups, never null in JSON.
func notIndexedList(groups []walk.NotIndexed) []walk.NotIndexed {
	if groups == nil {
		return []walk.NotIndexed{}
	}
	return groups
}

func round3(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }

// bar adapts schollz/progressbar to graph.Progress. It draws on stderr only
// when stderr is a terminal (the library's default writer is stdout, and it
// has no terminal detection of its own).
type bar struct {
	e   *env
	pb  *progressbar.ProgressBar
	vis bool
}

func newBar(e *env) *bar {
	vis := false
	if f, ok := e.stderr.(*os.File); ok {
		vis = term.IsTerminal(int(f.Fd())) && os.Getenv("CI") == ""
	}
	return &bar{e: e, vis: vis}
}

// Start draws the bar, a spinner while the total is -1 (not known yet).
// A second Start gives the total (a large tree's first build, once its
// walk is done): the spinner becomes a bar, counting from 0 again, as the
// build then adds what it parsed meanwhile.
func (b *bar) Start(total int) {
	if b.pb != nil {
		b.pb.ChangeMax(total)
		b.pb.Set(0)
		return
	}
	b.pb = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(b.e.stderr),
		progressbar.OptionSetVisibility(b.vis),
		progressbar.OptionSetDescription("parsing"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish())
}

func (b *bar) Add(n int) { b.pb.Add(n) }

func (b *bar) Finish() { b.pb.Finish() }
