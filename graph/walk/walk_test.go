package walk

import (
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"

	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// testLangs is the Detect of these tests: a small extension map, so that
// the tests do not depend on the parser package.
var testLangs = map[string]string{
	".go": "go", ".py": "python", ".js": "javascript", ".ts": "typescript",
	".md": "markdown", ".txt": "text", ".c": "c", ".java": "java", ".rs": "rust",
	".sh": "bash", ".yaml": "yaml", ".yml": "yaml", ".json": "json", ".proto": "proto",
}

func testDetect(p string) string { return testLangs[path.Ext(p)] }

func mustWalk(t testing.TB, root string, opt Options) *Result {
	t.Helper()
	if opt.Detect == nil {
		opt.Detect = testDetect
	}
	res, err := Walk(context.Background(), root, opt)
	if err != nil {
		t.Fatalf("Walk(%s): %v", root, err)
	}
	if !slices.IsSortedFunc(res.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) }) {
		t.Errorf("Files not sorted by Path")
	}
	if !slices.IsSortedFunc(res.Skipped, func(a, b Skip) int { return strings.Compare(a.Path, b.Path) }) {
		t.Errorf("Skipped not sorted by Path")
	}
	return res
}

func filePaths(res *Result) []string {
	out := make([]string, len(res.Files))
	for i, f := range res.Files {
		out[i] = f.Path
	}
	return out
}

func skipMap(res *Result) map[string]string {
	m := make(map[string]string, len(res.Skipped))
	for _, s := range res.Skipped {
		m[s.Path] = s.Reason
	}
	return m
}

