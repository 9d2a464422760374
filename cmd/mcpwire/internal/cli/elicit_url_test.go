package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
)

// server-everything's URL elicitation: the URL is shown whole with its
// domain apart, the browser opens only when chosen ($BROWSER is a script
// that writes down what it was given), and the person says done.
func TestPtyElicitationURL(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	opened := filepath.Join(dir, "opened")
	browser := writeScript(t, dir, "browser", `printf %s "$1" > "`+opened+`"`+"\n")
	const link = "https://pay.example.com/checkout?order=42"
	s := startPty(t, []string{"BROWSER=" + browser},
		append([]string{"call", "trigger-url-elicitation", "--arg", "url=" + link, "--arg", "message=Pay for the order"}, everythingTarget(t)...)...)
	s.Expect("the server asks you to open a web page")
	s.Expect("Pay for the order")
	s.Expect("Domain: pay.example.com")
	s.Expect("URL:    " + link)
	if _, err := os.Stat(opened); err == nil {
		t.Fatal("the browser opened before the person agreed")
	}
	s.Send(keyEnter) // open it in the browser
	s.Expect("Waiting for the page at pay.example.com to be completed")
	s.Send(keyEnter) // done
	s.Expect("User completed the URL elicitation flow.")
	if code := s.Wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.Screen()))
	}
	if b, err := os.ReadFile(opened); string(b) != link {
		t.Errorf("the browser got %q, %v; want %q", b, err, link)
	}
}

// waitingPrompter agrees to open the page itself, then waits at "done"
// until its context ends, as a person who never answers would.
type waitingPrompter struct{ Prompter }

func (waitingPrompter) Select(ctx context.Context, question, _ string, _ []string) (int, error) {
	if strings.HasPrefix(question, "Waiting") {
		<-ctx.Done()
		return 0, ctx.Err()
	}
	return 1, nil // I will open it myself
}

// The server's notifications/elicitation/complete ends the wait, also
// when it came before the wait began.
func TestURLElicitationEndsOnComplete(t *testing.T) {
	t.Parallel()
	io := &IOStreams{ErrOut: &syncBuffer{}, Prompter: waitingPrompter{}}
	req := &mcp.ElicitRequest{Mode: mcp.ElicitModeURL, URL: "https://a.example/x", ElicitationID: "e1", Message: "go"}
	var done urlCompletions
	got := make(chan *mcp.ElicitResult)
	go func() {
		res, _ := askURL(t.Context(), io, &done, req)
		got <- res
	}()
	done.complete(t.Context(), mcp.ElicitationComplete{ElicitationID: "other"})
	done.complete(t.Context(), mcp.ElicitationComplete{ElicitationID: "e1"})
	if res := <-got; res == nil || res.Action != mcp.ElicitAccept {
		t.Errorf("got %+v, want accept", res)
	}
	// Reported before the wait: the wait ends at once.
	res, err := askURL(t.Context(), io, &done, req)
	if err != nil || res.Action != mcp.ElicitAccept {
		t.Errorf("got %+v, %v; want accept", res, err)
	}
}
