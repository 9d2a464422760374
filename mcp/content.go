package mcp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Content block kinds. Text, image, audio, resource_link and resource
// appear in tool results and prompts; tool_use and tool_result appear only
// in sampling messages (2025-11-25).
const (
	ContentText         = "text"
	ContentImage        = "image"
	ContentAudio        = "audio"
	ContentResourceLink = "resource_link"
	ContentResource     = "resource"
	ContentToolUse      = "tool_use"
	ContentToolResult   = "tool_result"
)

// Content is one content block. Type says which fields are meaningful:
//
//	text           Text
//	image, audio   Data (base64), MimeType
//	resource_link  URI, Name, Title, Description, MimeType, Size, Icons
//	resource       Resource (embedded contents)
//	tool_use       ID, Name, Input
//	tool_result    ToolUseID, Content, StructuredContent, IsError
//
// Annotations and Meta may accompany any kind. Decoding checks that the
// fields the protocol requires for a known kind are present and says which
// one is missing. A block of a kind this package does not know is not an
// error: its Type is set and the whole object is kept in Raw, and encoding
// writes Raw back unchanged, so newer servers' content survives a round
// trip.
type Content struct {
	Type string

	Text string

	Data     string
	MimeType string

	URI         string
	Name        string
	Title       string
	Description string
	Size        *int64
	Icons       []Icon

	Resource *ResourceContents

	ID    string
	Input json.RawMessage

	ToolUseID         string
	Content           []Content
	StructuredContent json.RawMessage
	IsError           bool

	Annotations *Annotations
	Meta        map[string]any

	// Raw is the block exactly as received when Type is unknown; nil for
	// known kinds.
	Raw json.RawMessage
}

// TextContent returns a text block.
func TextContent(text string) Content { return Content{Type: ContentText, Text: text} }

// ImageContent returns an image block holding data, base64-encoded.
func ImageContent(data []byte, mimeType string) Content {
	return Content{Type: ContentImage, Data: base64.StdEncoding.EncodeToString(data), MimeType: mimeType}
}

// AudioContent returns an audio block holding data, base64-encoded.
func AudioContent(data []byte, mimeType string) Content {
	return Content{Type: ContentAudio, Data: base64.StdEncoding.EncodeToString(data), MimeType: mimeType}
}

// IsKnown reports whether the block's kind is one this package decodes
// field by field (as opposed to one kept only in Raw).
func (c *Content) IsKnown() bool { return knownContentType(c.Type) }

// DecodeData decodes the base64 Data of an image or audio block. The
// payload is not checked while decoding the block, so a malformed one is
// reported here.
func (c *Content) DecodeData() ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(c.Data)
	if err != nil {
		return nil, fmt.Errorf("mcp: %s content: data is not valid base64: %w", c.Type, err)
	}
	return b, nil
}

func knownContentType(t string) bool {
	switch t {
	case ContentText, ContentImage, ContentAudio, ContentResourceLink, ContentResource, ContentToolUse, ContentToolResult:
		return true
	}
	return false
}

// contentWire is the union of every known kind's members, decoded in one
// pass. Pointers tell a missing member from an empty one.
type contentWire struct {
	Type              *string           `json:"type"`
	Text              *string           `json:"text"`
	Data              *string           `json:"data"`
	MimeType          *string           `json:"mimeType"`
	URI               *string           `json:"uri"`
	Name              *string           `json:"name"`
	Title             string            `json:"title"`
	Description       string            `json:"description"`
	Size              *int64            `json:"size"`
	Icons             []Icon            `json:"icons"`
	Resource          *ResourceContents `json:"resource"`
	ID                *string           `json:"id"`
	Input             json.RawMessage   `json:"input"`
	ToolUseID         *string           `json:"toolUseId"`
	Content           *[]Content        `json:"content"`
	StructuredContent json.RawMessage   `json:"structuredContent"`
	IsError           bool              `json:"isError"`
	Annotations       *Annotations      `json:"annotations"`
	Meta              map[string]any    `json:"_meta"`
}