func TestWalkIgnore(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string // indexed paths, sorted
		opt   Options
	}{{
		name: "nested gitignore with negations",
		files: map[string]string{
			".gitignore":                 "*.log.txt\n!keep.log.txt\n",
			"a.log.txt":                  "",
			"keep.log.txt":               "",
			"sub/b.log.txt":              "",
			"sub/keep.log.txt":           "",
			"sub/.gitignore":             "!important.log.txt\n",
			"sub/important.log.txt":      "",
			"sub/deep/.gitignore":        "keep.log.txt\n",
			"sub/deep/keep.log.txt":      "",
			"sub/deep/other.go":          "",
			"sub/deep/important.log.txt": "",
		},
		want: []string{"keep.log.txt", "sub/deep/important.log.txt", "sub/deep/other.go", "sub/important.log.txt", "sub/keep.log.txt"},
	}, {
		name: "anchored patterns",
		files: map[string]string{
			".gitignore":      "/build.txt\ndocs/gen.txt\n",
			"build.txt":       "",
			"sub/build.txt":   "",
			"docs/gen.txt":    "",
			"x/docs/gen.txt":  "",
			"sub/.gitignore":  "/local.txt\n",
			"sub/local.txt":   "",
			"sub/z/local.txt": "",
			"local.txt":       "",
		},
		want: []string{"local.txt", "sub/build.txt", "sub/z/local.txt", "x/docs/gen.txt"},
	}, {
		name: "directory-only patterns",
		files: map[string]string{
			".gitignore":         "out.txt/\ncache/\n",
			"out.txt":            "a file, not ignored",
			"a/out.txt/x.go":     "",
			"cache/x.go":         "",
			"deep/er/cache/y.go": "",
			"deep/er/z.go":       "",
		},
		want: []string{"deep/er/z.go", "out.txt"},
	}, {
		name: "double star",
		files: map[string]string{
			".gitignore":       "**/gen/*.go\na/**/z.txt\nlogs/**\n!logs/keep.txt\n**/tmp\n",
			"gen/a.go":         "",
			"x/y/gen/b.go":     "",
			"x/y/gen/sub/c.go": "",
			"a/z.txt":          "",
			"a/b/c/z.txt":      "",
			"b/a/z.txt":        "",
			"logs/1.txt":       "",
			"logs/keep.txt":    "",
			"logs/d/2.txt":     "",
			"p/q/tmp/t.go":     "",
			"tmp.go":           "",
		},
		want: []string{"b/a/z.txt", "logs/keep.txt", "tmp.go", "x/y/gen/sub/c.go"},
	}, {
		name: "excluded directory cannot be re-included",
		files: map[string]string{
			".gitignore":       "build/\n!build/keep.txt\n",
			"build/keep.txt":   "",
			"build/.gitignore": "!*\n",
			"build/other.txt":  "",
			"src/build/x.txt":  "",
			"src/main.go":      "",
		},
		want: []string{"src/main.go"},
	}, {
		name: "deeper negation overrides a parent pattern for files",
		files: map[string]string{
			".gitignore":      "secret*.txt\n",
			"secret1.txt":     "",
			"sub/.gitignore":  "!secret1.txt\n",
			"sub/secret1.txt": "",
			"sub/secret2.txt": "",
		},
		want: []string{"sub/secret1.txt"},
	}, {
		name: "info/exclude ranks below .gitignore",
		files: map[string]string{
			".git/info/exclude": "local.txt\n*.tmp.txt\n",
			".git/HEAD":         "ref: refs/heads/main\n",
			".gitignore":        "!keep.tmp.txt\n",
			"local.txt":         "",
			"a/local.txt":       "",
			"x.tmp.txt":         "",
			"keep.tmp.txt":      "",
			"main.go":           "",
		},
		want: []string{"keep.tmp.txt", "main.go"},
	}, {
		name: ".wikitoolkitignore ranks above .gitignore",
		files: map[string]string{
			".wikitoolkitignore": "# index generated code\n!gen.go\ntestdata/\n",
			".gitignore":         "gen.go\n",
			"gen.go":             "",
			"pkg/gen.go":         "",
			"pkg/testdata/x.go":  "",
			"pkg/a.go":           "",
		},
		want: []string{"gen.go", "pkg/a.go", "pkg/gen.go"},
	}, {
		name: ".git and the omitted names and paths are omitted",
		files: map[string]string{
			".git/config.txt":          "",
			".wikitoolkit/gen/1/x.txt": "",
			"sub/.wikitoolkit/y.txt":   "",
			".wiki/notes/n.md":         "",
			"sub/.wiki/n.md":           "",
			"sub/.git":                 "gitdir: ../.git/modules/sub\n",
			"sub/a.go":                 "",
			".github/ci.yml":           "",
		},
		opt:  Options{OmitNames: []string{".wikitoolkit"}, OmitPaths: []string{".wiki"}},
		want: []string{".github/ci.yml", "sub/.wiki/n.md", "sub/a.go"},
	}, {
		name: "nothing but .git is omitted unless asked",
		files: map[string]string{
			".git/config.txt":          "",
			".wikitoolkit/gen/1/x.txt": "",
			".wiki/n.md":               "",
		},
		want: []string{".wiki/n.md", ".wikitoolkit/gen/1/x.txt"},
	}, {
		name: "globs, classes, escapes and spaces",
		files: map[string]string{
			".gitignore":    "file?.txt\n[ab].go\n[!c-e]x.go\n\\#hash.txt\n\\!bang.txt\ntrail.txt   \nsp\\ .txt\n# comment.txt\n\n*.[[:digit:]].go\n",
			"file1.txt":     "",
			"file12.txt":    "",
			"a.go":          "",
			"c.go":          "",
			"ax.go":         "",
			"dx.go":         "",
			"#hash.txt":     "",
			"!bang.txt":     "",
			"trail.txt":     "",
			"sp .txt":       "",
			"# comment.txt": "",
			"v.1.go":        "",
			"v.x.go":        "",
		},
		want: []string{"# comment.txt", "c.go", "dx.go", "file12.txt", "v.x.go"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			walktest.WriteTree(t, root, tt.files)
			res := mustWalk(t, root, tt.opt)
			if got := filePaths(res); !slices.Equal(got, tt.want) {
				t.Errorf("files:\n got %q\nwant %q", got, tt.want)
			}
			if len(res.Skipped) != 0 {
				t.Errorf("unexpected skips: %v", res.Skipped)
			}
		})
	}
}

