package auth

import (
	"net/http"
	"strings"
)

// Challenge is one authentication challenge of a WWW-Authenticate header
// (RFC 9110 section 11.6.1): a scheme with either a token68 or a list of
// parameters.
type Challenge struct {
	// Scheme is the auth scheme as sent, e.g. "Bearer".
	Scheme string
	// Token68 is the scheme's single token when it has one instead of
	// parameters (Basic and Negotiate use it; Bearer does not).
	Token68 string
	// Params holds the parameters by lower-case name, quoted strings
	// unquoted. A repeated name keeps its first value.
	Params map[string]string
}

// Param returns the named parameter (case-insensitive), "" when absent.
func (c Challenge) Param(name string) string { return c.Params[strings.ToLower(name)] }

// ParseChallenges parses WWW-Authenticate header values. Each value may
// hold several challenges separated by commas. Parsing is lenient, as
// servers are: a malformed part ends the challenge it is in, and what was
// parsed up to there is kept.
func ParseChallenges(values []string) []Challenge {
	var out []Challenge
	for _, v := range values {
		p := challengeParser{s: v}
		out = append(out, p.all()...)
	}
	return out
}

// bearerChallenge returns the first Bearer challenge of h's
// WWW-Authenticate headers.
func bearerChallenge(h http.Header) (Challenge, bool) {
	for _, c := range ParseChallenges(h.Values("WWW-Authenticate")) {
		if strings.EqualFold(c.Scheme, "Bearer") {
			return c, true
		}
	}
	return Challenge{}, false
}

type challengeParser struct {
	s string
	i int
}

func (p *challengeParser) all() []Challenge {
	var out []Challenge
	for {
		p.skipListSeparators()
		if p.i >= len(p.s) {
			return out
		}
		scheme := p.token()
		if scheme == "" {
			// Not a token where a scheme should be: skip to the next
			// comma and try again from there.
			p.skipPast(',')
			continue
		}
		c := Challenge{Scheme: scheme, Params: map[string]string{}}
		p.parseParams(&c)
		out = append(out, c)
	}
}

// parseParams reads the token68 or the parameter list after a scheme. It
// stops before the next challenge's scheme: a token not followed by "=".
func (p *challengeParser) parseParams(c *Challenge) {
	p.skipSpace()
	if t, ok := p.token68(); ok {
		c.Token68 = t
		return
	}
	for {
		p.skipListSeparators()
		if p.i >= len(p.s) {
			return
		}
		nameStart := p.i
		name := p.token()
		if name == "" {
			p.skipPast(',') // garbage: resynchronise at the next comma
			continue
		}
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != '=' {
			p.i = nameStart
			return
		}
		p.i++ // '='
		p.skipSpace()
		var value string
		if p.i < len(p.s) && p.s[p.i] == '"' {
			value = p.quoted()
		} else {
			value = p.token()
		}
		key := strings.ToLower(name)
		if _, dup := c.Params[key]; !dup {
			c.Params[key] = value
		}
	}
}

// token68 reads a token68 (RFC 9110: 1*( ALPHA / DIGIT / "-" / "." / "_" /
// "~" / "+" / "/" ) *"=") if one stands alone here, that is, is followed
// by the end or a comma; "name=value" is a parameter, not a token68.
// Otherwise it consumes nothing.
func (p *challengeParser) token68() (string, bool) {
	j := p.i
	for j < len(p.s) && isToken68Char(p.s[j]) {
		j++
	}
	if j == p.i {
		return "", false
	}
	for j < len(p.s) && p.s[j] == '=' {
		j++
	}
	k := j
	for k < len(p.s) && (p.s[k] == ' ' || p.s[k] == '\t') {
		k++
	}
	if k < len(p.s) && p.s[k] != ',' {
		return "", false
	}
	t := p.s[p.i:j]
	p.i = j
	return t, true
}

// quoted reads a quoted-string starting at '"' and returns its value.
func (p *challengeParser) quoted() string {
	var b strings.Builder
	p.i++ // opening quote
	for p.i < len(p.s) {
		ch := p.s[p.i]
		switch {
		case ch == '\\' && p.i+1 < len(p.s):
			b.WriteByte(p.s[p.i+1])
			p.i += 2
		case ch == '"':
			p.i++
			return b.String()
		default:
			b.WriteByte(ch)
			p.i++
		}
	}
	return b.String() // unterminated: keep what there was
}

func (p *challengeParser) token() string {
	j := p.i
	for j < len(p.s) && isTokenChar(p.s[j]) {
		j++
	}
	t := p.s[p.i:j]
	p.i = j
	return t
}

func (p *challengeParser) skipSpace() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *challengeParser) skipListSeparators() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == ',') {
		p.i++
	}
}

// skipPast moves past the next c, or to the end, stepping over quoted
// strings so a comma inside quotes does not count.
func (p *challengeParser) skipPast(c byte) {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '"':
			p.quoted()
			continue
		case c:
			p.i++
			return
		}
		p.i++
	}
}

// isTokenChar reports whether b is a tchar (RFC 9110 section 5.6.2).
func isTokenChar(b byte) bool {
	switch {
	case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", b) >= 0
}

func isToken68Char(b byte) bool {
	switch {
	case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9':
		return true
	}
	return strings.IndexByte("-._~+/", b) >= 0
}
