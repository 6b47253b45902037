package walk

import (
	"bytes"
	"strings"
)

// This file holds the gitignore matcher used by Walk. It follows git's own
// rules (dir.c and wildmatch.c) rather than github.com/sabhiram/go-gitignore,
// which the dependency notes suggested: that library anchors "a/b" only when
// the pattern also holds "*.", reads "?" as a literal, and runs one regexp
// per pattern per path (about 300 ns each; 15k files × 20 patterns would cost
// ~90 ms, the whole walk budget). Here most patterns are a string compare or
// a suffix test on the base name, and the rest run git's wildmatch.

// ignorePattern is one compiled line of a gitignore file.
type ignorePattern struct {
	pat      string // glob, without "!", leading "/" and trailing "/"
	negate   bool   // "!pat": re-include
	dirOnly  bool   // "pat/": matches directories only
	basename bool   // no "/" in pat: matched against the base name at any depth
	kind     uint8  // how to match: patLiteral, patSuffix or patGlob
	lit      string // the literal (patLiteral) or the suffix after "*" (patSuffix)
}

const (
	patGlob    = iota // run wildmatch
	patLiteral        // pat has no glob characters
	patSuffix         // pat is "*" followed by a literal, as in "*.log"
)

// ignoreList is the compiled content of one ignore file, applying to paths at
// or below base (repo-relative, "" for the root). Lists chain to the list of
// the enclosing directory; the nearest list is asked first, as git does.
type ignoreList struct {
	base   string
	pats   []ignorePattern
	parent *ignoreList
}

// parseIgnore compiles the lines of a gitignore file. It returns nil when
// the file holds no pattern.
func parseIgnore(base string, data []byte, parent *ignoreList) *ignoreList {
	var pats []ignorePattern
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		if p, ok := compileIgnoreLine(string(line)); ok {
			pats = append(pats, p)
		}
	}
	if len(pats) == 0 {
		return parent
	}
	return &ignoreList{base: base, pats: pats, parent: parent}
}

