package parser

import (
	"bytes"
	"time"

	"github.com/smacker/go-tree-sitter/groovy"
)

// Groovy (scripts, Gradle build files, Jenkinsfiles): classes,
// interfaces, methods, fields, script-level functions and variables. The
// grammar knows neither enum nor trait declarations nor implements
// clauses: an enum or trait is read as a variable of that type (varKinds
// turns it back into an enum or trait, without its body) and an implements
// clause is a syntax error (the class and its body are kept; groovyDef
// puts back the name the error recovery takes away). It also takes one
// annotation per declaration: the ones stacked above the last are masked
// as comments (maskStackedAnnotations).
func init() {
	register(&langSpec{
		name: "groovy", grammar: groovy.GetLanguage, queries: []string{"groovy.scm"},
		sig: sigEquals, parseLimit: time.Second, attrPrefixes: []string{"@", "//@"}, splitImport: jvmImport,
		prepare:  maskStackedAnnotations,
		varKinds: map[string]DefKind{"enum": KindEnum, "trait": KindTrait},
		defHook:  groovyDef,
		builtins: set(
			"def enum trait String Integer Long Boolean Object List Map Set Closure println print sleep",
			"int long short byte double float char boolean void",
		),
	}, []string{".groovy", ".gradle", ".gvy"}, "Jenkinsfile")
}

// groovyDef gives back a class its name where the grammar's error recovery
// took it: "class Version implements Comparable<Version>" parses as an
// error node "Version implements" and a class named Comparable. A name
// preceded by "implements" is such a class's interface; the class's own
// name is the word after "class" or "interface".
func groovyDef(src []byte, d *rawDef) bool {
	if d.kind != KindClass && d.kind != KindInterface {
		return true
	}
	head := src[d.start:d.nameStart]
	impl := bytes.Index(head, []byte(" implements "))
	if impl < 0 {
		return true
	}
	for _, kw := range []string{"class ", "interface "} {
		k := bytes.Index(head[:impl+1], []byte(kw))
		if k < 0 {
			continue
		}
		st := k + len(kw)
		for st < impl && head[st] == ' ' {
			st++
		}
		en := st
		for en < impl && isIdentByte(head[en]) {
			en++
		}
		if en > st {
			d.nameStart, d.nameEnd = d.start+uint32(st), d.start+uint32(en)
		}
		break
	}
	return true
}

// maskStackedAnnotations keeps one annotation per declaration, which is
// all the grammar takes before a class, method or field: in a run of
// annotations on lines of their own, it keeps the first one that spans
// several lines, else the last, and turns the other one-line ones into
// comments of the same length ("@CompileStatic" → "//@mpileStatic"). An
// annotation before an abstract declaration is masked too: the grammar
// reads "@A abstract class B" as a variable, but "abstract class B" as a
// class. The masked lines start with "//@", an attribute prefix, so a doc
// comment above them still reaches the declaration.
func maskStackedAnnotations(src []byte) []byte {
	if !bytes.Contains(src, []byte("@")) {
		return src
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	starts := make([]int, len(lines)+1)
	for i, l := range lines {
		starts[i+1] = starts[i] + len(l)
	}
	var out []byte
	mask := func(i int) {
		if out == nil {
			out = append([]byte(nil), src...)
		}
		t := bytes.TrimLeft(lines[i], " \t")
		copy(out[starts[i]+len(lines[i])-len(t):], "//@")
	}
	type item struct{ line, span int } // first line, number of lines
	for i := 0; i < len(lines); {
		var run []item
		j := i
		for j < len(lines) {
			n := annotationLines(lines, j)
			if n == 0 {
				break
			}
			run = append(run, item{j, n})
			j += n
		}
		if len(run) == 0 {
			i++
			continue
		}
		next := []byte(nil)
		if j < len(lines) {
			next = bytes.TrimLeft(lines[j], " \t")
		}
		keep := run[len(run)-1].line
		if bytes.HasPrefix(next, []byte("abstract ")) {
			keep = -1
		}
		for _, it := range run {
			if it.span > 1 {
				keep = it.line
				break
			}
		}
		if len(run) > 1 || keep < 0 {
			for _, it := range run {
				if it.span == 1 && it.line != keep {
					mask(it.line)
				}
			}
		}
		i = j
	}
	if out == nil {
		return src
	}
	return out
}

// annotationLines returns how many lines the annotation starting line i
// takes (its parentheses closed, nothing after it but a comment), or 0
// when line i does not hold one annotation of a name of two or more
// letters alone.
func annotationLines(lines [][]byte, i int) int {
	t := bytes.TrimLeft(lines[i], " \t")
	if len(t) < 3 || t[0] != '@' || !isIdentByte(t[1]) || !isIdentByte(t[2]) || bytes.HasPrefix(t, []byte("@interface")) {
		return 0
	}
	depth := 0
	for n := 0; i+n < len(lines) && n < 20; n++ {
		l := lines[i+n]
		if n == 0 {
			l = t
		}
		for k, c := range l {
			switch c {
			case '(':
				depth++
			case ')':
				depth--
			case ' ', '\t', '\n', '\r':
				if depth == 0 {
					rest := bytes.TrimSpace(l[k:])
					if len(rest) == 0 || bytes.HasPrefix(rest, []byte("//")) {
						return n + 1
					}
					return 0
				}
			}
		}
		if depth == 0 {
			return n + 1
		}
	}
	return 0
}
