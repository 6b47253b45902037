package wiki

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
	"github.com/wikitoolkit/wikitoolkit/graph/walk"
	"github.com/wikitoolkit/wikitoolkit/parser"
)

// BuildOptions are what a build may be given. The walk options
// (MaxFileBytes, ExcludeDirs) left unset are those the index's last build
// used (stored in the index folder, WalkSettingsName), or the defaults for
// a new index; set ones replace the stored ones from this build on.
type BuildOptions struct {
	Root     string // repository root
	IndexDir string // index directory; "" → Root/.wikitoolkit
	Full     bool   // reparse every file
	// MaxFileBytes skips larger files; 0 keeps the stored value.
	MaxFileBytes int64
	// ExcludeDirs are directory names skipped at any depth; nil keeps the
	// stored list, an empty non-nil slice excludes nothing.
	ExcludeDirs []string
	Progress    graph.Progress
	Waiting     func() // called once if another build holds the lock
	// Changed, when not nil, names every path that may have changed since
	// the live generation (graph.BuildOptions.Changed): the build walks
	// just them. Nil: the paths the context carries (WithChanged, which is
	// how the watcher hands them to LiveOptions.Build), else the whole tree.
	Changed []string
	// PauseGC is graph.BuildOptions.PauseGC: set by a short-lived process
	// (the CLI's build), never by the server.
	PauseGC bool
	// AskWatcher, for a build in another process than the server's (the
	// CLI's), asks a server watching the index what changed since the
	// last build that asked (journal.go) instead of looking at every file,
	// when it can vouch for its answer; Changed, other walk options and
	// Full leave it out.
	AskWatcher bool
}

// changedKey is the context key of WithChanged.
type changedKey struct{}

// WithChanged returns ctx carrying the paths a watcher saw change, for the
// Build it is given to (BuildOptions.Changed).
func WithChanged(ctx context.Context, paths []string) context.Context {
	return context.WithValue(ctx, changedKey{}, paths)
}

// changedOf returns the paths ctx carries (WithChanged), or nil.
func changedOf(ctx context.Context) []string {
	paths, _ := ctx.Value(changedKey{}).([]string)
	return paths
}

// WalkSettings are the walk options a build was made with, stored in the
// index folder so that every later build (the CLI's or a server's refresh)
// and the freshness check walk the same files.
type WalkSettings struct {
	MaxFileBytes int64    `json:"max_file_bytes"`
	ExcludeDirs  []string `json:"exclude_dirs"`
}

// WalkSettingsName is the file in the index folder holding the
// WalkSettings of the last build.
const WalkSettingsName = "build-options.json"

// DefaultWalkSettings are a new index's walk options.
func DefaultWalkSettings() WalkSettings {
	return WalkSettings{MaxFileBytes: walk.DefaultMaxFileBytes, ExcludeDirs: slices.Clone(walk.DefaultExcludeDirs)}
}

// LoadWalkSettings returns the walk options stored in indexDir, or the
// defaults when none are stored (or the file cannot be read).
func LoadWalkSettings(indexDir string) WalkSettings {
	ws := DefaultWalkSettings()
	b, err := os.ReadFile(filepath.Join(indexDir, WalkSettingsName))
	if err != nil {
		return ws
	}
	var st WalkSettings
	if json.Unmarshal(b, &st) != nil {
		return ws
	}
	if st.MaxFileBytes > 0 {
		ws.MaxFileBytes = st.MaxFileBytes
	}
	if st.ExcludeDirs != nil {
		ws.ExcludeDirs = st.ExcludeDirs
	}
	return ws
}

// WalkOptions are the graph walk options of these settings: the shared
// notes folder (annotate.SharedDirName) is omitted, as its files are pages
// already.
func (ws WalkSettings) WalkOptions() walk.Options {
	dirs := ws.ExcludeDirs
	if dirs == nil {
		dirs = []string{}
	}
	return walk.Options{MaxFileBytes: ws.MaxFileBytes, ExcludeDirs: dirs, Detect: parser.Detect, Reason: parser.NotIndexedReason,
		OmitPaths: []string{annotate.SharedDirName}}
}

