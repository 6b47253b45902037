package parser

import (
	"path"
	"strings"
)

// Limits for files that are not code (configuration, builds, markup): a huge
// configuration must not flood the index with its keys.
const (
	// maxDataDefs is the most definitions kept per data file; the first ones,
	// in source order, are kept.
	maxDataDefs = 200
	// maxJSONBytes is the largest JSON file whose keys are extracted; larger
	// ones are data rather than configuration.
	maxJSONBytes = 64 << 10
)

// MaxLiterals is the most string literals Facts keeps per definition (and
// at the file level): the first ones in source order. The graph ranks a
// page by these; more only took memory and index space (moby's API specs,
// api/swagger.yaml and its 31 older versions, 160k quoted values).
const MaxLiterals = 64

// capLiterals keeps the first MaxLiterals literals of each definition of
// f, and of its file level.
func capLiterals(f *Facts) {
	if len(f.Literals) <= MaxLiterals {
		return
	}
	n := make(map[int]int)
	w := 0
	for _, l := range f.Literals {
		if n[l.Enclosing] < MaxLiterals {
			n[l.Enclosing]++
			f.Literals[w] = l
			w++
		}
	}
	clear(f.Literals[w:])
	f.Literals = f.Literals[:w]
}

// capDefs keeps n definitions of f: the shallowest first, and at each
// depth the children of the kept definitions taken in turns, one of each
// parent's per round, in source order. A flat file keeps its first n; an
// API spec whose "definitions" come before its "paths" keeps some of
// both (moby's api/swagger.yaml kept 160 schemas and the first 34 of its
// paths when the first 200 were kept). The kept ones stay in source
// order with their parents; references and literals of a dropped
// definition move to its nearest kept ancestor, or the file level.
func capDefs(f *Facts, n int) {
	if len(f.Defs) <= n {
		return
	}
	keep := make([]bool, len(f.Defs))
	depth := make([]int, len(f.Defs))
	for i, d := range f.Defs {
		if d.Parent >= 0 {
			depth[i] = depth[d.Parent] + 1
		}
	}
	kept := 0
	var groups [][]int // this depth's candidates by parent, parents in source order
	slot := map[int]int{}
	for dep := 0; kept < n; dep++ {
		groups = groups[:0]
		clear(slot)
		for i, d := range f.Defs {
			if depth[i] != dep || d.Parent >= 0 && !keep[d.Parent] {
				continue
			}
			g, ok := slot[d.Parent]
			if !ok {
				g = len(groups)
				slot[d.Parent] = g
				groups = append(groups, nil)
			}
			groups[g] = append(groups[g], i)
		}
		if len(groups) == 0 {
			break
		}
		for round := 0; kept < n; round++ {
			took := false
			for _, g := range groups {
				if round < len(g) && kept < n {
					keep[g[round]] = true
					kept++
					took = true
				}
			}
			if !took {
				break
			}
		}
	}
	// New indexes: a kept definition's place among the kept, a dropped
	// one's nearest kept ancestor's (parents come first), or -1.
	at := make([]int, len(f.Defs))
	w := 0
	for i, d := range f.Defs {
		switch {
		case keep[i]:
			at[i] = w
			w++
		case d.Parent >= 0:
			at[i] = at[d.Parent]
		default:
			at[i] = -1
		}
	}
	up := func(i int) int {
		if i < 0 || i >= len(at) {
			return -1
		}
		return at[i]
	}
	for i := range f.Refs {
		f.Refs[i].Enclosing = int32(up(int(f.Refs[i].Enclosing)))
	}
	w = 0
	seen := map[Literal]bool{}
	for _, l := range f.Literals {
		l.Enclosing = up(l.Enclosing)
		if seen[l] {
			continue
		}
		seen[l] = true
		f.Literals[w] = l
		w++
	}
	f.Literals = f.Literals[:w]
	w = 0
	for i, d := range f.Defs {
		if keep[i] {
			if d.Parent >= 0 {
				d.Parent = at[d.Parent]
			}
			f.Defs[w] = d
			w++
		}
	}
	f.Defs = f.Defs[:w:w]
}

// finishData is the finish hook of the data languages (YAML, JSON, TOML):
// it caps the definitions.
func finishData(_ string, _ []byte, f *Facts) { capDefs(f, maxDataDefs) }

// isWorkflow reports whether p is a GitHub Actions workflow
// (.github/workflows/*.yml or *.yaml).
func isWorkflow(p string) bool {
	p = strings.ReplaceAll(p, "\\", "/")
	dir, base := path.Split(p)
	ext := strings.ToLower(path.Ext(base))
	return (ext == ".yml" || ext == ".yaml") && (dir == ".github/workflows/" || strings.HasSuffix(dir, "/.github/workflows/"))
}
