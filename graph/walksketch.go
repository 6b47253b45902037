package graph

import (
	"encoding/binary"
	"os"
	"path/filepath"

	"github.com/cespare/xxhash/v2"

	"github.com/wikitoolkit/wikitoolkit/graph/walk"
)

// The walk's sketch (walk.Sketch): the directories of the tree with their
// times, kept in the index folder so that a build without a watcher finds
// what changed by a stat of each directory and indexed file rather than a
// walk of the tree (a fifth of its cost at 100k files). It is a cache: it
// names the generation it describes and carries a checksum, and a build
// that finds it missing, damaged, of another generation or of other walk
// options walks the whole tree and takes a new one. It is written after
// the generation is live, without fsync: a build killed before leaves the
// sketch of the generation before, which no longer matches CURRENT.
//

// The sketch is two files: walk-sketch, the directories and what else the
// sketch holds, and walk-sketch.gen, the generation it describes with the
// hash of the first. An edit that moves no directory (a file's content
// changed) leaves the sketch as it was: its build writes the small tag
// alone (retagSketch) instead of encoding and writing the sketch again
// (3 MB at 100k files, 20 ms of an edit's CPU). A build killed between
// the two writes of a new sketch leaves a tag naming the old one's hash:
// the next build walks the whole tree.
//
// Layout: "sketch3", the walk options, the directories (their count,
// their paths front-coded, their modification times as differences from
// the one before, then each one's change time less its modification
// time: varints, moby's 24 → 10 KB), the ignore files with their stamps,
// the git index's stamp, then xxhash64 of all that precedes it.

const (
	sketchName     = "walk-sketch"
	sketchTagName  = "walk-sketch.gen"
	sketchMagic    = "sketch3"
	sketchTagMagic = "wksktag1"
)

// loadSketch reads the sketch of generation gen, or nil; hash is that of
// its file (for retagSketch).
func loadSketch(dir string, gen int) (sk *walk.Sketch, hash uint64) {
	tag, err := os.ReadFile(filepath.Join(dir, sketchTagName))
	if err != nil || len(tag) != len(sketchTagMagic)+24 || string(tag[:len(sketchTagMagic)]) != sketchTagMagic {
		return nil, 0
	}
	t := tag[len(sketchTagMagic):]
	if xxhash.Sum64(tag[:len(tag)-8]) != binary.LittleEndian.Uint64(t[16:]) || binary.LittleEndian.Uint64(t) != uint64(gen) {
		return nil, 0
	}
	b, err := os.ReadFile(filepath.Join(dir, sketchName))
	if err != nil || len(b) < 8 {
		return nil, 0
	}
	body, sum := b[:len(b)-8], binary.LittleEndian.Uint64(b[len(b)-8:])
	if xxhash.Sum64(body) != sum || sum != binary.LittleEndian.Uint64(t[8:]) {
		return nil, 0
	}
	d := dec{b: body}
	if d.str() != sketchMagic {
		return nil, 0
	}
	sk = &walk.Sketch{Options: d.str()}
	n := d.count()
	sk.Dirs = make([]walk.DirStamp, n)
	var paths frontStrs
	for i := range sk.Dirs {
		sk.Dirs[i].Rel = paths.next(&d)
	}
	var mt int64
	for i := range sk.Dirs {
		mt += int64(d.int())
		sk.Dirs[i].Mtime = mt
	}
	for i := range sk.Dirs {
		sk.Dirs[i].Ctime = sk.Dirs[i].Mtime + int64(d.int())
	}
	n = d.count()
	for range n {
		sk.Ignores = append(sk.Ignores, walk.FileStamp{Path: d.str(), Stamp: walk.Stamp{Size: int64(d.int()), ModTime: int64(d.int())}})
	}
	sk.GitIndex = walk.FileStamp{Path: d.str(), Stamp: walk.Stamp{Size: int64(d.int()), ModTime: int64(d.int())}}
	if d.err != nil || len(d.b) != 0 {
		return nil, 0
	}
	return sk, sum
}

