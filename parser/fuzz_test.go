package parser

import (
	"context"
	"testing"
)

// FuzzParse feeds arbitrary bytes to every language: Parse must never
// panic, never fail on content, and return only valid UTF-8 and in-range
// indexes.
func FuzzParse(f *testing.F) {
	for _, tc := range parseCases {
		f.Add([]byte(tc.src))
	}
	f.Add([]byte("\x00\xff\xfe{{{((([[[\"'`/*"))
	langs := Languages()
	p := NewParser()
	f.Cleanup(p.Close)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, l := range langs {
			facts, err := p.Parse(ctx, "fuzz"+extByLang[l][0], src)
			if err != nil {
				t.Fatalf("%s: %v", l, err)
			}
			checkValid(t, facts)
			for _, d := range facts.Diagnostics {
				if len(d.Message) > 20 && d.Message[:20] == "internal error extra" {
					t.Fatalf("%s: %s", l, d.Message)
				}
			}
		}
	})
}
