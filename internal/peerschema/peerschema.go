// Package peerschema compiles a JSON Schema that a peer sent: a tool's
// outputSchema for the client, a form's requestedSchema for the CLI.
package peerschema

import (
	"bytes"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Compile compiles raw as if it lived at location (a URL under the
// .invalid domain, which never resolves). Without "$schema" the dialect
// is 2020-12, as MCP specifies; a draft named in "$schema" (the reference
// server uses draft-07) is honoured. References are resolved only within
// the schema itself: a peer's schema must not make mcpwire read files or
// fetch URLs, as the library's default loader would, so an unknown
// dialect or an external $ref fails to compile.
func Compile(raw []byte, location string) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	if err := c.AddResource(location, doc); err != nil {
		return nil, err
	}
	return c.Compile(location)
}

// refuseLoader loads nothing.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	const limit = 100
	if len(url) > limit {
		url = url[:limit] + "…"
	}
	return nil, fmt.Errorf("external schema %q is not loaded (only references within the schema are resolved)", url)
}
