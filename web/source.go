package web

import (
	"bufio"
	"bytes"
	"context"
	"html/template"
	"io"
	"os"
	"path"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/cespare/xxhash/v2"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/walk"
	"github.com/wikitoolkit/wikitoolkit/parser"
)

// Source windows: a file page shows windowLines lines at most, from a line
// that is 1 plus a multiple of windowLines, so that a line's window (and
// its exported file) follows from the line alone. A line is cut at
// maxLineBytes, and the window's text at windowBytes (lines are then cut
// shorter): with the highlighter's markup (about 3x the text on Go) a file
// page stays under 150 KB on moby's largest files.
const (
	windowLines  = 200
	windowBytes  = 40 << 10
	maxLineBytes = 400
	// maxFileBytes bounds what is read of a file to find its window.
	maxFileBytes = 32 << 20
)

// windowStart is the first line of the window that holds line.
func windowStart(line int) int {
	if line <= 1 {
		return 1
	}
	return (line-1)/windowLines*windowLines + 1
}

// sourceView is one highlighted window of a file.
type sourceView struct {
	HTML       template.HTML
	From, To   int    // lines shown
	Total      int    // lines in the file (of what was read)
	Cut        bool   // long lines were cut
	CutAt      string // a symbol's source stops before its end: where
	Prev, Next string // URLs of the windows before and after, "" at the ends
	Missing    string // why there is no source ("" when there is)
	Prose      bool   // text to read (Markdown, plain text): long lines wrap
}

// prose reports a file people read as text, whose long lines should wrap.
func prose(rel, lang string) bool {
	switch lang {
	case "markdown", "text", "rst", "asciidoc":
		return true
	}
	switch strings.ToLower(path.Ext(rel)) {
	case ".md", ".markdown", ".txt", ".rst", ".adoc":
		return true
	}
	return false
}

// readWindow returns lines from..from+windowLines-1 of the file at rel
// under root (walk.Confine: nothing outside root, in .git or in the index), each cut at
// a byte limit, and the file's line count.
func readWindow(root, rel string, from int) (lines []string, total int, cut bool, err error) {
	full, _, err := walk.Confine(root, rel, graph.IndexDirName)
	if err != nil {
		return nil, 0, false, err
	}
	f, err := os.Open(full)
	if err != nil {
		return nil, 0, false, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(io.LimitReader(f, maxFileBytes), 64<<10)
	head, _ := br.Peek(8 << 10)
	if bytes.IndexByte(head, 0) >= 0 {
		return nil, 0, false, errBinary
	}
	to := from + windowLines - 1
	n := 0
	for {
		l, err := br.ReadSlice('\n')
		if len(l) > 0 {
			n++
			if n >= from && n <= to {
				line := bytes.TrimRight(l, "\r\n")
				if len(line) > maxLineBytes {
					line, cut = line[:maxLineBytes], true
				}
				lines = append(lines, strings.ToValidUTF8(string(line), "\uFFFD"))
			}
		}
		for err == bufio.ErrBufferFull { // a line longer than the buffer
			_, err = br.ReadSlice('\n')
		}
		if err != nil {
			break
		}
	}
	// Cut lines shorter when the window's text is too large.
	size := 0
	for _, l := range lines {
		size += len(l) + 1
	}
	if size > windowBytes && len(lines) > 0 {
		limit := max(windowBytes/len(lines), 40)
		for i, l := range lines {
			if len(l) > limit {
				lines[i], cut = strings.ToValidUTF8(l[:limit], ""), true
			}
		}
	}
	return lines, n, cut, nil
}

type errString string

func (e errString) Error() string { return string(e) }

const errBinary = errString("binary file")

// parsers lends tree-sitter parsers to the highlighter (one holds C
// memory; making one per page would cost more than the highlighting).
var parsers = sync.Pool{New: func() any { return parser.NewParser() }}

// treeTokens highlights text, the source of a file at rel, from its
// language's tree-sitter syntax tree (parser.Highlight): the grammars the
// index parses with, so no second set of lexers (chroma's registered
// every lexer at each start of the program, every command's: 21 ms). A
// language without a grammar comes back as plain text.
func treeTokens(rel, text string) []chroma.Token {
	p := parsers.Get().(*parser.Parser)
	spans := p.Highlight(context.Background(), rel, []byte(text))
	parsers.Put(p)
	toks := make([]chroma.Token, 0, 2*len(spans)+1)
	at := 0
	for _, sp := range spans {
		if sp.Start < at || sp.End > len(text) {
			continue
		}
		if sp.Start > at {
			toks = append(toks, chroma.Token{Type: chroma.Text, Value: text[at:sp.Start]})
		}
		toks = append(toks, chroma.Token{Type: spanTokens[sp.Class], Value: text[sp.Start:sp.End]})
		at = sp.End
	}
	if at < len(text) {
		toks = append(toks, chroma.Token{Type: chroma.Text, Value: text[at:]})
	}
	return toks
}

// spanTokens are the chroma token types of the highlighter's classes.
var spanTokens = map[parser.SpanClass]chroma.TokenType{
	parser.SpanComment: chroma.Comment, parser.SpanString: chroma.LiteralString,
	parser.SpanNumber: chroma.LiteralNumber, parser.SpanKeyword: chroma.Keyword,
}

// style is what chroma's formatter is given: with classes it writes
// class names only and reads no colour from it, so it is empty. The
// colours are github's, in static/chroma.css (TestChromaCSS holds it to
// chroma's own): importing chroma's styles package would parse all its
// styles at every start of the program, every command's (20 ms).
var style = chroma.MustNewStyle("classes", chroma.StyleEntries{})

// formatter writes classes (the stylesheet colours them), a line number
// per line linked to its own anchor (#L12).
func formatter(from int) *chromahtml.Formatter {
	return chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithLineNumbers(true),
		chromahtml.WithLinkableLineNumbers(true, "L"), chromahtml.BaseLineNumber(from), chromahtml.TabWidth(4))
}

