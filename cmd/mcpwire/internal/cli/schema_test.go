package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

const sumSchema = `{"type":"object","properties":{"b":{"type":"number"},"a":{"type":"number","description":"first"},
"mode":{"type":"string","enum":["fast","slow"],"default":"fast"},"tags":{"type":"array","items":{"type":"string"}},
"n":{"type":"integer"},"on":{"type":"boolean"},"opt":{"type":["string","null"]},"any":{}},"required":["b","a"]}`

func TestSignature(t *testing.T) {
	got := signature("get-sum", json.RawMessage(sumSchema), json.RawMessage(`{"type":"object","properties":{"sum":{"type":"number"}}}`))
	want := "get-sum(b: number, a: number, mode?: string, tags?: string[], n?: integer, on?: boolean, opt?: string|null, any?: any) -> {sum}"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := signature("x", nil, nil); got != "x()" {
		t.Errorf("no schema: %q", got)
	}
}

func TestConvertArg(t *testing.T) {
	s, ok := parseObjectSchema(json.RawMessage(sumSchema))
	if !ok {
		t.Fatal("schema not read")
	}
	for _, c := range []struct{ name, in, want, err string }{
		{"a", "1e3", "1e3", ""},
		{"a", "x", "", "--arg a: want a number"},
		{"n", "3", "3", ""},
		{"n", "3.5", "", "--arg n: want an integer"},
		{"on", "true", "true", ""},
		{"on", "yes", "", "--arg on: want a boolean"},
		{"tags", `["a"]`, `["a"]`, ""},
		{"tags", `{"a":1}`, "", "--arg tags: want a string[]"},
		{"mode", "slow", `"slow"`, ""},
		{"mode", "medium", "", `--arg mode: want one of "fast", "slow"`},
		{"opt", "null", "null", ""},
		{"opt", "123", `"123"`, ""},
		{"any", "123", "123", ""},
		{"any", "hi", `"hi"`, ""},
	} {
		got, err := convertArg(c.name, c.in, s.Props[c.name])
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s=%s: err %v, want %q", c.name, c.in, err, c.err)
		case c.err != "" && strings.Contains(err.Error(), c.in):
			t.Errorf("%s=%s: the error repeats the value: %v", c.name, c.in, err)
		case c.err == "" && (err != nil || string(got) != c.want):
			t.Errorf("%s=%s: %s, %v; want %s", c.name, c.in, got, err, c.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		name string
		want string
	}{
		{"tols", `; did you mean "tools"?`},
		{"ech", `; did you mean "echo"?`},
		{"zzzzzz", ""},
	} {
		if got := didYouMean(c.name, []string{"tools", "echo", "call"}); got != c.want {
			t.Errorf("%q: %q, want %q", c.name, got, c.want)
		}
	}
}
