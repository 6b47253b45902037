package engine

import (
	"path"
	"strconv"
	"strings"
	"unicode/utf8"
)

// CountTokens estimates how many tokens a BPE tokenizer (cl100k/o200k
// class) needs for s. It errs high on code: a run of letters and digits
// costs one token per started 5 bytes (common words and identifier pieces
// are single tokens; long identifiers split), every other visible ASCII
// byte costs one, a newline one, spaces nothing (they merge into the next
// word), and every non-ASCII rune one. It is additive over lines: the count
// of a text is the sum of the counts of its lines joined by "\n", which is
// what lets the packer count stubs one at a time.
func CountTokens(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if alnumASCII[c] { // a run: one token per started 5 bytes
			j := i + 1
			for j < len(s) && alnumASCII[s[j]] {
				j++
			}
			n += (j - i + 4) / 5
			i = j
			continue
		}
		if c >= utf8.RuneSelf {
			_, size := utf8.DecodeRuneInString(s[i:])
			n++
			i += size
			continue
		}
		if c != ' ' && c != '\t' && c != '\r' {
			n++
		}
		i++
	}
	return n
}

// alnumASCII marks the ASCII letters and digits, the bytes of CountTokens's runs.
var alnumASCII = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	return t
}()

// Render returns the compact text form of the whole answer, the text an
// agent receives: one block per stub, in rank order, then a line saying how
// many more matched when the answer was truncated (only if it fits).
// UsedTokens is CountTokens(r.Render()).
func (r Result) Render() string {
	var b []byte
	used := 0
	if t, n, ok := r.noteFits(); ok {
		used += n
		b = append(b, t...)
	}
	for i := range r.Results {
		start := len(b)
		b = appendStub(b, &r.Results[i])
		used += CountTokens(unsafeString(b[start:]))
	}
	if t := r.lastLine(used); t != "" {
		b = append(b, t...)
	}
	return string(b)
}

// noteFits returns the answer's note line and its tokens, ok when the
// answer has a note that fits the budget (Render writes it first).
func (r *Result) noteFits() (line string, tokens int, ok bool) {
	if r.Note == "" {
		return "", 0, false
	}
	line = noteLine(r.Note)
	tokens = CountTokens(line)
	return line, tokens, tokens <= r.BudgetTokens
}

// lastLine is the line Render ends the answer with after stubs taking
// used tokens (with the note): "no results" for an empty answer, the
// "more" line for a truncated one, if it fits; else "".
func (r *Result) lastLine(used int) string {
	var t string
	switch {
	case len(r.Results) == 0 && !r.Truncated:
		t = emptyLine(r.Query)
	case r.Truncated:
		t = moreLine(r.More, r.MoreAtLeast)
	default:
		return ""
	}
	if used+CountTokens(t) > r.BudgetTokens {
		return ""
	}
	return t
}

// renderedTokens is CountTokens(r.Render()) when the stubs render to
// stubTokens tokens, without rendering them: CountTokens is additive over
// the answer's lines, and every block ends with a newline.
func (r *Result) renderedTokens(stubTokens int) int {
	used := stubTokens
	if _, n, ok := r.noteFits(); ok {
		used += n
	}
	return used + CountTokens(r.lastLine(used))
}

// renderStub renders one stub:
//
//	symbol:engine/pack.go#countTokens :41
//	  func countTokens(s string) int
//	  countTokens estimates …
//	  symbols: Ranker.Query:42, Ranker.score:88
func renderStub(s *Stub) string { return string(appendStub(nil, s)) }

