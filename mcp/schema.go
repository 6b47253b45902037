package mcp

import (
	"github.com/google/jsonschema-go/jsonschema"
)

// Tools declare no output schema: the schemas of the eight outputs would
// add about 1,000 tokens to every tools/list (measured with TestToolListTokens)
// against a budget of 1,500 for the whole list, and clients pass structured
// content through without needing it. Outputs are still typed Go structs,
// sent as structuredContent beside the readable text.

type schema = jsonschema.Schema

// inputSchema infers In's schema (descriptions from jsonschema tags) and
// lets tune add defaults and bounds.
func inputSchema[In any](tune func(props map[string]*schema)) (*schema, error) {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		return nil, err
	}
	// Unknown parameters are refused by argsChecker with a clearer message;
	// "additionalProperties": false would cost ~80 tokens in every tools/list.
	s.AdditionalProperties = nil
	for _, p := range s.Properties {
		// A nil slice is never sent by clients; "array" reads simpler than ["null","array"].
		if len(p.Types) == 2 && p.Types[0] == "null" {
			p.Type, p.Types = p.Types[1], nil
		}
	}
	if tune != nil {
		tune(s.Properties)
	}
	return s, nil
}
