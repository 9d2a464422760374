package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxArgsJSON bounds --args-json read from stdin.
const maxArgsJSON = 64 << 20

// ToolArgs builds a tool call's arguments object from --args-json (a JSON
// object, or "-" to read it from in) and --arg K=V pairs laid over it. A
// --arg value that parses as JSON is used as that JSON value (numbers,
// true, null, objects, arrays, "quoted strings"); anything else is a
// string. The result is nil when no arguments were given.
func ToolArgs(in io.Reader, argsJSON string, pairs []string) (map[string]json.RawMessage, error) {
	args := map[string]json.RawMessage{}
	if argsJSON != "" {
		raw := []byte(argsJSON)
		if argsJSON == "-" {
			b, err := io.ReadAll(io.LimitReader(in, maxArgsJSON+1))
			if err != nil {
				return nil, fmt.Errorf("reading --args-json from stdin: %w", err)
			}
			if len(b) > maxArgsJSON {
				return nil, Usagef("--args-json from stdin is larger than %d MiB", maxArgsJSON>>20)
			}
			raw = b
		}
		if err := decodeObject(raw, &args); err != nil {
			return nil, Usagef("--args-json: %s", err.Error())
		}
	}
	for i, kv := range pairs {
		k, v, err := splitPair(kv, i)
		if err != nil {
			return nil, err
		}
		args[k] = ArgValue(v)
	}
	if len(args) == 0 && argsJSON == "" {
		return nil, nil
	}
	return args, nil
}

// StringArgs builds a prompt's arguments (strings only) from --arg K=V.
func StringArgs(pairs []string) (map[string]string, error) {
	if len(pairs) == 0 {
		return nil, nil
	}
	args := map[string]string{}
	for i, kv := range pairs {
		k, v, err := splitPair(kv, i)
		if err != nil {
			return nil, err
		}
		args[k] = v
	}
	return args, nil
}

func splitPair(kv string, i int) (string, string, error) {
	k, v, ok := strings.Cut(kv, "=")
	if !ok || k == "" {
		return "", "", Usagef("--arg #%d is not in K=V form", i+1)
	}
	return k, v, nil
}

// ArgValue is v as JSON if it is valid JSON, else v as a JSON string.
func ArgValue(v string) json.RawMessage {
	t := strings.TrimSpace(v)
	if t != "" && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	b, _ := json.Marshal(v) // a string always encodes
	return b
}

// decodeObject requires raw to be exactly one JSON object. Its errors name
// the problem, never the content.
func decodeObject(raw []byte, into *map[string]json.RawMessage) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return fmt.Errorf("want a JSON object like '{\"key\": \"value\"}'")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(into); err != nil {
		return fmt.Errorf("not valid JSON: %v", jsonErrorPlace(err))
	}
	if dec.More() {
		return fmt.Errorf("unexpected data after the JSON object")
	}
	return nil
}

// jsonErrorPlace keeps a syntax error's offset but not its quoted input.
func jsonErrorPlace(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("syntax error at byte %d", se.Offset)
	}
	return "cannot be decoded"
}
