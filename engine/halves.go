package engine

import "runtime"

// A term found in most files (at 100k files, "error" or "count" in 90k of
// them) is hundreds of kilobytes of postings spread over every segment:
// decoding them was a third of such a question's time, on one core while
// the other idled. onHalves decodes the two halves of the term's segments
// on two cores. The result is the same as one pass over the segments in
// order, to the bit:
//   - a page lies in one segment, and its group page (its file) in the same
//     one (Load), so each half reads and writes only its own pages' scores;
//   - each page's score gets the same additions in the same order (terms are
//     still taken one at a time);
//   - the pages scored first are listed in the same order (the first half's,
//     then the second's).

// halvesMinBytes is the postings a term needs, in all, to be decoded on two
// cores: 64 KB is about 40k postings, 100 µs on one core here, against a
// few microseconds to start and join a goroutine. A variable for tests.
var halvesMinBytes = 64 << 10

// onHalves calls fn with the term's segment locations, and the touched
// list to append to: once with all of them, or, for a long term on a
// machine of two or more cores, once per half at the same time (the
// second half appending to a list of its own, s.touched2, then appended
// to s.touched). It returns the sums of fn's counts.
func (ix *Index) onHalves(locs []termLoc, s *scratch, fn func(locs []termLoc, touched []uint32) ([]uint32, int, int)) (int, int) {
	k := ix.halfOf(locs)
	if k == 0 {
		var a, b int
		s.touched, a, b = fn(locs, s.touched)
		return a, b
	}
	ix.stats.halved.Add(1)
	var a1, b1, a2, b2 int
	both(func() { s.touched2, a2, b2 = fn(locs[k:], s.touched2[:0]) },
		func() { s.touched, a1, b1 = fn(locs[:k], s.touched) })
	s.touched = append(s.touched, s.touched2...)
	return a1 + a2, b1 + b2
}

// halfOf returns where to cut locs into two halves of about the same
// postings, or 0 when they are not worth two cores: fewer than two
// segments, fewer than halvesMinBytes, or one core.
func (ix *Index) halfOf(locs []termLoc) int {
	if len(locs) < 2 || runtime.GOMAXPROCS(0) < 2 {
		return 0
	}
	size := func(l termLoc) int {
		sg := ix.segs[l.seg]
		return int(sg.postOff[l.id+1] - sg.postOff[l.id])
	}
	total := 0
	for _, l := range locs {
		total += size(l)
	}
	if total < halvesMinBytes {
		return 0
	}
	sum := 0
	for i, l := range locs[:len(locs)-1] {
		if sum += size(l); 2*sum >= total {
			return i + 1
		}
	}
	return len(locs) - 1
}

// both runs a on another goroutine and b on this one, and returns once
// both are done.
func both(a, b func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		a()
	}()
	b()
	<-done
}
