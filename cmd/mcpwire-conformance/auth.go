package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/mcpwire/mcpwire/auth"
)

// clientMetadataURL is the client ID metadata document URL the suite
// expects a client to use when the authorization server supports them.
const clientMetadataURL = "https://conformance-test.local/client-metadata.json"

// redirectURI is where the suite's mock authorization server redirects to.
// Nothing listens there: the headless user agent reads the redirect.
const redirectURI = "http://localhost:3000/callback"

// conformanceContext is the JSON the suite passes in MCP_CONFORMANCE_CONTEXT
// for the scenarios that need credentials.
type conformanceContext struct {
	Name             string `json:"name"`
	ClientID         string `json:"client_id"`
	ClientSecret     string `json:"client_secret"`
	PrivateKeyPEM    string `json:"private_key_pem"`
	SigningAlgorithm string `json:"signing_algorithm"`
	IdPClientID      string `json:"idp_client_id"`
	IdPIDToken       string `json:"idp_id_token"`
	IdPIssuer        string `json:"idp_issuer"`
	IdPTokenEndpoint string `json:"idp_token_endpoint"`
	// ValidJWT is the workload identity token of auth/wif-jwt-bearer.
	ValidJWT string `json:"valid_jwt"`
}

// authorizerFor builds the Authorizer a scenario needs: the grant it tests
// and the credentials the suite handed over.
func authorizerFor(scenario, serverURL string, logger *log.Logger) (*auth.Authorizer, error) {
	var cc conformanceContext
	if raw := os.Getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &cc); err != nil {
			return nil, fmt.Errorf("MCP_CONFORMANCE_CONTEXT is not the expected JSON object: %v", err)
		}
	}
	opts := &auth.Options{
		ClientID:          cc.ClientID,
		ClientSecret:      cc.ClientSecret,
		ClientMetadataURL: clientMetadataURL,
		ClientName:        "mcpwire-conformance",
		UserAgent:         &headlessAgent{},
		Logf:              logger.Printf,
	}
	switch scenario {
	case "auth/client-credentials-basic", "auth/client-credentials-jwt":
		opts.Grant = auth.GrantClientCredentials
		opts.PrivateKeyPEM = []byte(cc.PrivateKeyPEM)
		opts.SigningAlg = cc.SigningAlgorithm
		opts.UserAgent = nil
	case "auth/wif-jwt-bearer":
		opts.Grant = auth.GrantWorkloadIdentity
		jwt := cc.ValidJWT
		opts.WorkloadToken = func(context.Context) (string, error) { return jwt, nil }
		opts.UserAgent = nil
	case "auth/cross-app-access-complete-flow", "auth/enterprise-managed-authorization":
		opts.Grant = auth.GrantEnterprise
		idToken := cc.IdPIDToken
		opts.Enterprise = &auth.Enterprise{
			IDToken:       func(context.Context) (string, error) { return idToken, nil },
			TokenEndpoint: cc.IdPTokenEndpoint,
			ClientID:      cc.IdPClientID,
		}
		opts.UserAgent = nil
	}
	return auth.New(serverURL, opts)
}

// headlessAgent plays the user's browser against the suite's mock
// authorization server, which approves at once: it follows the
// authorization URL with a GET, stops at the redirect back to the client
// and reads code and state from its Location.
type headlessAgent struct{}

func (headlessAgent) Open(context.Context) (auth.Callback, error) { return headlessCallback{}, nil }

type headlessCallback struct{}

func (headlessCallback) RedirectURI() string { return redirectURI }
func (headlessCallback) Close() error        { return nil }

func (headlessCallback) Await(ctx context.Context, authURL string) (url.Values, error) {
	c := &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), redirectURI) {
			return http.ErrUseLastResponse
		}
		if len(via) >= 10 {
			return errors.New("too many redirects")
		}
		return nil
	}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("following the authorization URL: %w", err)
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if resp.StatusCode < 300 || resp.StatusCode > 399 || !strings.HasPrefix(loc, redirectURI) {
		return nil, fmt.Errorf("the authorization endpoint answered %s without redirecting back to %s", resp.Status, redirectURI)
	}
	u, err := url.Parse(loc)
	if err != nil {
		return nil, fmt.Errorf("the redirect back is not a valid URL: %v", err)
	}
	return u.Query(), nil
}
