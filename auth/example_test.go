package auth_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// A client for a server that needs a sign-in: the Authorizer goes into the
// transport, signs the user in through the browser on the first 401, and
// keeps the tokens in the user's config directory for the next run.
func ExampleNew() {
	ctx := context.Background()
	const server = "https://mcp.example.com/mcp"
	store, err := auth.DefaultStore()
	if err != nil {
		log.Fatal(err)
	}
	authz, err := auth.New(server, &auth.Options{
		UserAgent: &auth.Loopback{}, // nil would mean headless: stored tokens only
		Store:     store,
	})
	if err != nil {
		log.Fatal(err)
	}
	// Sign in (if needed) before connecting, so the user is not rushed by
	// a request timeout.
	if err := authz.Prepare(ctx); err != nil {
		log.Fatal(err)
	}
	client, err := mcp.Connect(ctx, &transport.StreamableHTTP{URL: server, Auth: authz}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
}

// A service that authenticates as itself with a private key.
func ExampleNew_clientCredentials() {
	key, err := os.ReadFile("client-key.pem")
	if err != nil {
		log.Fatal(err)
	}
	authz, err := auth.New("https://mcp.example.com/mcp", &auth.Options{
		Grant:         auth.GrantClientCredentials,
		ClientID:      "reporting-service",
		PrivateKeyPEM: key,
	})
	if err != nil {
		log.Fatal(err)
	}
	_ = &transport.StreamableHTTP{URL: "https://mcp.example.com/mcp", Auth: authz}
}

func ExampleParseChallenges() {
	for _, c := range auth.ParseChallenges([]string{
		`Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`,
	}) {
		fmt.Println(c.Scheme, c.Param("error"), c.Param("scope"))
	}
	// Output: Bearer insufficient_scope files:read files:write
}

func ExampleCanonicalResource() {
	r, _ := auth.CanonicalResource("HTTPS://MCP.Example.com:443/mcp/?key=abc")
	fmt.Println(r)
	// Output: https://mcp.example.com/mcp
}
