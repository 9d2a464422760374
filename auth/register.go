package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/origin"
)

// registrationRequest is the client metadata sent to a registration
// endpoint (RFC 7591 section 2).
type registrationRequest struct {
	ClientName              string   `json:"client_name"`
	RedirectURIs            []string `json:"redirect_uris"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	// ApplicationType (OpenID Connect Dynamic Registration, which MCP
	// adopts): "native" for a redirect to this machine, "web" otherwise.
	// Authorization servers apply different redirect rules to each.
	ApplicationType string `json:"application_type"`
}

// registrationReply is the part of a registration response (RFC 7591
// section 3.2.1) the client needs.
type registrationReply struct {
	ClientID                string `json:"client_id"`
	ClientSecret            string `json:"client_secret"`
	ClientSecretExpiresAt   int64  `json:"client_secret_expires_at"`
	TokenEndpointAuthMethod string `json:"token_endpoint_auth_method"`
}

// register registers this client dynamically (RFC 7591) for redirect and
// keeps the registration. It asks to be a public client ("none"), as a
// native app should, unless the server takes only confidential ones.
func (a *Authorizer) register(ctx context.Context, as *serverMetadata, redirect string) (*client, error) {
	supported := as.TokenEndpointAuthMethodsSupported
	method := AuthNone
	switch {
	case len(supported) == 0 || slices.Contains(supported, AuthNone):
	case slices.Contains(supported, AuthClientSecretBasic):
		method = AuthClientSecretBasic
	case slices.Contains(supported, AuthClientSecretPost):
		method = AuthClientSecretPost
	}
	name := a.opts.ClientName
	if name == "" {
		name = defaultClientName
	}
	body, err := json.Marshal(registrationRequest{
		ClientName:              name,
		RedirectURIs:            []string{redirect},
		GrantTypes:              []string{grantAuthorizationCode, grantRefreshToken},
		ResponseTypes:           []string{"code"},
		TokenEndpointAuthMethod: method,
		ApplicationType:         applicationType(redirect),
	})
	if err != nil {
		return nil, err
	}
	endpoint := as.RegistrationEndpoint
	fail := func(status int, problem string) error {
		return &OAuthError{Endpoint: "client registration", URL: redactURL(endpoint), StatusCode: status, Problem: problem}
	}
	h := http.Header{"Content-Type": {"application/json"}}
	status, raw, err := a.postOAuth(ctx, "client registration", endpoint, bytes.NewReader(body), h, nil, http.StatusCreated, http.StatusOK)
	if err != nil {
		return nil, err
	}
	var r registrationReply
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fail(status, "the reply is not a registration response: "+jsonProblem(err))
	}
	if r.ClientID == "" {
		return nil, fail(status, "the reply has no client_id")
	}
	got := r.TokenEndpointAuthMethod
	if got == "" {
		got = chooseAuthMethod(supported, r.ClientSecret != "", false)
	}
	if got == AuthPrivateKeyJWT {
		return nil, fail(status, "the server registered the client for private_key_jwt, which needs a configured key")
	}
	reg := &Registration{
		Issuer:                as.Issuer,
		ClientID:              r.ClientID,
		ClientSecret:          r.ClientSecret,
		ClientSecretExpiresAt: r.ClientSecretExpiresAt,
		AuthMethod:            got,
		RedirectURI:           redirect,
	}
	a.commit(ctx, func(r *Record) { r.Registration = reg })
	a.logf("auth: registered as client %s with %s", clip(r.ClientID, 80), as.Issuer)
	return &client{id: r.ClientID, secret: r.ClientSecret, method: got, audience: as.Issuer}, nil
}

// applicationType classifies a redirect URI for registration: a loopback
// address or a private-use scheme (a custom "com.example.app:/cb") is a
// native application's, anything else a web application's.
func applicationType(redirect string) string {
	u, err := url.Parse(redirect)
	if err != nil {
		return "native"
	}
	if web := strings.EqualFold(u.Scheme, "https") || strings.EqualFold(u.Scheme, "http"); web && !origin.IsLoopbackHost(u.Hostname()) {
		return "web"
	}
	return "native"
}
