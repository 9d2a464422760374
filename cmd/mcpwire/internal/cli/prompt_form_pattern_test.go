package cli

import (
	"encoding/json"
	"testing"
)

// A string field's pattern is checked as it is typed, as its length and
// format are: before, only the whole answer was checked, at the end, and
// the form was asked again from its first question.
func TestFormFieldChecksPattern(t *testing.T) {
	t.Parallel()
	spec, err := parseForm(json.RawMessage(`{"type":"object","properties":{
		"code":{"type":"string","pattern":"^[A-Z]{3}$"},
		"odd":{"type":"string","pattern":"(?<=x)y"}},"required":["code"]}`))
	if err != nil {
		t.Fatal(err)
	}
	code, odd := spec.Fields[0], spec.Fields[1]
	for _, c := range []struct {
		in string
		ok bool
	}{{"ABC", true}, {"abc", false}, {"ABCD", false}, {"", false}} {
		if err := code.Check(c.in); (err == nil) != c.ok {
			t.Errorf("code %q: %v, want ok=%v", c.in, err, c.ok)
		}
	}
	if err := code.Check("abc"); err == nil || err.Error() != "does not match the pattern ^[A-Z]{3}$" {
		t.Errorf("code: %v, want the pattern named", err)
	}
	// A lookbehind is ECMA-262 but not RE2: left to the whole answer's
	// check rather than refusing everything.
	if err := odd.Check("anything"); err != nil {
		t.Errorf("odd: %v; a pattern Go cannot compile must not refuse input", err)
	}
}