// saveSketch writes sk as the sketch of generation gen (nil: removes it).
func saveSketch(dir string, gen int, sk *walk.Sketch) {
	path := filepath.Join(dir, sketchName)
	if sk == nil {
		os.Remove(filepath.Join(dir, sketchTagName))
		os.Remove(path)
		return
	}
	e := enc{}
	e.str(sketchMagic)
	e.str(sk.Options)
	e.uint(uint64(len(sk.Dirs)))
	prev := ""
	for _, ds := range sk.Dirs {
		e.frontStr(prev, ds.Rel)
		prev = ds.Rel
	}
	var mt int64
	for _, ds := range sk.Dirs {
		e.int(int(ds.Mtime - mt))
		mt = ds.Mtime
	}
	for _, ds := range sk.Dirs {
		e.int(int(ds.Ctime - ds.Mtime))
	}
	e.uint(uint64(len(sk.Ignores)))
	for _, fs := range sk.Ignores {
		e.str(fs.Path)
		e.int(int(fs.Size))
		e.int(int(fs.ModTime))
	}
	e.str(sk.GitIndex.Path)
	e.int(int(sk.GitIndex.Size))
	e.int(int(sk.GitIndex.ModTime))
	sum := xxhash.Sum64(e.b)
	e.b = binary.LittleEndian.AppendUint64(e.b, sum)
	// The old tag goes first: a build killed after the new sketch is
	// written must not leave a tag that a later sketch could match.
	os.Remove(filepath.Join(dir, sketchTagName))
	writeCacheFile(path, e.b)
	retagSketch(dir, gen, sum)
}

// retagSketch names the sketch file of hash sum (loadSketch) the sketch
// of generation gen.
func retagSketch(dir string, gen int, sum uint64) {
	b := make([]byte, 0, len(sketchTagMagic)+24)
	b = append(b, sketchTagMagic...)
	b = binary.LittleEndian.AppendUint64(b, uint64(gen))
	b = binary.LittleEndian.AppendUint64(b, sum)
	b = binary.LittleEndian.AppendUint64(b, xxhash.Sum64(b))
	writeCacheFile(filepath.Join(dir, sketchTagName), b)
}

// sketchTag returns the hash of the sketch file that the tag names the
// sketch of generation gen, without reading the sketch (loadSketch checks
// it when a build uses it).
func sketchTag(dir string, gen int) (sum uint64, ok bool) {
	tag, err := os.ReadFile(filepath.Join(dir, sketchTagName))
	if err != nil || len(tag) != len(sketchTagMagic)+24 || string(tag[:len(sketchTagMagic)]) != sketchTagMagic {
		return 0, false
	}
	t := tag[len(sketchTagMagic):]
	if xxhash.Sum64(tag[:len(tag)-8]) != binary.LittleEndian.Uint64(t[16:]) || binary.LittleEndian.Uint64(t) != uint64(gen) {
		return 0, false
	}
	return binary.LittleEndian.Uint64(t[8:]), true
}

// keepSketch makes the sketch of the generation before (its file's hash
// sum, when ok) that of generation gen, after a build of a watcher's or
// the CLI's paths (BuildOptions.Changed), which reads no directory's
// times. It stays true of the tree: a directory's times are those a walk
// read while they were RacyMargin old, and a change since (the paths the
// build took in, or any other) moved them, so that the next build from the
// sketch reads those directories again, as it would have with their
// stamps cleared (walk.Sketch.Untrust); the files it stats are compared
// with the stat table, which has the build's new stamps. Keeping it saves
// decoding, clearing and writing it again (82k directories, 3 MB at 100k
// files: a fifth of such a build's CPU). Without a sketch (!ok) any old
// file is removed.
func keepSketch(dir string, gen int, sum uint64, ok bool) {
	if !ok {
		saveSketch(dir, gen, nil)
		return
	}
	retagSketch(dir, gen, sum)
}

// knownFiles are what a sketch's Since compares: the indexed files with
// their stamps, and the skipped and failed ones (stamp -1: always looked
// at again, as a walk of the tree would).
func knownFiles(stats []FileStat, info BuildInfo) []walk.FileStamp {
	out := make([]walk.FileStamp, 0, len(stats)+len(info.Skipped)+len(info.Failed))
	for _, st := range stats {
		out = append(out, walk.FileStamp{Path: st.Path, Stamp: walk.Stamp{Size: st.Size, ModTime: st.ModTime}})
	}
	for _, list := range [][]walk.Skip{info.Skipped, info.Failed} {
		for _, s := range list {
			if s.Reason != "vendored directory" && s.Path != "." {
				out = append(out, walk.FileStamp{Path: s.Path, Stamp: walk.Stamp{Size: -1, ModTime: -1}})
			}
		}
	}
	return out
}