// TestWalkMatchesGit compares Walk with git's own idea of the files of a
// work tree (tracked, or untracked and not ignored), over a fixed tree and
// over random patterns and trees, with nothing tracked and with some files
// tracked in spite of the ignore rules (git add -f).
func TestWalkMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	fixed := map[string]string{
		".gitignore": "*.o\n/top.txt\nbuild/\n!build/keep\ndocs/*.html\n**/cache/**\n!**/cache/keep.me\nfoo/**/bar\n[Tt]emp*\n/*z\n",
		"yz":         "", "q/yz": "", "q/r/yz": "",
		"a.o": "", "src/b.o": "", "top.txt": "", "src/top.txt": "",
		"build/x": "", "src/build/y": "", "build/keep": "",
		"docs/a.html": "", "docs/sub/b.html": "", "x/docs/c.html": "",
		"cache/a": "", "p/cache/b/c": "", "p/cache/keep.me": "",
		"foo/bar": "", "foo/x/y/bar": "", "foo/x/bar/z": "", "zfoo/bar": "",
		"Temp1": "", "temp/x": "", "tEmp": "",
		"src/.gitignore": "!*.o\n/local\n*.txt\n!keep.txt\n",
		"src/c.o":        "", "src/local": "", "src/x/local": "", "src/k.txt": "", "src/keep.txt": "",
		"src/d/.gitignore": "keep.txt\n!/k2.txt\n",
		"src/d/keep.txt":   "", "src/d/k2.txt": "", "src/d/e/k2.txt": "",
	}
	t.Run("fixed", func(t *testing.T) { compareWithGit(t, fixed, nil) })
	// Ignored files and files in ignored directories, and some that are not
	// ignored.
	t.Run("fixed-tracked", func(t *testing.T) {
		n := compareWithGit(t, fixed, []string{"a.o", "top.txt", "build/x", "src/build/y", "docs/sub/b.html", "p/cache/b/c",
			"foo/x/y/bar", "Temp1", "temp/x", "src/local", "src/k.txt", "src/d/keep.txt", "yz", "zfoo/bar", "src/keep.txt"})
		if n != 12 {
			t.Errorf("%d tracked files are ignored, want 12", n)
		}
	})
	ignoredTracked := 0
	for seed := range 8 {
		t.Run(fmt.Sprintf("random%d", seed), func(t *testing.T) {
			compareWithGit(t, randomTree(rand.New(rand.NewPCG(uint64(seed), 7))), nil)
		})
		t.Run(fmt.Sprintf("random%d-tracked", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(seed), 11))
			files := randomTree(r)
			var tracked []string
			for p := range files {
				if r.IntN(3) == 0 {
					tracked = append(tracked, p)
				}
			}
			ignoredTracked += compareWithGit(t, files, tracked)
		})
	}
	if ignoredTracked == 0 {
		t.Errorf("no random tree tracks an ignored file: the random trees do not test it")
	}
}

// compareWithGit writes files into a new repository, adds the paths tracked
// to its index in spite of the ignore rules, and checks that Walk lists what
// git does: the tracked files and the untracked ones that are not ignored.
// It returns how many tracked files the ignore rules match.
func compareWithGit(t *testing.T, files map[string]string, tracked []string) int {
	t.Helper()
	root := t.TempDir()
	walktest.WriteTree(t, root, files)
	git := func(args ...string) string { return walktest.Git(t, root, args...) }
	git("init", "-q")
	if len(tracked) > 0 {
		slices.Sort(tracked) // the map's order would make the failure messages vary
		git(append([]string{"--literal-pathspecs", "add", "-f", "--"}, tracked...)...)
	}
	var want []string
	for p := range strings.SplitSeq(git("ls-files", "-z", "--cached", "--others", "--exclude-standard"), "\x00") {
		if p != "" {
			want = append(want, p)
		}
	}
	slices.Sort(want)
	res := mustWalk(t, root, Options{ExcludeDirs: []string{}, Detect: func(string) string { return "x" }})
	if got := filePaths(res); !slices.Equal(got, want) {
		var ign []string
		for name, c := range files {
			if path.Base(name) == ".gitignore" {
				ign = append(ign, name+": "+strings.ReplaceAll(c, "\n", " | "))
			}
		}
		slices.Sort(ign)
		t.Errorf("Walk and git disagree\nignore files:\n  %s\ntracked: %q\nonly Walk: %q\nonly git:  %q",
			strings.Join(ign, "\n  "), tracked, minus(got, want), minus(want, got))
	}
	if res.TrackedErr != nil {
		t.Errorf("TrackedErr: %v", res.TrackedErr)
	}
	return strings.Count(git("ls-files", "-z", "--cached", "--ignored", "--exclude-standard"), "\x00")
}

