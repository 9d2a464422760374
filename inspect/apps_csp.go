package inspect

import (
	"encoding/json"
	"fmt"
	"net"
	"regexp"
	"strings"

	"github.com/mcpwire/mcpwire/internal/origin"
)

// appMIMEType is the one content type of an MCP App's view (2026-01-26).
const appMIMEType = "text/html;profile=mcp-app"

// appCSP is what a view's resource declares in _meta.ui.csp: the origins
// it may reach, per kind.
type appCSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// appUIMeta is a view resource's _meta.ui.
type appUIMeta struct {
	CSP         appCSP                     `json:"csp"`
	Permissions map[string]json.RawMessage `json:"permissions,omitempty"`
}

// appPermissions maps the permissions a view may ask for to the
// Permission Policy features of the iframe's allow attribute. Anything
// else asked for is not granted.
var appPermissions = map[string]string{
	"camera":         "camera",
	"microphone":     "microphone",
	"geolocation":    "geolocation",
	"clipboardWrite": "clipboard-write",
}

// cspSource is the one shape of a declared origin the host accepts:
// scheme://host[:port], the host optionally "*." and a domain. Anything
// else (keywords such as 'unsafe-eval', bare "*" or "https:", paths,
// separators) could loosen the policy, so it is refused.
var cspSource = regexp.MustCompile(`^(https?|wss?)://(\*\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:([0-9]{1,5}|\*))?$`)

// appPolicy is the sandbox a view gets: its CSP, its allow attribute,
// what it declared, and what was refused of it.
type appPolicy struct {
	CSP     string   `json:"csp"`
	Allow   string   `json:"allow"`
	Granted appCSP   `json:"granted"`
	Refused []string `json:"refused,omitempty"`
	// Permissions are the granted ones, in the shape of _meta.ui.permissions.
	Permissions map[string]struct{} `json:"permissions"`
}

// buildAppPolicy turns a view resource's _meta.ui into its sandbox's
// policy. The base is the specification's restrictive default, with
// 'self' left out (the view's origin is opaque; its parent's origin is the
// sandbox, which it has no business reaching). Declared origins are added
// to their directives only; none is ever widened, and the inspector's own
// origins (ownHosts, host:port) are refused so that no view can reach the
// page's API through a declaration.
func buildAppPolicy(meta map[string]any, ownHosts []string) appPolicy {
	var ui appUIMeta
	if raw, ok := meta["ui"]; ok {
		b, _ := json.Marshal(raw)
		if err := json.Unmarshal(b, &ui); err != nil {
			ui = appUIMeta{}
		}
	}
	p := appPolicy{Permissions: map[string]struct{}{}}
	keep := func(kind string, list []string) []string {
		var out []string
		for _, d := range list {
			d = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(d)), "/")
			if why := refuseSource(d, ownHosts); why != "" {
				p.Refused = append(p.Refused, fmt.Sprintf("%s %q: %s", kind, clipText(d, 100), why))
				continue
			}
			out = append(out, d)
		}
		return out
	}
	p.Granted = appCSP{
		ConnectDomains:  keep("connectDomains", ui.CSP.ConnectDomains),
		ResourceDomains: keep("resourceDomains", ui.CSP.ResourceDomains),
		FrameDomains:    keep("frameDomains", ui.CSP.FrameDomains),
		BaseURIDomains:  keep("baseUriDomains", ui.CSP.BaseURIDomains),
	}
	g := p.Granted
	or := func(list []string, none string) string {
		if len(list) == 0 {
			return none
		}
		return strings.Join(list, " ")
	}
	with := func(fixed string, list []string) string {
		return strings.TrimSpace(fixed + " " + strings.Join(list, " "))
	}
	p.CSP = strings.Join([]string{
		"default-src 'none'",
		"script-src " + with("'unsafe-inline'", g.ResourceDomains),
		"style-src " + with("'unsafe-inline'", g.ResourceDomains),
		"img-src " + with("data:", g.ResourceDomains),
		"font-src " + or(g.ResourceDomains, "'none'"),
		"media-src " + with("data:", g.ResourceDomains),
		"connect-src " + or(g.ConnectDomains, "'none'"),
		"frame-src " + or(g.FrameDomains, "'none'"),
		"base-uri " + or(g.BaseURIDomains, "'none'"),
		"object-src 'none'",
		"form-action 'none'",
	}, "; ")
	var allow []string
	for _, name := range []string{"camera", "microphone", "geolocation", "clipboardWrite"} {
		if _, asked := ui.Permissions[name]; asked {
			allow = append(allow, appPermissions[name])
			p.Permissions[name] = struct{}{}
		}
	}
	for name := range ui.Permissions {
		if _, known := appPermissions[name]; !known {
			p.Refused = append(p.Refused, fmt.Sprintf("permission %q: unknown", clipText(name, 100)))
		}
	}
	p.Allow = strings.Join(allow, "; ")
	return p
}

// refuseSource says why declared origin d is not granted ("" if it is).
func refuseSource(d string, ownHosts []string) string {
	if !cspSource.MatchString(d) {
		return "not an origin (scheme://host[:port])"
	}
	hostport := d[strings.Index(d, "://")+3:]
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, ""
	}
	// Names that reach this machine: loopback addresses, localhost and
	// its subdomains (browsers resolve them locally), and 0.0.0.0.
	h := strings.TrimPrefix(host, "*.")
	if !origin.IsLoopbackHost(h) && h != "localhost" && !strings.HasSuffix(h, ".localhost") && h != "0.0.0.0" {
		return ""
	}
	if port == "" {
		port = "80"
		if strings.HasPrefix(d, "https:") || strings.HasPrefix(d, "wss:") {
			port = "443"
		}
	}
	if port == "*" {
		return "any port of this machine would include the inspector's own"
	}
	for _, own := range ownHosts {
		if _, ownPort, err := net.SplitHostPort(own); err == nil && ownPort == port {
			return "the inspector's own origin"
		}
	}
	return ""
}

// clipText shortens s for a message.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
