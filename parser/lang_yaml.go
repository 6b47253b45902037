package parser

import (
	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/yaml"
)

// YAML and JSON: keys to depth 2 (qualified by their parent key:
// server.port), comments above a key as its doc, string values as literals.
// JSON is parsed with the YAML grammar (JSON is YAML's flow style), only up
// to maxJSONBytes, and lock files not at all. In a GitHub workflow the
// second-level keys under jobs: are jobs.
func init() {
	register(&langSpec{name: "yaml", grammar: yaml.GetLanguage, queries: []string{"yaml.scm"},
		comments: commentHash, sig: sigWholeLine, extract: extractYAML, finish: finishYAML}, []string{".yml", ".yaml"})
	register(&langSpec{name: "json", grammar: yaml.GetLanguage, queries: []string{"yaml.scm"},
		sig: sigWholeLine, extract: extractYAML, finish: finishData, maxBytes: maxJSONBytes}, []string{".json"})
	// Lock files are generated: not configuration anyone reads.
	for _, b := range []string{"package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml"} {
		langByBase[b] = ""
	}
}

// finishYAML marks a workflow's jobs and caps the definitions.
func finishYAML(path string, src []byte, f *Facts) {
	if isWorkflow(path) {
		for i := range f.Defs {
			d := &f.Defs[i]
			if d.Parent >= 0 && f.Defs[d.Parent].Parent < 0 && f.Defs[d.Parent].Qualified == "jobs" {
				d.Kind = KindJob
			}
		}
	}
	finishData(path, src, f)
}

// extractYAML runs the query; when the file does not parse, the grammar's
// root is an ERROR node holding the pairs it recovered (no document the
// query could anchor on), and their keys to depth 2 are taken from it.
func extractYAML(p *Parser, _ string, tree *sitter.Tree, src []byte, f *Facts) {
	s := specs[f.Language]
	p.extractCode(s, tree, src, f)
	root := tree.RootNode()
	if len(f.Defs) > 0 || root.Type() != "ERROR" {
		return
	}
	var add func(n *sitter.Node, parent int, depth int)
	add = func(n *sitter.Node, parent int, depth int) {
		cnt := int(n.NamedChildCount())
		for i := 0; i < cnt && len(f.Defs) < maxDataDefs; i++ {
			c := n.NamedChild(i)
			if c == nil || c.Type() != "block_mapping_pair" {
				continue
			}
			k := c.ChildByFieldName("key")
			if k == nil {
				continue
			}
			st, en := nodeRange(c, len(src))
			_, name := splitName(nodeText(k, src))
			qual := name
			if parent >= 0 {
				qual = joinDot(f.Defs[parent].Qualified, name)
			}
			line := p.lines.line(st)
			f.Defs = append(f.Defs, Def{Kind: KindKey, Name: name, Qualified: qual, Parent: parent,
				StartLine: line + 1, EndLine: p.lines.endLine(st, en),
				Signature: foldSpace(src[st:signatureEnd(src, int(st), int(en), sigWholeLine, false)], MaxSignatureBytes),
				Doc:       docAbove(src, p.lines, line, s)})
			if v := c.ChildByFieldName("value"); v != nil && depth == 0 && v.Type() == "block_node" {
				if m := v.NamedChild(0); m != nil && m.Type() == "block_mapping" {
					add(m, len(f.Defs)-1, 1)
				}
			}
		}
	}
	add(root, -1, 0)
}
