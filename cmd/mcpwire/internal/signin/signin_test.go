package signin

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/transport"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestAttach(t *testing.T) {
	a, err := New("https://h.example/mcp", Options{})
	if err != nil {
		t.Fatal(err)
	}
	sh, sse, auto := &transport.StreamableHTTP{}, &transport.SSE{}, &transport.Auto{}
	for _, tr := range []transport.Transport{sh, sse, auto} {
		if !Attach(tr, a) {
			t.Errorf("Attach(%T) = false", tr)
		}
	}
	if sh.Auth == nil || sse.Auth == nil || auto.Auth == nil {
		t.Error("Auth not set")
	}
	if Attach(&transport.Command{Command: "x"}, a) {
		t.Error("Attach to a stdio command = true")
	}
}

func TestStoreFollowsTheEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(DirEnv, dir)
	s, err := Store()
	if err != nil || s.Dir != dir {
		t.Errorf("Store() = %v, %v; want %s", s, err, dir)
	}
}

func TestNewReportsABadOAuthBlockWithoutItsSecret(t *testing.T) {
	var secrets []string
	_, err := New("https://h.example/mcp", Options{OAuth: json.RawMessage(`{"clientSecret": "literal-SECRET"}`), AddSecret: func(s string) { secrets = append(secrets, s) }})
	if err == nil || strings.Contains(err.Error(), "SECRET") || !strings.Contains(err.Error(), "oauth.clientSecret") {
		t.Errorf("err = %v", err)
	}
	if _, err := New("https://h.example/mcp", Options{OAuth: json.RawMessage(`{"clientId": "c", "clientSecret": "literal-SECRET"}`), AddSecret: func(s string) { secrets = append(secrets, s) }}); err != nil {
		t.Fatal(err)
	}
	if len(secrets) != 1 || secrets[0] != "literal-SECRET" {
		t.Errorf("secrets registered = %q", secrets)
	}
}

func TestDialAttachesOnlyWithoutAnAuthorizationHeader(t *testing.T) {
	t.Setenv(DirEnv, t.TempDir())
	next := func(ctx context.Context, s *config.Server) (transport.Transport, error) {
		if s.URL == "" {
			return &transport.Command{Command: s.Command}, nil
		}
		return &transport.StreamableHTTP{URL: s.URL}, nil
	}
	dial := Dial(next, Options{})
	tr, err := dial(t.Context(), &config.Server{Name: "a", URL: "https://h.example/mcp"})
	if err != nil || tr.(*transport.StreamableHTTP).Auth == nil {
		t.Errorf("plain HTTP server: %v, Auth %v", err, tr)
	}
	tr, err = dial(t.Context(), &config.Server{Name: "b", URL: "https://h.example/mcp", Headers: map[string]string{"authorization": "Bearer x"}})
	if err != nil || tr.(*transport.StreamableHTTP).Auth != nil {
		t.Errorf("server with its own Authorization header got an Authorizer")
	}
	if _, err := dial(t.Context(), &config.Server{Name: "c", Command: "x"}); err != nil {
		t.Errorf("stdio server: %v", err)
	}
	_, err = dial(t.Context(), &config.Server{Name: "d", URL: "https://h.example/mcp", OAuth: json.RawMessage(`{"callbackPort": -1}`)})
	if err == nil || !strings.Contains(err.Error(), `server "d"`) {
		t.Errorf("bad oauth block: %v", err)
	}
}

// AllowInsecureHTTP (--allow-insecure-http) reaches the Authorizer: a
// challenge from a plain-http server on another machine is refused
// without it, and taken up with it (discovery then fails on the made-up
// host, for another reason).
func TestAllowInsecureHTTPReachesTheAuthorizer(t *testing.T) {
	t.Setenv(DirEnv, t.TempDir())
	const server = "http://mcp.example.test/mcp"
	challenge := func(allow bool) error {
		a, err := New(server, Options{AllowInsecureHTTP: allow})
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest(http.MethodPost, server, nil)
		resp := &http.Response{StatusCode: http.StatusUnauthorized, Header: http.Header{"Www-Authenticate": {`Bearer realm="x"`}}, Request: req}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err = a.Challenge(ctx, resp)
		return err
	}
	if err := challenge(false); !errors.Is(err, auth.ErrInsecureHTTP) {
		t.Fatalf("without the option: %v, want ErrInsecureHTTP", err)
	}
	if err := challenge(true); errors.Is(err, auth.ErrInsecureHTTP) {
		t.Fatalf("with the option: %v", err)
	}
}
