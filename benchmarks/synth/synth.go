// Package synth writes a deterministic synthetic monorepo of realistic Go,
// Python and TypeScript files, for benchmarks and for tests that need a
// repository large enough to interrupt. The same Options always produce the
// same bytes.
package synth

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// Options sizes the repository. Zero fields take defaults.
type Options struct {
	Files int    // total source files (default 1000)
	Seed  uint64 // default 1
}

var (
	nouns = []string{"user", "order", "invoice", "payment", "session", "token", "cache", "queue", "worker", "config",
		"schema", "record", "client", "server", "router", "handler", "request", "response", "metric", "event",
		"policy", "retry", "backoff", "storage", "index", "snapshot", "ledger", "account", "report", "template"}
	verbs = []string{"load", "save", "parse", "render", "validate", "resolve", "fetch", "update", "delete", "create",
		"merge", "split", "encode", "decode", "flush", "apply", "compute", "schedule", "notify", "register"}
)

type gen struct {
	r    *rand.Rand
	root string
}

func (g *gen) pick(s []string) string { return s[g.r.IntN(len(s))] }

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// Write creates the repository under root (which must exist or be creatable)
// and returns the number of bytes written.
func Write(root string, opt Options) (int64, error) {
	if opt.Files <= 0 {
		opt.Files = 1000
	}
	if opt.Seed == 0 {
		opt.Seed = 1
	}
	g := &gen{r: rand.New(rand.NewPCG(opt.Seed, 42)), root: root}
	var total int64
	services := max(1, opt.Files/40)
	for i := 0; i < opt.Files; i++ {
		svc := fmt.Sprintf("svc%03d", i%services)
		noun := nouns[(i/services)%len(nouns)]
		var rel, src string
		switch i % 3 {
		case 0:
			rel = fmt.Sprintf("services/%s/%s/%s_%d.go", svc, noun, noun, i)
			src = g.goFile(svc, noun, i, services)
		case 1:
			rel = fmt.Sprintf("py/%s/%s/%s_%d.py", svc, noun, noun, i)
			src = g.pyFile(noun, i)
		default:
			rel = fmt.Sprintf("web/%s/%s/%s%d.ts", svc, noun, noun, i)
			src = g.tsFile(noun, i)
		}
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return total, err
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			return total, err
		}
		total += int64(len(src))
	}
	readme := "# Synthetic monorepo\n\nServices that load, validate and store records.\n\n## Retries\n\nRetry policies live in each service's retry package.\n"
	if err := os.WriteFile(filepath.Join(root, "README.md"), []byte(readme), 0o644); err != nil {
		return total, err
	}
	return total + int64(len(readme)), nil
}

func (g *gen) goFile(svc, noun string, i, services int) string {
	var b strings.Builder
	T := title(noun)
	fmt.Fprintf(&b, "// Package %s handles %s records for %s.\npackage %s\n\nimport (\n\t\"context\"\n\t\"errors\"\n\t\"fmt\"\n)\n\n", noun, noun, svc, noun)
	fmt.Fprintf(&b, "// %s%d is a %s with its bookkeeping.\ntype %s%d struct {\n\tID    string\n\tCount int\n\tTags  []string\n}\n\n", T, i, noun, T, i)
	for j := 0; j < 6+g.r.IntN(8); j++ {
		v := g.pick(verbs)
		other := title(g.pick(nouns))
		fmt.Fprintf(&b, "// %s%s%d %ss the %s and reports the %s it touched.\n", title(v), other, j, v, noun, strings.ToLower(other))
		fmt.Fprintf(&b, "func (x *%s%d) %s%s%d(ctx context.Context, n int) (int, error) {\n", T, i, title(v), other, j)
		fmt.Fprintf(&b, "\tif err := ctx.Err(); err != nil {\n\t\treturn 0, fmt.Errorf(\"%s %s: %%w\", err)\n\t}\n", v, noun)
		fmt.Fprintf(&b, "\tif n < 0 {\n\t\treturn 0, errors.New(\"negative %s\")\n\t}\n", noun)
		fmt.Fprintf(&b, "\ttotal := 0\n\tfor k := 0; k < n; k++ {\n\t\ttotal += helper%d(k, x.Count)\n\t}\n\treturn total, nil\n}\n\n", i)
	}
	fmt.Fprintf(&b, "func helper%d(a, b int) int {\n\tif a > b {\n\t\treturn a - b\n\t}\n\treturn b - a\n}\n", i)
	return b.String()
}

func (g *gen) pyFile(noun string, i int) string {
	var b strings.Builder
	T := title(noun)
	fmt.Fprintf(&b, "\"\"\"Utilities for %s records.\"\"\"\n\nimport json\nimport logging\n\nlog = logging.getLogger(__name__)\n\n\n", noun)
	fmt.Fprintf(&b, "class %sStore%d:\n    \"\"\"Keeps %s records in memory.\"\"\"\n\n    def __init__(self, limit=100):\n        self.limit = limit\n        self.items = {}\n\n", T, i, noun)
	for j := 0; j < 5+g.r.IntN(6); j++ {
		v := g.pick(verbs)
		o := g.pick(nouns)
		fmt.Fprintf(&b, "    def %s_%s_%d(self, key, value=None):\n        \"\"\"%s the %s for key.\"\"\"\n", v, o, j, title(v), o)
		fmt.Fprintf(&b, "        if key not in self.items:\n            log.debug(\"missing %%s\", key)\n            return None\n")
		fmt.Fprintf(&b, "        data = json.dumps({\"key\": key, \"value\": value})\n        return self._check(data)\n\n")
	}
	fmt.Fprintf(&b, "    def _check(self, data):\n        if len(data) > self.limit:\n            raise ValueError(\"too large\")\n        return data\n")
	return b.String()
}

func (g *gen) tsFile(noun string, i int) string {
	var b strings.Builder
	T := title(noun)
	fmt.Fprintf(&b, "import { EventEmitter } from \"events\";\n\n/** %sView%d renders %s records. */\nexport interface %sProps%d {\n  id: string;\n  count: number;\n}\n\n", T, i, noun, T, i)
	fmt.Fprintf(&b, "export class %sView%d extends EventEmitter {\n  private cache = new Map<string, %sProps%d>();\n\n", T, i, T, i)
	for j := 0; j < 5+g.r.IntN(6); j++ {
		v := g.pick(verbs)
		o := title(g.pick(nouns))
		fmt.Fprintf(&b, "  /** %s the %s. */\n  %s%s%d(props: %sProps%d): number {\n", title(v), strings.ToLower(o), v, o, j, T, i)
		fmt.Fprintf(&b, "    const hit = this.cache.get(props.id);\n    if (hit) {\n      this.emit(\"%s\", hit);\n      return hit.count;\n    }\n", v)
		fmt.Fprintf(&b, "    this.cache.set(props.id, props);\n    return props.count * %d;\n  }\n\n", j+1)
	}
	b.WriteString("}\n")
	return b.String()
}