func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// randomTree returns a tree of short names and .gitignore files made of
// random patterns drawn from the gitignore grammar.
func randomTree(r *rand.Rand) map[string]string {
	names := []string{"a", "b", "ab", "a.c", "b.c", "x.go", "d", "dd"}
	files := map[string]string{}
	var dirs []string
	for range 60 {
		depth := 1 + r.IntN(4)
		parts := make([]string, depth)
		for i := range parts {
			parts[i] = names[r.IntN(len(names))]
		}
		p := strings.Join(parts, "/")
		// A name cannot be both a file and a directory.
		clash := false
		for q := range files {
			if strings.HasPrefix(q, p+"/") || strings.HasPrefix(p, q+"/") || q == p {
				clash = true
			}
		}
		if clash {
			continue
		}
		files[p] = ""
		dirs = append(dirs, path.Dir(p))
	}
	atoms := []string{"a", "b", "*", "?", "**", "a*", "*.c", "[ab]", "[!a]*", "d", "dd", "x.go", "*b"}
	pattern := func() string {
		var sb strings.Builder
		if r.IntN(4) == 0 {
			sb.WriteByte('!')
		}
		if r.IntN(4) == 0 {
			sb.WriteByte('/')
		}
		n := 1 + r.IntN(3)
		for i := range n {
			if i > 0 {
				sb.WriteByte('/')
			}
			sb.WriteString(atoms[r.IntN(len(atoms))])
		}
		if r.IntN(4) == 0 {
			sb.WriteByte('/')
		}
		return sb.String()
	}
	for _, d := range append([]string{"."}, dirs[:min(len(dirs), 4)]...) {
		var lines []string
		for range 1 + r.IntN(5) {
			lines = append(lines, pattern())
		}
		files[path.Join(d, ".gitignore")] = strings.Join(lines, "\n") + "\n"
	}
	return files
}

