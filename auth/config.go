package auth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/config"
)

// Config is the "oauth" block of a server definition in a config file
// (config.Server.OAuth), as Claude Code and mcpwire write it:
//
//	"oauth": {
//	  "clientId": "my-app",
//	  "clientSecret": "${MY_APP_SECRET}",
//	  "scopes": ["read", "write"],
//	  "callbackPort": 8976,
//	  "clientMetadataUrl": "https://example.com/mcpwire-client.json",
//	  "issuer": "https://auth.example.com",
//	  "allowInsecureHttp": false,
//	  "dpop": "auto",
//	  "workloadIdentity": {"tokenFile": "/var/run/secrets/tokens/mcp"},
//	  "enterprise": {
//	    "idpTokenEndpoint": "https://idp.example.com/oauth2/token",
//	    "idpClientId": "mcp-host", "idpClientSecret": "${IDP_SECRET}",
//	    "idTokenFile": "/run/user/sso/id_token"
//	  }
//	}
//
// "issuer" binds the client secret to that authorization server (see
// Options.ClientSecretIssuer); "allowInsecureHttp" is
// Options.AllowInsecureHTTP, for a lab setup only (see docs/security.md).
// "dpop" is "auto" (the default), "on" or "off" (or true/false), see
// DPoPMode. "workloadIdentity" selects GrantWorkloadIdentity with the
// token read from "tokenFile" or the variable named by "tokenEnv" at each
// grant; "enterprise" selects GrantEnterprise with the identity token
// read likewise ("idTokenFile", "idTokenEnv"); the two exclude each other.
// Every field is optional. The config package keeps the block as written;
// ParseConfig expands ${VAR} references in the strings.
type Config struct {
	ClientID          string
	ClientSecret      string
	Scopes            []string
	CallbackPort      int
	ClientMetadataURL string
	Issuer            string
	AllowInsecureHTTP bool
	DPoP              DPoPMode
	// WorkloadTokenFile or WorkloadTokenEnv: the workload identity token's
	// file or variable name.
	WorkloadTokenFile string
	WorkloadTokenEnv  string
	Enterprise        *EnterpriseConfig
}

// EnterpriseConfig is the "enterprise" part of the block: the identity
// provider's side of GrantEnterprise.
type EnterpriseConfig struct {
	TokenEndpoint string
	ClientID      string
	ClientSecret  string
	IDTokenFile   string
	IDTokenEnv    string
}

// String describes the block without the secret.
func (c Config) String() string {
	s := fmt.Sprintf("oauth{clientId %q", c.ClientID)
	if c.ClientSecret != "" {
		s += ", clientSecret [redacted]"
	}
	s += fmt.Sprintf(", scopes %q, callbackPort %d, clientMetadataUrl %q", c.Scopes, c.CallbackPort, c.ClientMetadataURL)
	if c.Issuer != "" {
		s += fmt.Sprintf(", issuer %q", c.Issuer)
	}
	if c.AllowInsecureHTTP {
		s += ", allowInsecureHttp"
	}
	if c.DPoP != DPoPAuto {
		s += fmt.Sprintf(", dpop %s", c.DPoP)
	}
	if c.WorkloadTokenFile != "" || c.WorkloadTokenEnv != "" {
		s += fmt.Sprintf(", workloadIdentity{tokenFile %q, tokenEnv %q}", c.WorkloadTokenFile, c.WorkloadTokenEnv)
	}
	if e := c.Enterprise; e != nil {
		s += fmt.Sprintf(", enterprise{idpTokenEndpoint %q, idpClientId %q", e.TokenEndpoint, e.ClientID)
		if e.ClientSecret != "" {
			s += ", idpClientSecret [redacted]"
		}
		s += fmt.Sprintf(", idTokenFile %q, idTokenEnv %q}", e.IDTokenFile, e.IDTokenEnv)
	}
	return s + "}"
}

// GoString keeps %#v from printing the secret.
func (c Config) GoString() string { return c.String() }

