package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// WriteJSON writes v as indented JSON and a newline: the --json output of
// every command. HTML characters are not escaped, so "<" stays "<";
// controls, bidirectional and invisible characters are (see
// escapeForTerminal).
func WriteJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encoding JSON output: %w", err)
	}
	_, err := w.Write(escapeForTerminal(b.Bytes()))
	return err
}

// writeJSONLine writes v as one compact JSON line, escaped as WriteJSON
// escapes.
func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(escapeForTerminal(b), '\n'))
	return err
}

// PrettyJSON re-indents raw JSON for people; invalid JSON comes back as is.
func PrettyJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}

// jsonString decodes raw into *s when raw is a JSON string.
func jsonString(raw json.RawMessage, s *string) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, s) == nil
}

// NonNil turns a nil slice into an empty one, so JSON output says [] and
// never null.
func NonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// writeJSONLines writes each item as one compact JSON line.
func writeJSONLines[T any](w io.Writer, items []T) error {
	for _, it := range items {
		if err := writeJSONLine(w, it); err != nil {
			return err
		}
	}
	return nil
}
