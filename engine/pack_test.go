package engine

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestPackerMeasuresWithoutAllocating guards the packer's measuring: each
// stub is counted line by line without being rendered, and finish sums
// the counts rather than rendering the answer again, so packing stubs
// that are already built allocates nothing. UsedTokens stays the count of
// the rendered answer.
func TestPackerMeasuresWithoutAllocating(t *testing.T) {
	var stubs []Stub
	for i := range 40 {
		stubs = append(stubs, Stub{ID: "symbol:engine/pack.go#packer.add", Kind: "symbol", Title: "func (p *packer) add(s Stub)",
			Path: "engine/pack.go", Line: 100 + i, Snippet: "add appends a stub if it fits the budget, shrinking it first",
			Symbols: []string{"packer.add", "packer.finish", "renderStub"}, symLines: []int{120 + i, 180, 90}})
	}
	r := Result{Query: "packer", BudgetTokens: MaxBudgetTokens, Results: make([]Stub, 0, len(stubs))}
	pack := func() {
		r.Results, r.More, r.Truncated = r.Results[:0], 0, false
		p := newPacker(&r)
		for _, s := range stubs {
			p.add(s)
		}
		p.finish()
	}
	pack()
	if len(r.Results) != len(stubs) {
		t.Fatalf("packed %d of %d stubs in %d tokens", len(r.Results), len(stubs), r.BudgetTokens)
	}
	if got := CountTokens(r.Render()); got != r.UsedTokens {
		t.Fatalf("UsedTokens %d, rendered answer counts %d", r.UsedTokens, got)
	}
	if n := testing.AllocsPerRun(20, pack); n != 0 {
		t.Errorf("packing %d built stubs allocates %.0f times, want 0", len(stubs), n)
	}
}

// TestRenderedTokensMatchesRender checks that finish's count without
// rendering is the count of the rendered answer in each layout: a note
// that fits or not, an empty answer, a truncated one whose "more" line
// fits or not.
func TestRenderedTokensMatchesRender(t *testing.T) {
	st := Stub{ID: "file:a/b.go", Kind: "file", Title: "b.go €", Path: "a/b.go", Snippet: "does\tthings\nwell"}
	for _, budget := range []int{1, 5, 12, 30, 2000} {
		for _, note := range []string{"", "no page defines Foo", strings.Repeat("long note ", 20)} {
			for _, n := range []int{0, 1, 3} {
				for _, trunc := range []bool{false, true} {
					r := Result{Query: "q\nx", BudgetTokens: budget, Note: note, Truncated: trunc, More: n}
					stubTok := 0
					for range n {
						r.Results = append(r.Results, st)
						stubTok += CountTokens(renderStub(&st))
					}
					if got, want := r.renderedTokens(stubTok), CountTokens(r.Render()); got != want {
						t.Errorf("budget %d note %q stubs %d truncated %v: counted %d, rendered %d", budget, note, n, trunc, got, want)
					}
				}
			}
		}
	}
}

// TestStubLinesMatchRender checks that the packer's line-by-line count of
// a stub (stubLines) is the count of the rendered stub, for fields that
// need folding, non-ASCII text, invalid UTF-8 at field edges, runs of
// digits and letters meeting the fixed pieces, and after each shrinking
// step.
func TestStubLinesMatchRender(t *testing.T) {
	fields := []string{"", "a", "x1", "€", "\xe2\x82", "\x82abc", "file:a/b.go", "tab\there", "two\nlines\r\n",
		"名前 space\u00a0nbsp", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa long",
		"  lead", "trail9", "9lead", ":", ","}
	lines := []int{0, 1, 9, 10, 99999, 100000, 1234567}
	n := 0
	for i, id := range fields {
		for j, title := range fields {
			for k, snip := range fields {
				if (i+j+k)%3 != 0 {
					continue
				}
				st := Stub{ID: id, Title: title, Path: fields[(i+1)%len(fields)], Line: lines[(i+j)%len(lines)], Snippet: snip,
					Explain: fields[(j+k)%len(fields)]}
				if k%2 == 0 {
					st.Symbols = []string{fields[(i+k)%len(fields)], fields[j], "Ranker.Query"}
					st.symLines = []int{lines[k%len(lines)], 0, 42}
				}
				if j == 3 {
					st.Path = st.Title
				}
				var l stubLines
				l.measure(&st)
				if got, want := l.total(), CountTokens(renderStub(&st)); got != want {
					t.Fatalf("stub %+v: counted %d, rendered %d", st, got, want)
				}
				// The packer's shrinking steps, each measured again.
				for step := range 6 {
					switch step {
					case 0:
						st.Explain = ""
					case 1:
						if len(st.Symbols) > 2 {
							st.Symbols, st.symLines = st.Symbols[:2], st.symLines[:2]
						}
					case 2:
						st.Snippet = firstLine(st.Snippet, 3)
					case 3:
						st.Snippet = ""
					case 4:
						st.Symbols, st.symLines = nil, nil
					case 5:
						st.Title = firstLine(st.Title, 4)
					}
					l.remeasure(&st, step)
					if got, want := l.total(), CountTokens(renderStub(&st)); got != want {
						t.Fatalf("after step %d, stub %+v: counted %d, rendered %d", step, st, got, want)
					}
				}
				n++
			}
		}
	}
	if n < 500 {
		t.Fatalf("only %d stubs checked", n)
	}
}