// ParseConfig reads an "oauth" block. String values are expanded with
// config.ExpandString and opts (its Env, Inputs and directories). "scopes"
// may be a list or one space-separated string. Errors name the field and
// never show a value. An empty or null block gives a zero Config.
func ParseConfig(raw json.RawMessage, opts config.LoadOptions) (*Config, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return &Config{}, nil
	}
	var doc struct {
		ClientID          *string         `json:"clientId"`
		ClientSecret      *string         `json:"clientSecret"`
		Scopes            json.RawMessage `json:"scopes"`
		CallbackPort      json.RawMessage `json:"callbackPort"`
		ClientMetadataURL *string         `json:"clientMetadataUrl"`
		Issuer            *string         `json:"issuer"`
		AllowInsecureHTTP *bool           `json:"allowInsecureHttp"`
		DPoP              json.RawMessage `json:"dpop"`
		WorkloadIdentity  *struct {
			TokenFile *string `json:"tokenFile"`
			TokenEnv  *string `json:"tokenEnv"`
		} `json:"workloadIdentity"`
		Enterprise *struct {
			TokenEndpoint *string `json:"idpTokenEndpoint"`
			ClientID      *string `json:"idpClientId"`
			ClientSecret  *string `json:"idpClientSecret"`
			IDTokenFile   *string `json:"idTokenFile"`
			IDTokenEnv    *string `json:"idTokenEnv"`
		} `json:"enterprise"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("oauth: %s", configProblem(err))
	}
	var c Config
	expand := func(field string, p *string) (string, error) {
		if p == nil {
			return "", nil
		}
		v, err := config.ExpandString(*p, opts)
		if err != nil {
			return "", fmt.Errorf("oauth.%s: %v", field, err)
		}
		return strings.TrimSpace(v), nil
	}
	var err error
	if c.ClientID, err = expand("clientId", doc.ClientID); err != nil {
		return nil, err
	}
	if c.ClientSecret, err = expand("clientSecret", doc.ClientSecret); err != nil {
		return nil, err
	}
	if c.ClientMetadataURL, err = expand("clientMetadataUrl", doc.ClientMetadataURL); err != nil {
		return nil, err
	}
	if c.Issuer, err = expand("issuer", doc.Issuer); err != nil {
		return nil, err
	}
	if c.Issuer != "" && !isHTTPURL(c.Issuer) {
		return nil, fmt.Errorf("oauth.issuer: want the authorization server's issuer, an http(s) URL")
	}
	c.AllowInsecureHTTP = doc.AllowInsecureHTTP != nil && *doc.AllowInsecureHTTP
	if c.DPoP, err = parseDPoPMode(doc.DPoP); err != nil {
		return nil, err
	}
	if wi := doc.WorkloadIdentity; wi != nil {
		if c.WorkloadTokenFile, err = expand("workloadIdentity.tokenFile", wi.TokenFile); err != nil {
			return nil, err
		}
		if c.WorkloadTokenEnv, err = expand("workloadIdentity.tokenEnv", wi.TokenEnv); err != nil {
			return nil, err
		}
		if (c.WorkloadTokenFile == "") == (c.WorkloadTokenEnv == "") {
			return nil, fmt.Errorf("oauth.workloadIdentity: want one of tokenFile and tokenEnv")
		}
	}
	if e := doc.Enterprise; e != nil {
		if doc.WorkloadIdentity != nil {
			return nil, fmt.Errorf("oauth: enterprise and workloadIdentity are two ways to get a token; choose one")
		}
		ec := &EnterpriseConfig{}
		for _, f := range []struct {
			name string
			in   *string
			out  *string
		}{
			{"idpTokenEndpoint", e.TokenEndpoint, &ec.TokenEndpoint},
			{"idpClientId", e.ClientID, &ec.ClientID},
			{"idpClientSecret", e.ClientSecret, &ec.ClientSecret},
			{"idTokenFile", e.IDTokenFile, &ec.IDTokenFile},
			{"idTokenEnv", e.IDTokenEnv, &ec.IDTokenEnv},
		} {
			if *f.out, err = expand("enterprise."+f.name, f.in); err != nil {
				return nil, err
			}
		}
		if !isHTTPURL(ec.TokenEndpoint) {
			return nil, fmt.Errorf("oauth.enterprise.idpTokenEndpoint: want the identity provider's token endpoint, an http(s) URL")
		}
		if (ec.IDTokenFile == "") == (ec.IDTokenEnv == "") {
			return nil, fmt.Errorf("oauth.enterprise: want one of idTokenFile and idTokenEnv")
		}
		c.Enterprise = ec
	}
	if c.ClientSecret != "" && c.ClientID == "" {
		return nil, fmt.Errorf("oauth.clientSecret is set without oauth.clientId")
	}
	if c.Enterprise != nil && c.ClientID == "" {
		return nil, fmt.Errorf("oauth.enterprise needs oauth.clientId, the client registered with the MCP server's authorization server")
	}
	if len(doc.Scopes) > 0 && string(doc.Scopes) != "null" {
		var list []string
		var one string
		switch {
		case json.Unmarshal(doc.Scopes, &list) == nil:
		case json.Unmarshal(doc.Scopes, &one) == nil:
			list = []string{one}
		default:
			return nil, fmt.Errorf("oauth.scopes: want a list of strings or one space-separated string")
		}
		for i, s := range list {
			v, err := config.ExpandString(s, opts)
			if err != nil {
				return nil, fmt.Errorf("oauth.scopes[%d]: %v", i, err)
			}
			c.Scopes = append(c.Scopes, strings.Fields(v)...)
		}
	}
	if len(doc.CallbackPort) > 0 && string(doc.CallbackPort) != "null" {
		var port float64
		if err := json.Unmarshal(doc.CallbackPort, &port); err != nil || port != float64(int(port)) || port < 1 || port > 65535 {
			return nil, fmt.Errorf("oauth.callbackPort: want a port number from 1 to 65535")
		}
		c.CallbackPort = int(port)
	}
	return &c, nil
}

// Apply copies the block's settings into o: the pre-registered client and
// the issuer it belongs to, the scopes, the client metadata URL, the
// insecure-http override, the DPoP mode, and the grant that the
// workloadIdentity or enterprise parts select. CallbackPort is for the
// Loopback user agent.
func (c *Config) Apply(o *Options) {
	if c.ClientID != "" {
		o.ClientID, o.ClientSecret = c.ClientID, c.ClientSecret
	}
	if len(c.Scopes) > 0 {
		o.Scopes = append([]string(nil), c.Scopes...)
	}
	if c.ClientMetadataURL != "" {
		o.ClientMetadataURL = c.ClientMetadataURL
	}
	if c.Issuer != "" {
		o.ClientSecretIssuer = c.Issuer
	}
	if c.AllowInsecureHTTP {
		o.AllowInsecureHTTP = true
	}
	if c.DPoP != DPoPAuto {
		o.DPoP = c.DPoP
	}
	switch {
	case c.WorkloadTokenFile != "":
		o.Grant, o.WorkloadToken = GrantWorkloadIdentity, WorkloadTokenFile(c.WorkloadTokenFile)
	case c.WorkloadTokenEnv != "":
		o.Grant, o.WorkloadToken = GrantWorkloadIdentity, WorkloadTokenEnv(c.WorkloadTokenEnv)
	case c.Enterprise != nil:
		e := c.Enterprise
		src := WorkloadTokenFile(e.IDTokenFile)
		if e.IDTokenEnv != "" {
			src = WorkloadTokenEnv(e.IDTokenEnv)
		}
		o.Grant = GrantEnterprise
		o.Enterprise = &Enterprise{IDToken: src, TokenEndpoint: e.TokenEndpoint, ClientID: e.ClientID, ClientSecret: e.ClientSecret}
	}
}

// parseDPoPMode reads "dpop": "auto", "on" or "off", or true/false.
func parseDPoPMode(raw json.RawMessage) (DPoPMode, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return DPoPAuto, nil
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		if b {
			return DPoPOn, nil
		}
		return DPoPOff, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "", "auto":
			return DPoPAuto, nil
		case "on":
			return DPoPOn, nil
		case "off":
			return DPoPOff, nil
		}
	}
	return "", fmt.Errorf(`oauth.dpop: want "auto", "on" or "off" (or true/false)`)
}

// configProblem describes a decoding error of the block without quoting
// it (a literal secret may be in there).
func configProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field == "" {
		return "want a JSON object, not a JSON " + te.Value
	}
	if errors.As(err, &te) {
		return fmt.Sprintf("%s must be a %s, not a JSON %s", te.Field, te.Type.Kind(), te.Value)
	}
	return "not a valid JSON object"
}
