package graph

import (
	"encoding/binary"
	"errors"
	"strings"
	"unsafe"
)

// enc appends a compact binary encoding: unsigned varints and
// length-prefixed strings. It is the one encoding of every value in a
// generation (see store.go); JSON was 3.1× larger and 4× slower to decode on
// moby's file records.
type enc struct{ b []byte }

func (e *enc) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) int(v int)     { e.b = binary.AppendVarint(e.b, int64(v)) }
func (e *enc) str(s string) {
	e.b = binary.AppendUvarint(e.b, uint64(len(s)))
	e.b = append(e.b, s...)
}
func (e *enc) strs(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

var errCorrupt = errors.New("corrupt record")

// dec reads what enc wrote. The first error sticks; callers check err once.
type dec struct {
	b   []byte
	err error
}

func (d *dec) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.b = nil
}

func (d *dec) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) int() int {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *dec) str() string {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// skip passes over a string str would read.
func (d *dec) skip() {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return
	}
	d.b = d.b[n:]
}

// count reads a length and checks it against what is left (each element
// takes at least one byte), so corrupt input cannot make us allocate wildly.
func (d *dec) count() int {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *dec) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

// frontCode writes s as the length of its common prefix with prev, then the rest.
func frontCode(e *enc, prev, s string) {
	n := 0
	for n < len(prev) && n < len(s) && prev[n] == s[n] {
		n++
	}
	e.uint(uint64(n))
	e.str(s[n:])
}

func frontDecode(d *dec, prev string) string {
	n := d.uint()
	if n > uint64(len(prev)) {
		d.fail()
		return ""
	}
	return prev[:n] + d.str()
}

// strTable numbers distinct strings (languages, symbol kinds) in the order
// they are first seen; strs lists them by number.
type strTable struct {
	ids  map[string]uint64
	strs []string
}

func (t *strTable) id(s string) uint64 {
	i, ok := t.ids[s]
	if !ok {
		if t.ids == nil {
			t.ids = map[string]uint64{}
		}
		i = uint64(len(t.strs))
		t.ids[s] = i
		t.strs = append(t.strs, s)
	}
	return i
}

// A qualified name is stored beside a name it usually ends with (a
// definition's Name, or the n/ key naming it): appendQual writes qual as
// a uvarint k, then, when k > 0, the k-1 bytes of qual before name (qual
// is those bytes followed by name), or when k is 0, qual whole as str
// writes it. Most qualified names end with their name ("Type.Method",
// "definitions.Foo") or are it: moby's n/ values took 378 → 270 KB
// (compressed). The summaries store a definition's name the same way
// beside its qualified name, which they front-code (encodeSummary): 409
// → 289 KB.
func appendQual(b []byte, qual, name string) []byte {
	if strings.HasSuffix(qual, name) {
		b = binary.AppendUvarint(b, uint64(len(qual)-len(name))+1)
		return append(b, qual[:len(qual)-len(name)]...)
	}
	b = binary.AppendUvarint(b, 0)
	b = binary.AppendUvarint(b, uint64(len(qual)))
	return append(b, qual...)
}

// qual reads what appendQual wrote beside name.
func (d *dec) qual(name string) string {
	k := d.uint()
	switch {
	case d.err != nil:
		return ""
	case k == 0:
		return d.str()
	case k == 1:
		return name
	case k-1 > uint64(len(d.b)):
		d.fail()
		return ""
	}
	q := string(d.b[:k-1]) + name
	d.b = d.b[k-1:]
	return q
}

// frontStr writes s front-coded against prev, the string written before
// it: the length of their common prefix, then the rest of s as str does.
func (e *enc) frontStr(prev, s string) {
	common := 0
	for common < len(prev) && common < len(s) && prev[common] == s[common] {
		common++
	}
	e.uint(uint64(common))
	e.str(s[common:])
}

// frontStrs reads the strings frontStr wrote into chunks of one arena,
// not a string each (82k directories or 100k paths decode in an edit's
// build: a string each cost 25 ms). A chunk is never grown, so the
// strings stay valid.
type frontStrs struct {
	arena []byte
	prev  string
	chunk int // the least a chunk holds (0: 32 KB)
}

// next reads the next string from d.
func (f *frontStrs) next(d *dec) string {
	common, rest := d.uint(), d.uint()
	if d.err != nil || common > uint64(len(f.prev)) || rest > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	size := int(common + rest)
	if cap(f.arena)-len(f.arena) < size {
		chunk := f.chunk
		if chunk == 0 {
			chunk = 32 << 10
		}
		f.arena = make([]byte, 0, max(chunk, size))
	}
	start := len(f.arena)
	f.arena = append(f.arena, f.prev[:common]...)
	f.arena = append(f.arena, d.b[:rest]...)
	d.b = d.b[rest:]
	f.prev = ""
	if size > 0 {
		f.prev = unsafe.String(&f.arena[start], size)
	}
	return f.prev
}
