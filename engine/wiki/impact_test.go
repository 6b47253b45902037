package wiki

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// impactTree is a Go module whose call chain is Base ← Mid ← Top ← Main,
// with 40 callers of Wide (over the cap of one level), a test calling
// Mid, and an Unrelated function with a same-named method elsewhere.
func impactTree() map[string]string {
	var wide strings.Builder
	wide.WriteString("package wide\n\nimport \"example.com/m/core\"\n")
	for i := range 40 {
		fmt.Fprintf(&wide, "\n// W%02d calls Wide.\nfunc W%02d() int { return core.Wide() }\n", i, i)
	}
	return map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"core/core.go": `package core

// Base is at the bottom.
func Base() int {
	return 1
}

// Wide has many callers.
func Wide() int { return 2 }

// Unrelated is called by no one.
func Unrelated() int { return 3 }
`,
		"mid/mid.go": `package mid

import "example.com/m/core"

// Mid calls Base.
func Mid() int {
	return core.Base() + 1
}
`,
		"top/top.go": `package top

import "example.com/m/mid"

// Top calls Mid.
func Top() int {
	return mid.Mid() * 2
}
`,
		"app/main.go": `package main

import "example.com/m/top"

func main() {
	println(top.Top())
}
`,
		"mid/mid_test.go": `package mid

import "testing"

func TestMid(t *testing.T) {
	if Mid() != 2 {
		t.Fatal("mid")
	}
}
`,
		"wide/wide.go": wide.String(),
	}
}

func buildImpactTree(t *testing.T, root string) *graph.Snapshot {
	t.Helper()
	if _, err := Build(context.Background(), BuildOptions{Root: root}); err != nil {
		t.Fatal(err)
	}
	return graphtest.Open(t, filepath.Join(root, graph.IndexDirName))
}

func ids(ps []ImpactPage) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

