package web

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// links makes the URLs a page shows: absolute paths under the server's root
// ("/page/…"), or, for an export, relative paths from the exported file the
// page is written to (base leads from it back to the site's root).
type links struct {
	export bool
	base   string // export: "../" repeated to the site root, "" at the root
}

// serverLinks are the links of pages the server answers.
var serverLinks = links{}

// exportLinks returns the links of the exported file at rel (a slash path
// under the export's root).
func exportLinks(rel string) links {
	return links{export: true, base: strings.Repeat("../", strings.Count(rel, "/"))}
}

// page is the URL of the page with the given ID.
func (l links) page(id string) string {
	if l.export {
		rel, err := exportPath(id)
		if err != nil {
			return ""
		}
		return l.base + escapePath(rel)
	}
	return "/page/" + escapeID(id)
}

// source is the URL of the window of file page id that holds line (0: the
// first window), with the line's anchor when line > 0.
func (l links) source(id string, line int) string {
	from := windowStart(line)
	u := l.window(id, from)
	if line > 0 && u != "" {
		u += "#L" + strconv.Itoa(line)
	}
	return u
}

// window is the URL of the source window of file page id starting at line from.
func (l links) window(id string, from int) string {
	if from <= 1 {
		return l.page(id)
	}
	if l.export {
		rel, err := exportWindowPath(id, from)
		if err != nil {
			return ""
		}
		return l.base + escapePath(rel)
	}
	return l.page(id) + "?from=" + strconv.Itoa(from)
}

// home is the URL of the home page.
func (l links) home() string {
	if l.export {
		return l.base + "index.html"
	}
	return "/"
}

// static is the URL of an embedded asset.
func (l links) static(name string) string {
	if l.export {
		return l.base + "static/" + name
	}
	return "/static/" + name
}

// graph is the URL of the page's graph picture ("" in an export, which
// shows the picture on the page only).
func (l links) graph(id string) string {
	if l.export {
		return ""
	}
	return "/graph/" + escapeID(id)
}

// escapeID writes a page ID as a URL path: every byte but unreserved ones,
// '/' and ':' percent-encoded ('#' is %23, so a symbol ID stays one path).
func escapeID(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		if unreserved(c) || c == '/' || c == ':' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// escapePath percent-encodes what a relative URL must not hold raw.
func escapePath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if unreserved(c) || c == '/' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// maxNameBytes bounds one exported file or folder name (file systems allow
// 255 bytes).
const maxNameBytes = 180

// exportName makes one path element safe as a file or folder name: bytes
// outside [A-Za-z0-9._-] become "%XX" (so the mapping is one to one and
// "." and ".." cannot occur: a leading '.' is encoded too), and a name too
// long for a file system is cut and suffixed with a hash of the whole.
func exportName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' && c != '~' && unreserved(c) && !(i == 0 && c == '.') {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	out := b.String()
	if len(out) > maxNameBytes {
		out = out[:maxNameBytes-17] + "~" + strconv.FormatUint(xxhash.Sum64String(s), 16)
	}
	return out
}

// exportDir maps a repository path to folders: each element through
// exportName, and an element ending in ".html" ends in ".htm%6C" instead
// (exportName never writes that), so that no folder is named like a page
// file.
func exportDir(p string) string {
	if p == "." {
		return ""
	}
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = exportName(s)
		if strings.HasSuffix(parts[i], ".html") {
			parts[i] = strings.TrimSuffix(parts[i], "l") + "%6C"
		}
	}
	return strings.Join(parts, "/")
}

// exportPath returns the file (a slash path under the export's root) that
// page id is written to: module/DIR/index.html, file/PATH.html,
// symbol/PATH/NAME.html, doc/PATH/SLUG.html, memory/SLUG.html. IDs are
// checked first (graph.ParseID: no absolute paths, no "..").
func exportPath(id string) (string, error) {
	kind, p, frag, err := graph.ParseID(id)
	if err != nil {
		return "", err
	}
	switch kind {
	case graph.KindModule:
		return path.Join("module", exportDir(p), "index.html"), nil
	case graph.KindFile:
		dir, base := path.Split(p)
		return path.Join("file", exportDir(strings.TrimSuffix(dir, "/")), exportName(base)+".html"), nil
	case graph.KindSymbol, graph.KindDoc:
		return path.Join(kind.String(), exportDir(p), exportName(frag)+".html"), nil
	case graph.KindMemory:
		return path.Join("memory", exportName(frag)+".html"), nil
	}
	return "", fmt.Errorf("no export path for %q", id)
}

// exportWindowPath is the file of the source window of file page id that
// starts at line from (NAME.html is the first, NAME~L301.html the next:
// exportName writes '~' as %7E, so no other page has that name).
func exportWindowPath(id string, from int) (string, error) {
	p, err := exportPath(id)
	if err != nil || from <= 1 {
		return p, err
	}
	return strings.TrimSuffix(p, ".html") + "~L" + strconv.Itoa(from) + ".html", nil
}
