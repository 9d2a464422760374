package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/url"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/cmd/mcpwire/internal/signin"
	"github.com/mcpwire/mcpwire/config"
)

// newLoginCommand builds "mcpwire login".
func newLoginCommand() *Command {
	return &Command{
		Name:    "login",
		Summary: "sign in to a server that needs authorization",
		Usage:   "login [flags] URL|SERVER",
		Description: `Sign in to a remote MCP server now, through the browser, and keep the
tokens for later commands (and for the configured servers the other
commands start). SERVER is the name of a configured server; its "oauth"
block (clientId, clientSecret, scopes, callbackPort, clientMetadataUrl) is
used. The browser is sent to the server's authorization server; the
answer comes back to a listener on 127.0.0.1. Without a browser (over
SSH, say), the URL is printed: open it on this computer.

Tokens are stored in the user's config directory (mcpwire/auth, files
readable only by you), or in $MCPWIRE_AUTH_DIR.

A configured client secret (or workload identity token) is bound to the
authorization server it was first sent to, or to the block's "issuer".
When the server later names another one, nothing is sent there; if the
change is right, accept it with --accept-issuer NEW-ISSUER (or set
"issuer" in the block). Logging out keeps the binding.`,
		Options: func() Options { return &loginOptions{} },
	}
}

// loginOptions are the command's flags.
type loginOptions struct {
	Config    ConfigFlags
	NoBrowser bool
	Verbose   bool
	// AllowInsecureHTTP is --allow-insecure-http.
	AllowInsecureHTTP bool
	// AcceptIssuer is --accept-issuer: the authorization server the
	// configured credentials may now go to.
	AcceptIssuer string
}

func (o *loginOptions) Flags(fs *flag.FlagSet) {
	o.Config.Register(fs)
	fs.BoolVar(&o.NoBrowser, "no-browser", false, "print the sign-in URL instead of opening a browser")
	fs.BoolVar(&o.Verbose, "verbose", false, "show each step of the sign-in")
	fs.StringVar(&o.AcceptIssuer, "accept-issuer", "", "accept this `ISSUER` as the authorization server of the configured client secret, in place of the one it was first used with")
	registerAllowInsecureHTTP(fs, &o.AllowInsecureHTTP)
}

func (o *loginOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	target, err := resolveLoginTarget(io, &o.Config, p)
	if err != nil {
		return err
	}
	a, err := signin.New(target.url, signin.Options{
		Interactive: true, NoBrowser: o.NoBrowser, Out: io.ErrOut, Verbose: o.Verbose,
		OAuth: target.oauth, AddSecret: io.AddSecret, AllowInsecureHTTP: o.AllowInsecureHTTP,
		AcceptIssuer: o.AcceptIssuer, Name: target.server,
	})
	if err != nil {
		return Usagef("%s: %s", target.name, err.Error())
	}
	err = a.Login(ctx)
	if errors.Is(err, auth.ErrNotProtected) {
		fmt.Fprintf(io.Out, "%s does not ask for authorization: nothing to sign in to\n", target.name)
		return nil
	}
	if err != nil {
		return &SignInError{Target: target.name, Err: err}
	}
	st := a.Status(ctx)
	fmt.Fprintf(io.Out, "Signed in to %s", target.name)
	if st != nil && st.Issuer != "" {
		fmt.Fprintf(io.Out, " (authorization server %s)", Sanitize(st.Issuer))
	}
	fmt.Fprintln(io.Out)
	return nil
}

// newLogoutCommand builds "mcpwire logout".
func newLogoutCommand() *Command {
	return &Command{
		Name:    "logout",
		Summary: "forget the stored tokens of a server",
		Usage:   "logout [flags] URL|SERVER",
		Description: `Delete the tokens (and the client registration) mcpwire keeps for a
server. The next command that needs them signs in again. The tokens are
not revoked at the authorization server. The binding of a configured
client secret to its authorization server is kept (see mcpwire login).`,
		Options: func() Options { return &logoutOptions{} },
	}
}