// highlight returns lines (the first numbered from) as highlighted HTML.
// Highlighting is most of a file page's time (chroma's lexers are regular
// expressions: about 40 µs a line of Go on a loaded 2-core machine), so
// the result is kept in a cache keyed by the text's hash.
func highlight(rel, lang string, lines []string, from int) template.HTML {
	text := strings.Join(lines, "\n") + "\n"
	key := hlKey{path: rel, lang: lang, from: from, hash: xxhash.Sum64String(text), size: len(text)}
	if h, ok := highlighted.get(key); ok {
		return h
	}
	h := highlightText(rel, lang, text, from)
	highlighted.put(key, h)
	return h
}

// highlightText highlights text, its first line numbered from.
func highlightText(rel, lang, text string, from int) template.HTML {
	var b strings.Builder
	b.Grow(len(text) * 4)
	var it chroma.Iterator
	var err error
	if strings.HasSuffix(rel, ".go") {
		it = chroma.Literator(goTokens(text)...)
	} else {
		it = chroma.Literator(treeTokens(rel, text)...)
	}
	if err == nil {
		err = formatter(from).Format(&b, style, it)
	}
	if err != nil {
		// Plain text, still numbered and anchored.
		b.Reset()
		_ = formatter(from).Format(&b, style, chroma.Literator(chroma.Token{Type: chroma.Text, Value: text}))
	}
	return template.HTML(b.String()) // chroma escapes every token
}

// hlKey names one highlighted text.
type hlKey struct {
	path, lang string
	from, size int
	hash       uint64
}

// hlCacheBytes bounds the cache of highlighted windows (about 250 file
// windows of moby's, 40-100 KB each).
const hlCacheBytes = 16 << 20

// hlCache is a least-recently-used cache of highlighted HTML, bounded in
// bytes. Safe for concurrent use.
type hlCache struct {
	mu    sync.Mutex
	max   int
	bytes int
	items map[hlKey]*hlEntry
	head  hlEntry // sentinel of the recency ring: head.next is the newest
}

type hlEntry struct {
	key        hlKey
	html       template.HTML
	prev, next *hlEntry
}

var highlighted = newHLCache(hlCacheBytes)

func newHLCache(max int) *hlCache {
	c := &hlCache{max: max, items: map[hlKey]*hlEntry{}}
	c.head.prev, c.head.next = &c.head, &c.head
	return c
}

func (c *hlCache) unlink(e *hlEntry) { e.prev.next, e.next.prev = e.next, e.prev }

func (c *hlCache) front(e *hlEntry) {
	e.prev, e.next = &c.head, c.head.next
	c.head.next.prev = e
	c.head.next = e
}

func (c *hlCache) get(k hlKey) (template.HTML, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if !ok {
		return "", false
	}
	c.unlink(e)
	c.front(e)
	return e.html, true
}

func (c *hlCache) put(k hlKey, h template.HTML) {
	if len(h) > c.max/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[k]; ok {
		return
	}
	// The key's strings are copied: a page's path and language are
	// strings of its segment's page text, all of which a cached key would
	// keep (a web wiki at 100k files grew by 1.7 MB a file page viewed).
	k.path, k.lang = strings.Clone(k.path), strings.Clone(k.lang)
	e := &hlEntry{key: k, html: h}
	c.items[k] = e
	c.front(e)
	c.bytes += len(h)
	for c.bytes > c.max {
		old := c.head.prev
		c.unlink(old)
		delete(c.items, old.key)
		c.bytes -= len(old.html)
	}
}

// reset empties the cache (benchmarks of the cold path).
func (c *hlCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items, c.bytes = map[hlKey]*hlEntry{}, 0
	c.head.prev, c.head.next = &c.head, &c.head
}
