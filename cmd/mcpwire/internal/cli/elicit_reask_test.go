package cli

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
)

// formsPrompter answers each form with the next of answers and keeps the
// forms it was shown.
type formsPrompter struct {
	Prompter
	mu      sync.Mutex
	answers []formAnswer
	shown   []*formSpec
}

func (p *formsPrompter) Form(_ context.Context, _, _ string, spec *formSpec) (string, formAnswer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.shown = append(p.shown, spec)
	a := p.answers[0]
	p.answers = p.answers[1:]
	return mcp.ElicitAccept, a, nil
}

// A form whose answer its schema refuses as a whole is asked again with
// what was typed in place: before, every field started over from the
// server's defaults, and a long form had to be typed again for one
// mistake.
func TestFormAskedAgainKeepsAnswer(t *testing.T) {
	t.Parallel()
	first := formAnswer{
		Text:  map[string]string{"code": "abc", "name": "Ada", "ok": "true", "size": "L"},
		Lists: map[string][]string{"tags": {"b"}},
	}
	second := formAnswer{Text: map[string]string{"code": "ABC", "name": "Ada", "ok": "true", "size": "L"}, Lists: first.Lists}
	p := &formsPrompter{answers: []formAnswer{first, second}}
	errOut := &syncBuffer{}
	io := &IOStreams{ErrOut: errOut, Prompter: p}
	req := &mcp.ElicitRequest{Message: "Fill in", RequestedSchema: json.RawMessage(`{"type":"object","properties":{
		"code":{"type":"string","pattern":"^[A-Z]{3}$"},
		"name":{"type":"string","default":"x"},
		"ok":{"type":"boolean","default":false},
		"size":{"type":"string","enum":["S","L"],"default":"S"},
		"tags":{"type":"array","items":{"enum":["a","b"]},"default":["a"]}},"required":["code"]}`)}
	res, err := askForm(t.Context(), io, req)
	if err != nil || res.Action != mcp.ElicitAccept || res.Content["code"] != "ABC" {
		t.Fatalf("askForm: %+v, %v", res, err)
	}
	if !strings.Contains(errOut.String(), "asking again") {
		t.Errorf("stderr %q, want the note that the form is asked again", errOut.String())
	}
	if len(p.shown) != 2 {
		t.Fatalf("the form was shown %d times, want 2", len(p.shown))
	}
	again := map[string]formField{}
	for _, f := range p.shown[1].Fields {
		again[f.Name] = f
	}
	for name, want := range map[string]string{"code": "abc", "name": "Ada", "ok": "true", "size": "L"} {
		if got := again[name].Default; got != want {
			t.Errorf("asked again, %s starts as %q, want %q (the first answer)", name, got, want)
		}
	}
	if got := again["tags"].DefaultList; len(got) != 1 || got[0] != "b" {
		t.Errorf("asked again, tags start as %q, want [b]", got)
	}
	// The server's own defaults are what the first asking showed.
	if d := p.shown[0].Fields[1].Default; d != "x" {
		t.Errorf("the first form's name default became %q", d)
	}
}
