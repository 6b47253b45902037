package wiki

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
	"github.com/wikitoolkit/wikitoolkit/graph/walk"
)

// Limits of wiki_search and wiki_read. Each keeps its text answer well under
// maxTextTokens; a line of code is about 10 tokens.
const (
	DefaultSearchResults = 50
	MaxSearchResults     = 500
	MaxSearchContext     = 10 // lines of context before and after a match
	maxMatchLineBytes    = 240
	maxPatternBytes      = 1000
	DefaultReadLines     = 200
	MaxReadLines         = 1000
	maxReadTokens        = 8000
	maxReadLineBytes     = 2000
	binarySniffBytes     = 8000
)

// SearchOptions configure Search.
type SearchOptions struct {
	Pattern    string
	Regex      bool   // RE2 syntax; otherwise Pattern is literal
	PathGlob   string // "*.go" matches base names; "cli/**/*.go" whole paths
	MaxResults int    // 0 → DefaultSearchResults
	MaxTokens  int    // stop when the matches' text reaches this many tokens; 0 = no limit
	IgnoreCase bool   // match letters of either case (Unicode simple folding)
	Context    int    // lines shown before and after each match, at most MaxSearchContext
	FilesOnly  bool   // list the matching files (at most MaxResults), not their lines
	Walk       walk.Options
}

// SearchMatch is one matching line, with the lines around it when
// SearchOptions.Context asks for them (none repeated: a context line that
// is itself a match, or was shown with the previous match, is left out).
type SearchMatch struct {
	Path   string   `json:"path"`
	Line   int      `json:"line"`
	Text   string   `json:"text"`
	Before []string `json:"before,omitempty"`
	After  []string `json:"after,omitempty"`
}

// SearchResult is a bounded list of matches in path order; with FilesOnly,
// Files lists the matching files instead and Matches is empty.
type SearchResult struct {
	Pattern       string        `json:"pattern"`
	Matches       []SearchMatch `json:"matches"`
	Files         []string      `json:"files,omitempty"`
	Context       int           `json:"context,omitempty"` // lines of context asked for
	FilesSearched int           `json:"files_searched"`
	FilesMatched  int           `json:"files_matched"`
	Truncated     bool          `json:"truncated"`
}

// Search finds lines matching opt.Pattern in the text files under root that
// a build would walk (ignore files, vendored directories and binaries are
// skipped), at most opt.MaxResults of them.
func Search(ctx context.Context, root string, opt SearchOptions) (*SearchResult, error) {
	if opt.Pattern == "" {
		return nil, errors.New("empty pattern: give the text (or, with regex true, the RE2 expression) to find")
	}
	if len(opt.Pattern) > maxPatternBytes {
		return nil, fmt.Errorf("the pattern is %d bytes; at most %d", len(opt.Pattern), maxPatternBytes)
	}
	if opt.MaxResults <= 0 {
		opt.MaxResults = DefaultSearchResults
	}
	opt.MaxResults = min(opt.MaxResults, MaxSearchResults)
	if opt.Context < 0 {
		return nil, fmt.Errorf("context must be 0 or more lines (at most %d)", MaxSearchContext)
	}
	opt.Context = min(opt.Context, MaxSearchContext)
	m := &matcher{lit: []byte(opt.Pattern)}
	if opt.Regex || opt.IgnoreCase {
		expr := opt.Pattern
		if !opt.Regex {
			expr = regexp.QuoteMeta(expr)
		}
		if opt.IgnoreCase {
			expr = "(?i)" + expr
		}
		var err error
		if m.re, err = regexp.Compile(expr); err != nil {
			return nil, fmt.Errorf("bad regular expression (RE2 syntax): %v; or set regex false to search the literal text", err)
		}
		// The whole-file test runs in multi-line mode, so that ^ and $
		// match at every line as they do in the line-by-line search.
		if m.file, err = regexp.Compile("(?m:" + expr + ")"); err != nil {
			m.file = nil
		}
	}
	if opt.PathGlob != "" {
		if _, err := path.Match(strings.ReplaceAll(opt.PathGlob, "**", "*"), ""); err != nil {
			return nil, fmt.Errorf("bad path_glob %q: %v (examples: *.go, cli/*.go, **/*_test.go)", opt.PathGlob, err)
		}
	}
	wopt := graph.SourceWalk(opt.Walk)
	wopt.OmitPaths = append(slices.Clip(wopt.OmitPaths), annotate.SharedDirName)
	wopt.Detect = nil // every text file, not only the languages the build parses
	w, err := walk.Walk(ctx, root, wopt)
	if err != nil {
		return nil, err
	}
	files := w.Files[:0:0]
	for _, fe := range w.Files {
		if opt.PathGlob == "" || globMatch(opt.PathGlob, fe.Path) {
			files = append(files, fe)
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })

	res := &SearchResult{Pattern: opt.Pattern, Matches: []SearchMatch{}, Context: opt.Context}
	if opt.FilesOnly {
		return searchFiles(ctx, files, m, res, opt)
	}
	tokens := 0
	// Files are searched in parallel in chunks, results kept in path order;
	// a chunk stops the search once enough matches are in.
	workers := runtime.GOMAXPROCS(0)
	const chunk = 64
	per := make([][]SearchMatch, chunk)
	for lo := 0; lo < len(files) && len(res.Matches) < opt.MaxResults; lo += chunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+chunk, len(files))
		eachParallel(lo, hi, workers, func(i int) {
			per[i-lo] = searchFile(files[i].Abs, files[i].Path, m, opt.MaxResults+1, opt.Context)
		})
		for i := 0; i < hi-lo; i++ {
			res.FilesSearched++
			if len(per[i]) > 0 {
				res.FilesMatched++
			}
			for _, m := range per[i] {
				if len(res.Matches) >= opt.MaxResults {
					res.Truncated = true
					break
				}
				if opt.MaxTokens > 0 {
					// Counted as rendered ("path:line: text"), once.
					tokens += engine.CountTokens(m.Path) + engine.CountTokens(m.Text) + 4
					for _, l := range slices.Concat(m.Before, m.After) {
						tokens += engine.CountTokens(m.Path) + engine.CountTokens(l) + 4
					}
					if tokens > opt.MaxTokens {
						res.Truncated = true
						opt.MaxResults = len(res.Matches) // stop here
						break
					}
				}
				res.Matches = append(res.Matches, m)
			}
			per[i] = nil
		}
		if len(res.Matches) >= opt.MaxResults && hi < len(files) {
			res.Truncated = true
		}
	}
	return res, nil
}

