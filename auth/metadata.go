package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/origin"
)

// protectedResourceMetadata is what an MCP server says about itself as an
// OAuth protected resource (RFC 9728).
type protectedResourceMetadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	ScopesSupported        []string `json:"scopes_supported"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
}

// serverMetadata is an authorization server's metadata (RFC 8414; an
// OpenID Connect discovery document has the same fields).
type serverMetadata struct {
	Issuer                                     string   `json:"issuer"`
	AuthorizationEndpoint                      string   `json:"authorization_endpoint"`
	TokenEndpoint                              string   `json:"token_endpoint"`
	RegistrationEndpoint                       string   `json:"registration_endpoint"`
	ScopesSupported                            []string `json:"scopes_supported"`
	ResponseTypesSupported                     []string `json:"response_types_supported"`
	GrantTypesSupported                        []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported          []string `json:"token_endpoint_auth_methods_supported"`
	TokenEndpointAuthSigningAlgsSupported      []string `json:"token_endpoint_auth_signing_alg_values_supported"`
	CodeChallengeMethodsSupported              []string `json:"code_challenge_methods_supported"`
	ClientIDMetadataDocumentSupported          bool     `json:"client_id_metadata_document_supported"`
	AuthorizationResponseIssParameterSupported bool     `json:"authorization_response_iss_parameter_supported"`
	DPoPSigningAlgValuesSupported              []string `json:"dpop_signing_alg_values_supported"`
	legacyDefaults                             bool     // endpoints guessed by the 2025-03-26 fallback
}

// maxMetadataSize bounds a metadata, registration or token response.
const maxMetadataSize = 1 << 20

// errNotFound marks a metadata URL that does not exist (4xx), so that
// discovery moves on to the next candidate.
var errNotFound = errors.New("not found")

// getJSON fetches url and decodes a JSON object from it into v. A 4xx
// status or a reply that is not JSON is errNotFound (wrapped); other
// failures (network, 5xx) say what went wrong.
func (a *Authorizer) getJSON(ctx context.Context, what, rawURL string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return fmt.Errorf("%s at %s: %w", what, redactURL(rawURL), err)
	}
	req.Header.Set("Accept", "application/json")
	// The 2025-03-26 spec asks clients to say which MCP version they speak
	// when they fetch metadata, so servers can answer accordingly.
	req.Header.Set("MCP-Protocol-Version", protocolVersion)
	resp, err := a.meta.Do(req)
	if err != nil {
		return fmt.Errorf("%s at %s: %w", what, redactURL(rawURL), unwrapURLError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		return fmt.Errorf("%s at %s: HTTP %s: %w", what, redactURL(rawURL), resp.Status, errNotFound)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s at %s: HTTP %s", what, redactURL(rawURL), resp.Status)
	}
	body, err := readLimited(resp.Body, maxMetadataSize)
	if err != nil {
		return fmt.Errorf("%s at %s: reading the reply: %w", what, redactURL(rawURL), err)
	}
	// Sites often answer every path with their web page (a single-page
	// app's catch-all): a reply that is not JSON means "no metadata here",
	// and discovery moves on.
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		if mt, _, _ := mime.ParseMediaType(ct); mt != "" && mt != "application/json" && !strings.HasSuffix(mt, "+json") {
			return fmt.Errorf("%s at %s: the reply is %s, not JSON: %w", what, redactURL(rawURL), clean(mt, 60), errNotFound)
		}
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%s at %s: the reply is not a valid JSON object (%v): %w", what, redactURL(rawURL), jsonProblem(err), errNotFound)
	}
	return nil
}

// discoverResource finds the server's protected resource metadata: at the
// URL the challenge named, else path-based, else at the root. The URL it
// came from is returned with it. It never asks the root first when the
// server URL has a path. found is false when none of them exists (a
// 2025-03-26 server).
func (a *Authorizer) discoverResource(ctx context.Context, fromChallenge string) (prm *protectedResourceMetadata, from string, err error) {
	var candidates []string
	if fromChallenge != "" {
		u, perr := a.server.Parse(fromChallenge)
		if perr != nil || (u.Scheme != "https" && u.Scheme != "http") {
			return nil, "", fmt.Errorf("auth: the server's challenge names resource metadata at %s, which is not an http(s) URL", redactURL(fromChallenge))
		}
		if err := a.requireTLS("resource metadata URL", u.String()); err != nil {
			return nil, "", err
		}
		candidates = append(candidates, u.String())
	}
	if strings.TrimSuffix(a.server.EscapedPath(), "/") != "" {
		candidates = append(candidates, wellKnownURL(a.server, "oauth-protected-resource"))
	}
	candidates = append(candidates, originOf(a.server).String()+"/.well-known/oauth-protected-resource")
	candidates = slices.Compact(candidates)

	var problems []error
	for _, c := range candidates {
		var m protectedResourceMetadata
		err := a.getJSON(ctx, "protected resource metadata", c, &m)
		if err == nil {
			if err := a.checkResource(&m, c); err != nil {
				return nil, "", err
			}
			return &m, c, nil
		}
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		if !errors.Is(err, errNotFound) {
			return nil, "", fmt.Errorf("auth: %w", err)
		}
		problems = append(problems, err)
	}
	a.logf("auth: no protected resource metadata for %s (%v); assuming a 2025-03-26 server that is its own authorization server", a.redacted, errors.Join(problems...))
	return nil, "", nil
}

// checkResource validates resource metadata (RFC 9728 section 3.3): it
// must name a resource, and that resource must be the one whose
// well-known URL it came from: this server, or its origin for the
// metadata at the origin's root. So one tenant of a shared host cannot
// widen a token's audience to the whole host. It must also name at least
// one authorization server.
func (a *Authorizer) checkResource(m *protectedResourceMetadata, from string) error {
	if m.Resource == "" {
		return fmt.Errorf("%w: the metadata at %s names no resource (RFC 9728 section 3.3 requires it); refusing to authorize",
			errResourceMismatch, redactURL(from))
	}
	if !a.resourceMatches(m.Resource, from) {
		return fmt.Errorf("%w: the metadata at %s is for %s, not for %s; refusing to authorize",
			errResourceMismatch, redactURL(from), redactURL(m.Resource), a.redacted)
	}
	if len(m.AuthorizationServers) == 0 {
		return fmt.Errorf("auth: the protected resource metadata at %s names no authorization server", redactURL(from))
	}
	return nil
}

// discoverServer fetches the metadata of the authorization server with
// this issuer, trying the well-known URLs in the order MCP 2025-11-25
// prescribes: for an issuer with a path, RFC 8414 with the path appended,
// OpenID Connect with the path appended, then OpenID Connect under the
// path; for one without a path, RFC 8414 then OpenID Connect. With
// checkIssuer the document's issuer must be the one asked for (RFC 8414
// section 3.3). It returns errNotFound (wrapped) when no candidate exists.
func (a *Authorizer) discoverServer(ctx context.Context, issuer string, checkIssuer bool) (*serverMetadata, error) {
	iu, err := a.server.Parse(issuer)
	if err != nil || (iu.Scheme != "https" && iu.Scheme != "http") || iu.Host == "" {
		return nil, fmt.Errorf("auth: authorization server %s is not an http(s) URL", redactURL(issuer))
	}
	if iu.RawQuery != "" || iu.Fragment != "" {
		return nil, fmt.Errorf("auth: authorization server %s has a query or fragment, which an issuer may not", redactURL(issuer))
	}
	if err := a.requireTLS("authorization server issuer", issuer); err != nil {
		return nil, err
	}
	var candidates []string
	if p := strings.TrimSuffix(iu.EscapedPath(), "/"); p != "" {
		candidates = []string{
			wellKnownURL(iu, "oauth-authorization-server"),
			wellKnownURL(iu, "openid-configuration"),
			originOf(iu).String() + p + "/.well-known/openid-configuration",
		}
	} else {
		candidates = []string{
			wellKnownURL(iu, "oauth-authorization-server"),
			wellKnownURL(iu, "openid-configuration"),
		}
	}
	var problems []error
	for _, c := range candidates {
		var m serverMetadata
		err := a.getJSON(ctx, "authorization server metadata", c, &m)
		if err == nil {
			if checkIssuer && strings.TrimSuffix(m.Issuer, "/") != strings.TrimSuffix(issuer, "/") {
				return nil, fmt.Errorf("auth: the authorization server metadata at %s names issuer %s, not %s; refusing it (RFC 8414 section 3.3)",
					redactURL(c), redactURL(m.Issuer), redactURL(issuer))
			}
			if err := a.checkEndpoints(&m, c); err != nil {
				return nil, err
			}
			return &m, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !errors.Is(err, errNotFound) {
			return nil, fmt.Errorf("auth: %w", err)
		}
		problems = append(problems, err)
	}
	return nil, fmt.Errorf("auth: no metadata for authorization server %s: %w", redactURL(issuer), errors.Join(problems...))
}

// checkEndpoints makes sure the endpoints a client will use are absolute
// http(s) URLs, with TLS outside loopback.
func (a *Authorizer) checkEndpoints(m *serverMetadata, from string) error {
	for _, e := range []struct{ name, value string }{
		{"authorization_endpoint", m.AuthorizationEndpoint},
		{"token_endpoint", m.TokenEndpoint},
		{"registration_endpoint", m.RegistrationEndpoint},
	} {
		if e.value == "" {
			continue
		}
		if !isHTTPURL(e.value) {
			return fmt.Errorf("auth: the authorization server metadata at %s has a %s that is not an absolute http(s) URL", redactURL(from), e.name)
		}
		if err := a.requireTLS(e.name, e.value); err != nil {
			return err
		}
	}
	if m.TokenEndpoint == "" {
		return fmt.Errorf("auth: the authorization server metadata at %s has no token_endpoint", redactURL(from))
	}
	return nil
}

// legacyServer is the 2025-03-26 authorization server of a server without
// resource metadata: the server's origin, with its RFC 8414 metadata if it
// has some (whose issuer must be on that origin), else the default endpoints
// /authorize, /token and /register.
func (a *Authorizer) legacyServer(ctx context.Context) (*serverMetadata, error) {
	base := originOf(a.server).String()
	m, err := a.discoverServer(ctx, base, false)
	if err == nil {
		// The issuer is the server's origin (those servers may put it
		// under a path, such as /oauth): metadata that claims an issuer
		// elsewhere is refused, or a server could name an honest
		// authorization server as issuer while its own token endpoint
		// collects the code, a mix-up the iss check would then not catch.
		if iu, perr := url.Parse(m.Issuer); perr != nil || !origin.Same(iu, a.server) {
			return nil, fmt.Errorf("auth: the authorization server metadata at %s names issuer %s, which is not on the server's origin %s; refusing it (a server without resource metadata is its own authorization server)",
				redactURL(base), redactURL(m.Issuer), base)
		}
		return m, nil
	}
	if !errors.Is(err, errNotFound) {
		return nil, err
	}
	a.logf("auth: %s publishes no authorization server metadata; using the 2025-03-26 default endpoints", base)
	return &serverMetadata{
		Issuer:                base,
		AuthorizationEndpoint: base + "/authorize",
		TokenEndpoint:         base + "/token",
		RegistrationEndpoint:  base + "/register",
		legacyDefaults:        true,
	}, nil
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

// supportsPKCE reports whether the server lists S256. A server whose
// metadata omits the list is refused: MCP requires clients to verify PKCE
// support before using the server. Only the guessed 2025-03-26 defaults
// are exempt, as there is no metadata to check.
func (m *serverMetadata) supportsPKCE() bool {
	return m.legacyDefaults || slices.Contains(m.CodeChallengeMethodsSupported, "S256")
}