// compileIgnoreLine compiles one line as git's add_pattern does.
func compileIgnoreLine(line string) (ignorePattern, bool) {
	var p ignorePattern
	line = strings.TrimSuffix(line, "\r")
	if line == "" || line[0] == '#' {
		return p, false
	}
	// Trailing spaces go unless escaped with a backslash.
	end := len(line)
	for end > 0 && line[end-1] == ' ' {
		if end >= 2 && line[end-2] == '\\' {
			break
		}
		end--
	}
	line = line[:end]
	if line == "" {
		return p, false
	}
	if line[0] == '!' {
		p.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") && !strings.HasSuffix(line, "\\/") {
		p.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if line == "" {
		return p, false
	}
	p.basename = !strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	if line == "" {
		return p, false
	}
	p.pat = line
	switch {
	case !strings.ContainsAny(line, `*?[\`):
		p.kind, p.lit = patLiteral, line
	case p.basename && line[0] == '*' && !strings.ContainsAny(line[1:], `*?[\`):
		// Only for base names: in a path, "*" stops at "/".
		p.kind, p.lit = patSuffix, line[1:]
	default:
		p.kind = patGlob
	}
	return p, true
}

// match reports whether p matches the path rel (relative to the ignore file's
// directory) whose last element is name.
func (p *ignorePattern) match(rel, name string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	s := rel
	if p.basename {
		s = name
	}
	switch p.kind {
	case patLiteral:
		return s == p.lit
	case patSuffix:
		return strings.HasSuffix(s, p.lit)
	}
	return wildmatch(p.pat, s, !p.basename) == wmMatch
}

// decide returns whether some pattern of l matches and, if so, whether the
// path is ignored. The last matching pattern of a file wins. rel is the path
// relative to the repository root.
func (l *ignoreList) decide(rel, name string, isDir bool) (matched, ignored bool) {
	sub := rel
	if l.base != "" {
		sub = rel[len(l.base)+1:]
	}
	for i := len(l.pats) - 1; i >= 0; i-- {
		p := &l.pats[i]
		if p.match(sub, name, isDir) {
			return true, !p.negate
		}
	}
	return false, false
}

// wildmatch results, as in git's wildmatch.c.
const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

// wildmatch matches text against the glob pattern p with git's semantics.
// With pathname set, "*", "?" and "[...]" do not match "/", and "**" between
// slashes matches any number of directories. It is a port of git's dowild.
func wildmatch(p, text string, pathname bool) int {
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pc := p[pi]
		if ti >= len(text) && pc != '*' {
			return wmAbortAll
		}
		var tc byte
		if ti < len(text) {
			tc = text[ti]
		}
		switch pc {
		case '\\':
			pi++
			if pi >= len(p) || tc != p[pi] {
				return wmNoMatch
			}
		default:
			if tc != pc {
				return wmNoMatch
			}
		case '?':
			if pathname && tc == '/' {
				return wmNoMatch
			}
		case '*':
			var matchSlash bool
			pi++
			if pi < len(p) && p[pi] == '*' {
				prev := pi - 2
				for pi < len(p) && p[pi] == '*' {
					pi++
				}
				switch {
				case !pathname:
					matchSlash = true
				case (prev < 0 || p[prev] == '/') &&
					(pi == len(p) || p[pi] == '/' || (p[pi] == '\\' && pi+1 < len(p) && p[pi+1] == '/')):
					// "**/" may match no directory at all: try that first.
					if pi < len(p) && p[pi] == '/' && wildmatch(p[pi+1:], text[ti:], pathname) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				}
			} else {
				matchSlash = !pathname
			}
			if pi == len(p) {
				// A trailing "**" matches everything, a trailing "*" only
				// when no slash is left.
				if !matchSlash && strings.IndexByte(text[ti:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			}
			if !matchSlash && p[pi] == '/' {
				// "*/" matches the rest of one directory name.
				j := strings.IndexByte(text[ti:], '/')
				if j < 0 {
					return wmNoMatch
				}
				ti += j // the loop consumes the slash on both sides
				continue
			}
			for {
				if ti >= len(text) {
					break
				}
				if c := p[pi]; c != '*' && c != '?' && c != '[' && c != '\\' {
					// Skip ahead to the next occurrence of the literal.
					for ti < len(text) && (matchSlash || text[ti] != '/') && text[ti] != c {
						ti++
					}
					if ti >= len(text) || text[ti] != c {
						return wmNoMatch
					}
				}
				m := wildmatch(p[pi:], text[ti:], pathname)
				if m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && text[ti] == '/' {
					return wmAbortToStarStar
				}
				ti++
			}
			return wmAbortAll
		case '[':
			pi++
			if pi >= len(p) {
				return wmAbortAll
			}
			negated := p[pi] == '!' || p[pi] == '^'
			if negated {
				pi++
			}
			matched := false
			var prev byte
			first := true
			for {
				if pi >= len(p) {
					return wmAbortAll
				}
				c := p[pi]
				if c == ']' && !first {
					break
				}
				first = false
				switch {
				case c == '\\':
					pi++
					if pi >= len(p) {
						return wmAbortAll
					}
					c = p[pi]
					if tc == c {
						matched = true
					}
				case c == '-' && prev != 0 && pi+1 < len(p) && p[pi+1] != ']':
					pi++
					c = p[pi]
					if c == '\\' {
						pi++
						if pi >= len(p) {
							return wmAbortAll
						}
						c = p[pi]
					}
					if tc >= prev && tc <= c {
						matched = true
					}
					c = 0 // a range cannot start a range
				case c == '[' && pi+1 < len(p) && p[pi+1] == ':':
					j := strings.IndexByte(p[pi+2:], ']')
					if j < 0 {
						return wmAbortAll
					}
					if j == 0 || p[pi+2+j-1] != ':' {
						// No ":]": a literal '['.
						if tc == '[' {
							matched = true
						}
						break
					}
					ok, known := inClass(p[pi+2:pi+2+j-1], tc)
					if !known {
						return wmAbortAll
					}
					if ok {
						matched = true
					}
					pi += 2 + j // at the ']' of ":]"
					c = 0
				default:
					if tc == c {
						matched = true
					}
				}
				prev = c
				pi++
			}
			if matched == negated || (pathname && tc == '/') {
				return wmNoMatch
			}
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// inClass reports whether c is in the POSIX class name ("alpha", …) and
// whether the class is known.
func inClass(name string, c byte) (in, known bool) {
	isUpper := c >= 'A' && c <= 'Z'
	isLower := c >= 'a' && c <= 'z'
	isDigit := c >= '0' && c <= '9'
	isSpace := c == ' ' || (c >= '\t' && c <= '\r')
	isPrint := c >= 0x20 && c < 0x7f
	switch name {
	case "alnum":
		return isUpper || isLower || isDigit, true
	case "alpha":
		return isUpper || isLower, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return isDigit, true
	case "graph":
		return isPrint && c != ' ', true
	case "lower":
		return isLower, true
	case "print":
		return isPrint, true
	case "punct":
		return isPrint && c != ' ' && !isUpper && !isLower && !isDigit, true
	case "space":
		return isSpace, true
	case "upper":
		return isUpper, true
	case "xdigit":
		return isDigit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'), true
	}
	return false, false
}