// matcher finds the pattern in a line: a literal (lit) or a regular
// expression (re, with file its multi-line form for the whole-file test).
type matcher struct {
	lit      []byte
	re, file *regexp.Regexp
}

// index returns where the pattern starts in l, or -1.
func (m *matcher) index(l []byte) int {
	if m.re == nil {
		return bytes.Index(l, m.lit)
	}
	if loc := m.re.FindIndex(l); loc != nil {
		return loc[0]
	}
	return -1
}

// mayMatch is a cheap whole-file test: false means no line matches.
func (m *matcher) mayMatch(src []byte) bool {
	switch {
	case m.re == nil:
		return bytes.Contains(src, m.lit)
	case m.file != nil:
		return m.file.Match(src)
	}
	return true
}

// readText returns a file's content, or nil for unreadable and binary files
// (a NUL in the first 8000 bytes, as git decides).
func readText(abs string) []byte {
	src, err := os.ReadFile(abs)
	if err != nil || bytes.IndexByte(src[:min(len(src), binarySniffBytes)], 0) >= 0 {
		return nil
	}
	return src
}

// searchFile returns up to max matching lines of one file, each with up to
// around lines before and after it; binary files have none.
func searchFile(abs, rel string, m *matcher, limit, around int) []SearchMatch {
	src := readText(abs)
	if src == nil || !m.mayMatch(src) { // most files do not match
		return nil
	}
	var out []SearchMatch
	var lines [][]byte // every line, kept only when context is asked for
	var hits []int     // indexes into lines of the matches
	line := 1
	for len(src) > 0 && len(out) < limit {
		end := bytes.IndexByte(src, '\n')
		l := src
		if end >= 0 {
			l = src[:end]
		}
		if around > 0 {
			lines = append(lines, l)
		}
		if at := m.index(l); at >= 0 {
			out = append(out, SearchMatch{Path: rel, Line: line, Text: clipLine(l, at)})
			hits = append(hits, line-1)
		}
		if end < 0 {
			break
		}
		src = src[end+1:]
		line++
	}
	if around > 0 && len(out) > 0 {
		// The lines after the last match are still to be read.
		for extra := 0; len(src) > 0 && extra < around; extra++ {
			end := bytes.IndexByte(src, '\n')
			if end < 0 {
				lines = append(lines, src)
				break
			}
			lines = append(lines, src[:end])
			src = src[end+1:]
		}
		shown := -1 // last line index already shown
		for k, h := range hits {
			lo := max(h-around, shown+1)
			for i := lo; i < h; i++ {
				out[k].Before = append(out[k].Before, clipLine(lines[i], 0))
			}
			hi := min(h+around, len(lines)-1)
			if k+1 < len(hits) {
				hi = min(hi, hits[k+1]-1)
			}
			for i := h + 1; i <= hi; i++ {
				out[k].After = append(out[k].After, clipLine(lines[i], 0))
			}
			shown = max(h, hi)
		}
	}
	return out
}

