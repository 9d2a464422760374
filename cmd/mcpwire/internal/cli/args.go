package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"strings"
)

// maxArgsJSON bounds --args-json read from stdin.
const maxArgsJSON = 64 << 20

// toolArgs are a call's arguments as the command line gave them: the
// --args-json object and the --arg pairs (with @FILE and @- read), not yet
// converted, since conversion needs the tool's inputSchema.
type toolArgs struct {
	obj   map[string]json.RawMessage
	pairs []argPair
	given bool
}

type argPair struct{ key, value string }

// readToolArgs reads --args-json (a JSON object, or "-" for stdin) and
// the --arg K=V pairs. A value "@FILE" is the file's content, "@-" stdin
// (once), "@@..." a value starting with "@".
func readToolArgs(in io.Reader, argsJSON string, pairs []string) (*toolArgs, error) {
	a := &toolArgs{given: argsJSON != "" || len(pairs) > 0}
	obj, err := jsonObjectFlag(in, "--args-json", argsJSON)
	if err != nil {
		return nil, err
	}
	a.obj = obj
	stdinUsed := argsJSON == "-"
	readStdin := func(what string) ([]byte, error) {
		if stdinUsed {
			return nil, Usagef("%s: stdin is already read by another argument", what)
		}
		stdinUsed = true
		return readStdinBounded(in, what)
	}
	for i, kv := range pairs {
		k, v, err := splitPair("--arg", kv, i)
		if err != nil {
			return nil, err
		}
		switch {
		case strings.HasPrefix(v, "@@"):
			v = v[1:]
		case v == "@-":
			b, err := readStdin("--arg " + k)
			if err != nil {
				return nil, err
			}
			v = strings.TrimSuffix(string(b), "\n")
		case strings.HasPrefix(v, "@") && len(v) > 1:
			b, err := readArgFile(v[1:])
			if err != nil {
				return nil, Usagef("--arg %s: %s", k, err.Error())
			}
			v = strings.TrimSuffix(string(b), "\n")
		}
		a.pairs = append(a.pairs, argPair{k, v})
	}
	return a, nil
}

// jsonObjectFlag reads the JSON object the flag name gave as v ("-": from
// in); empty v is an empty object. Errors name the flag, never the
// content.
func jsonObjectFlag(in io.Reader, name, v string) (map[string]json.RawMessage, error) {
	obj := map[string]json.RawMessage{}
	if v == "" {
		return obj, nil
	}
	raw := []byte(v)
	if v == "-" {
		b, err := readStdinBounded(in, name)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	if err := decodeObject(raw, &obj); err != nil {
		return nil, Usagef("%s: %s", name, err.Error())
	}
	return obj, nil
}

// readStdinBounded reads in for the flag what, at most maxArgsJSON bytes.
func readStdinBounded(in io.Reader, what string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(in, maxArgsJSON+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s from stdin: %w", what, err)
	}
	if len(b) > maxArgsJSON {
		return nil, Usagef("%s from stdin is larger than %d MiB", what, maxArgsJSON>>20)
	}
	return b, nil
}

// readArgFile reads an @FILE value, bounded like --args-json.
func readArgFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", name, pathReason(err))
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxArgsJSON+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", name, pathReason(err))
	}
	if len(b) > maxArgsJSON {
		return nil, fmt.Errorf("%s is larger than %d MiB", name, maxArgsJSON>>20)
	}
	return b, nil
}

func pathReason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// build converts the pairs with the tool's inputSchema (see convertArg;
// no schema: ArgValue's guess) and lays them over --args-json. Nothing
// given is a nil interface, not a nil map, so that the request carries no
// "arguments": null.
func (a *toolArgs) build(inputSchema json.RawMessage) (any, error) {
	schema, hasSchema := parseObjectSchema(inputSchema)
	if hasSchema {
		if err := a.checkNames(schema); err != nil {
			return nil, err
		}
	}
	if !a.given {
		return nil, nil
	}
	out := maps.Clone(a.obj)
	for _, p := range a.pairs {
		prop, ok := propSchema{}, false
		if hasSchema {
			prop, ok = schema.Props[p.key]
		}
		if !ok {
			out[p.key] = ArgValue(p.value)
			continue
		}
		v, err := convertArg(p.key, p.value, prop)
		if err != nil {
			return nil, err
		}
		out[p.key] = v
	}
	return out, nil
}

// StringArgs builds a prompt's arguments (strings only) from the K=V
// values of flag (--arg, --context, --input), which its errors name.
func StringArgs(flag string, pairs []string) (map[string]string, error) {
	if len(pairs) == 0 {
		return nil, nil
	}
	args := map[string]string{}
	for i, kv := range pairs {
		k, v, err := splitPair(flag, kv, i)
		if err != nil {
			return nil, err
		}
		args[k] = v
	}
	return args, nil
}

func splitPair(flag, kv string, i int) (string, string, error) {
	k, v, ok := strings.Cut(kv, "=")
	if !ok || k == "" {
		return "", "", Usagef("%s #%d is not in K=V form", flag, i+1)
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
