package gosdks_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpwire/mcpwire/transport"
)

// serverArg, followed by a server's name, is the one argument with which
// the test binary, re-executed, runs that stdio server instead of the tests
// (the go-sdk's own tests start their stdio servers the same way): a real
// child process, built from the SDK as its users build one. The name is an
// argument, not an environment variable, because the client remembers each
// stdio server's era by its command line and directory: servers that
// differ only in their environment would share one memory.
const serverArg = "interop-server="

// The protocol versions of each era, as the go-sdk spells them for
// ServerOptions.SupportedProtocolVersions.
var (
	modernOnly = []string{"2026-07-28"}
	legacyOnly = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}
)

var stdioServers = map[string]func() error{
	"go-sdk":        func() error { return goSDKServer(nil).Run(context.Background(), &gosdk.StdioTransport{}) },
	"go-sdk-modern": func() error { return goSDKServer(modernOnly).Run(context.Background(), &gosdk.StdioTransport{}) },
	"go-sdk-legacy": func() error { return goSDKServer(legacyOnly).Run(context.Background(), &gosdk.StdioTransport{}) },
	"mcp-go":        func() error { return mcpgoserver.ServeStdio(mcpGoServer()) },
}

func TestMain(m *testing.M) {
	if len(os.Args) == 2 && strings.HasPrefix(os.Args[1], serverArg) {
		name := strings.TrimPrefix(os.Args[1], serverArg)
		run := stdioServers[name]
		if run == nil {
			fmt.Fprintf(os.Stderr, "%s names no server\n", os.Args[1])
			os.Exit(2)
		}
		// A server ends when its client closes stdin; the SDKs report that
		// as an error or not, so only a failure before it matters here, and
		// the client sees that as the process's exit and stderr.
		if err := run(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// stdio returns a transport that runs the named server as a child process.
func stdio(name string) func(t *testing.T) transport.Transport {
	return func(t *testing.T) transport.Transport {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		return &transport.Command{Command: exe, Args: []string{serverArg + name}}
	}
}

// serveHTTP serves h on loopback for the test and returns a transport to
// its endpoint.
func serveHTTP(t *testing.T, h http.Handler) transport.Transport {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &transport.StreamableHTTP{URL: srv.URL + "/mcp"}
}

// urlOf serves a server for the test and returns its endpoint's URL.
func urlOf(t *testing.T, dial func(t *testing.T) transport.Transport) string {
	return dial(t).(*transport.StreamableHTTP).URL
}

// goSDKHTTP serves a go-sdk server over its Streamable HTTP handler.
func goSDKHTTP(versions []string, stateless bool) func(t *testing.T) transport.Transport {
	return func(t *testing.T) transport.Transport {
		s := goSDKServer(versions)
		h := gosdk.NewStreamableHTTPHandler(func(*http.Request) *gosdk.Server { return s },
			&gosdk.StreamableHTTPOptions{Stateless: stateless})
		return serveHTTP(t, h)
	}
}

// mcpGoHTTP serves an mcp-go server over its Streamable HTTP server.
// versions restricts the protocol versions it advertises (nil: all).
func mcpGoHTTP(versions []string, stateless bool) func(t *testing.T) transport.Transport {
	return func(t *testing.T) transport.Transport {
		opts := []mcpgoserver.StreamableHTTPOption{
			mcpgoserver.WithStateful(!stateless),
			mcpgoserver.WithStreamableHTTPProtocolVersions(versions...),
		}
		if stateless {
			opts[0] = mcpgoserver.WithStateLess(true)
		}
		return serveHTTP(t, mcpgoserver.NewStreamableHTTPServer(mcpGoServer(), opts...))
	}
}
