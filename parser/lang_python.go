package parser

import "strings"

// pythonFromImport takes apart `from MODULE import a, b as c`: the module
// (no alias: the statement binds no name to it), then each name as the
// module's member ("MODULE.a", or "..a" under `from .. import`) bound to
// its local name, so that a qualifier or a call naming it can be told an
// import (`from .. import typing as ft; ft.Callable`) and, when MODULE is
// outside the repository, left unlinked.
func pythonFromImport(text string, add func(path, alias string)) {
	rest, ok := strings.CutPrefix(text, "from")
	if !ok {
		return
	}
	mod, names, ok := strings.Cut(rest, " import")
	if !ok {
		return
	}
	mod = strings.TrimSpace(mod)
	if mod == "" {
		return
	}
	add(mod, "")
	names = strings.NewReplacer("(", " ", ")", " ", "\\", " ").Replace(names)
	if i := strings.IndexByte(names, '#'); i >= 0 {
		names = names[:i]
	}
	for part := range strings.SplitSeq(names, ",") {
		name, alias := importAlias(part)
		if name == "" || name == "*" || !identLike(name) {
			continue
		}
		if alias == "" {
			alias = name
		}
		full := mod + "." + name
		if strings.HasSuffix(mod, ".") {
			full = mod + name
		}
		add(full, alias)
	}
}

// identLike reports a plain identifier (letters, digits, underscores).
func identLike(s string) bool {
	for _, r := range s {
		if r != '_' && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r > 127) {
			return false
		}
	}
	return s != ""
}