// appendStub appends renderStub(s) to b: the packer measures each stub in
// one reused buffer rather than building a string per try.
func appendStub(b []byte, s *Stub) []byte {
	b = append(b, oneLine(s.ID)...)
	if s.Line > 0 {
		b = append(b, " :"...)
		b = strconv.AppendInt(b, int64(s.Line), 10)
	}
	b = append(b, '\n')
	if s.Title != "" && s.Title != s.Path {
		b = append(b, "  "...)
		b = append(b, oneLine(s.Title)...)
		b = append(b, '\n')
	}
	if s.Snippet != "" {
		b = append(b, "  "...)
		b = append(b, oneLine(s.Snippet)...)
		b = append(b, '\n')
	}
	if len(s.Symbols) > 0 {
		b = append(b, "  symbols:"...)
		for i, name := range s.Symbols {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, ' ')
			b = append(b, oneLine(name)...)
			if i < len(s.symLines) && s.symLines[i] > 0 {
				b = append(b, ':')
				b = strconv.AppendInt(b, int64(s.symLines[i]), 10)
			}
		}
		b = append(b, '\n')
	}
	b = appendCopies(b, s)
	if s.Explain != "" {
		b = append(b, "  explain: "...)
		b = append(b, oneLine(s.Explain)...)
		b = append(b, '\n')
	}
	return b
}

func emptyLine(q string) string {
	if len(q) > 80 {
		q = firstLine(q, 80)
	}
	return "no results for " + strconv.Quote(oneLine(q)) + "\n"
}

// moreLine is the line that ends a truncated answer, counting the matches
// left out. With atLeast, more is a lower bound (Result.MoreAtLeast) and is written
// "N+": as many tokens as the reserve's seven digits up to 99999.
func moreLine(more int, atLeast bool) string {
	n := strconv.Itoa(more)
	if atLeast {
		n += "+"
	}
	return "… " + n + " more matched; raise the budget or narrow the question\n"
}

// oneLine folds newlines and tabs so a field cannot break the layout.
func oneLine(s string) string {
	if hasBreak(s) {
		s = strings.Join(strings.Fields(s), " ")
	}
	return s
}

// hasBreak reports whether s holds a newline, carriage return or tab
// (strings.ContainsAny, without building a set per call: the packer
// checks every field of every stub it measures).
func hasBreak(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= '\r' && (c == '\n' || c == '\r' || c == '\t') {
			return true
		}
	}
	return false
}

// packer fills a Result with stubs in rank order, never over budget. It is
// greedy in rank order rather than by score per token: an agent reads the
// list top-down, and dropping the best stub because it is long would cost
// more than the tokens it saves. A stub that does not fit is shrunk
// (symbols trimmed, snippet dropped) before it is skipped; a skipped stub
// counts in More, and smaller later stubs may still fill the rest.
type packer struct {
	r          *Result
	used       int
	stubTokens int // tokens of the stubs in r.Results
	reserve    int // tokens kept for the "more" line
	skipped    int
	copies     map[string]int // foldKey → index in r.Results (addFolding)
}

// moreReserve is the packer's reserve: the tokens of the longest "more" line.
var moreReserve = CountTokens(moreLine(1<<20, false))

func newPacker(r *Result) packer {
	p := packer{r: r, reserve: moreReserve}
	if r.Note != "" {
		p.used = CountTokens(noteLine(r.Note))
	}
	return p
}

// noteLine is the line an answer's Note is written as, first.
func noteLine(note string) string { return "(" + oneLine(note) + ")\n" }

// full reports that not even the smallest stub could fit any more.
func (p *packer) full() bool { return p.r.BudgetTokens-p.used-p.reserve < minStubTokens }

// minStubTokens is about the size of the smallest useful stub (an ID line).
const minStubTokens = 6

// maxSkippedStubs ends packing after this many stubs did not fit even
// shrunk: the rest only count in More. Without it a nearly full answer
// rendered every remaining match of a broad question (56% of query time
// on the 50k-page benchmark).
const maxSkippedStubs = 4

