package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool arguments are checked here rather than by the SDK, whose schema
// validation answers `validating "arguments": validating root: validating
// /properties/budget_tokens: type: abc has type "string", want "integer"`:
// a model acts faster on "budget_tokens must be an integer, not a string".

// writers are the tools that add to the repository's notes and memories;
// runners run a configured check (wiki_check), which may do anything its
// command does; every other tool only reads. No tool reaches outside the
// repository except through a check the project configured.
var (
	writers = []string{"wiki_remember", "wiki_note"}
	runners = []string{"wiki_check"}
)

// annotations returns the hints tools/list shows for a tool.
func annotations(name string) *sdk.ToolAnnotations {
	no := false
	a := &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}
	if slices.Contains(writers, name) {
		// Additive: a note or memory never overwrites or removes anything.
		a.ReadOnlyHint, a.DestructiveHint = false, &no
	}
	if slices.Contains(runners, name) {
		// A check runs what the project configured, which may write files
		// or fetch modules: no hints beyond readOnlyHint false (MCP's
		// defaults: destructive, open world).
		a.ReadOnlyHint, a.OpenWorldHint = false, nil
	}
	return a
}

// argsChecker checks the raw arguments of one tool against its schema.
type argsChecker struct {
	tool     string
	schema   *schema
	resolved *jsonschema.Resolved
}

func newArgsChecker(tool string, s *schema) (*argsChecker, error) {
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, err
	}
	return &argsChecker{tool: tool, schema: s, resolved: r}, nil
}

// decode checks raw and unmarshals it into in. Its errors name the
// parameter, what it must be and what came instead.
func (c *argsChecker) decode(raw json.RawMessage, in any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	var args map[string]json.RawMessage
	if err := json.Unmarshal(raw, &args); err != nil {
		return fmt.Errorf("the arguments of %s must be a JSON object of parameters (%s)", c.tool, c.paramList())
	}
	for _, name := range slices.Sorted(maps.Keys(args)) {
		p, ok := c.schema.Properties[name]
		if !ok {
			return fmt.Errorf("unknown parameter %q: %s takes %s", name, c.tool, c.paramList())
		}
		var v any
		if err := json.Unmarshal(args[name], &v); err != nil {
			return fmt.Errorf("parameter %s: %v", name, err)
		}
		if v == nil { // some clients send null for an optional parameter left out
			delete(args, name)
			continue
		}
		if err := checkType(name, p, v); err != nil {
			return err
		}
	}
	for _, name := range c.schema.Required {
		if _, ok := args[name]; !ok {
			return fmt.Errorf("missing parameter %s (%s: %s)", name, typeName(c.schema.Properties[name]), c.schema.Properties[name].Description)
		}
	}
	raw, _ = json.Marshal(args)
	// Anything else the schema says (bounds, enums): the library's words.
	var m any = map[string]any{}
	json.Unmarshal(raw, &m)
	if err := c.resolved.Validate(&m); err != nil {
		return fmt.Errorf("invalid arguments for %s: %v", c.tool, err)
	}
	if err := json.Unmarshal(raw, in); err != nil {
		return fmt.Errorf("invalid arguments for %s: %v", c.tool, err)
	}
	return nil
}

func (c *argsChecker) paramList() string {
	if len(c.schema.Properties) == 0 {
		return "no parameters: send {}"
	}
	var names []string
	for _, n := range slices.Sorted(maps.Keys(c.schema.Properties)) {
		names = append(names, n+" ("+typeName(c.schema.Properties[n])+")")
	}
	return strings.Join(names, ", ")
}

// checkType reports a value whose JSON type is not the property's.
func checkType(name string, p *schema, v any) error {
	want := p.Type
	if want == "" {
		return nil
	}
	if got := jsonType(v); got != want && !(want == "number" && got == "integer") {
		return fmt.Errorf("parameter %s must be %s, not %s (%s)", name, typeName(p), article(got), clip(v))
	}
	if arr, ok := v.([]any); ok && p.Items != nil && p.Items.Type != "" {
		for i, e := range arr {
			if got := jsonType(e); got != p.Items.Type {
				return fmt.Errorf("parameter %s must be %s; item %d is %s (%s)", name, typeName(p), i, article(got), clip(e))
			}
		}
	}
	return nil
}

// jsonType names the JSON type of a decoded value as JSON Schema does.
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// typeName says what a property holds: "an integer", "an array of strings".
func typeName(p *schema) string {
	if p == nil || p.Type == "" {
		return "a value"
	}
	if p.Type == "array" && p.Items != nil && p.Items.Type != "" {
		return "an array of " + p.Items.Type + "s"
	}
	return article(p.Type)
}

func article(t string) string {
	switch t {
	case "integer", "array", "object":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

// clip shows a received value, cut to a readable length.
func clip(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 40 {
		return strings.ToValidUTF8(string(b[:40]), "") + "…"
	}
	return string(b)
}
