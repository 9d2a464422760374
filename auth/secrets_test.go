package auth

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// logSink collects log lines.
type logSink struct {
	mu    sync.Mutex
	lines []string
}

func (l *logSink) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logSink) all() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// secretsOf lists every secret the world saw go by: codes, verifiers,
// client secrets, access and refresh tokens.
func secretsOf(w *world, extra ...string) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := append([]string(nil), extra...)
	for _, f := range w.tokenForms {
		for _, k := range []string{"code", "code_verifier", "client_secret", "refresh_token", "client_assertion", "assertion", "subject_token"} {
			if v := f.Get(k); v != "" {
				out = append(out, v)
			}
		}
	}
	for tok := range w.tokens {
		out = append(out, tok)
	}
	for rt := range w.refreshes {
		out = append(out, rt)
	}
	return out
}

func TestSecretsNeverInErrorsOrLogs(t *testing.T) {
	const clientSecret = "client-SECRET-value-123"
	w := newWorld(t)
	w.issueRefresh, w.expiresIn = true, 60
	w.authMethods = []string{"client_secret_post"}
	clk := newClock()
	logs := &logSink{}
	a, err := New(w.serverURL(), &Options{
		ClientID: "pre", ClientSecret: clientSecret, UserAgent: &approver{},
		Logf: logs.logf, now: clk.now,
	})
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	mustCall(t, w, a, "ping")
	clk.advance(time.Hour)
	mustCall(t, w, a, "ping") // refresh

	// The token endpoint now fails, echoing everything it was sent.
	w.mu.Lock()
	w.tokenHook = func(form url.Values, r *http.Request) (int, string, bool) {
		echo := strings.ReplaceAll(form.Encode(), `"`, "")
		return 400, fmt.Sprintf(`{"error":"invalid_grant","error_description":"you sent %s with %s"}`, echo, r.Header.Get("Authorization")), true
	}
	w.mu.Unlock()
	clk.advance(time.Hour)
	errs = append(errs, call(t, w, a, "ping")) // refresh fails, then the code exchange fails

	if errs[0] == nil {
		t.Fatal("the failing token endpoint did not fail the call")
	}
	text := logs.all()
	for _, e := range errs {
		text += "\n" + e.Error()
	}
	for _, s := range secretsOf(w, clientSecret) {
		if strings.Contains(text, s) {
			t.Errorf("secret %q appears in errors or logs:\n%s", s, text)
		}
	}
	if !strings.Contains(text, "[redacted]") {
		t.Errorf("the echo was not scrubbed visibly:\n%s", text)
	}
}

func TestServerURLSecretsNotInErrors(t *testing.T) {
	w := newWorld(t)
	w.prmResource = "https://evil.example.com/mcp"
	a, err := New(w.serverURL()+"?api_key=URL-SECRET-9", &Options{UserAgent: &approver{}})
	if err != nil {
		t.Fatal(err)
	}
	w.mcpPath = "/mcp"
	err = call(t, w, a, "ping")
	if err == nil || strings.Contains(err.Error(), "URL-SECRET-9") {
		t.Errorf("err = %v", err)
	}
}
