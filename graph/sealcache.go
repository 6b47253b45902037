package graph

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// The seal-check cache: which sealed segment files a build found whole
// (hashed, as the seal says) and how each looked then (size, modification
// and change times, inode). A file that looks the same is not hashed
// again: at 100k files the 82 MB of segments a build opens cost 35 ms of
// CPU to hash, every edit, whatever changed. A write to a file moves its
// change time, which no program sets back, so a file rewritten, truncated
// or scribbled since is hashed (and its damage found) as before; what the
// cache does not see is damage below the file system (a disk's bit rot),
// which the hash of a server's Verify or of a file that moved still finds.
// Like the stat table it is a cache in the index folder, written without
// fsync; a missing or unreadable one means hashing everything.
//
// Layout: a line "wksealok1", then per file
// "PATH SIZE MTIME CTIME INO HASH" (PATH relative to the index folder,
// HASH the sealed hash in hex).

const (
	sealCacheName  = "seal-verified"
	sealCacheMagic = "wksealok1"
)

// sealsHashed counts the segment folders whose files an open hashed
// (tests).
var sealsHashed atomic.Int64

// sealLook is how a sealed file looked when it was found whole, with the
// hash its seal gave it.
type sealLook struct {
	size, mtime, ctime int64
	ino, hash          uint64
}

// sealCache is the seal-check cache of one index folder, as read, and the
// files found whole since.
type sealCache struct {
	dir   string
	old   map[string]sealLook
	now   map[string]sealLook
	dirty bool
}

func loadSealCache(dir string) *sealCache {
	c := &sealCache{dir: dir, old: map[string]sealLook{}, now: map[string]sealLook{}}
	b, err := os.ReadFile(filepath.Join(dir, sealCacheName))
	if err != nil {
		return c
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	if !sc.Scan() || sc.Text() != sealCacheMagic {
		return c
	}
	for sc.Scan() {
		var p string
		var l sealLook
		if n, err := fmt.Sscanf(sc.Text(), "%s %d %d %d %d %x", &p, &l.size, &l.mtime, &l.ctime, &l.ino, &l.hash); n != 6 || err != nil {
			return &sealCache{dir: dir, old: map[string]sealLook{}, now: map[string]sealLook{}}
		}
		c.old[p] = l
	}
	return c
}

// verify is verifySeal(c.dir, gd), without hashing when every file the
// seal lists looks as when it was last found whole.
func (c *sealCache) verify(gd string) ([]sealFile, []fileID, error) {
	seal, err := readSeal(c.dir, gd)
	if err != nil {
		return nil, nil, err
	}
	rel := relIndex(c.dir, gd)
	looks := make([]sealLook, len(seal))
	ids := make([]fileID, len(seal))
	same := true
	for i, sf := range seal {
		l, ok := lookOf(filepath.Join(gd, sf.name))
		if !ok {
			same = false
			break
		}
		l.hash = sf.hash
		looks[i] = l
		ids[i] = fileID{size: l.size, mtime: l.mtime, ino: l.ino}
		if l.size != sf.size || c.old[rel+"/"+sf.name] != l {
			same = false
		}
	}
	if !same {
		// Looked at before the hash: a change while hashing moves the
		// change time, and the next build hashes again.
		sealsHashed.Add(1)
		seal, ids, err = verifySeal(c.dir, gd)
		if err != nil {
			return nil, nil, err
		}
		c.dirty = true
		for i, sf := range seal {
			if i < len(looks) && looks[i].hash == sf.hash && looks[i].size == sf.size {
				c.now[rel+"/"+sf.name] = looks[i]
			}
		}
		return seal, ids, nil
	}
	for i, sf := range seal {
		c.now[rel+"/"+sf.name] = looks[i]
	}
	return seal, ids, nil
}

// save writes the cache of the files found whole by this open (those of
// the generation opened), when it found any not in the cache before.
func (c *sealCache) save() {
	if !c.dirty && len(c.now) == len(c.old) {
		return
	}
	var b strings.Builder
	b.WriteString(sealCacheMagic + "\n")
	for p, l := range c.now {
		if strings.ContainsAny(p, " \n") {
			continue
		}
		fmt.Fprintf(&b, "%s %d %d %d %d %x\n", filepath.ToSlash(p), l.size, l.mtime, l.ctime, l.ino, l.hash)
	}
	writeCacheFile(filepath.Join(c.dir, sealCacheName), []byte(b.String()))
}
