package cli

import (
	"encoding/base64"
	"fmt"
	"io"
	"strings"

	"github.com/mcpwire/mcpwire/mcp"
)

// WriteContent prints content blocks for people: text as it is, binary
// payloads as a one-line summary ("[image image/png, 1234 bytes]"), links
// and embedded resources with their URI. Server text is passed through
// Sanitize, so it cannot drive the terminal.
func WriteContent(w io.Writer, blocks []mcp.Content) {
	for _, c := range blocks {
		fmt.Fprint(w, endLine(Sanitize(ContentText(c))))
	}
}

// ContentText renders one block as WriteContent does, unsanitized.
func ContentText(c mcp.Content) string {
	switch c.Type {
	case mcp.ContentText:
		return c.Text
	case mcp.ContentImage, mcp.ContentAudio:
		return fmt.Sprintf("[%s %s, %s]", c.Type, orUnknown(c.MimeType), payloadSize(c.Data))
	case mcp.ContentResourceLink:
		s := fmt.Sprintf("[resource link %s: %s", c.Name, c.URI)
		if c.MimeType != "" {
			s += ", " + c.MimeType
		}
		if c.Size != nil {
			s += fmt.Sprintf(", %d bytes", *c.Size)
		}
		s += "]"
		if c.Description != "" {
			s += " " + FirstLine(c.Description)
		}
		return s
	case mcp.ContentResource:
		if c.Resource == nil {
			return "[resource]"
		}
		return ResourceText(*c.Resource)
	case mcp.ContentToolUse:
		return fmt.Sprintf("[tool use %s %s]", c.Name, string(c.Input))
	case mcp.ContentToolResult:
		var b strings.Builder
		fmt.Fprintf(&b, "[tool result for %s]\n", c.ToolUseID)
		for _, inner := range c.Content {
			b.WriteString(endLine(ContentText(inner)))
		}
		return b.String()
	}
	return fmt.Sprintf("[%s content]", c.Type)
}

// ResourceText renders resource contents: a header line naming the URI,
// then the text, or a summary of a blob.
func ResourceText(r mcp.ResourceContents) string {
	head := "[resource " + r.URI
	if r.MimeType != "" {
		head += ", " + r.MimeType
	}
	if r.IsText() {
		return head + "]\n" + *r.Text
	}
	return head + ", " + payloadSize(r.Blob) + "]"
}

// payloadSize is the decoded size of base64 data, or a note that it is not
// valid base64.
func payloadSize(b64 string) string {
	n, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return "invalid base64 data"
	}
	return fmt.Sprintf("%d bytes", len(n))
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}

func endLine(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
