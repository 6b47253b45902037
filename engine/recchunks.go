package engine

import (
	"bytes"
	"runtime"
	"sort"
	"sync"

	"github.com/klauspost/compress/s2"
)

// Page records held compressed. An index opened from segments keeps the
// records of its group pages (files, modules, pages outside any file) as
// they are stored, and those of the pages they group (symbols, doc
// sections) compressed in chunks of about recChunkBytes, a chunk decoded
// when a record in it is read. Queries read group pages' records on hot
// paths (paths of candidate files, IDs breaking ties, the neighbour lists'
// IDs) and a member's only to show it: at 100,000 files the members'
// records are 97 MB of the 106 MB (S2-compressed in 4 KB chunks: 39 MB),
// and a query reads those of the files it considers showing. The index's
// cache of decoded chunks (recCacheSlots, 4 MB at most) serves the members
// of one file, read one after the other, and files that answers show
// again. The chunks are S2: zstd's decoding (its tables, per chunk)
// doubled a query's CPU on moby, 8 KB chunks of S2 still added 40 %; 4 KB
// ones with this cache add about 5 %.

// recChunkBytes is the size of a chunk of member records before
// compression (a variable: tests make chunks of a few records).
var recChunkBytes uint32 = 4 << 10

// recCacheSlots is the number of decoded chunks an index keeps (a
// variable: tests make it evict).
var recCacheSlots = 1024

// recView is a segment's records as readers see them: stored (rec) or
// compressed (chunks).
type recView struct {
	rec    []byte
	chunks *recChunks
}

// recChunks is a segment's records in that form. The chunk of page p is
// the last whose first page is not after p; it holds the records of its
// pages end to end (group pages' too, which are read from grp).
type recChunks struct {
	first []uint32 // each chunk's first local page
	data  [][]byte // each chunk, S2-compressed (block format)
	// grpOff[i] is the bytes of group pages' records before page i, into
	// grp: a group page's record is grp[grpOff[i]:grpOff[i+1]].
	grpOff []uint32
	grp    []byte
}

// chunkRecords replaces the segment's records (recOff, rec) by recChunks,
// keeping recOff: no record read afterwards aliases rec.
func (sg *segment) chunkRecords() {
	n := sg.n
	c := &recChunks{grpOff: make([]uint32, n+1)}
	size := 0
	for i := range n {
		if sg.group[i] == uint32(i) {
			size += int(sg.recOff[i+1] - sg.recOff[i])
		}
	}
	c.grp = make([]byte, 0, size)
	var buf []byte
	for i := 0; i < n; {
		start := i
		for i < n && (i == start || sg.recOff[i+1]-sg.recOff[start] <= recChunkBytes) {
			if sg.group[i] == uint32(i) {
				c.grp = append(c.grp, sg.rec[sg.recOff[i]:sg.recOff[i+1]]...)
			}
			c.grpOff[i+1] = uint32(len(c.grp))
			i++
		}
		c.first = append(c.first, uint32(start))
		raw := sg.rec[sg.recOff[start]:sg.recOff[i]]
		buf = s2.EncodeBetter(buf[:cap(buf)], raw)
		c.data = append(c.data, bytes.Clone(buf)) // exact size
	}
	sg.recs.Store(&recView{chunks: c})
	sg.rec = nil // no reader reads it after the open (recs)
}

// chunkAll chunks the records of the segments on all cores.
func chunkAll(segs []*segment) {
	var next sync.Mutex
	i := 0
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(segs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				next.Lock()
				k := i
				i++
				next.Unlock()
				if k >= len(segs) {
					return
				}
				// Once per data: an index reusing it may chunk it too.
				sg := segs[k]
				sg.chunkOnce.Do(func() {
					if sg.rec != nil && len(sg.recOff) > 0 {
						sg.chunkRecords()
					}
				})
			}
		}()
	}
	wg.Wait()
}

// recCache is an index's cache of decoded chunks, direct-mapped.
type recCache struct {
	mu    sync.Mutex
	slots []recSlot // recCacheSlots, made on first use
}

type recSlot struct {
	sg  *segment
	c   int
	raw []byte
}

// record returns local page p's stored record in segment sg (chunked).
// The bytes stay valid (and unchanged) while referenced: an evicted
// chunk is dropped, not reused.
func (rc *recCache) record(sg *segment, c *recChunks, p uint32) []byte {
	if sg.group[p] == p {
		return c.grp[c.grpOff[p]:c.grpOff[p+1]]
	}
	k := sort.Search(len(c.first), func(k int) bool { return c.first[k] > p }) - 1
	if k < 0 {
		return nil
	}
	rc.mu.Lock()
	if rc.slots == nil {
		rc.slots = make([]recSlot, recCacheSlots)
	}
	s := &rc.slots[(int(sg.base)+k*7919)%len(rc.slots)]
	raw := s.raw
	hit := s.sg == sg && s.c == k
	rc.mu.Unlock()
	if !hit {
		var err error
		if raw, err = s2.Decode(nil, c.data[k]); err != nil {
			return nil
		}
		rc.mu.Lock()
		s.sg, s.c, s.raw = sg, k, raw
		rc.mu.Unlock()
	}
	base := sg.recOff[c.first[k]]
	a, b := sg.recOff[p]-base, sg.recOff[p+1]-base
	if int(b) > len(raw) || a > b {
		return nil
	}
	return raw[a:b]
}
