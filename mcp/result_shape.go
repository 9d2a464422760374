package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// shapeError is a result whose field has the wrong JSON type: said in the
// protocol's words ("content" is a string where an array belongs), not
// in Go's ("cannot unmarshal string into Go struct field
// CallToolResult.content of type []mcp.Content"), which name this
// package's types to someone reading a server's mistake. The
// *json.UnmarshalTypeError stays in the chain for errors.As.
type shapeError struct {
	method string
	err    *json.UnmarshalTypeError
}

func (e *shapeError) Error() string {
	where := "the result"
	if e.err.Field != "" {
		where = fmt.Sprintf("the result's %q", e.err.Field)
	}
	return fmt.Sprintf("mcp: %s: %s is %s where the protocol has %s", e.method, where, withArticle(e.err.Value), jsonKindOf(e.err.Type))
}

func (e *shapeError) Unwrap() error { return e.err }

// resultDecodeError is the error of a result that did not decode.
func resultDecodeError(method string, err error) error {
	if ute := (*json.UnmarshalTypeError)(nil); errors.As(err, &ute) {
		return &shapeError{method: method, err: ute}
	}
	return fmt.Errorf("mcp: %s: decoding the result: %w", method, err)
}

// withArticle is a JSON value's kind as json.UnmarshalTypeError.Value
// names it ("string", "number 3.5", "array"), with its article.
func withArticle(v string) string {
	switch {
	case v == "":
		return "a value"
	case v[0] == 'a' || v[0] == 'o':
		return "an " + v
	}
	return "a " + v
}

// jsonKindOf is the JSON kind a Go type decodes from.
func jsonKindOf(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a string (base64)"
		}
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another type"
}
