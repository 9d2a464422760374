package gateway

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// eras are the two kinds of host the gateway serves.
var eras = []string{"2025-11-25", mcp.ModernProtocolVersion}

func pinned(version string) *mcp.ClientOptions {
	return &mcp.ClientOptions{ProtocolVersion: version}
}

func textOf(t *testing.T, contents []mcp.ResourceContents) string {
	t.Helper()
	if len(contents) != 1 || contents[0].Text == nil {
		t.Fatalf("contents: %+v", contents)
	}
	return *contents[0].Text
}

// Two servers listing one URI: the first by name keeps it, the other's is
// listed in the rewritten form, and each reads back from its own server.
func TestResourcesMergedAndReadByURI(t *testing.T) {
	a, b := server.NewServer(nil), server.NewServer(nil)
	a.AddResource(server.Resource{URI: "file:///a.txt", Name: "a", Text: "from a"})
	a.AddResource(server.Resource{URI: "mem://shared", Name: "shared", Text: "shared of a"})
	b.AddResource(server.Resource{URI: "mem://shared", Name: "shared", Text: "shared of b"})
	b.AddResourceTemplate(server.ResourceTemplate{URITemplate: "item://b/{id}", Name: "item"},
		func(_ context.Context, uri string, vars map[string]string) ([]server.ResourceContents, error) {
			return []server.ResourceContents{{URI: uri, Text: "item " + vars["id"]}}, nil
		})
	g := newGateway(t, map[string]*server.Server{"a": a, "b": b}, &Options{PageSize: 2})
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			c := host(t, g, pinned(era))
			if c.ServerCapabilities().Resources == nil {
				t.Fatal("the gateway does not declare resources")
			}
			list, err := c.ListResources(t.Context()) // two pages
			if err != nil {
				t.Fatal(err)
			}
			var uris []string
			for _, r := range list {
				uris = append(uris, r.URI)
			}
			if got := strings.Join(uris, " "); got != "file:///a.txt mem://shared mcpwire://b/mem://shared" {
				t.Fatalf("resources: %s", got)
			}
			for uri, want := range map[string]string{
				"file:///a.txt": "from a", "mem://shared": "shared of a",
				"mcpwire://b/mem://shared": "shared of b", "item://b/42": "item 42",
			} {
				res, err := c.ReadResource(t.Context(), uri)
				if err != nil {
					t.Fatalf("read %s: %v", uri, err)
				}
				if got := textOf(t, res.Contents); got != want || res.Contents[0].URI != uri {
					t.Errorf("read %s: %q at %q, want %q", uri, got, res.Contents[0].URI, want)
				}
			}
			tmpls, err := c.ListResourceTemplates(t.Context())
			if err != nil || len(tmpls) != 1 || tmpls[0].URITemplate != "item://b/{id}" {
				t.Fatalf("templates: %v %+v", err, tmpls)
			}
			_, err = c.ReadResource(t.Context(), "nowhere://x")
			var je *jsonrpc.Error
			if !errors.As(err, &je) || !strings.Contains(err.Error(), "nowhere://x") {
				t.Errorf("read of an unknown URI: %v", err)
			}
		})
	}
}

func TestPromptsMergedGetAndComplete(t *testing.T) {
	a, b := server.NewServer(nil), server.NewServer(nil)
	for name, up := range map[string]*server.Server{"a": a, "b": b} {
		up.AddPrompt(server.Prompt{Name: "greet", Arguments: []server.PromptArgument{{Name: "who", Required: true}}},
			func(_ context.Context, args map[string]string) (*server.PromptResult, error) {
				return &server.PromptResult{Messages: []server.PromptMessage{{Role: "user", Content: server.TextContent(name + " greets " + args["who"])}}}, nil
			})
	}
	var asked *server.CompletionRequest
	b.SetCompletion(func(_ context.Context, req *server.CompletionRequest) (*server.Completion, error) {
		asked = req
		return &server.Completion{Values: []string{req.Value + "da"}}, nil
	})
	g := newGateway(t, map[string]*server.Server{"a": a, "b": b}, nil)
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			c := host(t, g, pinned(era))
			caps := c.ServerCapabilities()
			if caps.Prompts == nil || caps.Completions == nil {
				t.Fatalf("capabilities: %+v", caps)
			}
			prompts, err := c.ListPrompts(t.Context())
			if err != nil || len(prompts) != 2 || prompts[0].Name != "a__greet" || prompts[1].Name != "b__greet" {
				t.Fatalf("prompts: %v %+v", err, prompts)
			}
			res, err := c.GetPrompt(t.Context(), "b__greet", map[string]string{"who": "ada"})
			if err != nil || len(res.Messages) != 1 || res.Messages[0].Content.Text != "b greets ada" {
				t.Fatalf("get: %v %+v", err, res)
			}
			comp, err := c.Complete(t.Context(), mcp.PromptRef("b__greet"), mcp.CompletionArgument{Name: "who", Value: "a"}, nil)
			if err != nil || len(comp.Values) != 1 || comp.Values[0] != "ada" || asked.RefName != "greet" {
				t.Fatalf("complete: %v %+v, upstream asked %+v", err, comp, asked)
			}
			if _, err := c.GetPrompt(t.Context(), "c__greet", nil); err == nil || !strings.Contains(err.Error(), "c__greet") {
				t.Errorf("unknown prompt: %v", err)
			}
		})
	}
}

