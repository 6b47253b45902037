package engine

import (
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
	run := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			if run > 0 {
				n += (run + 4) / 5
				run = 0
			}
			_, size := utf8.DecodeRuneInString(s[i:])
			n++
			i += size
			continue
		}
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			run++
			i++
			continue
		}
		if run > 0 {
			n += (run + 4) / 5
			run = 0
		}
		if c != ' ' && c != '\t' && c != '\r' {
			n++
		}
		i++
	}
	if run > 0 {
		n += (run + 4) / 5
	}
	return n
}

// Render returns the compact text form of the whole answer, the text an
// agent receives: one block per stub, in rank order, then a line saying how
// many more matched when the answer was truncated (only if it fits).
// UsedTokens is CountTokens(r.Render()).
func (r Result) Render() string {
	var b strings.Builder
	used := 0
	if t := noteLine(r.Note); r.Note != "" && CountTokens(t) <= r.BudgetTokens {
		used += CountTokens(t)
		b.WriteString(t)
	}
	for i := range r.Results {
		t := renderStub(&r.Results[i])
		used += CountTokens(t)
		b.WriteString(t)
	}
	if len(r.Results) == 0 && !r.Truncated {
		if t := emptyLine(r.Query); used+CountTokens(t) <= r.BudgetTokens {
			b.WriteString(t)
		}
		return b.String()
	}
	if r.Truncated {
		if t := moreLine(r.More, r.MoreAtLeast); used+CountTokens(t) <= r.BudgetTokens {
			b.WriteString(t)
		}
	}
	return b.String()
}

// renderStub renders one stub:
//
//	symbol:engine/pack.go#countTokens :41
//	  func countTokens(s string) int
//	  countTokens estimates …
//	  symbols: Ranker.Query:42, Ranker.score:88
func renderStub(s *Stub) string {
	var b strings.Builder
	b.WriteString(oneLine(s.ID))
	if s.Line > 0 {
		b.WriteString(" :")
		b.WriteString(strconv.Itoa(s.Line))
	}
	b.WriteByte('\n')
	if s.Title != "" && s.Title != s.Path {
		b.WriteString("  ")
		b.WriteString(oneLine(s.Title))
		b.WriteByte('\n')
	}
	if s.Snippet != "" {
		b.WriteString("  ")
		b.WriteString(oneLine(s.Snippet))
		b.WriteByte('\n')
	}
	if len(s.Symbols) > 0 {
		b.WriteString("  symbols:")
		for i, name := range s.Symbols {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte(' ')
			b.WriteString(oneLine(name))
			if i < len(s.symLines) && s.symLines[i] > 0 {
				b.WriteByte(':')
				b.WriteString(strconv.Itoa(s.symLines[i]))
			}
		}
		b.WriteByte('\n')
	}
	if s.Explain != "" {
		b.WriteString("  explain: ")
		b.WriteString(oneLine(s.Explain))
		b.WriteByte('\n')
	}
	return b.String()
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
	if strings.ContainsAny(s, "\n\r\t") {
		s = strings.Join(strings.Fields(s), " ")
	}
	return s
}

// packer fills a Result with stubs in rank order, never over budget. It is
// greedy in rank order rather than by score per token: an agent reads the
// list top-down, and dropping the best stub because it is long would cost
// more than the tokens it saves. A stub that does not fit is shrunk
// (symbols trimmed, snippet dropped) before it is skipped; a skipped stub
// counts in More, and smaller later stubs may still fill the rest.
type packer struct {
	r       *Result
	used    int
	reserve int // tokens kept for the "more" line
	skipped int
}

func newPacker(r *Result) *packer {
	p := &packer{r: r, reserve: CountTokens(moreLine(1<<20, false))}
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
	// Each step shrinks the stub once; the steps are finite, so is the loop.
	for step := 0; ; step++ {
		t := CountTokens(renderStub(&s))
		if t <= room {
			p.used += t
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

// finish sets UsedTokens to the exact count of the rendered answer.
func (p *packer) finish() {
	if p.r.More > 0 {
		p.r.Truncated = true
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
