// Command goextract prints the functions and methods of the Go files
// under a tree as JSON lines, for the docstring → symbol harness
// (benchmarks/docsym/docsym.py). Each line holds the file's path
// relative to the tree, the name (a method's own name, without its
// receiver), the receiver's type name, the doc comment's text and the
// function's source from its declaration to its closing brace.
//
// Test files (_test.go) and testdata and vendor folders are left out;
// a file that does not parse is reported on stderr and passed over.
//
//	go run ./benchmarks/docsym/goextract TREE
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

type symbol struct {
	Path string `json:"path"`
	Name string `json:"name"`
	Recv string `json:"recv,omitempty"`
	Line int    `json:"line"`
	Doc  string `json:"doc"`
	Src  string `json:"src"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: goextract TREE")
		os.Exit(2)
	}
	root := os.Args[1]
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "goextract:", err)
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments)
		if err != nil {
			fmt.Fprintln(os.Stderr, "goextract:", err)
			return nil
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			s := symbol{Path: filepath.ToSlash(rel), Name: fn.Name.Name, Line: fset.Position(fn.Pos()).Line}
			if fn.Recv != nil && len(fn.Recv.List) > 0 {
				s.Recv = recvName(fn.Recv.List[0].Type)
			}
			if fn.Doc != nil {
				s.Doc = fn.Doc.Text()
			}
			s.Src = string(src[fset.Position(fn.Pos()).Offset:fset.Position(fn.End()).Offset])
			if err := enc.Encode(s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "goextract:", err)
		os.Exit(1)
	}
}

// recvName is the type name of a method's receiver: T for T, *T, T[K]
// and *T[K].
func recvName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}
