package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/sse"
)

func TestInspectOptions(t *testing.T) {
	o, p := parseOptions(t, "inspect", "--port", "8123", "--no-open", "--config", "c.json", "everything")
	want := &inspectOptions{Target: TargetFlags{ServerFlags: ServerFlags{Timeout: 30 * time.Second, Transport: "auto"}, Config: ConfigFlags{Files: StringList{"c.json"}}},
		Port: 8123, NoOpen: true}
	if !reflect.DeepEqual(o, want) || !reflect.DeepEqual(p.Args, []string{"everything"}) {
		t.Fatalf("got %+v %v", o, p.Args)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--port", "70000"}, "--port must be between 0 and 65535"},
		{[]string{"--port", "1", "--listen", "127.0.0.1:2"}, "--port and --listen both"},
		{[]string{"--listen", "nowhere"}, "--listen must be HOST:PORT"},
	} {
		r := run(t, append([]string{"inspect", "--no-open"}, append(c.args, server()...)...)...).wantCode(t, ExitUsage)
		if !strings.Contains(r.err, c.want) {
			t.Errorf("%v: %q, want %q", c.args, r.err, c.want)
		}
	}
}

// Only a loopback --listen address keeps the page to this machine; any
// other (all interfaces included) makes the command warn.
func TestInspectListenLoopback(t *testing.T) {
	for addr, want := range map[string]bool{"127.0.0.1:0": true, "localhost:8080": true, "[::1]:0": true, "192.0.2.1:80": false, ":0": false, "0.0.0.0:0": false} {
		o := &inspectOptions{Listen: addr}
		got, loopback, err := o.listenAddr()
		if err != nil || got != addr || loopback != want {
			t.Errorf("--listen %s: %q loopback=%v %v, want loopback=%v", addr, got, loopback, err, want)
		}
	}
	if got, loopback, _ := (&inspectOptions{Port: 8123}).listenAddr(); got != "127.0.0.1:8123" || !loopback {
		t.Errorf("--port 8123: %s %v", got, loopback)
	}
}

// The printed URL names the loopback address listened on: with --listen
// [::1]:0 that is ::1, where the page answers, not 127.0.0.1.
func TestInspectListenIPv6Loopback(t *testing.T) {
	ln, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	ln.Close()
	c, base := startInspectOn(t, "::1", append([]string{"--listen", "[::1]:0"}, server()...)...)
	var servers []struct{ Name, State string }
	getJSON(t, c, base+"/api/servers", &servers)
	if len(servers) != 1 || servers[0].State != "connected" {
		t.Fatalf("servers: %+v", servers)
	}
	checkHostPort(t, c, base)
}

// --listen on a loopback address or name serves the page there; its Host
// header may name any loopback name, at the port listened on only.
func TestInspectListenLoopbackVariants(t *testing.T) {
	ln, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	localhost := ln.Addr().(*net.TCPAddr).IP.String() // where Go listens for "localhost"
	ln.Close()
	for addr, host := range map[string]string{"127.0.0.1:0": "127.0.0.1", "localhost:0": localhost} {
		t.Run(addr, func(t *testing.T) {
			c, base := startInspectOn(t, host, append([]string{"--listen", addr}, server()...)...)
			var servers []struct{ State string }
			getJSON(t, c, base+"/api/servers", &servers)
			if len(servers) != 1 || servers[0].State != "connected" {
				t.Fatalf("servers: %+v", servers)
			}
			checkHostPort(t, c, base)
		})
	}
}

