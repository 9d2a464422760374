package auth

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/config"
)

func TestParseConfig(t *testing.T) {
	env := func(name string) (string, bool) {
		switch name {
		case "APP_SECRET":
			return "secret-VALUE-1", true
		case "APP_ID":
			return "app", true
		}
		return "", false
	}
	opts := config.LoadOptions{Env: env}
	c, err := ParseConfig(json.RawMessage(`{"clientId": "${APP_ID}", "clientSecret": "${APP_SECRET}", "scopes": ["read", "write extra"], "callbackPort": 8976, "clientMetadataUrl": "https://app.example/client.json"}`), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{ClientID: "app", ClientSecret: "secret-VALUE-1", Scopes: []string{"read", "write", "extra"}, CallbackPort: 8976, ClientMetadataURL: "https://app.example/client.json"}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("ParseConfig = %#v", c)
	}
	var o Options
	c.Apply(&o)
	if o.ClientID != "app" || o.ClientSecret != "secret-VALUE-1" || len(o.Scopes) != 3 || o.ClientMetadataURL != want.ClientMetadataURL {
		t.Errorf("Apply = %+v", o)
	}
	if c, err := ParseConfig(json.RawMessage(`{"scopes": "a b"}`), opts); err != nil || len(c.Scopes) != 2 {
		t.Errorf("scopes as a string: %v, %v", c, err)
	}
	if c, err := ParseConfig(nil, opts); err != nil || !reflect.DeepEqual(c, &Config{}) {
		t.Errorf("empty block: %v, %v", c, err)
	}

	for _, tc := range []struct{ in, want string }{
		{`{"clientSecret": "literal-SECRET"}`, "without oauth.clientId"},
		{`{"clientId": "a", "clientSecret": "${NOPE}"}`, `oauth.clientSecret: variable "NOPE" is not set`},
		{`{"callbackPort": 0}`, "oauth.callbackPort"},
		{`{"callbackPort": 8080.5}`, "oauth.callbackPort"},
		{`{"callbackPort": "8080"}`, "oauth.callbackPort"},
		{`{"scopes": [1]}`, "oauth.scopes"},
		{`{"clientId": 5, "clientSecret": "literal-SECRET"}`, "clientId must be a string"},
		{`["literal-SECRET"]`, "want a JSON object, not a JSON array"},
		{`{"clientSecret": "literal-SECRET"`, "not a valid JSON object"},
	} {
		_, err := ParseConfig(json.RawMessage(tc.in), opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseConfig(%s) = %v, want %q", tc.in, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "SECRET") {
			t.Errorf("ParseConfig(%s): the error shows a value: %v", tc.in, err)
		}
	}
}