func (p *packer) add(s Stub) {
	room := p.r.BudgetTokens - p.used - p.reserve
	// The stub is measured line by line (stubLines), not rendered; a
	// step that shrinks it measures again only the line it changed.
	var lt stubLines
	lt.measure(&s)
	// Each step shrinks the stub once; the steps are finite, so is the loop.
	for step := 0; ; step++ {
		if step > 0 {
			lt.remeasure(&s, step-1)
		}
		t := lt.total()
		if t <= room {
			p.used += t
			p.stubTokens += t
			p.r.Results = append(p.r.Results, s)
			return
		}
		switch step {
		case 0:
			s.Explain = ""
		case 1:
			if len(s.Symbols) > 2 {
				s.Symbols, s.symLines = s.Symbols[:2], s.symLines[:min(2, len(s.symLines))]
			}
		case 2:
			if len(s.Snippet) > 60 {
				s.Snippet = firstLine(s.Snippet, 60)
			}
		case 3:
			s.Snippet = ""
		case 4:
			s.Symbols, s.symLines = nil, nil
		case 5:
			if len(s.Title) > 80 {
				s.Title = firstLine(s.Title, 80)
			}
		default:
			p.skipped++
			p.r.Truncated = true
			p.r.More++
			return
		}
	}
}

// addFolding is add, except that a stub of a data file (data) that copies
// one already in the answer (foldKey: a versioned copy of an API spec, a
// configuration per environment) is folded into that stub, as one more of
// its Copies, instead of taking a stub of its own. A copy that does not
// fit counts in More.
func (p *packer) addFolding(s Stub, data bool) {
	key, ok := foldKey(&s, data)
	if !ok {
		p.add(s)
		return
	}
	if j, seen := p.copies[key]; seen {
		kept := &p.r.Results[j]
		before := copiesTokens(kept)
		kept.Copies = append(kept.Copies, place(&s))
		delta := copiesTokens(kept) - before
		if delta > p.r.BudgetTokens-p.used-p.reserve {
			kept.Copies = kept.Copies[:len(kept.Copies)-1]
			p.r.Truncated = true
			p.r.More++
			return
		}
		p.used += delta
		p.stubTokens += delta
		return
	}
	n := len(p.r.Results)
	p.add(s)
	if len(p.r.Results) > n {
		if p.copies == nil {
			p.copies = map[string]int{}
		}
		p.copies[key] = n
	}
}

// foldKey is what a stub's copies share (addFolding); ok only for a data
// file's stub. A symbol: its kind, the qualified name in its ID, its
// title and snippet. A file: its folder and extension, its snippet (not
// empty) and the names of its listed symbols (moby's api/docs/v1.25.yaml
// … v1.55.yaml, matched by a literal past their keys).
func foldKey(s *Stub, data bool) (string, bool) {
	if !data {
		return "", false
	}
	switch s.Kind {
	case "symbol":
		_, qual, ok := strings.Cut(s.ID, "#")
		if !ok {
			return "", false
		}
		return "s\x00" + qual + "\x00" + s.Title + "\x00" + s.Snippet, true
	case "file":
		if s.Snippet == "" {
			return "", false
		}
		dir, base := path.Split(s.Path)
		return "f\x00" + dir + "\x00" + path.Ext(base) + "\x00" + s.Snippet + "\x00" + strings.Join(s.Symbols, "\x00"), true
	}
	return "", false
}

// place is where a stub points: "path:line".
func place(s *Stub) string {
	if s.Line > 0 {
		return s.Path + ":" + strconv.Itoa(s.Line)
	}
	return s.Path
}

// copiesShown is how many of a stub's Copies its text lists; the rest
// are counted.
const copiesShown = 3

// appendCopies appends the line listing s's Copies, if any:
//
//	copies: api/docs/v1.48.yaml:5729, api/docs/v1.49.yaml:5729, api/docs/v1.50.yaml:5573 (+28)
func appendCopies(b []byte, s *Stub) []byte {
	if len(s.Copies) == 0 {
		return b
	}
	b = append(b, "  copies:"...)
	for i, c := range s.Copies[:min(len(s.Copies), copiesShown)] {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, ' ')
		b = append(b, oneLine(c)...)
	}
	if n := len(s.Copies) - copiesShown; n > 0 {
		b = append(b, " (+"...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, ')')
	}
	return append(b, '\n')
}