// checkHostPort checks that the page at base answers a Host header of
// "localhost" at its port, and refuses one at another port.
func checkHostPort(t *testing.T, c *http.Client, base string) {
	t.Helper()
	u, _ := url.Parse(base)
	port, _ := strconv.Atoi(u.Port())
	for _, p := range []int{port, port + 1} {
		req, _ := http.NewRequest(http.MethodGet, base+"/api/servers", nil)
		req.Host = "localhost:" + strconv.Itoa(p)
		for _, ck := range c.Jar.Cookies(req.URL) { // the jar would pick them by Host
			req.AddCookie(ck)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if want := http.StatusOK; p != port && (resp.StatusCode != http.StatusForbidden || !strings.Contains(string(b), "port")) ||
			p == port && resp.StatusCode != want {
			t.Errorf("Host localhost:%d (the page is at port %d): %s %s", p, port, resp.Status, b)
		}
	}
}

// urlWriter hands over the first URL printed.
type urlWriter struct{ urls chan string }

var printedURL = regexp.MustCompile(`http://\S+`)

func (w urlWriter) Write(p []byte) (int, error) {
	if u := printedURL.Find(p); u != nil {
		select {
		case w.urls <- string(u):
		default:
		}
	}
	return len(p), nil
}

// startInspect runs "mcpwire inspect ARGS" until the test ends and returns
// a client that made the first visit, and the page's base URL.
func startInspect(t *testing.T, args ...string) (*http.Client, string) {
	t.Helper()
	return startInspectOn(t, "127.0.0.1", args...)
}

// startInspectOn is startInspect whose printed URL must name host.
func startInspectOn(t *testing.T, host string, args ...string) (*http.Client, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	urls := make(chan string, 1)
	done := make(chan result, 1)
	errOut := &syncBuffer{}
	go func() {
		done <- runIO(t, ctx, &IOStreams{Out: urlWriter{urls}, ErrOut: errOut}, append([]string{"inspect", "--no-open"}, args...)...)
	}()
	t.Cleanup(func() {
		cancel()
		if r := <-done; r.code != ExitInterrupted {
			t.Errorf("inspect exited %d: %s", r.code, errOut.String())
		}
	})
	var page string
	select {
	case page = <-urls:
	case r := <-done:
		done <- r
		t.Fatalf("inspect ended early (%d): %s", r.code, errOut.String())
	}
	u, err := url.Parse(page)
	if err != nil || u.Hostname() != host || u.Query().Get("token") == "" {
		t.Fatalf("printed URL %q: want %s with a token", page, host)
	}
	return pageClient(t, page)
}

// pageClient opens the printed URL, whose token becomes the client's
// cookie, and returns the client and the page's URL without its trailing
// slash (the API is under it).
func pageClient(t *testing.T, page string) (*http.Client, string) {
	t.Helper()
	u, err := url.Parse(page)
	if err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.Get(page)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("first visit: %s", resp.Status)
	}
	return c, "http://" + u.Host + strings.TrimSuffix(u.Path, "/")
}

// originOf is the origin of the page whose base pageClient returned: the
// Origin header the page's own requests carry.
func originOf(base string) string {
	u, _ := url.Parse(base)
	return u.Scheme + "://" + u.Host
}