// searchFiles lists the files with a matching line, in path order.
func searchFiles(ctx context.Context, files []walk.File, m *matcher, res *SearchResult, opt SearchOptions) (*SearchResult, error) {
	res.Files, res.Context = []string{}, 0
	workers := runtime.GOMAXPROCS(0)
	const chunk = 256
	hit := make([]bool, chunk)
	for lo := 0; lo < len(files) && !res.Truncated; lo += chunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+chunk, len(files))
		eachParallel(lo, hi, workers, func(i int) { hit[i-lo] = fileMatches(files[i].Abs, m) })
		for i := 0; i < hi-lo; i++ {
			if !hit[i] {
				res.FilesSearched++
				continue
			}
			if len(res.Files) >= opt.MaxResults {
				res.Truncated = true
				break
			}
			res.FilesSearched++
			res.FilesMatched++
			res.Files = append(res.Files, files[lo+i].Path)
		}
	}
	return res, nil
}

// fileMatches reports whether a line of the text file abs matches.
func fileMatches(abs string, m *matcher) bool {
	src := readText(abs)
	if src == nil || !m.mayMatch(src) {
		return false
	}
	if m.re == nil {
		return bytes.IndexByte(m.lit, '\n') < 0 // lines never hold a newline
	}
	for l := range bytes.Lines(src) {
		if m.index(bytes.TrimSuffix(l, []byte("\n"))) >= 0 {
			return true
		}
	}
	return false
}

// clipLine returns the line, trimmed and cut to maxMatchLineBytes around
// the match at byte at.
func clipLine(l []byte, at int) string {
	l = bytes.TrimRight(l, "\r")
	if len(l) <= maxMatchLineBytes {
		return strings.ToValidUTF8(strings.TrimSpace(string(l)), "\uFFFD")
	}
	lo := max(0, at-maxMatchLineBytes/3)
	hi := min(len(l), lo+maxMatchLineBytes)
	s := strings.ToValidUTF8(string(l[lo:hi]), "")
	if lo > 0 {
		s = "…" + s
	}
	if hi < len(l) {
		s += "…"
	}
	return strings.TrimSpace(s)
}

// globMatch matches a slash path against a glob. A glob without "/" matches
// the base name; "**" matches any number of directories.
func globMatch(glob, p string) bool {
	if !strings.Contains(glob, "/") {
		ok, _ := path.Match(glob, path.Base(p))
		return ok
	}
	return matchSegs(strings.Split(glob, "/"), strings.Split(p, "/"))
}

func matchSegs(g, p []string) bool {
	for len(g) > 0 {
		if g[0] == "**" {
			for i := 0; i <= len(p); i++ {
				if matchSegs(g[1:], p[i:]) {
					return true
				}
			}
			return false
		}
		if len(p) == 0 {
			return false
		}
		if ok, _ := path.Match(g[0], p[0]); !ok {
			return false
		}
		g, p = g[1:], p[1:]
	}
	return len(p) == 0
}

// Render writes the matches as grep does: path:line: text, context lines
// as path-line- text with -- between groups that do not touch, or with
// FilesOnly one path a line.
func (r *SearchResult) Render(w io.Writer) {
	if r.Files != nil {
		for _, f := range r.Files {
			fmt.Fprintln(w, f)
		}
		switch {
		case len(r.Files) == 0:
			fmt.Fprintf(w, "no matches in %d files\n", r.FilesSearched)
		case r.Truncated:
			fmt.Fprintf(w, "(stopped at %d files; narrow the pattern, or the files with --glob (path_glob over MCP))\n", len(r.Files))
		}
		return
	}
	lastPath, lastLine := "", 0
	for _, m := range r.Matches {
		first := m.Line - len(m.Before)
		if r.Context > 0 && lastPath != "" && (m.Path != lastPath || first > lastLine+1) {
			fmt.Fprintln(w, "--")
		}
		for i, l := range m.Before {
			fmt.Fprintf(w, "%s-%d-%s\n", m.Path, first+i, spaced(l))
		}
		fmt.Fprintf(w, "%s:%d: %s\n", m.Path, m.Line, m.Text)
		for i, l := range m.After {
			fmt.Fprintf(w, "%s-%d-%s\n", m.Path, m.Line+1+i, spaced(l))
		}
		lastPath, lastLine = m.Path, m.Line+len(m.After)
	}
	switch {
	case len(r.Matches) == 0:
		fmt.Fprintf(w, "no matches in %d files\n", r.FilesSearched)
	case r.Truncated:
		fmt.Fprintf(w, "(stopped at %d matches; narrow the pattern, or the files with --glob (path_glob over MCP))\n", len(r.Matches))
	}
}

