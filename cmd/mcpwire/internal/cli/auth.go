package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/cmd/mcpwire/internal/signin"
)

// newAuthCommand builds "mcpwire auth", whose one subcommand is "status".
func newAuthCommand() *Command {
	return &Command{
		Name:    "auth",
		Summary: "list the servers mcpwire holds tokens for (auth status)",
		Usage:   "auth status [--json]",
		Description: `"mcpwire auth status" lists the servers mcpwire keeps tokens for: the
authorization server, the client, whether the access token is still
valid and whether it can be refreshed. Tokens themselves are never shown.
With --json, print an array of {"server", "authorizationServer",
"client", "expires", "valid", "refreshable", "scopes"}.`,
		Options: func() Options { return &authOptions{} },
	}
}

// authOptions are the command's flags.
type authOptions struct {
	JSON bool
}

func (o *authOptions) Flags(fs *flag.FlagSet) {
	JSONFlag(fs, &o.JSON)
}

func (o *authOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	if p.Dash || len(p.Args) != 1 || p.Args[0] != "status" {
		return Usagef("usage: mcpwire auth status [--json]")
	}
	store, err := signin.Store()
	if err != nil {
		return err
	}
	recs, err := store.List(ctx)
	if err != nil && len(recs) == 0 {
		return err
	}
	if err != nil {
		// The files that could be read are listed; a damaged one must
		// not vanish from the list unsaid: its server has no usable token.
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(io.ErrOut, "mcpwire: warning: %s\n", Sanitize(line))
		}
	}
	return printStatus(io, recs, o.JSON, time.Now())
}

// statusLine is one server in "auth status --json".
type statusLine struct {
	Server              string   `json:"server"`
	AuthorizationServer string   `json:"authorizationServer,omitempty"`
	Client              string   `json:"client,omitempty"`
	Expires             string   `json:"expires,omitempty"`
	Valid               bool     `json:"valid"`
	Refreshable         bool     `json:"refreshable"`
	Scopes              []string `json:"scopes"`
}

func printStatus(io *IOStreams, recs []*auth.Record, asJSON bool, now time.Time) error {
	lines := []statusLine{}
	for _, r := range recs {
		l := statusLine{Server: r.ServerURL, AuthorizationServer: r.Issuer, Client: r.ClientID, Scopes: []string{}}
		if l.AuthorizationServer == "" {
			l.AuthorizationServer = r.SecretIssuer // signed out; the binding stays
		}
		if t := r.Token; t != nil {
			l.Valid = t.Valid(now)
			l.Refreshable = t.RefreshToken != ""
			if !t.Expiry.IsZero() {
				l.Expires = t.Expiry.UTC().Format(time.RFC3339)
			}
			l.Scopes = NonNil(t.Scopes)
		}
		lines = append(lines, l)
	}
	if asJSON {
		return WriteJSON(io.Out, lines)
	}
	if len(lines) == 0 {
		io.Out.Write([]byte("No stored tokens. Sign in with: mcpwire login URL|SERVER\n"))
		return nil
	}
	rows := make([][]string, 0, len(lines))
	for i, l := range lines {
		token := "none"
		switch t := recs[i].Token; {
		case t == nil:
		case l.Valid && l.Expires == "":
			token = "valid"
		case l.Valid:
			token = "valid until " + l.Expires
		case l.Refreshable:
			token = "expired, refreshable"
		default:
			token = "expired"
		}
		rows = append(rows, []string{l.Server, orDash(l.AuthorizationServer), orDash(l.Client), token, orDash(strings.Join(l.Scopes, " "))})
	}
	Table(io.Out, io.TableWidth(), []string{"SERVER", "AUTHORIZATION SERVER", "CLIENT", "TOKEN", "SCOPES"}, rows)
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
