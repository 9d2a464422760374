package cli

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// serve's listener drops a connection that does not finish its request
// headers, or sits idle after a request, once serveTimeouts say so.
// Before, both stayed open for ever: anyone reaching the port, with no
// token and a Host the gateway refuses, could hold as many as it liked.
func TestServeHTTPDropsSlowAndIdleConnections(t *testing.T) {
	saved := serveTimeouts
	serveTimeouts.header, serveTimeouts.idle = 50*time.Millisecond, 50*time.Millisecond
	defer func() { serveTimeouts = saved }()
	cfg := gatewayConfig(t)
	ctx, cancel := context.WithCancel(t.Context())
	errR, errW := io.Pipe()
	done := make(chan result, 1)
	go func() {
		done <- runIO(t, ctx, &IOStreams{ErrOut: errW}, "serve", "--listen", "127.0.0.1:0", "--no-auth", "--config", cfg)
		errW.Close()
	}()
	defer func() { cancel(); <-done }()
	lines := bufio.NewScanner(errR)
	addr := ""
	for addr == "" && lines.Scan() {
		if u, ok := strings.CutPrefix(lines.Text(), "mcpwire: serving at http://"); ok {
			addr = strings.TrimSuffix(u, "/mcp")
		}
	}
	if addr == "" {
		t.Fatal("serve ended without saying where it serves")
	}
	go func() {
		for lines.Scan() {
		}
	}()
	for name, sent := range map[string]string{
		"headers never finished": "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n",
		"idle after a request":   "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
	} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		// A bound on the failure only: the server closes long before.
		_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
		if _, err := io.WriteString(conn, sent); err != nil {
			t.Fatal(err)
		}
		_, err = io.ReadAll(conn)
		conn.Close()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("%s: the connection is still open", name)
		}
	}
}
