package walk

import (
	"bytes"
	"path"
	"strings"
)

// ClassifyHeadBytes is how much of a file ClassifyContent looks at; the
// builder passes at least this much of the file (or all of a shorter one).
const ClassifyHeadBytes = 8 << 10

// Skip reasons of ClassifyContent.
const (
	reasonBinary    = "binary (NUL byte)"
	reasonGenerated = "generated (Code generated … DO NOT EDIT)"
	reasonMinified  = "minified"
)

const (
	// minifiedAvgLineBytes: hand-written JavaScript and CSS average 30–40
	// bytes a line; minified bundles run to thousands. 300 separates them
	// with room on both sides.
	minifiedAvgLineBytes = 300
	// minifiedMinBytes: below 1 KiB a file is cheap to parse whatever its
	// shape, and one long line is more likely a data literal than a bundle.
	minifiedMinBytes = 1 << 10
	// bannerLines is how far down a generated-file banner is looked for.
	bannerLines = 5
)

// ClassifyContent returns "" when the file at path (a slash path; only its
// name is used) whose first bytes are head should be indexed, else the reason
// to skip it:
//   - "binary (NUL byte)" when the first ClassifyHeadBytes hold a NUL;
//   - "generated (Code generated … DO NOT EDIT)" when a line matches Go's
//     convention ^// Code generated .* DO NOT EDIT\.$ before the package
//     clause, or one of the first 5 lines holds "@generated" or "DO NOT EDIT"
//     (the banners of protoc, Thrift, Relay, Buck and most other generators);
//   - "minified" for .js/.mjs/.cjs/.css files named *.min.js/*.min.css, or
//     whose lines in the first ClassifyHeadBytes average over 300 bytes.
//
// head beyond ClassifyHeadBytes is not read. ClassifyContent is safe for
// concurrent use.
func ClassifyContent(path string, head []byte) string {
	if len(head) > ClassifyHeadBytes {
		head = head[:ClassifyHeadBytes]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return reasonBinary
	}
	if isGenerated(head) {
		return reasonGenerated
	}
	if isMinified(path, head) {
		return reasonMinified
	}
	return ""
}

var (
	goGenPrefix = []byte("// Code generated ")
	goGenSuffix = []byte(" DO NOT EDIT.")
	atGenerated = []byte("@generated")
	doNotEdit   = []byte("DO NOT EDIT")
	pkgClause   = []byte("package ")
)

func isGenerated(head []byte) bool {
	goHeader := true // no package clause seen yet
	for n := 1; len(head) > 0 && (goHeader || n <= bannerLines); n++ {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if n <= bannerLines && (bytes.Contains(line, atGenerated) || bytes.Contains(line, doNotEdit)) {
			return true
		}
		if goHeader {
			if bytes.HasPrefix(line, pkgClause) {
				goHeader = false
			} else if len(line) >= len(goGenPrefix)+len(goGenSuffix) &&
				bytes.HasPrefix(line, goGenPrefix) && bytes.HasSuffix(line, goGenSuffix) {
				return true
			}
		}
	}
	return false
}

func isMinified(name string, head []byte) bool {
	name = strings.ToLower(path.Base(name))
	switch path.Ext(name) {
	case ".js", ".mjs", ".cjs", ".css":
	default:
		return false
	}
	if strings.HasSuffix(name, ".min.js") || strings.HasSuffix(name, ".min.css") ||
		strings.HasSuffix(name, ".min.mjs") || strings.HasSuffix(name, ".min.cjs") {
		return true
	}
	if len(head) < minifiedMinBytes {
		return false
	}
	lines := bytes.Count(head, []byte("\n"))
	if head[len(head)-1] != '\n' {
		lines++ // the last, possibly cut, line
	}
	return len(head)/lines > minifiedAvgLineBytes
}
