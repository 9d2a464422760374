package cli

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestArgValue(t *testing.T) {
	cases := map[string]string{
		"hello":         `"hello"`,
		"hello world":   `"hello world"`,
		"3":             `3`,
		"-2.5":          `-2.5`,
		"true":          `true`,
		"null":          `null`,
		`"42"`:          `"42"`,
		`{"a":[1,2]}`:   `{"a":[1,2]}`,
		`[1,"x"]`:       `[1,"x"]`,
		"":              `""`,
		" 5 ":           `5`,
		"{not json":     `"{not json"`,
		"line\nbreak":   `"line\nbreak"`,
		"3 apples":      `"3 apples"`,
		"tru":           `"tru"`,
		"  padded str ": `"  padded str "`,
	}
	for in, want := range cases {
		if got := string(ArgValue(in)); got != want {
			t.Errorf("ArgValue(%q) = %s, want %s", in, got, want)
		}
	}
}

// toolArgsNoSchema reads and builds arguments as for a tool without an
// inputSchema.
func toolArgsNoSchema(in io.Reader, argsJSON string, pairs []string) (map[string]json.RawMessage, error) {
	a, err := readToolArgs(in, argsJSON, pairs)
	if err != nil {
		return nil, err
	}
	v, err := a.build(nil)
	if v == nil || err != nil {
		return nil, err
	}
	return v.(map[string]json.RawMessage), nil
}

func TestToolArgs(t *testing.T) {
	args, err := toolArgsNoSchema(nil, `{"a": 1, "b": "x"}`, []string{"b=2", "c=hi=there"})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(args)
	if string(got) != `{"a":1,"b":2,"c":"hi=there"}` {
		t.Errorf("args = %s", got)
	}

	if args, err := toolArgsNoSchema(nil, "", nil); err != nil || args != nil {
		t.Errorf("no args: %v, %v", args, err)
	}
	if args, err := toolArgsNoSchema(nil, "{}", nil); err != nil || args == nil || len(args) != 0 {
		t.Errorf("empty object: %v, %v", args, err)
	}

	args, err = toolArgsNoSchema(strings.NewReader(` {"from": "stdin"} `), "-", []string{"n=1"})
	if err != nil {
		t.Fatal(err)
	}
	got, _ = json.Marshal(args)
	if string(got) != `{"from":"stdin","n":1}` {
		t.Errorf("stdin args = %s", got)
	}
}

func TestToolArgsErrors(t *testing.T) {
	cases := []struct {
		json  string
		pairs []string
		want  string
	}{
		{`[1,2]`, nil, "want a JSON object"},
		{`"s3cret-ish"`, nil, "want a JSON object"},
		{`{"a": s3cret}`, nil, "syntax error at byte"},
		{`{"a":1} {"b":2}`, nil, "unexpected data after"},
		{``, []string{"novalue"}, "--arg #1 is not in K=V form"},
		{``, []string{"a=1", "=s3cret"}, "--arg #2 is not in K=V form"},
	}
	for _, c := range cases {
		_, err := toolArgsNoSchema(nil, c.json, c.pairs)
		var u *UsageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ToolArgs(%q, %q) = %v, want usage error with %q", c.json, c.pairs, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "s3cret") {
			t.Errorf("error %q repeats the input", err)
		}
	}
}

func TestStringArgs(t *testing.T) {
	args, err := StringArgs("--arg", []string{"topic=go", "n=3"})
	if err != nil || args["topic"] != "go" || args["n"] != "3" {
		t.Errorf("got %v, %v", args, err)
	}
	if args, err := StringArgs("--arg", nil); args != nil || err != nil {
		t.Errorf("got %v, %v", args, err)
	}
	if _, err := StringArgs("--context", []string{"a=b", "x"}); err == nil || err.Error() != "--context #2 is not in K=V form" {
		t.Errorf("a pair without =: %v, want the flag and the pair's place named", err)
	}
}