// countTokensRef is CountTokens as first written, a byte at a time: the
// reference TestCountTokensRuns holds the run-at-a-time loop to.
func countTokensRef(s string) int {
	n, run := 0, 0
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

// TestCountTokensRuns checks CountTokens against the byte-at-a-time
// reference on strings mixing runs of every length, punctuation,
// spaces, non-ASCII and invalid UTF-8.
func TestCountTokensRuns(t *testing.T) {
	pieces := []string{"a", "Z9", "abcde", "abcdef", "x1y2z3w4v5u6", " ", "\t", "\r", "\n", ".", "_", "€", "é", "\xe2\x82", "\x82", "\xff", "名", "  ", "0"}
	rng := uint64(1)
	for range 20000 {
		var b strings.Builder
		rng = rng*6364136223846793005 + 1442695040888963407
		k := int(rng>>60) + 1
		for range k {
			rng = rng*6364136223846793005 + 1442695040888963407
			b.WriteString(pieces[int(rng>>33)%len(pieces)])
		}
		if got, want := CountTokens(b.String()), countTokensRef(b.String()); got != want {
			t.Fatalf("CountTokens(%q) = %d, want %d", b.String(), got, want)
		}
	}
}

// TestPackerFoldsCopies: a data file's key whose copies (same name, title
// and snippet in other data files) follow it in rank order takes them as
// Copies, listed in its text (three, then a count), instead of a stub
// each, and so does a data file whose copies (same folder, extension,
// summary and symbols) follow it; code definitions, data keys that
// differ, files without a summary or in another folder keep stubs of
// their own. UsedTokens stays the rendered count, within budget, also when the
// budget runs out among the copies.
func TestPackerFoldsCopies(t *testing.T) {
	key := func(path string, line int, title string) Stub {
		return Stub{ID: "symbol:" + path + "#definitions.ImageSummary", Kind: "symbol", Title: title, Path: path, Line: line, Snippet: "an image"}
	}
	spec := func(path string) Stub {
		return Stub{ID: "file:" + path, Kind: "file", Title: path, Path: path, Snippet: "A Swagger 2.0 definition", Symbols: []string{"info"}}
	}
	type in struct {
		s    Stub
		data bool
	}
	var ins []in
	ins = append(ins, in{key("api/swagger.yaml", 2213, "ImageSummary:"), true})
	for v := 25; v < 32; v++ {
		ins = append(ins, in{key("api/docs/v1."+strconv.Itoa(v)+".yaml", 900+v, "ImageSummary:"), true})
	}
	ins = append(ins,
		in{key("api/docs/v1.99.yaml", 7, "ImageSummary: # changed"), true},                                    // another title
		in{key("daemon/a_unix.go", 10, "ImageSummary:"), false},                                               // code
		in{key("daemon/a_windows.go", 10, "ImageSummary:"), false},                                            // code
		in{Stub{ID: "file:api/docs/v1.26.yaml", Kind: "file", Title: "x", Path: "api/docs/v1.26.yaml"}, true}, // no summary
		in{spec("api/docs/v1.40.yaml"), true},
		in{spec("api/docs/v1.41.yaml"), true}, // a copy of v1.40's
		in{spec("api/v2/v1.42.yaml"), true},   // another folder
	)
	for _, budget := range []int{MaxBudgetTokens, 40, 30, 25} {
		r := Result{Query: "ImageSummary", BudgetTokens: budget}
		p := newPacker(&r)
		for _, x := range ins {
			p.addFolding(x.s, x.data)
		}
		p.finish()
		if got := CountTokens(r.Render()); got != r.UsedTokens || got > budget {
			t.Fatalf("budget %d: UsedTokens %d, rendered %d", budget, r.UsedTokens, got)
		}
		if budget < MaxBudgetTokens {
			if !r.Truncated {
				t.Errorf("budget %d: not truncated with %d results", budget, len(r.Results))
			}
			continue
		}
		var ids []string
		for _, s := range r.Results {
			ids = append(ids, s.Path)
		}
		if want := "api/swagger.yaml api/docs/v1.99.yaml daemon/a_unix.go daemon/a_windows.go api/docs/v1.26.yaml api/docs/v1.40.yaml api/v2/v1.42.yaml"; strings.Join(ids, " ") != want {
			t.Fatalf("results %q, want %q", ids, want)
		}
		c := r.Results[0].Copies
		if len(c) != 7 || c[0] != "api/docs/v1.25.yaml:925" || c[6] != "api/docs/v1.31.yaml:931" {
			t.Errorf("copies %q", c)
		}
		if c := r.Results[5].Copies; len(c) != 1 || c[0] != "api/docs/v1.41.yaml" {
			t.Errorf("file copies %q", c)
		}
		if !strings.Contains(r.Render(), "  copies: api/docs/v1.25.yaml:925, api/docs/v1.26.yaml:926, api/docs/v1.27.yaml:927 (+4)\n") {
			t.Errorf("rendered:\n%s", r.Render())
		}
	}
}

func itoa(v int) string {
	return strings.TrimSpace(strings.Repeat(" ", 0) + string(rune('0'+v/10)) + string(rune('0'+v%10)))
}
