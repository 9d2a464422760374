package mcp

// Implementation names an MCP client or server (clientInfo, serverInfo).
// Name and Version are required; the rest arrived in 2025-06-18 (Title) and
// 2025-11-25 (Description, WebsiteURL, Icons).
type Implementation struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Version     string `json:"version"`
	Description string `json:"description,omitempty"`
	WebsiteURL  string `json:"websiteUrl,omitempty"`
	Icons       []Icon `json:"icons,omitempty"`
}

// Icon is an image a client may show for a server, tool, resource or
// prompt (2025-11-25). Src is an http(s) or data: URI; it is peer input, so
// never fetch it without the user's consent.
type Icon struct {
	Src      string   `json:"src"`
	MimeType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	// Theme is "light" or "dark" when the icon suits only one.
	Theme string `json:"theme,omitempty"`
}

// Role is the speaker of a message or the intended reader of content.
type Role string

// The two roles of the protocol.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Annotations are hints a server attaches to content or resources.
type Annotations struct {
	// Audience lists who the content is meant for.
	Audience []Role `json:"audience,omitempty"`
	// Priority runs from 0 (optional) to 1 (required); nil when unsaid.
	Priority *float64 `json:"priority,omitempty"`
	// LastModified is an ISO 8601 timestamp, as sent.
	LastModified string `json:"lastModified,omitempty"`
}

// EmptyObject is a capability flag whose presence is the whole message: it
// encodes as {}. A nil *EmptyObject means the capability is absent.
type EmptyObject struct{}