// The security keys: "issuer" binds the client secret, "allowInsecureHttp"
// is the lab override; both reach the Options.
func TestParseConfigSecurityKeys(t *testing.T) {
	c, err := ParseConfig(json.RawMessage(`{"clientId": "app", "clientSecret": "s3cret-value", "issuer": "https://as.example", "allowInsecureHttp": true}`), config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var o Options
	c.Apply(&o)
	if o.ClientSecretIssuer != "https://as.example" || !o.AllowInsecureHTTP {
		t.Errorf("Apply = issuer %q, insecure %v", o.ClientSecretIssuer, o.AllowInsecureHTTP)
	}
	if s := c.String(); strings.Contains(s, "s3cret") || !strings.Contains(s, "allowInsecureHttp") {
		t.Errorf("String = %s", s)
	}
	for _, bad := range []string{`{"issuer": "not a url"}`, `{"allowInsecureHttp": "yes"}`} {
		if _, err := ParseConfig(json.RawMessage(bad), config.LoadOptions{}); err == nil {
			t.Errorf("ParseConfig(%s) accepted it", bad)
		}
	}
	var def Options
	(&Config{}).Apply(&def)
	if def.AllowInsecureHTTP {
		t.Error("insecure http is on by default")
	}
}

func TestParseConfigGrantsAndDPoP(t *testing.T) {
	env := func(name string) (string, bool) {
		if name == "IDP_SECRET" {
			return "idp-SECRET-value", true
		}
		return "", false
	}
	opts := config.LoadOptions{Env: env}
	for in, want := range map[string]DPoPMode{
		`{}`: DPoPAuto, `{"dpop": "auto"}`: DPoPAuto, `{"dpop": "ON"}`: DPoPOn,
		`{"dpop": true}`: DPoPOn, `{"dpop": false}`: DPoPOff, `{"dpop": "off"}`: DPoPOff,
	} {
		c, err := ParseConfig(json.RawMessage(in), opts)
		if err != nil || c.DPoP != want {
			t.Errorf("ParseConfig(%s).DPoP = %v, %v; want %q", in, c, err, want)
			continue
		}
		var o Options
		c.Apply(&o)
		if o.DPoP != want {
			t.Errorf("Apply(%s).DPoP = %q", in, o.DPoP)
		}
	}

	c, err := ParseConfig(json.RawMessage(`{"workloadIdentity": {"tokenEnv": "WIF_TOKEN"}}`), opts)
	if err != nil {
		t.Fatal(err)
	}
	var o Options
	c.Apply(&o)
	t.Setenv("WIF_TOKEN", "the-workload-jwt")
	if tok, err := o.WorkloadToken(t.Context()); o.Grant != GrantWorkloadIdentity || tok != "the-workload-jwt" || err != nil {
		t.Errorf("workloadIdentity: grant %q, token %q, %v", o.Grant, tok, err)
	}

	c, err = ParseConfig(json.RawMessage(`{"clientId": "mcp-app", "enterprise": {"idpTokenEndpoint": "https://idp.example/token", "idpClientId": "host", "idpClientSecret": "${IDP_SECRET}", "idTokenEnv": "SSO_ID_TOKEN"}}`), opts)
	if err != nil {
		t.Fatal(err)
	}
	if s := c.String() + fmt.Sprintf("%#v", c); strings.Contains(s, "idp-SECRET-value") {
		t.Errorf("String shows the identity provider secret: %s", s)
	}
	o = Options{}
	c.Apply(&o)
	t.Setenv("SSO_ID_TOKEN", "id-token")
	e := o.Enterprise
	if o.Grant != GrantEnterprise || e == nil || e.TokenEndpoint != "https://idp.example/token" || e.ClientID != "host" || e.ClientSecret != "idp-SECRET-value" {
		t.Fatalf("enterprise Apply = %+v", o)
	}
	if tok, err := e.IDToken(t.Context()); tok != "id-token" || err != nil {
		t.Errorf("enterprise ID token = %q, %v", tok, err)
	}
	if _, err := New("https://mcp.example/mcp", &o); err != nil {
		t.Errorf("New with the enterprise block: %v", err)
	}

	for _, tc := range []struct{ in, want string }{
		{`{"dpop": "sometimes"}`, "oauth.dpop"},
		{`{"dpop": 1}`, "oauth.dpop"},
		{`{"workloadIdentity": {}}`, "one of tokenFile and tokenEnv"},
		{`{"workloadIdentity": {"tokenFile": "a", "tokenEnv": "B"}}`, "one of tokenFile and tokenEnv"},
		{`{"clientId": "a", "enterprise": {"idpTokenEndpoint": "ftp://x", "idTokenEnv": "T"}}`, "idpTokenEndpoint"},
		{`{"clientId": "a", "enterprise": {"idpTokenEndpoint": "https://x/t"}}`, "one of idTokenFile and idTokenEnv"},
		{`{"enterprise": {"idpTokenEndpoint": "https://x/t", "idTokenEnv": "T"}}`, "needs oauth.clientId"},
		{`{"clientId": "a", "workloadIdentity": {"tokenEnv": "A"}, "enterprise": {"idpTokenEndpoint": "https://x/t", "idTokenEnv": "T"}}`, "choose one"},
	} {
		if _, err := ParseConfig(json.RawMessage(tc.in), opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseConfig(%s) = %v, want %q", tc.in, err, tc.want)
		}
	}
}
