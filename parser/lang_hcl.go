package parser

import (
	"bytes"
	"strings"

	"github.com/smacker/go-tree-sitter/hcl"
)

// HCL and Terraform. A block is named by its labels the way Terraform
// addresses it, so that the qualified name is what a user types in a
// reference or on the command line (terraform state show aws_instance.web):
//
//	resource "aws_instance" "web"   aws_instance.web   (block)
//	data "aws_ami" "ubuntu"         data.aws_ami.ubuntu (block)
//	variable "cidr"                 var.cidr           (var)
//	locals { name = ... }           local.name         (var)
//	module "vpc"                    module.vpc         (module)
//	output "ip"                     output.ip          (const)
//	provider "aws"                  provider.aws       (block)
//	job "web" (Nomad, Packer, ...)  web                (block)
//
// A block without labels is named by its type (terraform, lifecycle);
// nested blocks are qualified by the block around them.
func init() {
	register(&langSpec{name: "hcl", grammar: hcl.GetLanguage, queries: []string{"hcl.scm"},
		comments: commentBoth, defHook: hclDef, nameHook: hclName, docHook: hclDescription},
		[]string{".tf", ".tfvars", ".hcl"})
}

// hclDef widens a block's name over its labels, picks its kind by its
// type, and keeps attributes only as the entries of a locals block (whose
// "receiver" is cut to "local", the prefix Terraform references use).
func hclDef(src []byte, d *rawDef) bool {
	typ := string(src[d.nameStart:d.nameEnd])
	if d.kind == KindVar {
		if d.recvEnd == 0 || string(src[d.recvStart:d.recvEnd]) != "locals" {
			return false
		}
		d.recvEnd = d.recvStart + uint32(len("local"))
		return true
	}
	if typ == "locals" {
		return false
	}
	// Labels: quoted strings or identifiers up to the block's '{'.
	i := int(d.nameEnd)
	for end := int(d.end); i < end; {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
			continue
		case c == '"':
			j := bytes.IndexByte(src[i+1:end], '"')
			if j < 0 {
				end = i
				continue
			}
			i += j + 2
		case isIdentByte(c) || c == '-':
			for i < end && (isIdentByte(src[i]) || src[i] == '-') {
				i++
			}
		default:
			end = i
			continue
		}
		d.nameEnd = uint32(i)
	}
	switch typ {
	case "variable":
		d.kind = KindVar
	case "output":
		d.kind = KindConst
	case "module":
		d.kind = KindModule
	}
	return true
}

// hclName turns `type "label" "label"` into a qualifier and a name; see
// the table at init.
func hclName(kind DefKind, text string) (string, string) {
	f := strings.Fields(text)
	if len(f) == 0 {
		return "", text
	}
	if len(f) == 1 {
		return "", strings.Trim(f[0], `"`)
	}
	labels := make([]string, 0, len(f)-1)
	for _, l := range f[1:] {
		labels = append(labels, strings.Trim(l, `"`))
	}
	name := labels[len(labels)-1]
	prefix := strings.Join(labels[:len(labels)-1], ".")
	switch f[0] {
	case "data", "module", "output", "provider":
		prefix = joinDot(f[0], prefix)
	case "variable":
		prefix = joinDot("var", prefix)
	}
	return prefix, name
}

// hclDescription returns the description attribute of a block (variables,
// outputs and modules document themselves this way) when it is one quoted
// string.
func hclDescription(body []byte) string {
	open := bytes.IndexByte(body, '{')
	if open < 0 {
		return ""
	}
	rest := body[open+1:]
	for len(rest) > 0 {
		nl := bytes.IndexByte(rest, '\n')
		line := rest
		if nl >= 0 {
			line, rest = rest[:nl], rest[nl+1:]
		} else {
			rest = nil
		}
		t := trimLine(line)
		v, ok := bytes.CutPrefix(t, []byte("description"))
		if !ok {
			continue
		}
		v = bytes.TrimLeft(v, " \t")
		if v, ok = bytes.CutPrefix(v, []byte("=")); !ok {
			continue
		}
		v = bytes.TrimSpace(v)
		if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
			return ""
		}
		return finishDoc([][]byte{bytes.ReplaceAll(v[1:len(v)-1], []byte(`\"`), []byte(`"`))})
	}
	return ""
}
