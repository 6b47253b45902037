package walk

import "slices"

// Stamp is what a build records of a file to tell, without reading it,
// whether the file changed since: its size and modification time.
type Stamp struct {
	Size    int64 // bytes
	ModTime int64 // Unix nanoseconds
}

// Changes is how the files a walk lists differ from those a build indexed.
// Each list is sorted by path.
type Changes struct {
	Added     []File   // listed, not indexed (and not left out on purpose)
	Modified  []File   // indexed, listed with another size or modification time
	Removed   []string // indexed, no longer listed
	Unchanged []File   // indexed, listed with the same size and modification time
	// Dirs are the directories the walk read (Result.DirPaths), when its
	// options asked for them (Options.ListDirs).
	Dirs []string
}

// Diff compares files, the listing of a Walk (sorted by path), with
// indexed, the stamps of the files a build indexed by path. A listed file
// that is not indexed but in leftOut (the files the build skipped or failed
// on: generated, binary, unparsable) is neither Added nor Unchanged, so
// that a file a build deliberately leaves out does not look new forever;
// a nil leftOut counts them all as Added, which is what a build wants (it
// tries them again).
//
// This is the one definition of "changed since the build": the builder
// reparses Added and Modified and drops Removed, and the freshness check
// and status report all three.
func Diff(files []File, indexed map[string]Stamp, leftOut map[string]bool) *Changes {
	c := &Changes{}
	seen := 0
	for _, f := range files {
		st, ok := indexed[f.Path]
		switch {
		case !ok && leftOut[f.Path]:
		case !ok:
			c.Added = append(c.Added, f)
		case st.Size != f.Size || st.ModTime != f.ModTime:
			c.Modified = append(c.Modified, f)
		default:
			c.Unchanged = append(c.Unchanged, f)
		}
		if ok {
			seen++
		}
	}
	if seen < len(indexed) {
		listed := make(map[string]bool, len(files))
		for _, f := range files {
			listed[f.Path] = true
		}
		for p := range indexed {
			if !listed[p] {
				c.Removed = append(c.Removed, p)
			}
		}
		slices.Sort(c.Removed)
	}
	return c
}

// Len is the number of changes: files added, modified or removed.
func (c *Changes) Len() int { return len(c.Added) + len(c.Modified) + len(c.Removed) }

// Paths lists the paths added, modified or removed, sorted.
func (c *Changes) Paths() []string {
	out := make([]string, 0, c.Len())
	for _, f := range c.Added {
		out = append(out, f.Path)
	}
	for _, f := range c.Modified {
		out = append(out, f.Path)
	}
	out = append(out, c.Removed...)
	slices.Sort(out)
	return out
}
