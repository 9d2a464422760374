package inspect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"

	"github.com/mcpwire/mcpwire/manager"
)

// maxBody bounds a request body from the page (tool arguments included).
// A larger one is answered 413.
const maxBody = 8 << 20

// statusError is an error that is not the asked server's failure, with
// the status that says so: mostly a mistake in the page's request itself
// (a body that is no JSON object, an unknown log level: 400, 413), or
// something the inspector does not do (501). The page is never told 502,
// a failure of the server, for it.
type statusError struct {
	status int
	err    error
}

func (e *statusError) Error() string { return e.err.Error() }
func (e *statusError) Unwrap() error { return e.err }

// badRequest is a 400 error that says what is wrong with the request.
func badRequest(format string, args ...any) error {
	return withStatus(http.StatusBadRequest, fmt.Errorf(format, args...))
}

// withStatus gives err the HTTP status that tells the page what it is.
func withStatus(status int, err error) error { return &statusError{status: status, err: err} }

// statusOf is the HTTP status that tells the page what went wrong with
// err: its own mistake (400, 413), a server that is not there (404), one
// that cannot be used as configured (409), or else a failure of the
// server it asked, which is the only case of upstream (502).
func statusOf(err error, upstream int) int {
	var re *statusError
	switch {
	case errors.As(err, &re):
		return re.status
	case errors.Is(err, errNoServer), errors.Is(err, manager.ErrUnknownServer):
		return http.StatusNotFound
	case errors.Is(err, manager.ErrDisabled), errors.Is(err, manager.ErrUntrusted), errors.Is(err, manager.ErrInvalidConfig):
		return http.StatusConflict
	}
	return upstream
}

// fail answers err with the status statusOf gives it, taking any other
// error for a failure of the server asked (502).
func (s *Server) fail(w http.ResponseWriter, err error) {
	s.writeError(w, statusOf(err, http.StatusBadGateway), err)
}

// decodeBody reads the request's body, one JSON object, into v. Its
// errors are statusErrors worded for a person: the JSON type a field
// wants, never the Go type it is decoded into.
func decodeBody(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return badRequest("the request body must be application/json")
	}
	b, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return withStatus(http.StatusRequestEntityTooLarge,
				fmt.Errorf("the request body is larger than the inspector takes (%d MiB)", maxBody>>20))
		}
		return badRequest("reading the request body: %v", err)
	}
	return decodeObject(b, v)
}

// errNotOneObject is the answer to a body that is valid JSON but not one
// object: an array, null, a number, or an object with more after it.
var errNotOneObject = errors.New("the body must be one JSON object")

// decodeObject decodes b, which must hold one JSON object and nothing
// after it, into v.
func decodeObject(b []byte, v any) error {
	b = bytes.TrimSpace(b)
	if !json.Valid(b) {
		var syntax *json.SyntaxError
		var first json.RawMessage
		switch {
		case len(b) == 0, json.NewDecoder(bytes.NewReader(b)).Decode(&first) == nil:
			// Nothing, or a value with more after it: no syntax error to
			// point at.
			return withStatus(http.StatusBadRequest, errNotOneObject)
		case errors.As(json.Unmarshal(b, &first), &syntax):
			return badRequest("the body is not valid JSON: %v (at byte %d)", syntax, syntax.Offset)
		}
		return badRequest("the body is not valid JSON")
	}
	if b[0] != '{' {
		return withStatus(http.StatusBadRequest, errNotOneObject)
	}
	return fieldError(json.Unmarshal(b, v))
}

// fieldError words a decoding error of a valid JSON object: the field
// and the JSON type it takes.
func fieldError(err error) error {
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return withStatus(http.StatusBadRequest, errNotOneObject)
		}
		return badRequest("%q must be %s, not %s", te.Field, jsonKind(te.Type), te.Value)
	}
	// A value's own check (an unknown enum name, say) words its error.
	return badRequest("%v", err)
}

// jsonKind names the JSON value a Go type is decoded from.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "another value"
}
