package inspect

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/transport"
)

// The API's statuses say whose the fault is: the page's request (400, or
// 413 for a body over 8 MiB), a server that is not there (404), a method
// the endpoint does not take (405 with Allow), something the inspector
// does not do (501); 502 is kept for the servers' own failures. Every
// error is JSON a person can read, with no Go type in it.
func TestAPIStatuses(t *testing.T) {
	p := newPage(t)
	huge := `{"server":"demo","tool":"echo","arguments":{"message":"` + strings.Repeat("a", maxBody) + `"}}`
	for _, tc := range []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
		allow, says              string
	}{
		{name: "GET of a POST endpoint", method: "GET", path: "/api/call", status: 405, allow: "POST"},
		{name: "POST of a GET endpoint", method: "POST", path: "/api/report", body: `{}`, status: 405, allow: "GET, HEAD"},
		{name: "PUT", method: "PUT", path: "/api/answer", body: `{}`, status: 405, allow: "POST"},
		{name: "DELETE of a GET endpoint", method: "DELETE", path: "/api/servers", status: 405, allow: "GET, HEAD"},
		{name: "no such endpoint", method: "GET", path: "/api/nothing", status: 404, says: "no such API endpoint"},
		{name: "no server named", method: "GET", path: "/api/tools?server=", status: 400, says: "names no server"},
		{name: "report of no server named", method: "GET", path: "/api/report", status: 400, says: "names no server"},
		{name: "unknown server's tools", method: "GET", path: "/api/tools?server=nope", status: 404, says: "no such server"},
		{name: "unknown server's report", method: "GET", path: "/api/report?server=nope", status: 404, says: "no such server"},
		{name: "unknown log level", method: "POST", path: "/api/loglevel?server=demo", body: `{"level":"loud"}`, status: 400, says: "unknown log level"},
		{name: "empty completion reference", method: "POST", path: "/api/complete?server=demo", body: `{}`, status: 400, says: "must be a prompt or a resource template"},
		{name: "reconnect an unknown server", method: "POST", path: "/api/reconnect", body: `{"server":"nope"}`, status: 404, says: "no such server"},
		{name: "reconnect no server", method: "POST", path: "/api/reconnect", body: `{}`, status: 400, says: "names no server"},
		{name: "sign in to a stdio server", method: "POST", path: "/api/signin", body: `{"server":"demo"}`, status: 400, says: "only remote (http) servers sign in"},
		{name: "sign in to an unknown server", method: "POST", path: "/api/signin", body: `{"server":"nope"}`, status: 404, says: "no such server"},
		{name: "call on an unknown server", method: "POST", path: "/api/call", body: `{"server":"nope","tool":"echo"}`, status: 404, says: "no such server"},
		{name: "call of no tool", method: "POST", path: "/api/call", body: `{"server":"demo"}`, status: 400, says: "names no tool"},
		{name: "cancel of no call", method: "POST", path: "/api/cancel", body: `{"id":99}`, status: 404, says: "no call 99"},
		{name: "an array body", method: "POST", path: "/api/call", body: `[1,2]`, status: 400, says: "the body must be one JSON object"},
		{name: "a null body", method: "POST", path: "/api/call", body: `null`, status: 400, says: "the body must be one JSON object"},
		{name: "a string body", method: "POST", path: "/api/answer", body: `"yes"`, status: 400, says: "the body must be one JSON object"},
		{name: "an empty body", method: "POST", path: "/api/cancel", body: ``, status: 400, says: "the body must be one JSON object"},
		{name: "trailing data", method: "POST", path: "/api/call", body: `{"server":"demo","tool":"echo"} x`, status: 400, says: "the body must be one JSON object"},
		{name: "two objects", method: "POST", path: "/api/call", body: `{"server":"demo","tool":"echo"}{}`, status: 400, says: "the body must be one JSON object"},
		{name: "not JSON", method: "POST", path: "/api/call", body: `{bad`, status: 400, says: "not valid JSON"},
		{name: "a field of the wrong type", method: "POST", path: "/api/call", body: `{"server":5}`, status: 400, says: `"server" must be a string, not number`},
		{name: "a nested field of the wrong type", method: "POST", path: "/api/complete?server=demo", body: `{"ref":{"type":[]}}`, status: 400, says: `"ref.type" must be a string, not array`},
		{name: "arguments not an object", method: "POST", path: "/api/call", body: `{"server":"demo","tool":"echo","arguments":[1]}`, status: 400, says: "the arguments must be a JSON object"},
		{name: "not JSON content", method: "POST", path: "/api/answer", body: `{}`, header: map[string]string{"Content-Type": "text/plain"}, status: 400, says: "application/json"},
		{name: "a body over 8 MiB", method: "POST", path: "/api/call", body: huge, status: 413, says: "8 MiB"},
		{name: "a tool the server lacks", method: "POST", path: "/api/prompt?server=demo", body: `{"name":"no-such-prompt"}`, status: 502},
		{name: "a good call", method: "POST", path: "/api/call", body: `{"server":"demo","tool":"echo","arguments":{"message":"hi"}}`, status: 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			header := map[string]string{"Origin": p.ts.URL} // the page's own, as on every request it sends
			for k, v := range tc.header {
				header[k] = v
			}
			if tc.method != http.MethodGet && header["Content-Type"] == "" {
				header["Content-Type"] = "application/json"
			}
			resp := p.do(t, tc.method, tc.path, tc.body, header)
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Fatalf("%s %s: %s %s, want %d", tc.method, tc.path, resp.Status, clipText(string(b), 300), tc.status)
			}
			if got := resp.Header.Get("Allow"); got != tc.allow {
				t.Errorf("Allow: %q, want %q", got, tc.allow)
			}
			if tc.status == http.StatusOK {
				return
			}
			var e struct{ Error string }
			if err := json.Unmarshal(b, &e); err != nil || e.Error == "" || resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("not a JSON error: %s %q", resp.Header.Get("Content-Type"), b)
			}
			if !strings.Contains(e.Error, tc.says) {
				t.Errorf("error %q, want it to say %q", e.Error, tc.says)
			}
			for _, goTalk := range []string{"struct {", "Go value", "Go struct", `json:\"`, "interface {}", "inspect."} {
				if strings.Contains(e.Error, goTalk) {
					t.Errorf("error %q speaks Go (%q)", e.Error, goTalk)
				}
			}
		})
	}
}

// A configured server that is disabled cannot be asked: 409, not the 502
// of a server that failed.
func TestAPIDisabledServer(t *testing.T) {
	set := &config.Set{Servers: []*config.Server{{Name: "off", Type: config.TypeStdio, Command: "never-started", Enabled: false}}}
	m := manager.New(set, &manager.Options{DisableCache: true, Dial: func(context.Context, *config.Server) (transport.Transport, error) {
		return nil, errors.New("a disabled server is never dialled")
	}})
	t.Cleanup(func() { m.Close() })
	p := openPage(t, Options{Servers: ManagerServers(m, "", nil)})
	resp := p.do(t, http.MethodGet, "/api/tools?server=off", "", nil)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusConflict || !strings.Contains(string(b), "disabled") {
		t.Errorf("tools of a disabled server: %s %s", resp.Status, b)
	}
}
