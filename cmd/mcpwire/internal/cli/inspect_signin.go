package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/cmd/mcpwire/internal/signin"
	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/inspect"
)

// signInFor is what the page's sign-in needs of a server: its URL and
// "oauth" block, and what to do with the signed-in Authorizer (nil:
// nothing; the next connection loads the stored tokens).
type signInFor func(server string) (rawURL string, oauth json.RawMessage, adopt func(*auth.Authorizer), err error)

// pageSignIn is the inspector's sign-in: "mcpwire login"'s flow (the same
// Authorizer, store and loopback listener), except that the authorization
// URL goes to the page, which opens it, instead of the system browser,
// and nothing is printed on the terminal. Without lookup (servers none of
// which signs in) there is none.
func pageSignIn(streams *IOStreams, allowInsecureHTTP bool, lookup signInFor) inspect.SignIn {
	if lookup == nil {
		return nil
	}
	return func(ctx context.Context, server string, open func(string)) error {
		raw, oauth, adopt, err := lookup(server)
		if err != nil {
			return err
		}
		a, err := signin.New(raw, signin.Options{
			Interactive: true, Out: io.Discard, OAuth: oauth, AddSecret: streams.AddSecret,
			AllowInsecureHTTP: allowInsecureHTTP, Name: server,
			OpenURL: func(_ context.Context, u string) error { open(u); return nil },
		})
		if err != nil {
			return err
		}
		if err := a.Login(ctx); err != nil {
			return err
		}
		if adopt != nil {
			adopt(a)
		}
		return nil
	}
}

// configuredSignIn finds a configured server's URL and oauth block, as
// "mcpwire login SERVER" does.
func configuredSignIn(streams *IOStreams, set *config.Set) signInFor {
	return func(server string) (string, json.RawMessage, func(*auth.Authorizer), error) {
		s := set.Lookup(server)
		if s == nil {
			return "", nil, nil, fmt.Errorf("no configured server is named %q", server)
		}
		serverURL, oauth, err := remoteServer(streams, s, server)
		return serverURL, oauth, nil, err
	}
}

// adHocSignIn signs in to the one URL target (raw) and hands the
// signed-in Authorizer to adopt, for the reconnect that follows (and every
// later one) to use.
func adHocSignIn(raw string, adopt func(*auth.Authorizer)) signInFor {
	return func(string) (string, json.RawMessage, func(*auth.Authorizer), error) {
		return raw, nil, adopt, nil
	}
}
