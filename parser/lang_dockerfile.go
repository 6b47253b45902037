package parser

import (
	"path"
	"strings"

	"github.com/smacker/go-tree-sitter/dockerfile"
)

// Dockerfile: build stages (FROM image AS name; an unnamed stage is named
// after its image), each running to the next FROM, with their ARG and ENV
// keys; comments above as docs; RUN commands and quoted values as literals.
func init() {
	register(&langSpec{name: "dockerfile", grammar: dockerfile.GetLanguage, queries: []string{"dockerfile.scm"},
		comments: commentHash, sig: sigWholeLine, untilNext: KindStage, finish: finishDockerfile},
		[]string{".dockerfile", ".containerfile"}, "Dockerfile", "dockerfile", "Containerfile")
	langByBasePrefix = append(langByBasePrefix,
		struct{ prefix, lang string }{"Dockerfile.", "dockerfile"},
		struct{ prefix, lang string }{"Containerfile.", "dockerfile"})
}

// finishDockerfile names unnamed stages after their image ("FROM
// docker.io/library/alpine:3.18" is stage alpine), requalifies what they
// contain, drops a parser directive (# syntax=…) as the file's doc and caps
// the definitions.
func finishDockerfile(path string, src []byte, f *Facts) {
	named := map[string]bool{}
	for i := range f.Defs {
		d := &f.Defs[i]
		if d.Kind == KindStage {
			// FROM an earlier stage refers to it.
			if img := fromImage(d.Signature); named[img] {
				f.Refs = append(f.Refs, Ref{Name: img, Kind: RefType, Line: int32(d.StartLine), Enclosing: int32(i)})
			}
			named[d.Name] = true
		}
		if d.Kind == KindStage && !strings.Contains(strings.ToUpper(d.Signature), " AS ") {
			if img := stageImage(d.Signature); img != "" {
				d.Name, d.Qualified = img, img
			}
		}
		if isParserDirective(d.Doc) {
			d.Doc = ""
		}
		if d.Parent >= 0 {
			d.Qualified = joinDot(f.Defs[d.Parent].Qualified, d.Name)
		}
	}
	if isParserDirective(f.Doc) {
		f.Doc = ""
	}
	capDefs(f, maxDataDefs)
}

// fromImage is the image of a FROM line as written, flags dropped.
func fromImage(from string) string {
	for i, w := range strings.Fields(from) {
		if i > 0 && !strings.HasPrefix(w, "--") {
			return w
		}
	}
	return ""
}

// stageImage is the short image name of a FROM line: the last path segment
// without tag or digest, or "" when it is not a plain name (a ${VAR}).
func stageImage(from string) string {
	if w := fromImage(from); w != "" {
		w, _, _ = strings.Cut(w, "@")
		w = path.Base(w)
		w, _, _ = strings.Cut(w, ":")
		if w == "" || strings.ContainsAny(w, "${}") {
			return ""
		}
		return w
	}
	return ""
}

// isParserDirective reports whether a comment is a Dockerfile parser
// directive (# syntax=…, # escape=…, # check=…) rather than documentation.
func isParserDirective(doc string) bool {
	low := strings.ToLower(doc)
	return strings.HasPrefix(low, "syntax=") || strings.HasPrefix(low, "escape=") || strings.HasPrefix(low, "check=")
}
