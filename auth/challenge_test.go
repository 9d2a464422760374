package auth

import (
	"reflect"
	"testing"
)

func TestParseChallenges(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []Challenge
	}{
		{[]string{`Bearer resource_metadata="https://h/.well-known/oauth-protected-resource/mcp", scope="a b"`},
			[]Challenge{{Scheme: "Bearer", Params: map[string]string{"resource_metadata": "https://h/.well-known/oauth-protected-resource/mcp", "scope": "a b"}}}},
		{[]string{`Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://h/x", error_description="need \"more\", please"`},
			[]Challenge{{Scheme: "Bearer", Params: map[string]string{"error": "insufficient_scope", "scope": "files:read files:write", "resource_metadata": "https://h/x", "error_description": `need "more", please`}}}},
		{[]string{`Basic realm="a, b", Bearer scope="x"`},
			[]Challenge{{Scheme: "Basic", Params: map[string]string{"realm": "a, b"}}, {Scheme: "Bearer", Params: map[string]string{"scope": "x"}}}},
		{[]string{`Negotiate abc123==, Bearer`},
			[]Challenge{{Scheme: "Negotiate", Token68: "abc123==", Params: map[string]string{}}, {Scheme: "Bearer", Params: map[string]string{}}}},
		{[]string{`Bearer realm=example ,  SCOPE = "y" ,, error=invalid_token`},
			[]Challenge{{Scheme: "Bearer", Params: map[string]string{"realm": "example", "scope": "y", "error": "invalid_token"}}}},
		{[]string{`Bearer scope="first", scope="second"`},
			[]Challenge{{Scheme: "Bearer", Params: map[string]string{"scope": "first"}}}},
		{[]string{`Bearer scope="unterminated`},
			[]Challenge{{Scheme: "Bearer", Params: map[string]string{"scope": "unterminated"}}}},
		{[]string{`Basic realm="x"`, `Bearer scope="z"`},
			[]Challenge{{Scheme: "Basic", Params: map[string]string{"realm": "x"}}, {Scheme: "Bearer", Params: map[string]string{"scope": "z"}}}},
		{[]string{``, `   `, `,,`}, nil},
		{[]string{`"quoted", Bearer x=1`}, // garbage is skipped to the next comma
			[]Challenge{{Scheme: "Bearer", Params: map[string]string{"x": "1"}}}},
	} {
		got := ParseChallenges(tc.in)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseChallenges(%q)\n got %#v\nwant %#v", tc.in, got, tc.want)
		}
	}
}

func TestBearerChallengeIsCaseInsensitive(t *testing.T) {
	resp := fakeResponse(401, `bearer Scope="a"`, "")
	c, ok := bearerChallenge(resp.Header)
	if !ok || c.Param("SCOPE") != "a" {
		t.Errorf("bearerChallenge = %#v, %v", c, ok)
	}
	if _, ok := bearerChallenge(fakeResponse(401, `Basic realm="r"`, "").Header); ok {
		t.Error("a Basic challenge was taken for Bearer")
	}
}
