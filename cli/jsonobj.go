package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// jsonObj is a JSON object that keeps its keys in order, so that the
// installer's edits of a user's config files change only what they must.
type jsonObj struct {
	keys []string
	vals map[string]json.RawMessage
}

func newObj() *jsonObj { return &jsonObj{vals: map[string]json.RawMessage{}} }

// parseObj parses a JSON object; empty input is an empty object.
func parseObj(b []byte) (*jsonObj, error) {
	o := newObj()
	if len(bytes.TrimSpace(b)) == 0 {
		return o, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("not a JSON object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, ok := t.(string)
		if !ok {
			return nil, fmt.Errorf("bad key %v", t)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		o.set(k, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the object")
	}
	return o, nil
}

func (o *jsonObj) get(k string) (json.RawMessage, bool) { v, ok := o.vals[k]; return v, ok }

func (o *jsonObj) set(k string, v json.RawMessage) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *jsonObj) setValue(k string, v any) {
	b, _ := json.Marshal(v)
	o.set(k, b)
}

func (o *jsonObj) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, kk := range o.keys {
		if kk == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

func (o *jsonObj) empty() bool { return len(o.keys) == 0 }

// child returns the object under k (a new empty one when absent).
func (o *jsonObj) child(k string) (*jsonObj, error) {
	v, ok := o.vals[k]
	if !ok || string(bytes.TrimSpace(v)) == "null" {
		return newObj(), nil
	}
	c, err := parseObj(v)
	if err != nil {
		return nil, fmt.Errorf("%q: %v", k, err)
	}
	return c, nil
}

func (o *jsonObj) setChild(k string, c *jsonObj) { o.set(k, c.marshal()) }

// strings returns the string array under k.
func (o *jsonObj) strings(k string) ([]string, error) {
	v, ok := o.vals[k]
	if !ok {
		return nil, nil
	}
	var out []string
	if err := json.Unmarshal(v, &out); err != nil {
		return nil, fmt.Errorf("%q is not a list of strings", k)
	}
	return out, nil
}

func (o *jsonObj) marshal() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(o.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}

// pretty returns the object indented by two spaces, with a final newline.
func (o *jsonObj) pretty() []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, o.marshal(), "", "  "); err != nil {
		return append(o.marshal(), '\n')
	}
	b.WriteByte('\n')
	return b.Bytes()
}
