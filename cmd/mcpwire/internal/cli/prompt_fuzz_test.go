package cli

import (
	"encoding/json"
	"testing"
)

// A server's requestedSchema becomes a form: whatever it holds, parseForm
// returns a form or an error, and every field's check and the answer's
// content work on any input.
func FuzzParseForm(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"a":{"type":"string","format":"email","minLength":2}},"required":["a"]}`), "x@y.z")
	f.Add([]byte(`{"properties":{"n":{"type":"integer","minimum":1,"maximum":3,"default":2}}}`), "2.5")
	f.Add([]byte(`{"properties":{"m":{"type":"array","items":{"anyOf":[{"const":"a","title":"A"}]},"minItems":1}}}`), "")
	f.Add([]byte(`{"properties":{"e":{"type":"string","enum":["x"],"enumNames":["X","Y"]}}}`), "x")
	f.Fuzz(func(t *testing.T, schema []byte, typed string) {
		spec, err := parseForm(json.RawMessage(schema))
		if err != nil {
			return
		}
		answer := formAnswer{Text: map[string]string{}, Lists: map[string][]string{}}
		for _, field := range spec.Fields {
			_ = field.checkChoices([]string{typed})
			if field.Check != nil && field.Check(typed) != nil {
				continue // refused as typed: never reaches the content
			}
			answer.Text[field.Name] = typed
			answer.Lists[field.Name] = []string{typed}
		}
		// What the checks let through always encodes.
		if _, err := json.Marshal(spec.content(answer)); err != nil {
			t.Fatalf("content of %q does not encode: %v", typed, err)
		}
	})
}

// A --sampling-cmd's output is read as a result or refused with a reason.
func FuzzParseSamplingResult(f *testing.F) {
	f.Add([]byte(`{"content":{"type":"text","text":"hi"},"model":"m"}`))
	f.Add([]byte(`{"role":"user","content":[]}`))
	f.Add([]byte(`{} {}`))
	f.Fuzz(func(t *testing.T, out []byte) {
		res, err := parseSamplingResult(out)
		if err == nil && (len(res.Content) == 0 || res.Model == "" || res.Role == "") {
			t.Fatalf("accepted %q as %+v", out, res)
		}
	})
}
