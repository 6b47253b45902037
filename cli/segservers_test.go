package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/benchmarks/synth"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
)

// TestTwoServersDuringSegmentedBuilds runs two `wikitoolkit mcp` stdio
// servers on one index of a tree cut into segments of at most 40 files
// (WIKITOOLKIT_SEGMENT_FILES: about ten segments, deltas of up to four
// files, merges every few builds; its module pages in shards of 16) while twelve `wikitoolkit build`
// processes run one after another, each after edits, an added file and
// a removed one. Both servers answer wiki_query without an error all the
// while, and at the end both find the last edit's function and no longer
// find the function of the file removed last.
func TestTwoServersDuringSegmentedBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes; skipped with -short")
	}
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "40")
	t.Setenv("WIKITOOLKIT_MODULE_SHARD_PAGES", "16") // the module pages in shards too
	repo := t.TempDir()
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	if _, err := synth.Write(repo, synth.Options{Files: 300, Seed: 17}); err != nil {
		t.Fatal(err)
	}
	runJSON(t, repo, new(buildJSON), "build", "--json")
	index := filepath.Join(repo, ".wikitoolkit")
	if m := graphtest.LiveManifest(t, index); m.FileSegments() < 5 || m.ModuleSegments() < 5 {
		t.Fatalf("the first build wrote %d file segments and %d modules segments, want at least 5 of each", m.FileSegments(), m.ModuleSegments())
	}
	servers := []*sdk.ClientSession{logClient(t, repo, "0"), logClient(t, repo, "1")}
	defer func() {
		for _, s := range servers {
			s.Close()
		}
	}()

	const builds = 12
	var done atomic.Bool
	var calls [2]atomic.Int64
	errs := make(chan string, 1000)
	var wg sync.WaitGroup
	questions := []string{"validate order", "retry policy", "parse user records", "schedule payment", "render invoice view"}
	for si, cs := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !done.Load() || i < 5; i++ {
				q := questions[i%len(questions)]
				res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "wiki_query", Arguments: map[string]any{"question": q}})
				var e string
				switch {
				case err != nil:
					e = fmt.Sprintf("server %d query %q: %v", si, q, err)
				case res.IsError:
					e = fmt.Sprintf("server %d query %q: %s", si, q, toolText(res))
				case !strings.Contains(toolText(res), "file:") && !strings.Contains(toolText(res), "symbol:"):
					e = fmt.Sprintf("server %d query %q: no results: %s", si, q, toolText(res))
				}
				if e != "" {
					select {
					case errs <- e:
					default: // enough reported; never block the loop
					}
				}
				calls[si].Add(1)
			}
		}()
	}
	var lastGo []string
	filepath.WalkDir(filepath.Join(repo, "services"), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".go") {
			rel, _ := filepath.Rel(repo, p)
			lastGo = append(lastGo, filepath.ToSlash(rel))
		}
		return err
	})
	segs := map[int]bool{}
	for r := range builds {
		// Edit two files, add one, remove the one added two rounds ago.
		for _, rel := range []string{lastGo[(7*r)%len(lastGo)], lastGo[(7*r+3)%len(lastGo)]} {
			b, err := os.ReadFile(filepath.Join(repo, rel))
			if err != nil {
				t.Fatal(err)
			}
			writeLaterFile(t, repo, rel, fmt.Sprintf("%s\n// SegEdit%d is added in round %d.\nfunc SegEdit%d() int { return %d }\n", b, r, r, r, r))
		}
		writeLaterFile(t, repo, fmt.Sprintf("added/a%d/add.go", r), fmt.Sprintf("// Package a%d is added in round %d.\npackage a%d\n\n// SegAdded%d is new.\nfunc SegAdded%d() int { return %d }\n", r, r, r, r, r, r))
		if r >= 2 {
			if err := os.RemoveAll(filepath.Join(repo, fmt.Sprintf("added/a%d", r-2))); err != nil {
				t.Fatal(err)
			}
		}
		if _, e, code := run(t, repo, "build", "--quiet"); code != 0 {
			t.Errorf("build %d: exit %d: %s", r, code, e)
		}
		for _, id := range graphtest.LiveSegments(t, index) {
			segs[id] = true
		}
	}
	done.Store(true)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	t.Logf("%d and %d queries answered during %d builds; %d segments were live at some point", calls[0].Load(), calls[1].Load(), builds, len(segs))
	if calls[0].Load() < builds || calls[1].Load() < builds {
		t.Errorf("the servers answered %d and %d queries: too few to have overlapped the builds", calls[0].Load(), calls[1].Load())
	}
	last, gone := fmt.Sprintf("SegEdit%d", builds-1), fmt.Sprintf("SegAdded%d", builds-3)
	for i, cs := range servers {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "wiki_query", Arguments: map[string]any{"question": last}})
		if err != nil || res.IsError || !strings.Contains(toolText(res), "#"+last) {
			t.Errorf("server %d does not see the last edit (%s): %v %s", i, last, err, toolText(res))
		}
		res, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "wiki_query", Arguments: map[string]any{"question": gone}})
		if err != nil || res.IsError || strings.Contains(toolText(res), "#"+gone) {
			t.Errorf("server %d still finds %s of a removed file: %v %s", i, gone, err, toolText(res))
		}
	}
}

// logClient is mcpClient with the server's stderr in a file of the test's
// log directory (WIKITOOLKIT_TEST_LOGS, else a temporary one).
func logClient(t *testing.T, repo, name string) *sdk.ClientSession {
	t.Helper()
	dir := os.Getenv("WIKITOOLKIT_TEST_LOGS")
	if dir == "" {
		dir = t.TempDir()
	}
	f, err := os.Create(filepath.Join(dir, "server"+name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	cmd := exec.Command(binPath, "mcp")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "WIKITOOLKIT_INDEX=")
	cmd.Stderr = f
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}