func TestWalkSkips(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	walktest.WriteTree(t, outside, map[string]string{"secret.txt": "s", "dir/x.go": ""})
	walktest.WriteTree(t, root, map[string]string{
		"main.go":                 "",
		"vendor/a/b.go":           "",
		"vendor/vendor/c.go":      "",
		"web/node_modules/x/y.js": "",
		"lib/third_party/z.c":     "",
		"big.txt":                 strings.Repeat("x", 11),
		"fits.txt":                strings.Repeat("x", 10),
		"real/r.go":               "",
		"ignored/i.go":            "",
		".gitignore":              "ignored/\n",
		"unsupported.xyz":         "",
		"image.png":               "",
	})
	links := map[string]string{
		"self":        "self", // loops in the kernel
		"up":          ".",    // points at its own directory
		"real/back":   "..",   // points at an ancestor
		"ping":        "pong", // two-link cycle
		"pong":        "ping",
		"broken.go":   "does-not-exist.go",
		"out.txt":     filepath.Join(outside, "secret.txt"),
		"outdir":      filepath.Join(outside, "dir"),
		"rel-out.txt": "../" + filepath.Base(outside) + "/secret.txt",
		"alias.go":    "real/r.go",
		"realalias":   "real",
		"view":        "ignored",
		"vendorlink":  "real", // named like an excluded directory
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	res := mustWalk(t, root, Options{MaxFileBytes: 10, ExcludeDirs: []string{"vendor", "node_modules", "third_party", "vendorlink"}})
	wantSkips := map[string]string{
		"vendor":           "vendored directory",
		"web/node_modules": "vendored directory",
		"lib/third_party":  "vendored directory",
		"vendorlink":       "vendored directory",
		"big.txt":          "too large (11 bytes > limit 10)",
		"self":             "symlink loop",
		"up":               "symlink loop",
		"real/back":        "symlink loop",
		"ping":             "symlink loop",
		"pong":             "symlink loop",
		"broken.go":        "broken symlink",
		"out.txt":          "symlink outside the root",
		"outdir":           "symlink outside the root",
		"rel-out.txt":      "symlink outside the root",
		"realalias":        "symlink to a directory already walked (real)",
	}
	got := skipMap(res)
	for p, want := range wantSkips {
		if got[p] != want {
			t.Errorf("skip %s: got %q, want %q", p, got[p], want)
		}
	}
	for p, reason := range got {
		if _, ok := wantSkips[p]; !ok {
			t.Errorf("unexpected skip %s: %q", p, reason)
		}
	}
	if len(res.Skipped) != len(got) {
		t.Errorf("a path is skipped twice: %v", res.Skipped)
	}
	wantFiles := []string{"alias.go", "fits.txt", "main.go", "real/r.go", "view/i.go"}
	if paths := filePaths(res); !slices.Equal(paths, wantFiles) {
		t.Errorf("files: got %q, want %q", paths, wantFiles)
	}
	realRoot, _ := filepath.EvalSymlinks(root)
	for _, f := range res.Files {
		switch f.Path {
		case "alias.go":
			if f.Abs != filepath.Join(realRoot, "real", "r.go") {
				t.Errorf("alias.go: Abs = %s, want the target", f.Abs)
			}
		case "view/i.go":
			if f.Abs != filepath.Join(realRoot, "ignored", "i.go") {
				t.Errorf("view/i.go: Abs = %s, want the target", f.Abs)
			}
		case "fits.txt":
			st, _ := os.Stat(f.Abs)
			if f.Size != 10 || f.ModTime != st.ModTime().UnixNano() || f.Lang != "text" {
				t.Errorf("fits.txt: %+v, want size 10, mtime %d, lang text", f, st.ModTime().UnixNano())
			}
		}
	}
	// unsupported.xyz, image.png and the .gitignore.
	if res.Unsupported != 3 {
		t.Errorf("Unsupported = %d, want 3", res.Unsupported)
	}
}

func TestWalkNilDetect(t *testing.T) {
	root := t.TempDir()
	walktest.WriteTree(t, root, map[string]string{"a.go": "", "Makefile": "", "logo.PNG": "", "f.woff2": "", "lib.so": ""})
	res, err := Walk(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := filePaths(res), []string{"Makefile", "a.go"}; !slices.Equal(got, want) {
		t.Errorf("files: got %q, want %q", got, want)
	}
	if res.Unsupported != 3 {
		t.Errorf("Unsupported = %d, want 3", res.Unsupported)
	}
}

func TestWalkRoot(t *testing.T) {
	dir := t.TempDir()
	walktest.WriteTree(t, dir, map[string]string{"repo/a.go": "", "file.go": ""})
	link := filepath.Join(dir, "link")
	if err := os.Symlink("repo", link); err != nil {
		t.Fatal(err)
	}
	res := mustWalk(t, link, Options{})
	realDir, _ := filepath.EvalSymlinks(dir)
	if len(res.Files) != 1 || res.Files[0].Abs != filepath.Join(realDir, "repo", "a.go") {
		t.Errorf("walk of a symlinked root: %+v", res.Files)
	}
	for _, bad := range []string{filepath.Join(dir, "missing"), filepath.Join(dir, "file.go")} {
		if _, err := Walk(context.Background(), bad, Options{}); err == nil {
			t.Errorf("Walk(%s): no error", bad)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Walk(ctx, dir, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Walk with a canceled context: %v", err)
	}
}

func TestClassifyContent(t *testing.T) {
	longLine := strings.Repeat("var a=1;", 200) // 1600 bytes on one line
	tests := []struct {
		name, path, head, want string
	}{
		{"plain go", "a.go", "package a\n\nfunc F() {}\n", ""},
		{"empty", "a.go", "", ""},
		{"nul byte", "a.go", "package a\x00\n", "binary (NUL byte)"},
		{"nul beyond 8 KiB", "a.txt", strings.Repeat("a\n", 5000) + "\x00", ""},
		{"go generated", "a.pb.go", "// Code generated by protoc-gen-go. DO NOT EDIT.\n\npackage a\n", "generated (Code generated … DO NOT EDIT)"},
		{"go generated after a long license", "a.go", strings.Repeat("// license\n", 20) + "\n// Code generated by x. DO NOT EDIT.\n\npackage a\n", "generated (Code generated … DO NOT EDIT)"},
		{"go generated after the package clause", "gen.go", "package gen\n\n\n\n\n\nconst header = `\n// Code generated by gen. DO NOT EDIT.\n`\n", ""},
		{"go convention needs the final dot", "a.go", "// license\n// license\n// license\n// license\n// license\n// Code generated by x. DO NOT EDIT\npackage a\n", ""},
		{"crlf", "a.go", "// Code generated by x. DO NOT EDIT.\r\npackage a\r\n", "generated (Code generated … DO NOT EDIT)"},
		{"at-generated banner", "a.js", "/**\n * @generated\n */\nexport const x = 1;\n", "generated (Code generated … DO NOT EDIT)"},
		{"python protoc banner", "a_pb2.py", "# -*- coding: utf-8 -*-\n# Generated by the protocol buffer compiler.  DO NOT EDIT!\n", "generated (Code generated … DO NOT EDIT)"},
		{"banner too far down", "a.py", "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n# DO NOT EDIT\n", ""},
		{"min.js by name", "dist/app.min.js", "var a = 1;\n", "minified"},
		{"min.css by name", "x/Site.MIN.CSS", "a{}\n", "minified"},
		{"long lines js", "bundle.js", longLine + "\n" + longLine, "minified"},
		{"long lines css", "style.css", longLine, "minified"},
		{"short one-liner js", "tiny.js", strings.Repeat("x", 400), ""},
		{"long lines in go are fine", "table.go", longLine, ""},
		{"normal js", "app.js", strings.Repeat("const a = require('a');\n", 300), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ClassifyContent(tt.path, []byte(tt.head)); got != tt.want {
				t.Errorf("ClassifyContent(%q) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}

// TestWildmatch checks the glob matcher on cases from git's
// t/t3070-wildmatch.sh (pathname mode, as .gitignore patterns with a slash).
func TestWildmatch(t *testing.T) {
	tests := []struct {
		pat, text string
		want      bool
	}{
		{"foo", "foo", true},
		{"bar", "foo", false},
		{"", "", true},
		{"???", "foo", true},
		{"??", "foo", false},
		{"*", "foo", true},
		{"f*", "foo", true},
		{"*f", "foo", false},
		{"*foo*", "foo", true},
		{"*ob*a*r*", "foobar", true},
		{"*ab", "aaaaaaabababab", true},
		{"foo\\*", "foo*", true},
		{"foo\\*bar", "foobar", false},
		{"f\\\\oo", "f\\oo", true},
		{"*[al]?", "ball", true},
		{"[ten]", "ten", false},
		{"**[!te]", "ten", true},
		{"**[!ten]", "ten", false},
		{"t[a-g]n", "ten", true},
		{"t[!a-g]n", "ten", false},
		{"t[!a-g]n", "ton", true},
		{"t[^a-g]n", "ton", true},
		{"a[]]b", "a]b", true},
		{"a[]-]b", "a-b", true},
		{"a[]-]b", "a]b", true},
		{"a[]-]b", "aab", false},
		{"a[]a-]b", "aab", true},
		{"]", "]", true},
		{"foo*bar", "foo/baz/bar", false},
		{"foo**bar", "foo/baz/bar", false},
		{"foo**bar", "foobazbar", true},
		{"foo/**/bar", "foo/baz/bar", true},
		{"foo/**/**/bar", "foo/baz/bar", true},
		{"foo/**/bar", "foo/b/a/z/bar", true},
		{"foo/**/**/bar", "foo/b/a/z/bar", true},
		{"foo/**/bar", "foo/bar", true},
		{"foo/**/**/bar", "foo/bar", true},
		{"foo?bar", "foo/bar", false},
		{"foo[/]bar", "foo/bar", false},
		{"foo[^a-z]bar", "foo/bar", false},
		{"f[^eiu][^eiu][^eiu][^eiu][^eiu]r", "foo-bar", true},
		{"**/foo", "foo", true},
		{"**/foo", "XXX/foo", true},
		{"**/foo", "bar/baz/foo", true},
		{"*/foo", "bar/baz/foo", false},
		{"**/bar*", "foo/bar/baz", false},
		{"**/bar/*", "deep/foo/bar/baz", true},
		{"**/bar/*", "deep/foo/bar/baz/", false},
		{"**/bar/**", "deep/foo/bar/baz/", true},
		{"**/bar/*", "deep/foo/bar", false},
		{"**/bar/**", "deep/foo/bar/", true},
		{"**/bar**", "foo/bar/baz", false},
		{"*/bar/**", "deep/foo/bar/baz/x", false},
		{"**/bar/*/*", "deep/foo/bar/baz/x", true},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"abc/**", "abc/x/y", true},
		{"abc/**", "abc", false},
		{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1", true},
		{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-X-70-iso8859-1", false},
		{"XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*", "XXX/adobe/courier/bold/o/normal//12/120/75/75/m/70/iso8859/1", true},
		{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt", true},
		{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", false},
		{"*/*/*", "foo/bba/arr", true},
		{"*/*/*", "foo/bb/aa/rr", false},
		{"**/**/**", "foo/bb/aa/rr", true},
		{"*X*i", "abcXdefXghi", true},
		{"*/*X*/*/*i", "ab/cXd/efXg/hi", true},
		{"**/*X*/**/*i", "ab/cXd/efXg/hi", true},
		{"[[:alpha:]][[:digit:]][[:upper:]]", "a1B", true},
		{"[[:digit:][:upper:][:space:]]", "a", false},
		{"[[:digit:][:upper:][:space:]]", "A", true},
		{"[[:digit:][:upper:][:spaci:]]", "1", false},
		{"[a-c[:digit:]x-z]", "5", true},
		{"[a-c[:digit:]x-z]", "q", false},
		{"[\\-_]", "-", true},
		{"[[]", "[", true},
		{"[", "[", false},
		{"\\", "\\", false},
		{"[ab", "a", false},
	}
	for _, tt := range tests {
		if got := wildmatch(tt.pat, tt.text, true) == wmMatch; got != tt.want {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", tt.pat, tt.text, got, tt.want)
		}
	}
}

// TestWalkRealTree walks the tree in WIKITOOLKIT_BENCH_REPO and logs what it
// found, as a sanity check on a real repository.
func TestWalkRealTree(t *testing.T) {
	root := os.Getenv("WIKITOOLKIT_BENCH_REPO")
	if root == "" {
		t.Skip("WIKITOOLKIT_BENCH_REPO not set")
	}
	for _, exclude := range [][]string{nil, {}} {
		start := time.Now()
		res := mustWalk(t, root, Options{ExcludeDirs: exclude})
		reasons := map[string]int{}
		for _, s := range res.Skipped {
			r, _, _ := strings.Cut(s.Reason, " (")
			reasons[r]++
		}
		what := "default ExcludeDirs"
		if exclude != nil {
			what = "no ExcludeDirs"
		}
		t.Logf("%s: %d files, %d unsupported, %d dirs, %d skipped %v in %v",
			what, len(res.Files), res.Unsupported, res.Dirs, len(res.Skipped), reasons, time.Since(start))
	}
}

// BenchmarkWalk measures Walk over a generated tree of a few thousand files
// and over the tree named by WIKITOOLKIT_BENCH_REPO, if set.
func BenchmarkWalk(b *testing.B) {
	b.Run("generated", func(b *testing.B) {
		root := b.TempDir()
		files := map[string]string{".gitignore": "*.log\nbuild/\n!keep.log\n"}
		for i := range 4000 {
			dir := fmt.Sprintf("pkg%02d/sub%d", i%40, i%7)
			files[fmt.Sprintf("%s/f%d.go", dir, i)] = "package x\n"
			if i%10 == 0 {
				files[fmt.Sprintf("%s/f%d.log", dir, i)] = ""
				files[fmt.Sprintf("pkg%02d/.gitignore", i%40)] = "*.tmp\n/local/\n"
			}
		}
		walktest.WriteTree(b, root, files)
		benchWalk(b, root, nil)
	})
	b.Run("env", func(b *testing.B) {
		root := os.Getenv("WIKITOOLKIT_BENCH_REPO")
		if root == "" {
			b.Skip("WIKITOOLKIT_BENCH_REPO not set")
		}
		b.Run("default", func(b *testing.B) { benchWalk(b, root, nil) })
		b.Run("no-exclude", func(b *testing.B) { benchWalk(b, root, []string{}) })
	})
}

func benchWalk(b *testing.B, root string, exclude []string) {
	b.ReportAllocs()
	var n int
	for b.Loop() {
		res, err := Walk(context.Background(), root, Options{Detect: testDetect, ExcludeDirs: exclude})
		if err != nil {
			b.Fatal(err)
		}
		n = len(res.Files) + res.Unsupported
	}
	b.ReportMetric(float64(n), "files")
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}
