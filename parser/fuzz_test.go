package parser

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
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
			// A parse that never ends is a bug too; crashing the worker
			// makes the fuzzer save the input.
			wd := time.AfterFunc(time.Minute, func() { panic("Parse hangs for " + l) })
			facts, err := p.Parse(ctx, "fuzz"+extByLang[l][0], src)
			if err != nil {
				t.Fatalf("%s: %v", l, err)
			}
			wd.Stop()
			checkValid(t, facts)
			for _, d := range facts.Diagnostics {
				if len(d.Message) > 20 && d.Message[:20] == "internal error extra" {
					t.Fatalf("%s: %s", l, d.Message)
				}
			}
		}
	})
}

// TestParseMutations is a deterministic stand-in for fuzzing in ordinary
// test runs: it splices, truncates and corrupts the seed snippets and
// parses each result in every language.
func TestParseMutations(t *testing.T) {
	n := 150 // override with WIKITOOLKIT_MUTATIONS for a longer run
	if v, err := strconv.Atoi(os.Getenv("WIKITOOLKIT_MUTATIONS")); err == nil {
		n = v
	} else if testing.Short() {
		n = 20
	}
	var seeds [][]byte
	for _, tc := range parseCases {
		seeds = append(seeds, []byte(tc.src))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	p := NewParser()
	defer p.Close()
	ctx := context.Background()
	for i := 0; i < n; i++ {
		a := seeds[rng.IntN(len(seeds))]
		b := seeds[rng.IntN(len(seeds))]
		src := append(append([]byte{}, a[:rng.IntN(len(a)+1)]...), b[rng.IntN(len(b)+1):]...)
		for k := rng.IntN(8); k > 0 && len(src) > 0; k-- {
			src[rng.IntN(len(src))] = byte(rng.IntN(256))
		}
		for _, l := range Languages() {
			f, err := p.Parse(ctx, "m"+extByLang[l][0], src)
			if err != nil {
				t.Fatalf("%s: %v", l, err)
			}
			checkValid(t, f)
		}
	}
}

// FuzzFoldSpace checks foldSpace against the byte-at-a-time loop it
// replaced for speed.
func FuzzFoldSpace(f *testing.F) {
	for _, s := range []string{"", " ", "a b", "a  b", " a", "a ", "\ta\nb", "héllo wörld", "\xff\xfe a", "abc def ghi"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 0 || max > 1000 {
			return
		}
		if got, want := foldSpace([]byte(s), max), foldSpaceBytewise([]byte(s), max); got != want {
			t.Fatalf("foldSpace(%q, %d) = %q, want %q", s, max, got, want)
		}
	})
}

func foldSpaceBytewise(b []byte, max int) string {
	var sb strings.Builder
	space := false
	for _, c := range b {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' {
			space = sb.Len() > 0
			continue
		}
		if space {
			if sb.Len()+1 >= max {
				break
			}
			sb.WriteByte(' ')
			space = false
		}
		if sb.Len() >= max {
			break
		}
		sb.WriteByte(c)
	}
	return truncate(validUTF8(sb.String()), max)
}