// logoutOptions are the command's flags.
type logoutOptions struct {
	Config ConfigFlags
}

func (o *logoutOptions) Flags(fs *flag.FlagSet) {
	o.Config.Register(fs)
}

func (o *logoutOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	target, err := resolveLoginTarget(io, &o.Config, p)
	if err != nil {
		return err
	}
	a, err := signin.New(target.url, signin.Options{OAuth: target.oauth, AddSecret: io.AddSecret, Name: target.server})
	if err != nil && target.oauth != nil {
		// Signing out needs nothing of the oauth block but its issuer:
		// the tokens are kept by the server's URL. An unset
		// ${CLIENT_SECRET} (a shell without it, a secret already
		// removed) must not keep them on disk.
		a, err = signin.New(target.url, signin.Options{AddSecret: io.AddSecret, Name: target.server})
	}
	if err != nil {
		return Usagef("%s: %s", target.name, err.Error())
	}
	had := a.Status(ctx) != nil
	if err := a.Logout(ctx); err != nil {
		return err
	}
	if had {
		fmt.Fprintf(io.Out, "Signed out of %s: its stored tokens are deleted\n", target.name)
	} else {
		fmt.Fprintf(io.Out, "No stored tokens for %s\n", target.name)
	}
	if iss := a.BoundIssuer(ctx); iss != "" {
		fmt.Fprintf(io.Out, "Its client credentials stay bound to authorization server %s\n", Sanitize(iss))
	}
	return nil
}

// loginTarget is the server a command is about.
type loginTarget struct {
	name   string // how to call it in messages
	server string // the configured server's name; "" for a URL
	url    string
	oauth  json.RawMessage
}

// resolveLoginTarget reads URL|SERVER: a URL as given, or a configured server's URL
// and oauth block.
func resolveLoginTarget(io *IOStreams, files *ConfigFlags, p Parsed) (*loginTarget, error) {
	if p.Dash {
		return nil, Usagef("give a server URL or a configured server's name, not -- COMMAND: stdio servers need no sign-in")
	}
	if err := ExactArgs(p.Args, 1, "URL|SERVER"); err != nil {
		return nil, err
	}
	arg := p.Args[0]
	if IsURL(arg) {
		if len(files.Files) > 0 {
			return nil, Usagef("--config selects configured servers; it cannot be combined with a URL")
		}
		name, err := ParseServerURL(io, arg)
		if err != nil {
			return nil, err
		}
		return &loginTarget{name: name, url: arg}, nil
	}
	set, err := loadConfig(files.Files, nil)
	if err != nil {
		return nil, Usagef("%s", err.Error())
	}
	s := set.Lookup(arg)
	if err := refuseUntrustedDefinition(set, arg); err != nil {
		return nil, err
	}
	if s == nil {
		for _, pr := range set.Problems {
			if pr.Server == arg && !pr.Warning {
				return nil, Usagef("server %q: %s", arg, pr.Error())
			}
		}
		return nil, Usagef("no configured server is named %q (\"mcpwire servers\" lists them; or give the server's URL)", arg)
	}
	serverURL, oauth, err := remoteServer(io, s, arg)
	if err != nil {
		return nil, Usagef("%s", err.Error())
	}
	return &loginTarget{name: fmt.Sprintf("server %q", arg), server: arg, url: serverURL, oauth: oauth}, nil
}

// remoteServer is what a sign-in needs of the configured server s (named
// name): its URL, whose secrets are registered so that no message shows
// them, and its "oauth" block.
func remoteServer(io *IOStreams, s *config.Server, name string) (string, json.RawMessage, error) {
	if s.URL == "" {
		return "", nil, fmt.Errorf("server %q runs over stdio; only remote (http) servers sign in", name)
	}
	if u, err := url.Parse(s.URL); err == nil {
		io.AddURLSecrets(u)
	}
	return s.URL, s.OAuth, nil
}