// Only what some upstream has is declared.
func TestCapabilitiesFollowTheUpstreams(t *testing.T) {
	up := server.NewServer(&server.Options{Capabilities: []byte(`{"tools":{}}`)})
	c := host(t, newGateway(t, map[string]*server.Server{"up": up}, nil), pinned("2025-11-25"))
	caps := c.ServerCapabilities()
	if caps.Tools == nil || caps.Resources != nil || caps.Prompts != nil || caps.Completions != nil || caps.Logging != nil {
		t.Errorf("capabilities: %+v", caps)
	}
}

// Two servers list the same template: the one first by name keeps it as
// is and the other's is listed in the mcpwire:// form. A completion by
// the template as listed goes to the server it is listed for: before, the
// longer mcpwire:// prefix was tried first and matched by the other
// server's own template, so the completion went to the wrong server.
func TestCompletionOfASharedTemplateGoesToItsOwner(t *testing.T) {
	servers := map[string]*server.Server{"a": server.NewServer(nil), "b": server.NewServer(nil)}
	for name, up := range servers {
		up.AddResourceTemplate(server.ResourceTemplate{URITemplate: "mem://{name}", Name: "mem"},
			func(context.Context, string, map[string]string) ([]server.ResourceContents, error) { return nil, nil })
		up.SetCompletion(func(_ context.Context, req *server.CompletionRequest) (*server.Completion, error) {
			return &server.Completion{Values: []string{name + ":" + req.RefName}}, nil
		})
	}
	g := newGateway(t, servers, nil)
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			c := host(t, g, pinned(era))
			for listed, want := range map[string]string{"mem://{name}": "a:mem://{name}", "mcpwire://b/mem://{name}": "b:mem://{name}"} {
				comp, err := c.Complete(t.Context(), mcp.ResourceRef(listed), mcp.CompletionArgument{Name: "name", Value: "x"}, nil)
				if err != nil || len(comp.Values) != 1 || comp.Values[0] != want {
					t.Errorf("complete %s: %v %+v, want %q", listed, err, comp, want)
				}
			}
		})
	}
}

// A name that two servers come to share after start is left out for the
// server that brought it later (docs/serve.md): the tool a host saw
// listed keeps its name and its server. Before, the server whose name
// sorts first won, so a server that added a tool of a listed name took
// over the host's calls to it, the other server's tool gone from the list.
func TestLaterCollisionKeepsTheListedTool(t *testing.T) {
	a, b := server.NewServer(nil), server.NewServer(nil)
	b.AddTool(server.Tool{Name: "search"}, func(context.Context, *server.ToolRequest) (*server.ToolResult, error) {
		return server.TextResult("b"), nil
	})
	warned := make(chan string, 16)
	g := newGateway(t, map[string]*server.Server{"a": a, "b": b}, &Options{NoPrefix: true, Warn: func(err error) { warned <- err.Error() }})
	c := host(t, g, nil)
	a.AddTool(server.Tool{Name: "search"}, func(context.Context, *server.ToolRequest) (*server.ToolResult, error) {
		return server.TextResult("a"), nil
	})
	// A bound only for failing: the resync says so when it leaves one out.
	wait, stop := context.WithTimeout(t.Context(), 30*time.Second)
	defer stop()
	for said := false; !said; {
		select {
		case w := <-warned:
			said = strings.Contains(w, `"search"`)
		case <-wait.Done():
			t.Fatal("no warning about the shared name")
		}
	}
	res, err := c.CallTool(t.Context(), "search", nil, nil)
	if err != nil || len(res.Content) == 0 || res.Content[0].Text != "b" {
		t.Fatalf("search answered by %+v (%v), want the listed server b", res, err)
	}
}
