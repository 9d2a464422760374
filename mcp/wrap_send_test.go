package mcp_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// A request the transport could not send names its method once: the
// engine's "sending initialize (id 1)" already says it, so neither the
// package's prefix nor the transport's "POST URL (initialize)" repeats it.
func TestSendErrorNamesTheMethodOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/mcp"
	ln.Close() // nothing listens there now: the POST is refused
	_, err = mcp.Connect(context.Background(), &transport.StreamableHTTP{URL: url},
		&mcp.ClientOptions{ProtocolVersion: mcp.LatestLegacyProtocolVersion})
	if err == nil {
		t.Fatal("Connect to a closed port succeeded")
	}
	msg := err.Error()
	if n := strings.Count(msg, "initialize"); n != 1 {
		t.Errorf("the error names initialize %d times: %s", n, msg)
	}
	if !strings.HasPrefix(msg, "mcp: sending initialize (id ") || !strings.Contains(msg, "POST "+url+": ") {
		t.Errorf("error = %s; want it to begin with the method and id and keep the URL", msg)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("errors.Is(err, ECONNREFUSED) = false: %v", err)
	}
}