// UnmarshalJSON decodes a block; see Content for what is checked.
func (c *Content) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return fmt.Errorf("mcp: content block is %s, not a JSON object", jsonKind(data))
	}
	var w contentWire
	if err := json.Unmarshal(data, &w); err != nil {
		// The members of an unknown kind may clash with the types above.
		// Find out which kind this is before calling it an error.
		var head struct {
			Type *string `json:"type"`
		}
		if json.Unmarshal(data, &head) == nil && head.Type != nil && *head.Type != "" && !knownContentType(*head.Type) {
			*c = Content{Type: *head.Type, Raw: bytes.Clone(data)}
			return nil
		}
		if head.Type == nil || *head.Type == "" {
			return fmt.Errorf("mcp: content block: %w", err)
		}
		// A known kind may still carry a member of another kind, or one
		// a newer revision added, whose value clashes with our types.
		// Decode again from the kind's own members only.
		own, ownErr := ownMembers(data, *head.Type)
		if ownErr != nil || json.Unmarshal(own, &w) != nil {
			return fmt.Errorf("mcp: %s content block: %w", *head.Type, err)
		}
	}
	if w.Type == nil || *w.Type == "" {
		return errors.New(`mcp: content block has no "type"`)
	}
	if !knownContentType(*w.Type) {
		*c = Content{Type: *w.Type, Raw: bytes.Clone(data)}
		return nil
	}
	if err := w.check(); err != nil {
		return err
	}
	*c = Content{
		Type:              *w.Type,
		Text:              deref(w.Text),
		Data:              deref(w.Data),
		MimeType:          deref(w.MimeType),
		URI:               deref(w.URI),
		Name:              deref(w.Name),
		Title:             w.Title,
		Description:       w.Description,
		Size:              w.Size,
		Icons:             w.Icons,
		Resource:          w.Resource,
		ID:                deref(w.ID),
		Input:             w.Input,
		ToolUseID:         deref(w.ToolUseID),
		StructuredContent: w.StructuredContent,
		IsError:           w.IsError,
		Annotations:       w.Annotations,
		Meta:              w.Meta,
	}
	if w.Content != nil {
		c.Content = *w.Content
	}
	return nil
}

// contentMembers lists the members each known kind defines, besides
// "type", "annotations" and "_meta".
var contentMembers = map[string][]string{
	ContentText:         {"text"},
	ContentImage:        {"data", "mimeType"},
	ContentAudio:        {"data", "mimeType"},
	ContentResourceLink: {"uri", "name", "title", "description", "mimeType", "size", "icons"},
	ContentResource:     {"resource"},
	ContentToolUse:      {"id", "name", "input"},
	ContentToolResult:   {"toolUseId", "content", "structuredContent", "isError"},
}

// ownMembers re-encodes a block with only the members its kind defines.
// Member names match case-insensitively, as encoding/json matches them.
func ownMembers(data []byte, kind string) ([]byte, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	keep := append([]string{"type", "annotations", "_meta"}, contentMembers[kind]...)
	for k := range all {
		if !slices.ContainsFunc(keep, func(m string) bool { return strings.EqualFold(k, m) }) {
			delete(all, k)
		}
	}
	return json.Marshal(all)
}

// check reports the first member the block's kind requires but lacks.
func (w *contentWire) check() error {
	t := *w.Type
	need := func(present bool, member string) error {
		if !present {
			return fmt.Errorf("mcp: %s content block without %q", t, member)
		}
		return nil
	}
	switch t {
	case ContentText:
		return need(w.Text != nil, "text")
	case ContentImage, ContentAudio:
		return errors.Join(need(w.Data != nil, "data"), need(w.MimeType != nil, "mimeType"))
	case ContentResourceLink:
		return errors.Join(need(w.URI != nil, "uri"), need(w.Name != nil, "name"))
	case ContentResource:
		return need(w.Resource != nil, "resource")
	case ContentToolUse:
		if err := errors.Join(need(w.ID != nil, "id"), need(w.Name != nil, "name")); err != nil {
			return err
		}
		if len(w.Input) > 0 && !isJSONObject(w.Input) {
			return fmt.Errorf("mcp: tool_use content block: input is %s, not a JSON object", jsonKind(w.Input))
		}
	case ContentToolResult:
		return errors.Join(need(w.ToolUseID != nil, "toolUseId"), need(w.Content != nil, "content"))
	}
	return nil
}

