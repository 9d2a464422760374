package gateway

import (
	"encoding/json"
	"testing"
)

// Keys that name a secret are blanked, however they are spelled; keys
// that only contain a short secret word inside a harmless one are not.
// auth, pwd, jwt, ssh_key and signature were logged in clear before.
func TestAuditBlanksSecretLookingKeys(t *testing.T) {
	secret := []string{
		"password", "db_password", "passwd", "pwd", "passphrase", "key_passphrase", "secret", "clientSecret",
		"token", "access_token", "apiKey", "x-api-key", "access_key", "private_key", "privateKey", "ssh_key", "sshKey",
		"signing_key", "authorization", "Authorization", "auth", "x-auth", "AUTH", "authPin", "auth_key",
		"credential", "credentials", "cookie", "Set-Cookie", "session", "sessionId", "bearer", "jwt", "id_jwt",
		"signature", "request.signature", "sig", "pin", "otp", "totp", "mfa_code", "pass",
	}
	plain := []string{"author", "authority_name", "message", "path", "spinner", "design", "signal", "keyword", "passenger", "count", "topic"}
	for _, k := range secret {
		if !looksSecret(k) {
			t.Errorf("%q is logged in clear", k)
		}
	}
	for _, k := range plain {
		if looksSecret(k) {
			t.Errorf("%q is blanked, though nothing in it is secret", k)
		}
	}
	got := blankSecrets(json.RawMessage(`{"auth":"a1","nested":{"ssh_key":"k1","list":[{"jwt":"j1"}]},"message":"hi"}`), func(s string) string { return s })
	if string(got) != `{"auth":"***","message":"hi","nested":{"list":[{"jwt":"***"}],"ssh_key":"***"}}` {
		t.Errorf("blanked arguments: %s", got)
	}
}
