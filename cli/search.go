package cli

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
)

func runSearch(e *env, args []string) error {
	fs := newFlags(e, "search")
	regex := fs.Bool("regex", false, "PATTERN is an RE2 regular expression")
	glob := fs.String("glob", "", "only files matching this glob (*.go, cli/**, **/*_test.go), relative to the current folder")
	maxN := fs.Int("max", wiki.DefaultSearchResults, fmt.Sprintf("at most this many matching lines (max %d)", wiki.MaxSearchResults))
	var ignoreCase, filesOnly bool
	var around int
	fs.BoolVar(&ignoreCase, "ignore-case", false, "match letters of either case")
	fs.BoolVar(&ignoreCase, "i", false, "short for --ignore-case")
	fs.IntVar(&around, "context", 0, fmt.Sprintf("show N lines before and after each match (max %d)", wiki.MaxSearchContext))
	fs.IntVar(&around, "C", 0, "short for --context")
	fs.BoolVar(&filesOnly, "files-only", false, "print only the names of matching files (--max of them)")
	fs.BoolVar(&filesOnly, "l", false, "short for --files-only")
	asJSON := fs.Bool("json", false, "print the matches as one JSON document")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("search needs one PATTERN (quote it), e.g. wikitoolkit search 'func main'")
	}
	if *maxN < 1 || *maxN > wiki.MaxSearchResults {
		return usagef("--max must be between 1 and %d", wiki.MaxSearchResults)
	}
	if around < 0 || around > wiki.MaxSearchContext {
		return usagef("--context must be between 0 and %d lines", wiki.MaxSearchContext)
	}
	if *regex {
		if _, err := regexp.Compile(pos[0]); err != nil {
			return usagef("bad --regex pattern (RE2 syntax): %v; drop --regex to search the literal text", err)
		}
	}
	if *glob != "" {
		if _, err := path.Match(strings.ReplaceAll(*glob, "**", "*"), ""); err != nil {
			return usagef("bad --glob %q: %v (examples: *.go, cli/*.go, **/*_test.go)", *glob, err)
		}
	}
	root, indexDir := e.rootAndIndex()
	// From a subfolder, search under it and take --glob from it, as git
	// grep does; printed paths stay relative to the root.
	scope := cwdBase(root)
	g := *glob
	if scope != "" {
		switch {
		case g == "":
			g = scope + "/**"
		case strings.Contains(g, "/"):
			g = path.Join(scope, g)
		default:
			g = scope + "/**/" + g
		}
	}
	res, err := wiki.Search(e.ctx, root, wiki.SearchOptions{Pattern: pos[0], Regex: *regex, PathGlob: g, MaxResults: *maxN,
		IgnoreCase: ignoreCase, Context: around, FilesOnly: filesOnly, Walk: wiki.LoadWalkSettings(indexDir).WalkOptions()})
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, res)
	}
	res.Render(e.stdout)
	if scope != "" {
		fmt.Fprintf(e.stdout, "(searched under %s/; paths are relative to the repository root)\n", scope)
	}
	return nil
}

func runRead(e *env, args []string) error {
	fs := newFlags(e, "read")
	asJSON := fs.Bool("json", false, "print the slice as one JSON document")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("read needs one PATH[:START-END], e.g. wikitoolkit read cli/cli.go:10-40")
	}
	p, start, end, err := parseLineRange(pos[0])
	if err != nil {
		return err
	}
	root, _ := e.rootAndIndex()
	res, err := wiki.ReadFile(root, repoPath(root, p), start, end)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, res)
	}
	res.Render(e.stdout)
	return nil
}

// parseLineRange splits "path:10-40", "path:10" or "path".
func parseLineRange(s string) (p string, start, end int, err error) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0, 0, nil
	}
	p, r := s[:i], s[i+1:]
	a, b, hasDash := strings.Cut(r, "-")
	start, err1 := strconv.Atoi(a)
	if err1 != nil || start < 1 {
		return s, 0, 0, nil // a colon that is part of the file name
	}
	end = 0 // from START, the default number of lines
	if hasDash {
		if b == "" {
			end = 0
		} else if end, err = strconv.Atoi(b); err != nil || end < start {
			return "", 0, 0, usagef("bad line range %q: want START-END with START <= END", r)
		}
	}
	return p, start, end, nil
}
