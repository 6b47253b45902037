package parser

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// matchesViaCursor returns what the matcher should: q's matches over root,
// read through go-tree-sitter's own query cursor, as a record.
func matchesViaCursor(q *sitter.Query, root *sitter.Node) []uint32 {
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	var rec []uint32
	qc.Exec(q, root)
	for m, ok := qc.NextMatch(); ok; m, ok = qc.NextMatch() {
		rec = append(rec, uint32(len(m.Captures)))
		for _, c := range m.Captures {
			rec = append(rec, c.Index, c.Node.StartByte(), c.Node.EndByte())
		}
	}
	return rec
}

// TestMatcherAgrees checks the C matcher against go-tree-sitter's query
// cursor on the parse cases and their truncations, in every language; and
// collect, used for Markdown, against the equivalent query.
func TestMatcherAgrees(t *testing.T) {
	p := NewParser()
	defer p.Close()
	var srcs []string
	for _, tc := range parseCases {
		srcs = append(srcs, tc.src, tc.src[:len(tc.src)/2], tc.src[len(tc.src)/3:])
	}
	for _, lang := range Languages() {
		s, err := p.spec("x" + extByLang[lang][0])
		if err != nil {
			t.Fatal(err)
		}
		q := s.query
		if s.nodes != nil {
			var b strings.Builder
			for typ, capt := range s.nodes {
				fmt.Fprintf(&b, "(%s) @%s\n", typ, capt)
			}
			if q, err = sitter.NewQuery([]byte(b.String()), s.lang); err != nil {
				t.Fatal(err)
			}
			defer q.Close()
		}
		for i, src := range srcs {
			tree, err := p.ts.ParseCtx(context.Background(), nil, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			root := tree.RootNode()
			want := matchesViaCursor(q, root)
			var got []uint32
			if s.nodes != nil {
				// collect's capture indexes are roles; map the query's.
				for j := 0; j < len(want); j += 4 {
					want[j+1] = uint32(roleByName[q.CaptureNameForId(want[j+1])])
				}
				got = p.mt.collect(root, s.nodeRoles)
			} else {
				got = p.mt.run(q, root)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s source %d: matcher\n%v\nquery cursor\n%v", lang, i, got, want)
			}
			tree.Close()
		}
	}
}
