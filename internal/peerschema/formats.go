package peerschema

import (
	"encoding/json"
	"net/mail"
	"net/url"
	"sort"
	"time"
)

// The string formats a form may ask for (MCP elicitation: email, uri,
// date, date-time). JSON Schema 2020-12 makes format an annotation only,
// so Compile does not check it; a form does, as the person filling it in
// is told field by field, so that an answer given another way (the CLI's
// --elicit-json, the inspector's raw JSON) is held to the same rule.

// FormatProblem says why s is not in format, or "" when it is (or the
// format is none of the four a form may ask for).
func FormatProblem(format, s string) string {
	switch format {
	case "email":
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
			return "not an email address"
		}
	case "uri":
		if u, err := url.Parse(s); err != nil || u.Scheme == "" {
			return "not a URI (such as https://example.com/)"
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return "not a date (YYYY-MM-DD)"
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return "not a date-time (such as 2026-01-31T15:04:05Z)"
		}
	}
	return ""
}

// formatProblems checks the string fields of content whose property in
// requestedSchema names a format (a form's properties are primitives,
// at the top level).
func formatProblems(requestedSchema json.RawMessage, content map[string]any) []FieldProblem {
	var schema struct {
		Properties map[string]struct {
			Format string `json:"format"`
		} `json:"properties"`
	}
	if json.Unmarshal(requestedSchema, &schema) != nil {
		return nil
	}
	var out []FieldProblem
	for name, p := range schema.Properties {
		s, ok := content[name].(string)
		if !ok || p.Format == "" {
			continue
		}
		if why := FormatProblem(p.Format, s); why != "" {
			out = append(out, FieldProblem{Field: name, Problem: "is " + why})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Field < out[j].Field })
	return out
}