// TestImpactDepths: referrers come level by level (Mid, then Top, then
// main), the test apart, nothing past the asked depth but its count, and
// a level over the cap counted in full.
func TestImpactDepths(t *testing.T) {
	root := t.TempDir()
	walktest.WriteTree(t, root, impactTree())
	snap := buildImpactTree(t, root)

	im, err := ImpactOf(snap, "core.Base", "", ImpactOptions{Depth: 2, BudgetTokens: 4000})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(im.Targets.Pages); !slices.Equal(got, []string{"symbol:core/core.go#Base"}) {
		t.Fatalf("targets %v", got)
	}
	if len(im.Levels) != 2 {
		t.Fatalf("levels %+v", im.Levels)
	}
	if got := ids(im.Levels[0].Pages); !slices.Equal(got, []string{"symbol:mid/mid.go#Mid"}) || im.Levels[0].Total != 1 {
		t.Errorf("depth 1 %v (total %d)", got, im.Levels[0].Total)
	}
	if got := ids(im.Levels[1].Pages); !slices.Equal(got, []string{"symbol:top/top.go#Top"}) {
		t.Errorf("depth 2 %v", got)
	}
	if im.Beyond != 1 {
		t.Errorf("beyond depth 2: %d, want 1 (main)", im.Beyond)
	}
	if got := ids(im.Tests.Pages); !slices.Equal(got, []string{"symbol:mid/mid_test.go#TestMid"}) || im.Tests.Pages[0].Depth != 2 {
		t.Errorf("tests %+v", im.Tests.Pages)
	}
	var files []string
	for _, f := range im.Files.Files {
		files = append(files, f.Path)
	}
	if !slices.Equal(files, []string{"core/core.go", "mid/mid.go", "mid/mid_test.go", "top/top.go"}) {
		t.Errorf("files %v", files)
	}
	var b strings.Builder
	im.Render(&b)
	for _, want := range []string{"depth 1: 1 referrer\n", "beyond depth 2: 1 more", "tests among the referrers (1):", "TestMid"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}

	// Depth 3 reaches main; the default depth is 3.
	im, err = ImpactOf(snap, "symbol:core/core.go#Base", "", ImpactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if im.Depth != DefaultImpactDepth || len(im.Levels) != 3 || !slices.Equal(ids(im.Levels[2].Pages), []string{"symbol:app/main.go#main"}) || im.Beyond != 0 {
		t.Errorf("depth 3: %+v beyond %d", im.Levels, im.Beyond)
	}

	// A level over the cap: 40 counted, 30 shown, said.
	im, err = ImpactOf(snap, "core.Wide", "", ImpactOptions{BudgetTokens: 20000})
	if err != nil {
		t.Fatal(err)
	}
	if l := im.Levels[0]; l.Total != 40 || len(l.Pages) != MaxImpactShown {
		t.Errorf("wide: total %d, shown %d", l.Total, len(l.Pages))
	}
	if !im.Truncated || !slices.Contains(im.LeftOut, "10 of 40 referrers at depth 1") {
		t.Errorf("left out %v", im.LeftOut)
	}

	// A small budget: the answer fits it and says what it left out.
	im, err = ImpactOf(snap, "core.Wide", "", ImpactOptions{BudgetTokens: 300})
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	im.Render(&b)
	if im.UsedTokens > 300 || !im.Truncated || !strings.Contains(b.String(), "budget of 300 tokens") {
		t.Errorf("budget 300: used %d\n%s", im.UsedTokens, b.String())
	}

	// No referrers, and a missing page.
	im, err = ImpactOf(snap, "core.Unrelated", "", ImpactOptions{})
	if err != nil || len(im.Levels) != 1 || im.Levels[0].Total != 0 {
		t.Errorf("unrelated: %v %+v", err, im)
	}
	if _, err := ImpactOf(snap, "symbol:core/core.go#Nope", "", ImpactOptions{}); err == nil || !strings.Contains(err.Error(), "no page") {
		t.Errorf("missing page: %v", err)
	}

	// A file stands for its definitions.
	im, err = ImpactOf(snap, "mid/mid.go", "", ImpactOptions{Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ids(im.Targets.Pages), "symbol:mid/mid.go#Mid") || !slices.Equal(ids(im.Levels[0].Pages), []string{"symbol:top/top.go#Top"}) {
		t.Errorf("file target: targets %v depth 1 %v", ids(im.Targets.Pages), ids(im.Levels[0].Pages))
	}
}

// TestImpactDiff: in a real git repository, an edit inside Base's body
// maps to Base, a new untracked file to its definitions, a deletion between
// functions to the next; against an older base, a committed change counts.
func TestImpactDiff(t *testing.T) {
	root := t.TempDir()
	files := impactTree()
	walktest.GitInit(t, root, files, ".")
	walktest.Git(t, root, "commit", "-q", "-m", "init")
	ctx := context.Background()

	// No change: no definitions.
	snap := buildImpactTree(t, root)
	im, err := ImpactOfDiff(ctx, snap, root, "", ImpactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Changed) != 0 || im.Targets.Total != 0 {
		t.Errorf("clean tree: changed %+v targets %v", im.Changed, ids(im.Targets.Pages))
	}
	snap.Close()

	// Edit Base's body; add a file.
	walktest.WriteFile(t, root, "core/core.go", strings.Replace(files["core/core.go"], "return 1", "return 10", 1))
	walktest.WriteFile(t, root, "extra/extra.go", "package extra\n\nimport \"example.com/m/top\"\n\n// Extra calls Top.\nfunc Extra() int { return top.Top() }\n")
	snap = buildImpactTree(t, root)
	im, err = ImpactOfDiff(ctx, snap, root, "", ImpactOptions{Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(im.Targets.Pages); !slices.Contains(got, "symbol:core/core.go#Base") || !slices.Contains(got, "symbol:extra/extra.go#Extra") ||
		slices.Contains(got, "symbol:core/core.go#Wide") {
		t.Errorf("targets %v", got)
	}
	if len(im.Changed) != 2 || im.Changed[0].Path != "core/core.go" || im.Changed[0].Status != "modified" ||
		!slices.Equal(im.Changed[0].Lines, [][2]int{{5, 5}}) || im.Changed[1].Status != "added" {
		t.Errorf("changed %+v", im.Changed)
	}
	if !slices.Equal(ids(im.Levels[0].Pages), []string{"symbol:mid/mid.go#Mid"}) {
		t.Errorf("depth 1 %v", ids(im.Levels[0].Pages))
	}
	var b strings.Builder
	im.Render(&b)
	if !strings.Contains(b.String(), "against HEAD: 2 files, 2 definitions") || !strings.Contains(b.String(), "modified core/core.go line 5") {
		t.Errorf("text:\n%s", b.String())
	}
	snap.Close()

	// Commit, then compare with the first commit: the committed change
	// counts; lines deleted between two functions belong to the next.
	walktest.Git(t, root, "add", ".")
	walktest.Git(t, root, "commit", "-q", "-m", "second")
	walktest.WriteFile(t, root, "core/core.go", strings.Replace(strings.Replace(files["core/core.go"], "return 1", "return 10", 1), "// Wide has many callers.\n", "", 1))
	snap = buildImpactTree(t, root)
	defer snap.Close()
	im, err = ImpactOfDiff(ctx, snap, root, "HEAD", ImpactOptions{Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(im.Targets.Pages); !slices.Equal(got, []string{"symbol:core/core.go#Wide"}) {
		t.Errorf("deleted doc comment: targets %v (changed %+v)", got, im.Changed)
	}
	im, err = ImpactOfDiff(ctx, snap, root, "HEAD~1", ImpactOptions{Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(im.Targets.Pages); !slices.Contains(got, "symbol:core/core.go#Base") || !slices.Contains(got, "symbol:extra/extra.go#Extra") {
		t.Errorf("against HEAD~1: targets %v", got)
	}

	// A base that is an option, or no revision at all, is an error.
	for _, base := range []string{"--output=x", "nosuchref"} {
		if _, err := ImpactOfDiff(ctx, snap, root, base, ImpactOptions{}); err == nil {
			t.Errorf("base %q accepted", base)
		}
	}
}

func TestParseDiff(t *testing.T) {
	diff := "diff --git a/a.go b/a.go\nindex 1..2 100644\n--- a/a.go\n+++ b/a.go\n@@ -3 +3 @@ x\n-a\n+b\n@@ -10,2 +9,0 @@\n-c\n-d\n@@ -20,0 +21,3 @@\n+e\n" +
		"diff --git a/gone.go b/gone.go\ndeleted file mode 100644\n--- a/gone.go\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n" +
		"diff --git a/new.go b/new.go\nnew file mode 100644\n--- /dev/null\n+++ b/new.go\n@@ -0,0 +1,2 @@\n+p\n+q\n" +
		"diff --git \"a/sp ace\\tq.go\" \"b/sp ace\\tq.go\"\n--- \"a/sp ace\\tq.go\"\n+++ \"b/sp ace\\tq.go\"\n@@ -1 +1 @@\n-a\n+b\n" +
		"diff --git a/../x b/../x\n--- a/../x\n+++ b/../x\n@@ -1 +1 @@\n"
	got := parseDiff([]byte(diff))
	want := []ChangedFile{
		{Path: "a.go", Status: "modified", Lines: [][2]int{{3, 3}, {9, 9}, {21, 23}}, deletions: []int{9}},
		{Path: "gone.go", Status: "deleted"},
		{Path: "new.go", Status: "added", Lines: [][2]int{{1, 2}}},
		{Path: "sp ace\tq.go", Status: "modified", Lines: [][2]int{{1, 1}}},
	}
	if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
		t.Errorf("parseDiff\n got %+v\nwant %+v", got, want)
	}
}

// TestImpactDiffSubdir: an index of a folder inside a git repository maps
// the diff's paths to its own (git diff --relative), and ignores changes
// outside it.
func TestImpactDiffSubdir(t *testing.T) {
	top := t.TempDir()
	files := map[string]string{"README.md": "# top\n"}
	for name, content := range impactTree() {
		files["sub/"+name] = content
	}
	walktest.GitInit(t, top, files, ".")
	walktest.Git(t, top, "commit", "-q", "-m", "init")
	root := filepath.Join(top, "sub")
	walktest.WriteFile(t, root, "core/core.go", strings.Replace(files["sub/core/core.go"], "return 1", "return 10", 1))
	walktest.WriteFile(t, top, "README.md", "# top, changed\n")
	snap := buildImpactTree(t, root)
	defer snap.Close()
	im, err := ImpactOfDiff(context.Background(), snap, root, "", ImpactOptions{Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Changed) != 1 || im.Changed[0].Path != "core/core.go" || !slices.Equal(ids(im.Targets.Pages), []string{"symbol:core/core.go#Base"}) {
		t.Errorf("changed %+v targets %v", im.Changed, ids(im.Targets.Pages))
	}
}

// TestImpactReadsViewsAsGraph holds the impact of every page of an index
// in small segments and module shards, read level by level from page
// views (ImpactOf), to the impact the whole graph gives, with and without
// loose references.
func TestImpactReadsViewsAsGraph(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "3")
	was := graph.ModuleShardPages
	graph.ModuleShardPages = 2
	t.Cleanup(func() { graph.ModuleShardPages = was })
	for _, fx := range []string{"polyglot", "resolution"} {
		snap, _ := graphtest.BuildFixture(t, fx, graph.BuildOptions{})
		g, err := snap.Graph()
		if err != nil {
			t.Fatal(err)
		}
		whole := func([]string, ...string) (*graph.Graph, error) { return g, nil }
		reached := 0
		for i := range g.Pages {
			for _, loose := range []bool{false, true} {
				opt := ImpactOptions{Loose: loose, Depth: 4}
				got, err := ImpactOf(snap, g.Pages[i].ID, "", opt)
				if err != nil {
					t.Fatal(err)
				}
				seeds := []uint32{uint32(i)}
				if k := g.Pages[i].Kind; k == graph.KindFile || k == graph.KindModule {
					seeds = append(seeds, contained(g, uint32(i))...)
				}
				want, err := impactFrom(whole, idsOf(g, seeds), opt)
				if err != nil {
					t.Fatal(err)
				}
				want.Target = g.Pages[i].ID
				want.pack(opt.budget())
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: impact of %s (loose %v):\n  views %+v\n  graph %+v", fx, g.Pages[i].ID, loose, got, want)
				}
				if len(got.Levels) > 1 {
					reached++
				}
			}
		}
		if reached == 0 {
			t.Fatalf("%s: no impact went past depth 1: the test compared nothing deep", fx)
		}
	}
}