// copiesTokens is the tokens of s's copies line.
func copiesTokens(s *Stub) int {
	if len(s.Copies) == 0 {
		return 0
	}
	return CountTokens(unsafeString(appendCopies(nil, s)))
}

// finish sets UsedTokens to the exact count of the rendered answer,
// from the counts add took (renderedTokens), without rendering it again.
func (p *packer) finish() {
	if p.r.More > 0 {
		p.r.Truncated = true
	}
	if p.r.UsedTokens = p.r.renderedTokens(p.stubTokens); p.r.UsedTokens <= p.r.BudgetTokens || len(p.r.Results) == 0 {
		return
	}
	for {
		p.r.UsedTokens = CountTokens(p.r.Render())
		if p.r.UsedTokens <= p.r.BudgetTokens || len(p.r.Results) == 0 {
			break
		}
		// Unreachable while CountTokens is additive; kept as the guarantee.
		p.r.Results = p.r.Results[:len(p.r.Results)-1]
		p.r.More++
		p.r.Truncated = true
	}
}

// stubLines are the tokens of each line of a stub as appendStub renders
// it. CountTokens is additive over the lines of a text, and within a line
// over pieces that meet at an ASCII byte that is not a letter or digit:
// every field of a stub is set off by such bytes (" :", "  ", ", ", ':',
// the newline), so a line's count is the sum of its pieces' counts, and
// no stub need be rendered to be measured.
type stubLines struct {
	id, title, snippet, symbols, explain int
}

// Tokens of the fixed pieces of a stub's lines.
var (
	newlineTokens = CountTokens("\n")
	colonTokens   = CountTokens(" :")
	symbolsTokens = CountTokens("  symbols:")
	explainTokens = CountTokens("  explain: ")
	commaTokens   = CountTokens(", ")
	symColonTok   = CountTokens(":")
)

// measure counts every line of s.
func (l *stubLines) measure(s *Stub) {
	l.id = fieldTokens(s.ID) + newlineTokens
	if s.Line > 0 {
		l.id += colonTokens + intTokens(s.Line)
	}
	l.title = titleTokens(s)
	l.snippet = snippetTokens(s)
	l.symbols = symbolsLineTokens(s)
	l.explain = 0
	if s.Explain != "" {
		l.explain = explainTokens + fieldTokens(s.Explain) + newlineTokens
	}
}

// remeasure counts again the line packer.add's shrinking step changed.
func (l *stubLines) remeasure(s *Stub, step int) {
	switch step {
	case 0:
		l.explain = 0
	case 1, 4:
		l.symbols = symbolsLineTokens(s)
	case 2, 3:
		l.snippet = snippetTokens(s)
	case 5:
		l.title = titleTokens(s)
	}
}

func (l *stubLines) total() int { return l.id + l.title + l.snippet + l.symbols + l.explain }

func titleTokens(s *Stub) int {
	if s.Title == "" || s.Title == s.Path {
		return 0
	}
	return fieldTokens(s.Title) + newlineTokens // "  " costs nothing
}

func snippetTokens(s *Stub) int {
	if s.Snippet == "" {
		return 0
	}
	return fieldTokens(s.Snippet) + newlineTokens
}

func symbolsLineTokens(s *Stub) int {
	if len(s.Symbols) == 0 {
		return 0
	}
	n := symbolsTokens + newlineTokens
	for i, name := range s.Symbols {
		if i > 0 {
			n += commaTokens // ", " as the "," and " " appendStub writes
		}
		n += fieldTokens(name)
		if i < len(s.symLines) && s.symLines[i] > 0 {
			n += symColonTok + intTokens(s.symLines[i])
		}
	}
	return n
}

// fieldTokens is CountTokens(oneLine(s)).
func fieldTokens(s string) int { return CountTokens(oneLine(s)) }

// intTokens is CountTokens(strconv.Itoa(v)) for v > 0: its digits are
// one run.
func intTokens(v int) int {
	d := 0
	for ; v > 0; v /= 10 {
		d++
	}
	return (d + 4) / 5
}