// MarshalJSON encodes a block with the members of its kind. A block of an
// unknown kind is written from Raw.
func (c Content) MarshalJSON() ([]byte, error) {
	switch c.Type {
	case ContentText:
		return json.Marshal(struct {
			Type        string         `json:"type"`
			Text        string         `json:"text"`
			Annotations *Annotations   `json:"annotations,omitempty"`
			Meta        map[string]any `json:"_meta,omitempty"`
		}{c.Type, c.Text, c.Annotations, c.Meta})
	case ContentImage, ContentAudio:
		return json.Marshal(struct {
			Type        string         `json:"type"`
			Data        string         `json:"data"`
			MimeType    string         `json:"mimeType"`
			Annotations *Annotations   `json:"annotations,omitempty"`
			Meta        map[string]any `json:"_meta,omitempty"`
		}{c.Type, c.Data, c.MimeType, c.Annotations, c.Meta})
	case ContentResourceLink:
		return json.Marshal(struct {
			Type        string         `json:"type"`
			URI         string         `json:"uri"`
			Name        string         `json:"name"`
			Title       string         `json:"title,omitempty"`
			Description string         `json:"description,omitempty"`
			MimeType    string         `json:"mimeType,omitempty"`
			Size        *int64         `json:"size,omitempty"`
			Icons       []Icon         `json:"icons,omitempty"`
			Annotations *Annotations   `json:"annotations,omitempty"`
			Meta        map[string]any `json:"_meta,omitempty"`
		}{c.Type, c.URI, c.Name, c.Title, c.Description, c.MimeType, c.Size, c.Icons, c.Annotations, c.Meta})
	case ContentResource:
		if c.Resource == nil {
			return nil, errors.New("mcp: resource content block without Resource")
		}
		return json.Marshal(struct {
			Type        string            `json:"type"`
			Resource    *ResourceContents `json:"resource"`
			Annotations *Annotations      `json:"annotations,omitempty"`
			Meta        map[string]any    `json:"_meta,omitempty"`
		}{c.Type, c.Resource, c.Annotations, c.Meta})
	case ContentToolUse:
		input := c.Input
		if len(input) == 0 {
			input = json.RawMessage("{}")
		}
		return json.Marshal(struct {
			Type        string          `json:"type"`
			ID          string          `json:"id"`
			Name        string          `json:"name"`
			Input       json.RawMessage `json:"input"`
			Annotations *Annotations    `json:"annotations,omitempty"`
			Meta        map[string]any  `json:"_meta,omitempty"`
		}{c.Type, c.ID, c.Name, input, c.Annotations, c.Meta})
	case ContentToolResult:
		content := c.Content
		if content == nil {
			content = []Content{}
		}
		return json.Marshal(struct {
			Type              string          `json:"type"`
			ToolUseID         string          `json:"toolUseId"`
			Content           []Content       `json:"content"`
			StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
			IsError           bool            `json:"isError,omitempty"`
			Annotations       *Annotations    `json:"annotations,omitempty"`
			Meta              map[string]any  `json:"_meta,omitempty"`
		}{c.Type, c.ToolUseID, content, c.StructuredContent, c.IsError, c.Annotations, c.Meta})
	}
	if len(c.Raw) == 0 {
		if c.Type == "" {
			return nil, errors.New("mcp: content block without Type")
		}
		return nil, fmt.Errorf("mcp: content block of unknown type %q without Raw", c.Type)
	}
	return c.Raw, nil
}

// ResourceContents is the body of a resource: Text for text resources,
// otherwise Blob (base64). Text is a pointer so that an empty text
// resource stays a text resource.
type ResourceContents struct {
	URI      string
	MimeType string
	Text     *string
	Blob     string
	Meta     map[string]any
}

// IsText reports whether the contents are text (else they are a blob).
func (r *ResourceContents) IsText() bool { return r.Text != nil }

// DecodeBlob decodes the base64 Blob.
func (r *ResourceContents) DecodeBlob() ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(r.Blob)
	if err != nil {
		return nil, fmt.Errorf("mcp: resource %q: blob is not valid base64: %w", r.URI, err)
	}
	return b, nil
}

type resourceContentsWire struct {
	URI      *string        `json:"uri"`
	MimeType string         `json:"mimeType,omitempty"`
	Text     *string        `json:"text,omitempty"`
	Blob     *string        `json:"blob,omitempty"`
	Meta     map[string]any `json:"_meta,omitempty"`
}

// UnmarshalJSON requires uri and exactly one of text and blob.
func (r *ResourceContents) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return fmt.Errorf("mcp: resource contents are %s, not a JSON object", jsonKind(data))
	}
	var w resourceContentsWire
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("mcp: resource contents: %w", err)
	}
	if w.URI == nil {
		return errors.New(`mcp: resource contents without "uri"`)
	}
	switch {
	case w.Text != nil && w.Blob != nil:
		return fmt.Errorf("mcp: resource contents %q have both \"text\" and \"blob\"", *w.URI)
	case w.Text == nil && w.Blob == nil:
		return fmt.Errorf("mcp: resource contents %q have neither \"text\" nor \"blob\"", *w.URI)
	}
	*r = ResourceContents{URI: *w.URI, MimeType: w.MimeType, Text: w.Text, Blob: deref(w.Blob), Meta: w.Meta}
	return nil
}

// MarshalJSON writes text when Text is set, blob otherwise.
func (r ResourceContents) MarshalJSON() ([]byte, error) {
	w := resourceContentsWire{URI: &r.URI, MimeType: r.MimeType, Text: r.Text, Meta: r.Meta}
	if r.Text == nil {
		w.Blob = &r.Blob
	}
	return json.Marshal(w)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func isJSONObject(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

// jsonKind names the kind of a JSON value for error messages without
// quoting the (peer-supplied) value itself.
func jsonKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "empty"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}
