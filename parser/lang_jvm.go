package parser

import "strings"

// jvmImport takes apart a Kotlin, Groovy or Scala import statement:
//
//	import a.b.C            a.b.C
//	import a.b.*            a.b.*
//	import a.b.C as D       a.b.C as D (Kotlin, Groovy)
//	import static a.b.C.m   a.b.C.m (Groovy)
//	import a.b._            a.b._ (Scala)
//	import a.b.{C, D => E}  a.b.C, a.b.D as E (Scala; E => _ hides a name)
//	import a.B, c.D         a.B, c.D (Scala)
//
// A trailing ';' and comments are dropped.
func jvmImport(text string, add func(path, alias string)) {
	text = strings.TrimSpace(strings.TrimPrefix(text, "import"))
	text = strings.TrimSpace(strings.TrimPrefix(text, "static "))
	for _, c := range []string{"//", "/*"} {
		if i := strings.Index(text, c); i >= 0 {
			text = text[:i]
		}
	}
	text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), ";"))
	for _, part := range splitTop(text) {
		part = strings.TrimSpace(part)
		open := strings.IndexByte(part, '{')
		if open < 0 {
			path, alias := importAlias(part)
			if path != "" {
				add(path, alias)
			}
			continue
		}
		prefix := strings.ReplaceAll(part[:open], " ", "")
		inner := strings.TrimSuffix(strings.TrimSpace(part[open+1:]), "}")
		for _, sel := range strings.Split(inner, ",") {
			path, alias := importAlias(sel)
			if path == "" || alias == "_" {
				continue
			}
			add(prefix+path, alias)
		}
	}
}

// importAlias splits "a.b.C as D" or "C => D" into path and alias, without
// spaces in the path.
func importAlias(s string) (path, alias string) {
	s = strings.TrimSpace(s)
	for _, sep := range []string{" as ", "=>", "→"} {
		if i := strings.LastIndex(s, sep); i >= 0 {
			alias = strings.TrimSpace(s[i+len(sep):])
			s = s[:i]
			break
		}
	}
	return strings.ReplaceAll(strings.TrimSpace(s), " ", ""), alias
}

// splitTop splits s at commas outside braces.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