// inspect over "-- COMMAND": the page lists the server, calls its tool,
// and Ctrl-C (the cancelled context) ends it all with exit 130.
func TestInspectStdioTarget(t *testing.T) {
	c, base := startInspect(t, server()...)
	var servers []struct{ Name, State, Transport, Protocol string }
	getJSON(t, c, base+"/api/servers", &servers)
	if len(servers) != 1 || servers[0].State != "connected" || servers[0].Transport != "stdio" {
		t.Fatalf("servers: %+v", servers)
	}
	resp, err := c.Get(base + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := sse.NewReader(bufio.NewReader(resp.Body))
	req, _ := http.NewRequest(http.MethodPost, base+"/api/call", strings.NewReader(`{"server":"`+servers[0].Name+`","tool":"echo","arguments":{"message":"hi there"}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", originOf(base))
	call, err := c.Do(req)
	if err != nil || call.StatusCode != http.StatusOK {
		t.Fatalf("call: %v %v", err, call)
	}
	call.Body.Close()
	for {
		e, err := events.Next()
		if err != nil {
			t.Fatal(err)
		}
		var rec struct {
			State, Command string
			Result         struct{ Content []struct{ Text string } }
		}
		if e.Type != "call" || json.Unmarshal(e.Data, &rec) != nil || rec.State == "running" {
			continue
		}
		if rec.State != "done" || len(rec.Result.Content) != 1 || rec.Result.Content[0].Text != "hi there" {
			t.Fatalf("call: %s", e.Data)
		}
		if !strings.HasPrefix(rec.Command, `mcpwire call echo --args-json '{"message":"hi there"}' -- `) {
			t.Errorf("command: %s", rec.Command)
		}
		return
	}
}

// A secret the command knows (here an --env value) never reaches the
// exported wire log, even when it crosses the wire.
func TestInspectExportRedactsSecrets(t *testing.T) {
	const secret = "hunter2-but-longer"
	c, base := startInspect(t, append([]string{"--env", "API_KEY=" + secret}, server()...)...)
	var servers []struct{ Name string }
	getJSON(t, c, base+"/api/servers", &servers)
	req, _ := http.NewRequest(http.MethodPost, base+"/api/prompt?server="+url.QueryEscape(servers[0].Name), strings.NewReader(`{"name":"summarize","arguments":{"topic":"`+secret+`"}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", originOf(base))
	resp, err := c.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("prompt: %v %v", err, resp)
	}
	resp.Body.Close()
	export, err := c.Get(base + "/api/wire.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer export.Body.Close()
	b, _ := io.ReadAll(export.Body)
	if !strings.Contains(string(b), `"prompts/get"`) || strings.Contains(string(b), secret) || !strings.Contains(string(b), "[redacted]") {
		t.Fatalf("export (secret present: %v):\n%s", strings.Contains(string(b), secret), b)
	}
}

// Without TARGET, the configured servers are shown, each under its name.
func TestInspectConfigured(t *testing.T) {
	cfg := exampleServersConfig(t, "demo")
	c, base := startInspect(t, "--config", cfg)
	var tools []struct{ Name string }
	getJSON(t, c, base+"/api/tools?server=demo", &tools)
	if len(tools) == 0 || tools[0].Name != "echo" {
		t.Fatalf("tools: %+v", tools)
	}
	var servers []struct{ Name, State string }
	getJSON(t, c, base+"/api/servers", &servers)
	if len(servers) != 1 || servers[0].Name != "demo" || servers[0].State != "connected" {
		t.Fatalf("servers: %+v", servers)
	}
}

// A configured server named on the command line is the only one shown,
// connected before the page is served; an unknown name is a usage error.
func TestInspectConfiguredByName(t *testing.T) {
	cfg := exampleServersConfig(t, "demo", "other")
	r := run(t, "inspect", "--no-open", "--config", cfg, "dmeo").wantCode(t, ExitUsage)
	if !strings.Contains(r.err, `no configured server is named "dmeo"`) {
		t.Errorf("unknown name: %s", r.err)
	}
	c, base := startInspect(t, "--config", cfg, "other")
	var servers []struct{ Name, State string }
	getJSON(t, c, base+"/api/servers", &servers)
	if len(servers) != 1 || servers[0].Name != "other" || servers[0].State != "connected" {
		t.Fatalf("servers: %+v", servers)
	}
}

func getJSON(t *testing.T, c *http.Client, u string, v any) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || json.Unmarshal(b, v) != nil {
		t.Fatalf("GET %s: %s %s", u, resp.Status, b)
	}
}

// exampleServersConfig writes a config file with the example server under
// each of names, and returns its path.
func exampleServersConfig(t *testing.T, names ...string) string {
	t.Helper()
	servers := map[string]any{}
	for _, n := range names {
		servers[n] = map[string]any{"command": os.Args[0], "args": []string{ServeName}}
	}
	b, _ := json.Marshal(map[string]any{"mcpServers": servers})
	cfg := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(cfg, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg
}
