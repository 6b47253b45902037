package engine

import (
	"sync/atomic"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// File facts are what fileSignals reads of a candidate file's path that do
// not depend on the question, memoized per index and page: a question on
// moby checks the names of hundreds of candidate files, and decoding each
// path to split its name again was a fifth of the median query. With its
// facts, a candidate whose name cannot be made of the question's words and
// whose path holds no helper directory is passed over without decoding its
// path. The facts only skip work: the signals read the path as before
// whenever a fact says they may apply, so answers do not change.
//
// A fact is one uint32 per page, 0 until computed (factKnown is always
// set): 4 bytes a page, made on the first question that reads names.
const (
	factKnown   = 1 << 31
	factHelper  = 1 << 30 // the path has a helper directory or mock file (helperSegment)
	factSigBits = 30      // the low bits: wordSig of the file's name words
)

// wordSig sets, for each word, one of factSigBits bits chosen by its
// FNV-1a hash: if a file's name words are all among a set of words, the
// file's signature is within the set's.
func wordSig(ws []string) uint32 {
	var sig uint32
	for _, w := range ws {
		h := uint32(2166136261)
		for i := 0; i < len(w); i++ {
			h = (h ^ uint32(w[i])) * 16777619
		}
		sig |= 1 << (h % factSigBits)
	}
	return sig
}

// fileFact returns file page p's fact, computing it on first use. sw and
// scratch are reused word buffers.
func (ix *Index) fileFact(p uint32, sw, scratch *[]string) uint32 {
	ix.factOnce.Do(func() { ix.facts = make([]atomic.Uint32, ix.n) })
	if int(p) >= len(ix.facts) {
		return factKnown | factHelper | (1<<factSigBits - 1) // unknown: everything may apply
	}
	if f := ix.facts[p].Load(); f != 0 {
		return f
	}
	path := ix.path(p)
	*sw, *scratch = nameWords((*sw)[:0], fileStem(namePath(path)), *scratch)
	f := uint32(factKnown) | wordSig(*sw)
	if _, ok := helperSegment(path); ok {
		f |= factHelper
	}
	ix.facts[p].Store(f)
	return f
}

// nameMayApply reports whether the name signal can hold for a file of
// fact f: it needs the file's name words (some) all among the question's
// words (signature qsig) or the project words (psig), one at least among
// the question's.
func nameMayApply(f, qsig, psig uint32) bool {
	sig := f & (1<<factSigBits - 1)
	return sig != 0 && sig&^(qsig|psig) == 0 && sig&qsig != 0
}

// warmFileFacts computes every file page's fact (in an opened index's
// background work, OpenSegments): the first question whose words every
// file holds would otherwise compute them for the tens of thousands of
// files it ties, doubling its time (25 → 50 ms at 100k files), and a
// fresh server's first questions are what an agent waits on. About 30 ms
// of CPU at 100k files; the facts are 4 bytes a page either way.
func (ix *Index) warmFileFacts() {
	var sw, scratch []string
	for p := range uint32(ix.n) {
		if graph.Kind(ix.kind[p]) == graph.KindFile {
			ix.fileFact(p, &sw, &scratch)
		}
	}
}
