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

// capDefs keeps the first n definitions of f. Definitions are in source
// order and parents come before their children, so the kept ones keep their
// parents; references and literals of a dropped definition move to its
// nearest kept ancestor, or the file level.
func capDefs(f *Facts, n int) {
	if len(f.Defs) <= n {
		return
	}
	up := func(i int) int {
		for i >= n {
			i = f.Defs[i].Parent
		}
		return i
	}
	for i := range f.Refs {
		f.Refs[i].Enclosing = int32(up(int(f.Refs[i].Enclosing)))
	}
	w := 0
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
	f.Defs = f.Defs[:n:n]
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
