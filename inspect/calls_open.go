package inspect

import (
	"net/url"

	"github.com/mcpwire/mcpwire/mcp"
)

// pageToOpen is a page a server asked the person to open before a call
// can succeed: the URL elicitations of its -32042 error (2025-11-25).
// Without them on the page the person would see the error's message and
// no way to do what it asks.
type pageToOpen struct {
	Message string `json:"message,omitempty"`
	URL     string `json:"url"`
}

// pagesToOpen returns the pages err asks to open first, secrets masked;
// a URL that is not http or https is left out, as the page opens no
// other (nil: err is no -32042 error, or names no page it can show).
func (s *Server) pagesToOpen(err error) []pageToOpen {
	asked, ok := mcp.URLElicitationRequired(err)
	if !ok {
		return nil
	}
	var out []pageToOpen
	for _, e := range asked {
		u, perr := url.Parse(e.URL)
		if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		out = append(out, pageToOpen{Message: s.opts.Redact(e.Message), URL: s.opts.Redact(e.URL)})
	}
	return out
}