func saveWalkSettings(indexDir string, ws WalkSettings) error {
	b, err := json.MarshalIndent(ws, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(indexDir, WalkSettingsName)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// BuildResult is what a build did: the graph build's BuildInfo, and the
// import of the shared folder when the build ran one.
type BuildResult struct {
	*graph.BuildInfo
	Shared *annotate.SharedImport
	// Watcher says what a server watching the index told the build
	// (AskWatcher): "changes" when its paths were the build's, else why
	// the build looked at every file ("" when no server answered).
	Watcher string
}

// Build indexes the repository: under the index's build lock it imports the
// shared folder's new and changed notes and memories
// (annotate.ImportSharedIfChanged), builds the graph and the ranking index
// stored beside it (graph.Build with engine.BuildBlobs) and, when that
// wrote a generation, stamps the anchors it broke (annotate.StampAnchors).
// It never deletes notes or memories. Both front ends build through it:
// `wikitoolkit build` and the server's refresh. The walk options it used
// are stored for the next build.
func Build(ctx context.Context, opt BuildOptions) (*BuildResult, error) {
	root, err := filepath.Abs(opt.Root)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("cannot index %s: not a directory", root)
	}
	indexDir := opt.IndexDir
	if indexDir == "" {
		indexDir = filepath.Join(root, graph.IndexDirName)
	}
	ws := LoadWalkSettings(indexDir)
	stored := ws
	if opt.MaxFileBytes > 0 {
		ws.MaxFileBytes = opt.MaxFileBytes
	}
	if opt.ExcludeDirs != nil {
		ws.ExcludeDirs = opt.ExcludeDirs
	}
	changed := opt.Changed
	if changed == nil {
		changed = changedOf(ctx)
	}
	if ws.MaxFileBytes != stored.MaxFileBytes || !slices.Equal(ws.ExcludeDirs, stored.ExcludeDirs) {
		changed = nil // other walk options: files anywhere may come or go
	}
	lock, err := graph.LockBuild(indexDir, opt.Waiting)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	shared := annotate.ImportSharedIfChanged(indexDir, annotate.SharedDir(root))
	// A server watching the tree may know what changed (journal.go).
	var ask struct {
		next, git, said string // the token for the next build, git's stamps, what the server said
	}
	if opt.AskWatcher && !opt.Full && changed == nil && ws.MaxFileBytes == stored.MaxFileBytes && slices.Equal(ws.ExcludeDirs, stored.ExcludeDirs) {
		if git, ok := gitStamps(root); ok {
			gen, _ := graph.CurrentGeneration(indexDir)
			kept, why := readWatchToken(indexDir, root, gen)
			if ans, err := askWatcher(ctx, indexDir, kept.Token); err == nil && ans.Token != "" {
				switch {
				case ans.Root != root || ans.Options != walkKey(ws):
					ask.said = "the server watches another root or with other walk options"
				case kept.Token == "":
					ask.next, ask.git, ask.said = ans.Token, git, why
				case ans.Walk != "":
					ask.next, ask.git, ask.said = ans.Token, git, ans.Walk
				default:
					ask.next, ask.git, ask.said = ans.Token, git, "changes"
					// The file links too: their targets' changes have no
					// event at them.
					changed = append(append([]string{}, ans.Paths...), kept.Links...)
				}
			} else if err == nil {
				ask.said = ans.Walk
			}
		}
	}
	info, err := graph.Build(ctx, graph.BuildOptions{
		Root:        root,
		IndexDir:    indexDir,
		Full:        opt.Full,
		Walk:        ws.WalkOptions(),
		Progress:    opt.Progress,
		Changed:     changed,
		Lock:        lock,
		Segment:     engine.BuildBlobs,
		Weigh:       engine.Weighed,
		BlobsFormat: engine.Format,
		PauseGC:     opt.PauseGC,
	})
	if err != nil {
		return nil, err
	}
	if info.FilesParsed > 0 || info.FilesRemoved > 0 {
		// Best effort: without a stamp a reader dates a change by this build.
		_ = annotate.StampAnchors(indexDir, func() (graph.PageSource, func(), error) {
			snap, err := graph.OpenSnapshot(indexDir)
			if err != nil {
				return nil, nil, err
			}
			return snap, func() { snap.Close() }, nil
		}, info.Started)
	}
	if err := saveWalkSettings(indexDir, ws); err != nil {
		info.Warnings = append(info.Warnings, fmt.Sprintf("the build options were not saved (%v); the next build uses the defaults unless given them again", err))
	}
	switch {
	case info.DirLink:
		// Below a directory link a change makes no event where the
		// server watches: every later build looks at every file, until
		// one meets no such link.
		writeWatchToken(indexDir, watchToken{Generation: info.Generation, DirLinks: true})
	case ask.next != "" && info.Mode != "partial":
		// The links met are the tree's: a build of the server's paths
		// walked the links kept too.
		writeWatchToken(indexDir, watchToken{Token: ask.next, Generation: info.Generation, Git: ask.git, Links: info.Links})
	}
	return &BuildResult{BuildInfo: info, Shared: shared, Watcher: ask.said}, nil
}
