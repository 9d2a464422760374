// Package signin builds the Authorizer the mcpwire command uses for a
// remote server: tokens kept in the user's config directory, a browser
// sign-in when a person is at the terminal, stored tokens only otherwise.
package signin

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/transport"
)

// DirEnv names the environment variable that moves the token store
// (default: the user config directory, then mcpwire/auth).
const DirEnv = "MCPWIRE_AUTH_DIR"

// Options say how the Authorizer may reach the user.
type Options struct {
	// Interactive allows a browser sign-in; without it only stored tokens
	// (refreshed as needed) are used, and a needed sign-in fails with a
	// hint to run "mcpwire login".
	Interactive bool
	// NoBrowser prints the sign-in URL instead of opening a browser.
	NoBrowser bool
	// OpenURL, when set, takes the user to the authorization URL in place
	// of the system browser (mcpwire inspect hands it to its page).
	OpenURL func(ctx context.Context, url string) error
	// Out receives sign-in instructions and, with Verbose, what the
	// Authorizer does.
	Out     io.Writer
	Verbose bool
	// OAuth is the server's "oauth" config block, if it has one.
	OAuth json.RawMessage
	// AddSecret registers a value that must never be printed: the client
	// secret of the oauth block, and every token and registered client
	// secret the Authorizer loads from its store or saves to it.
	AddSecret func(string)
	// Name is the configured server's name, for the sign-in hint; empty
	// for a URL target.
	Name string
	// AllowInsecureHTTP is the CLI's --allow-insecure-http: it sets
	// auth.Options.AllowInsecureHTTP over whatever the oauth block says.
	AllowInsecureHTTP bool
	// AcceptIssuer is login's --accept-issuer: the authorization server
	// the user accepts in place of the one the configured credentials
	// were first used with.
	AcceptIssuer string
}

// signInTarget is what to pass to "mcpwire login": the configured name,
// else the URL without its query (which may hold a key).
func signInTarget(serverURL, name string) string {
	if name != "" {
		return name
	}
	if u, err := url.Parse(serverURL); err == nil {
		return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
	}
	return "URL"
}

// signInHint tells a script how to get past a 401: sign in, or, for a
// server that takes a fixed token rather than OAuth (a gateway, an API
// key), give the token where mcpwire sends it from.
func signInHint(target string, configured bool) string {
	token := "--bearer-token-env NAME"
	if configured {
		token = `the server's "headers" in its config file`
	}
	return "sign in first: mcpwire login " + target + " (a server that takes a fixed token instead gets it from " + token + ")"
}

// Store returns the token store: $MCPWIRE_AUTH_DIR, else the default.
func Store() (*auth.FileStore, error) {
	if dir := os.Getenv(DirEnv); dir != "" {
		return &auth.FileStore{Dir: dir}, nil
	}
	return auth.DefaultStore()
}

// New returns the Authorizer for the server at serverURL.
func New(serverURL string, o Options) (*auth.Authorizer, error) {
	out := o.Out
	if out == nil {
		out = io.Discard
	}
	cfg, err := auth.ParseConfig(o.OAuth, config.LoadOptions{})
	if err != nil {
		return nil, err
	}
	if cfg.ClientSecret != "" && o.AddSecret != nil {
		o.AddSecret(cfg.ClientSecret)
	}
	if e := cfg.Enterprise; e != nil && e.ClientSecret != "" && o.AddSecret != nil {
		o.AddSecret(e.ClientSecret)
	}
	target := signInTarget(serverURL, o.Name)
	opts := &auth.Options{
		SignInHint:   signInHint(target, o.Name != ""),
		AcceptIssuer: o.AcceptIssuer,
		AcceptIssuerHint: func(issuer string, configured bool) string {
			config := fmt.Sprintf(`set "issuer": %q in the server's oauth block`, issuer)
			if configured {
				return config + " (a configured issuer changes only there)"
			}
			return "mcpwire login --accept-issuer " + issuer + " " + target + ", or " + config
		},
	}
	if store, err := Store(); err == nil {
		opts.Store = registeringStore(store, o.AddSecret)
	} else {
		// No place for files (no home directory): tokens last for this
		// run only, which beats refusing to run. They are still
		// registered as secrets on their way through the store.
		opts.Store = registeringStore(&auth.MemoryStore{}, o.AddSecret)
		if o.Verbose {
			fmt.Fprintf(out, "mcpwire: tokens will not be kept: %v\n", err)
		}
	}
	cfg.Apply(opts)
	if o.AllowInsecureHTTP {
		opts.AllowInsecureHTTP = true
	}
	if o.Interactive {
		opts.UserAgent = &auth.Loopback{Port: cfg.CallbackPort, NoBrowser: o.NoBrowser, OpenURL: o.OpenURL, Out: out}
	}
	if o.Verbose {
		opts.Logf = func(format string, args ...any) {
			fmt.Fprintf(out, "mcpwire: "+format+"\n", args...)
		}
	}
	return auth.New(serverURL, opts)
}

// Attach makes t use a for authorization if t is an HTTP transport, and
// reports whether it is.
func Attach(t transport.Transport, a transport.Authorizer) bool {
	switch h := t.(type) {
	case *transport.StreamableHTTP:
		h.Auth = a
	case *transport.SSE:
		h.Auth = a
	case *transport.Auto:
		h.Auth = a
	default:
		return false
	}
	return true
}

// Dial wraps the dial function of a manager so that every HTTP server
// without an Authorization header of its own gets an Authorizer built
// from its "oauth" block and o (o.OAuth is ignored). The manager starts
// servers in parallel, where browser windows would compete, so pass o
// without Interactive: stored tokens are used and refreshed, and a
// server that needs a sign-in fails with a hint to run "mcpwire login".
func Dial(next func(ctx context.Context, s *config.Server) (transport.Transport, error), o Options) func(ctx context.Context, s *config.Server) (transport.Transport, error) {
	return func(ctx context.Context, s *config.Server) (transport.Transport, error) {
		t, err := next(ctx, s)
		if err != nil || s.URL == "" || hasAuthorization(s.Headers) {
			return t, err
		}
		so := o
		so.OAuth, so.Name = s.OAuth, s.Name
		a, err := New(s.URL, so)
		if err != nil {
			return nil, fmt.Errorf("server %q: %w", s.Name, err)
		}
		Attach(t, a)
		return t, nil
	}
}

func hasAuthorization(h map[string]string) bool {
	for k := range h {
		if strings.EqualFold(k, "Authorization") {
			return true
		}
	}
	return false
}
