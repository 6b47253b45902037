package engine

import (
	"bytes"
	"runtime"
	"sort"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Page records held compressed. An index opened from segments keeps the
// records of its group pages (files, modules, pages outside any file) as
// they are stored, and those of the pages they group (symbols, doc
// sections) compressed in chunks of about recChunkBytes, a chunk decoded
// when a record in it is read. Queries read group pages' records on hot
// paths (paths of candidate files, IDs breaking ties, the neighbour lists'
// IDs) and a member's only to show it: at 100,000 files the members'
// records are 97 MB of the 106 MB, and a query shows a few dozen of them.
// The index's small cache of decoded chunks (recCacheSlots) serves the
// members of one file, read one after the other.

// recChunkBytes is the size of a chunk of member records before
// compression (a variable: tests make chunks of a few records).
var recChunkBytes uint32 = 8 << 10

// recCacheSlots is the number of decoded chunks an index keeps.
const recCacheSlots = 64

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
	data  [][]byte // each chunk, zstd-compressed
	// grpOff[i] is the bytes of group pages' records before page i, into
	// grp: a group page's record is grp[grpOff[i]:grpOff[i+1]].
	grpOff []uint32
	grp    []byte
}

var (
	recZOnce sync.Once
	recZEnc  *zstd.Encoder
	recZDec  *zstd.Decoder
)

func recZInit() {
	recZOnce.Do(func() {
		recZEnc, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true))
		recZDec, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderLowmem(true))
	})
}

// chunkRecords replaces the segment's records (recOff, rec) by recChunks,
// keeping recOff: no record read afterwards aliases rec.
func (sg *segment) chunkRecords() {
	recZInit()
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
		buf = recZEnc.EncodeAll(raw, buf[:0])
		c.data = append(c.data, bytes.Clone(buf)) // exact size: an encoder's buffer grows by doubling
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
				if segs[k].rec != nil && len(segs[k].recOff) > 0 {
					segs[k].chunkRecords()
				}
			}
		}()
	}
	wg.Wait()
}

// recCache is an index's cache of decoded chunks, direct-mapped.
type recCache struct {
	mu    sync.Mutex
	slots [recCacheSlots]struct {
		sg  *segment
		c   int
		raw []byte
	}
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
	slot := (int(sg.base) + k*7919) % recCacheSlots
	rc.mu.Lock()
	s := &rc.slots[slot]
	raw := s.raw
	hit := s.sg == sg && s.c == k
	rc.mu.Unlock()
	if !hit {
		var err error
		if raw, err = recZDec.DecodeAll(c.data[k], nil); err != nil {
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