// spaced puts a space before a non-empty context line.
func spaced(l string) string {
	if l == "" {
		return ""
	}
	return " " + l
}

// ReadResult is a slice of one file.
type ReadResult struct {
	Path       string `json:"path"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
	TotalLines int    `json:"total_lines"`
	Content    string `json:"content"`
	Truncated  bool   `json:"truncated"`
}

// ReadFile returns lines start..end (1-based, inclusive; 0 means the
// defaults: from line 1, DefaultReadLines lines) of the file p inside root,
// cut at MaxReadLines lines and about maxReadTokens tokens.
func ReadFile(root, p string, start, end int) (*ReadResult, error) {
	abs, rel, err := walk.Confine(root, p, graph.IndexDirName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no file %q in the repository; find paths with wiki_query or wiki_search", p)
	}
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("cannot read %q: %v", p, err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%q is a directory; list its files with wiki_query %q or wiki_search with path_glob %q", p, "module:"+rel, rel+"/**")
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%q is not a regular file", p)
	}
	if start < 0 || end < 0 {
		return nil, errors.New("line numbers start at 1")
	}
	if start == 0 {
		start = 1
	}
	if end != 0 && end < start {
		return nil, fmt.Errorf("end_line %d is before start_line %d", end, start)
	}
	if end == 0 {
		end = start + DefaultReadLines - 1
	}
	cut := false
	if end-start+1 > MaxReadLines {
		end, cut = start+MaxReadLines-1, true
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, fmt.Errorf("cannot read %q: %v", p, err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	head, _ := br.Peek(binarySniffBytes)
	if bytes.IndexByte(head, 0) >= 0 {
		return nil, fmt.Errorf("%q is a binary file; wiki_read shows text only", p)
	}
	res := &ReadResult{Path: rel, StartLine: start}
	var b strings.Builder
	tokens := 0
	n := 0
	for {
		l, err := br.ReadSlice('\n')
		if len(l) > 0 || err == nil {
			n++
			if n >= start && n <= end && !res.Truncated {
				line := bytes.TrimRight(l, "\r\n")
				if len(line) > maxReadLineBytes {
					line = append(line[:maxReadLineBytes:maxReadLineBytes], " …(line cut)"...)
				}
				s := strings.ToValidUTF8(string(line), "\uFFFD") + "\n"
				t := engine.CountTokens(s)
				if tokens+t > maxReadTokens {
					res.Truncated = true
				} else {
					tokens += t
					b.WriteString(s)
					res.EndLine = n
				}
			}
		}
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: skip the rest of it.
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
		}
		if err != nil {
			break
		}
	}
	res.TotalLines = n
	res.Content = b.String()
	if res.EndLine == 0 {
		if start > n {
			return nil, fmt.Errorf("%q has %d lines; start_line %d is past the end", p, n, start)
		}
		res.EndLine = start - 1
	}
	if cut && res.EndLine < n {
		res.Truncated = true
	}
	if res.EndLine < min(end, n) {
		res.Truncated = true
	}
	return res, nil
}

// Render writes the slice with line numbers.
func (r *ReadResult) Render(w io.Writer) {
	fmt.Fprintf(w, "%s:%d-%d (of %d lines)\n", r.Path, r.StartLine, r.EndLine, r.TotalLines)
	n := r.StartLine
	for l := range strings.Lines(r.Content) {
		fmt.Fprintf(w, "%6d  %s", n, l)
		n++
	}
	if r.Truncated {
		fmt.Fprintf(w, "(cut at line %d to stay within limits; read on with start_line %d)\n", r.EndLine, r.EndLine+1)
	}
}

// eachParallel calls f(i) for every i in [lo, hi) on workers goroutines and
// returns when all calls have returned. f must be safe to run concurrently
// for distinct i.
func eachParallel(lo, hi, workers int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int, hi-lo)
	for i := lo; i < hi; i++ {
		next <- i
	}
	close(next)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	wg.Wait()
}
