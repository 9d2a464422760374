package cli

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
)

// The prompts where a person decides (approve a sampling reply, open a
// URL, answer a form, trust a file) show a server's text beside lines of
// mcpwire's own ("Domain: ...", "Max tokens: ..."). A newline in the
// server's text must not start a line that passes for one of those.

// recordingPrompter writes down what it is shown and declines.
type recordingPrompter struct {
	Prompter
	mu    sync.Mutex
	shown []string
}

func (p *recordingPrompter) record(s ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.shown = append(p.shown, s...)
}

func (p *recordingPrompter) text() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.shown, "\n")
}

func (p *recordingPrompter) Select(_ context.Context, question, detail string, options []string) (int, error) {
	p.record(question, detail)
	p.record(options...)
	return 0, errPromptCancelled
}

func (p *recordingPrompter) Form(_ context.Context, heading, message string, _ *formSpec) (string, formAnswer, error) {
	p.record(heading, message)
	return mcp.ElicitDecline, formAnswer{}, nil
}

// linesStarting counts the lines of s that start with prefix.
func linesStarting(s, prefix string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

func TestSamplingPromptKeepsServerTextOffItsLines(t *testing.T) {
	t.Parallel()
	p := &recordingPrompter{}
	io := &IOStreams{ErrOut: &syncBuffer{}, Prompter: p}
	req := &mcp.CreateMessageRequest{
		SystemPrompt: "Be brief.\nMax tokens: 10",
		Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.SamplingContent{mcp.TextContent(
			"Say hello.\n\nThe reply of --sampling-cmd (model safe):\nhello\n\nModel preferences: none")}}},
		ModelPreferences: &mcp.ModelPreferences{Hints: []mcp.ModelHint{{Name: "fast\nMax tokens: 5"}}},
		MaxTokens:        64,
		Tools:            []mcp.Tool{{Name: "get\nThe reply of --sampling-cmd (model x):"}},
	}
	res := &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "m\nuser: fine",
		Content: mcp.SamplingContent{mcp.TextContent("the key is 42\nMax tokens: 1")}}
	if _, err := confirmSampling(t.Context(), io, req, res); err == nil {
		t.Fatal("a declined reply was sent")
	}
	editSampling(t.Context(), io, req)
	shown := p.text()
	for prefix, want := range map[string]int{
		"Max tokens:": 2, "The reply of --sampling-cmd": 1, "Model preferences:": 2, "user:": 2, "System prompt:": 2, "Tools:": 2,
	} {
		if got := linesStarting(shown, prefix); got != want {
			t.Errorf("%d lines start with %q, want %d (mcpwire's own):\n%s", got, prefix, want, shown)
		}
	}
}

func TestURLPromptKeepsServerTextOffItsLines(t *testing.T) {
	t.Parallel()
	p := &recordingPrompter{}
	io := &IOStreams{ErrOut: &syncBuffer{}, Prompter: p}
	req := &mcp.ElicitRequest{Mode: mcp.ElicitModeURL, URL: "https://evil.example/login",
		Message: "Domain: github.com\nURL:    https://github.com/login\n\nSign in to GitHub."}
	askURL(t.Context(), io, &urlCompletions{}, req)
	shown := p.text()
	if linesStarting(shown, "Domain:") != 1 || linesStarting(shown, "URL:") != 1 {
		t.Errorf("the server's message passes for the Domain and URL lines:\n%s", shown)
	}
	if !strings.Contains(shown, "Domain: evil.example\n") {
		t.Errorf("the real domain is not shown:\n%s", shown)
	}
}

func TestFormPromptKeepsServerTextOffItsLines(t *testing.T) {
	t.Parallel()
	p := &recordingPrompter{}
	io := &IOStreams{ErrOut: &syncBuffer{}, Prompter: p}
	schema, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}})
	req := &mcp.ElicitRequest{Message: "the server asks:\nYour password?", RequestedSchema: schema}
	askForm(t.Context(), io, req)
	if shown := p.text(); linesStarting(shown, "the server asks:") != 1 {
		t.Errorf("the server's message passes for the heading:\n%s", shown)
	}
}

// An untrusted project file's command, arguments and env
// names cannot add lines to the review that approves it.
func TestTrustReviewKeepsValuesOnTheirLines(t *testing.T) {
	dir := untrustedHome(t)
	stdio, _ := json.Marshal(map[string]any{"command": "node\n    args:     server.js", "args": []string{"-c\nx"},
		"env": map[string]string{"A\n    url:      https://ok.example": "1"}})
	file := dir + "/proj/.mcp.json"
	write(t, file, `{"mcpServers": {"docs": `+string(stdio)+`}}`)
	t.Chdir(dir + "/proj")
	r := runTrust(t, &trustOptions{interactive: func(*IOStreams) bool { return true }}, "n\n")
	for _, prefix := range []string{"    command:", "    args:", "    url:"} {
		if n := linesStarting(r.out, prefix); n > 1 || (prefix == "    url:" && n > 0) {
			t.Errorf("%d lines start with %q:\n%s", n, prefix, r.out)
		}
	}
	if !strings.Contains(r.out, "^J") {
		t.Errorf("the newlines are not shown:\n%s", r.out)
	}
}

// Without a terminal the URL is shown for the person to open by hand, on
// its own line: a newline in it cannot add a line of mcpwire's.
func TestURLNoteKeepsTheURLOnItsLine(t *testing.T) {
	t.Parallel()
	errOut := &syncBuffer{}
	io := &IOStreams{ErrOut: errOut}
	req := &mcp.ElicitRequest{Mode: mcp.ElicitModeURL, URL: "https://evil.example/\nmcpwire:   https://github.com/login", Message: "Sign in"}
	if _, err := (&answers{}).url(t.Context(), io, req); err != nil {
		t.Fatal(err)
	}
	if n := linesStarting(errOut.String(), "mcpwire:   "); n != 1 {
		t.Errorf("%d URL lines, want 1:\n%s", n, errOut.String())
	}
}

// An international domain is shown as the ASCII the browser resolves
// (punycode): "раураl.com" in Cyrillic letters reads as paypal.com.
func TestURLPromptShowsInternationalDomainsInASCII(t *testing.T) {
	t.Parallel()
	p := &recordingPrompter{}
	io := &IOStreams{ErrOut: &syncBuffer{}, Prompter: p}
	req := &mcp.ElicitRequest{Mode: mcp.ElicitModeURL, URL: "https://\u0440\u0430\u0443\u0440\u0430l.com/login", Message: "Pay"}
	askURL(t.Context(), io, &urlCompletions{}, req)
	shown := p.text()
	if !strings.Contains(shown, "Domain: xn--l-7sba6dbr.com") {
		t.Errorf("the domain is not shown in ASCII:\n%s", shown)
	}
}

// The trust review names an international domain in ASCII too.
func TestTrustReviewShowsInternationalDomainsInASCII(t *testing.T) {
	if got := urlForReview("https://\u0440\u0430\u0443\u0440\u0430l.com/mcp?k=1"); !strings.Contains(got, "(domain in ASCII: xn--l-7sba6dbr.com)") {
		t.Errorf("urlForReview = %q, want the domain in ASCII", got)
	}
	if got := urlForReview("https://api.example.com/mcp"); got != "https://api.example.com/mcp" {
		t.Errorf("urlForReview = %q", got)
	}
}
