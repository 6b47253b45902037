package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestTermDictionary: every term is found with its ID and absent ones are
// not, at block boundaries and past either end; a walk from a prefix
// starts at the first term not below it.
func TestTermDictionary(t *testing.T) {
	for _, n := range []int{0, 1, termBlock - 1, termBlock, termBlock + 1, 1000} {
		var terms []string
		for i := range n {
			terms = append(terms, fmt.Sprintf("t%03d/%d", i%97, i))
		}
		terms = append(terms[:0:0], terms...)
		slices.Sort(terms)
		terms = slices.Compact(terms)
		ix := &termDict{numTerms: len(terms)}
		ix.termBlk, ix.termBlob = encodeTerms(terms)
		for i, term := range terms {
			if id, ok := ix.lookupTerm(term); !ok || id != uint32(i) {
				t.Fatalf("n=%d: lookupTerm(%q) = %d, %v; want %d", n, term, id, ok, i)
			}
			if got := ix.term(uint32(i)); got != term {
				t.Fatalf("n=%d: term(%d) = %q, want %q", n, i, got, term)
			}
			if _, ok := ix.lookupTerm(term + "x"); ok {
				t.Fatalf("n=%d: found absent %q", n, term+"x")
			}
		}
		for _, absent := range []string{"", "a", "t", "zzz"} {
			if _, ok := ix.lookupTerm(absent); ok {
				t.Fatalf("n=%d: found absent %q", n, absent)
			}
		}
		for _, prefix := range []string{"", "t05", "t050/", "zz"} {
			var got []string
			ix.eachTermFrom(prefix, func(_ uint32, term string) bool { got = append(got, strings.Clone(term)); return true })
			i, _ := slices.BinarySearch(terms, prefix)
			if !slices.Equal(got, terms[i:]) && !(len(got) == 0 && i == len(terms)) {
				t.Fatalf("n=%d: terms from %q: got %d, want %d", n, prefix, len(got), len(terms)-i)
			}
		}
	}
}

// TestTermLookupPrefixes: terms that are prefixes of each other, looked up
// with every string of up to one more letter.
func TestTermLookupPrefixes(t *testing.T) {
	var all []string
	var gen func(s string, n int)
	gen = func(s string, n int) {
		all = append(all, s)
		if n > 0 {
			for _, c := range "abc" {
				gen(s+string(c), n-1)
			}
		}
	}
	gen("", 5)
	slices.Sort(all)
	for skip := 1; skip <= 3; skip++ {
		var terms []string
		in := map[string]int{}
		for i, s := range all {
			if len(s) <= 4 && i%skip == 0 {
				in[s] = len(terms)
				terms = append(terms, s)
			}
		}
		ix := &termDict{numTerms: len(terms)}
		ix.termBlk, ix.termBlob = encodeTerms(terms)
		for _, q := range all {
			id, ok := ix.lookupTerm(q)
			want, wok := in[q]
			if ok != wok || ok && int(id) != want {
				t.Fatalf("skip %d: lookupTerm(%q) = %d, %v; want %d, %v", skip, q, id, ok, want, wok)
			}
		}
	}
}

// TestTermLookupKeys: the heads' keys (termheads.go) place a lookup only
// where a string comparison agrees, with many blocks sharing their first
// 8 bytes, terms shorter than a key, zero bytes that padding could be
// taken for, and bytes above 0x7f.
func TestTermLookupKeys(t *testing.T) {
	var terms []string
	for i := range 3000 {
		switch i % 5 {
		case 0:
			terms = append(terms, fmt.Sprintf("=longprefix_%04d", i)) // blocks of one key
		case 1:
			terms = append(terms, fmt.Sprintf("%c", 'a'+i%26)+strings.Repeat("x", i%9))
		case 2:
			terms = append(terms, fmt.Sprintf("ab\x00%d", i))
		case 3:
			terms = append(terms, fmt.Sprintf("\xffé%d", i))
		default:
			terms = append(terms, fmt.Sprintf("/%d", i*7919%3001))
		}
	}
	terms = append(terms, "ab", "ab\x00", "=longpre", "=longprefix")
	slices.Sort(terms)
	terms = slices.Compact(terms)
	d := &termDict{numTerms: len(terms)}
	d.termBlk, d.termBlob = encodeTerms(terms)
	var probes []string
	for _, term := range terms {
		probes = append(probes, term, term+"\x00", term[:len(term)-1], term+"~")
	}
	probes = append(probes, "", "\x00", "=longprefix_", "=longprefix_9999", "\xff\xff\xff\xff\xff\xff\xff\xff\xff")
	for _, p := range probes {
		i, found := slices.BinarySearch(terms, p)
		id, ok := d.lookupTerm(p)
		if ok != found || ok && id != uint32(i) {
			t.Fatalf("lookupTerm(%q) = %d, %v; want %d, %v", p, id, ok, i, found)
		}
		// firstBlock is the block before the first whose head is not
		// below p, as a search of the heads as strings finds it.
		first := 0
		for first < numBlocks(len(terms)) && terms[first*termBlock] < p {
			first++
		}
		if b, want := d.firstBlock(p), max(0, first-1); b != want {
			t.Fatalf("firstBlock(%q) = %d, want %d", p, b, want)
		}
	}
	if len(d.headKeys()) != numBlocks(len(terms)) {
		t.Fatalf("%d keys for %d blocks", len(d.headKeys()), numBlocks(len(terms)))
	}
}
