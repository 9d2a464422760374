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
//	  "allowInsecureHttp": false
//	}
//
// "issuer" binds the client secret to that authorization server (see
// Options.ClientSecretIssuer); "allowInsecureHttp" is
// Options.AllowInsecureHTTP, for a lab setup only (see docs/security.md).
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
	if c.ClientSecret != "" && c.ClientID == "" {
		return nil, fmt.Errorf("oauth.clientSecret is set without oauth.clientId")
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
// the issuer it belongs to, the scopes, the client metadata URL and the
// insecure-http override. CallbackPort is for the
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
