package engine

import (
	"bytes"
	"fmt"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// Stats are the length statistics of a set of pages: per page kind and
// field, the sum of the field's lengths and the number of pages where it
// is not empty. An index scores with their quotients (the mean lengths).
type Stats struct {
	sum, cnt [numKinds][numFields]uint64
}

// Add adds o to s.
func (s *Stats) Add(o Stats) {
	for k := range numKinds {
		for f := range numFields {
			s.sum[k][f] += o.sum[k][f]
			s.cnt[k][f] += o.cnt[k][f]
		}
	}
}

// SegmentStats returns the statistics of the pages of a segment
// (BuildSegment's bytes).
func SegmentStats(b []byte) (Stats, error) {
	sg, err := decodeSegment(b)
	if err != nil {
		return Stats{}, err
	}
	return Stats{sg.sum, sg.cnt}, nil
}

// Reweight returns a segment (BuildSegment's bytes) whose stored impacts
// are computed under the means of under rather than its own: a full build
// reweights every segment under the statistics of them all, so that an
// index opened over them reads the stored impacts as they are (see
// meansTolerance) instead of recomputing them at query time.
func Reweight(b []byte, under Stats) ([]byte, error) {
	sg, err := decodeSegment(b)
	if err != nil {
		return nil, err
	}
	if sg.impSum == under.sum && sg.impCnt == under.cnt {
		return b, nil
	}
	if err := sg.loadFreqs(); err != nil {
		return nil, err
	}
	avg := meanLens(&under.sum, &under.cnt)
	norms := sg.pageNorms(&avg)
	postOff := make([]uint32, sg.numTerms+1)
	post := make([]byte, 0, len(sg.post))
	for t := range uint32(sg.numTerms) {
		pb := sg.post[sg.postOff[t]:sg.postOff[t+1]]
		cnt, k := uvarint(pb)
		if k <= 0 {
			return nil, fmt.Errorf("%w: postings of term %d", ErrBadIndex, t)
		}
		var df int
		if post, df = sg.reweigh(appendUvarint(post, cnt), t, pb[k:], cnt, norms, &avg); uint64(df) != cnt {
			return nil, fmt.Errorf("%w: term %d has %d of %d postings", ErrBadIndex, t, df, cnt)
		}
		postOff[t+1] = uint32(len(post))
	}
	sg.post, sg.postOff = post, postOff
	sg.impSum, sg.impCnt = under.sum, under.cnt
	sg.avgLen = avg
	return sg.encode(len(sg.recOff) > 0), nil
}

// Weighed is graph.BuildOptions.Weigh: given the blobs of a full build's
// segments, it returns the function that turns the blobs BuildBlobs made
// of one of them (read by name) into the ones to store instead: its
// ranking index with impacts computed under the statistics of them all
// (Reweight), so that an index opened over them reads the stored
// impacts; none when they are already.
func Weighed(segs []func(name string) ([]byte, error)) (graph.BlobsFunc, error) {
	var all Stats
	for i, read := range segs {
		b, err := read(indexBlob)
		if err != nil {
			return nil, fmt.Errorf("segment %d: %w", i, err)
		}
		st, err := SegmentStats(b)
		if err != nil {
			return nil, fmt.Errorf("segment %d: %w", i, err)
		}
		all.Add(st)
	}
	return func(blob func(name string) ([]byte, error)) (map[string][]byte, error) {
		b, err := blob(indexBlob)
		if err != nil {
			return nil, err
		}
		w, err := Reweight(b, all)
		if err != nil || bytes.Equal(w, b) {
			return nil, err
		}
		return map[string][]byte{indexBlob: w}, nil
	}, nil
}

// StoredImpacts reports how many of the index's segments read their
// stored impacts as they are (the rest recompute them from term
// frequencies when a query first needs a term), of how many.
func (ix *Index) StoredImpacts() (stored, segments int) {
	for _, sg := range ix.segs {
		if sg.exact {
			stored++
		}
	}
	return stored, len(ix.segs)
}

// pageNorms returns each page's fieldNorms under the means avg, decoding
// its lengths once for all its postings (moby: recompute, which decodes
// them per posting, was 0.13 s of a build's CPU; reweigh 0.03 s). A page
// whose lengths do not decode has ok false.
func (sg *segment) pageNorms(avg *[numKinds][numFields]float32) []pageNorm {
	out := make([]pageNorm, sg.n)
	var lens [numFields]uint32
	for p := range out {
		if !sg.pageLens(uint32(p), &lens) {
			continue
		}
		out[p].ok = true
		fieldNorms(&out[p].norm, &lens, &avg[min(int(sg.kind[p]), numKinds-1)])
	}
	return out
}

// A pageNorm is one page's fieldNorms; ok false when its lengths are corrupt.
type pageNorm struct {
	norm [numFields]float64
	once [numFields]uint8 // the impact of a term met once, in field f; 0 until needed
	ok   bool
}

// reweigh is recompute(t, b, cnt, avg) with the pages' norms (pageNorms
// under avg): it appends the same postings with the same impacts to out
// and returns it with their number. A page whose lengths do not all
// decode is left to recompute's own reading of them, which stops at the
// last field the posting holds.
func (sg *segment) reweigh(out []byte, t uint32, b []byte, cnt uint64, norms []pageNorm, avg *[numKinds][numFields]float32) ([]byte, int) {
	tfb := sg.tfs[sg.tfOff[t]:sg.tfOff[t+1]]
	var tf, lens [numFields]uint32
	df := 0
	last, lastLive := uint64(0), uint64(0)
	n := uint64(sg.n)
	for range cnt {
		d, k := uvarint(b)
		if k <= 0 || k >= len(b) {
			break
		}
		last += d
		if last >= n {
			break
		}
		b = b[k+1:]
		p := uint32(last)
		tf = [numFields]uint32{}
		var hi field
		if k, hi = decodeTF(tfb, &tf); k == 0 {
			break
		}
		once := k == 1 && tfb[0]&7 == 0 // one occurrence, in field hi
		tfb = tfb[k:]
		if sg.dead != nil && sg.dead[p] {
			continue
		}
		var imp uint8
		if nm := &norms[p]; nm.ok && once {
			// Most postings are such, and their impact one of 14 per
			// page (moby: Reweight 0.08 → 0.06 s of a build's CPU).
			if nm.once[hi] == 0 {
				nm.once[hi] = max(1, impactNormed(&tf, &nm.norm))
			}
			imp = nm.once[hi]
		} else if nm.ok {
			imp = impactNormed(&tf, &nm.norm)
		} else if sg.pageLensTo(p, &lens, hi) {
			imp = impact(&tf, &lens, &avg[min(int(sg.kind[p]), numKinds-1)])
		} else {
			continue
		}
		out = append(appendUvarint(out, last-lastLive), max(1, imp))
		lastLive = last
		df++
	}
	return out, df
}
