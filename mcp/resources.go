package mcp

// Resource is one entry of resources/list.
type Resource struct {
	URI         string         `json:"uri"`
	Name        string         `json:"name"`
	Title       string         `json:"title,omitempty"`
	Description string         `json:"description,omitempty"`
	MimeType    string         `json:"mimeType,omitempty"`
	Size        *int64         `json:"size,omitempty"`
	Icons       []Icon         `json:"icons,omitempty"`
	Annotations *Annotations   `json:"annotations,omitempty"`
	Meta        map[string]any `json:"_meta,omitempty"`
}

// ResourceTemplate is one entry of resources/templates/list. URITemplate
// follows RFC 6570.
type ResourceTemplate struct {
	URITemplate string         `json:"uriTemplate"`
	Name        string         `json:"name"`
	Title       string         `json:"title,omitempty"`
	Description string         `json:"description,omitempty"`
	MimeType    string         `json:"mimeType,omitempty"`
	Icons       []Icon         `json:"icons,omitempty"`
	Annotations *Annotations   `json:"annotations,omitempty"`
	Meta        map[string]any `json:"_meta,omitempty"`
}

// ListResourcesResult is one page of resources/list.
type ListResourcesResult struct {
	Resources  []Resource     `json:"resources"`
	NextCursor string         `json:"nextCursor,omitempty"`
	Meta       map[string]any `json:"_meta,omitempty"`
	// CacheHint is the 2026-07-28 ttlMs and cacheScope (zero before).
	CacheHint
}

// ListResourceTemplatesResult is one page of resources/templates/list.
type ListResourceTemplatesResult struct {
	ResourceTemplates []ResourceTemplate `json:"resourceTemplates"`
	NextCursor        string             `json:"nextCursor,omitempty"`
	Meta              map[string]any     `json:"_meta,omitempty"`
	// CacheHint is the 2026-07-28 ttlMs and cacheScope (zero before).
	CacheHint
}

// ReadResourceResult is the answer to resources/read; a resource may have
// several parts.
type ReadResourceResult struct {
	Contents []ResourceContents `json:"contents"`
	Meta     map[string]any     `json:"_meta,omitempty"`
	// CacheHint is the 2026-07-28 ttlMs and cacheScope (zero before).
	CacheHint
}

// ResourceUpdated is the params of notifications/resources/updated.
type ResourceUpdated struct {
	URI string `json:"uri"`
}

type uriParams struct {
	URI string `json:"uri"`
}
