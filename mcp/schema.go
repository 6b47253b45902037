package mcp

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
)

type schema = jsonschema.Schema

// outputSchema is every tool's declared output schema: an object. The full
// shape would cost about 100 tokens per tool in every tools/list (measured
// in TestToolListTokens) for no gain: clients pass structured content
// through without validating it against field descriptions.
var outputSchema = &schema{Type: "object"}

// inputSchema infers In's schema (descriptions from jsonschema tags) and
// lets tune add defaults and bounds.
func inputSchema[In any](tune func(props map[string]*schema)) (*schema, error) {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		return nil, err
	}
	if tune != nil {
		tune(s.Properties)
	}
	return s, nil
}

func intDefault(n int) json.RawMessage { b, _ := json.Marshal(n); return b }

// bounds sets an integer property's default and range.
func bounds(p *schema, def, lo, hi int) {
	if p == nil {
		return
	}
	p.Default = intDefault(def)
	p.Minimum = jsonschema.Ptr(float64(lo))
	p.Maximum = jsonschema.Ptr(float64(hi))
}
