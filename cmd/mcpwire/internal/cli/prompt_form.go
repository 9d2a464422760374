package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/peerschema"
)

// An elicitation's requestedSchema is a flat object of primitive fields:
// strings (with a format and length bounds), numbers and integers (with
// bounds), booleans, and enums of one or many choices, titled or not.
// formSpec reads it into the fields a prompter shows, each with the check
// that refuses bad input while the person types, so that the prompter
// itself knows nothing of JSON Schema.

// fieldKind is how a field is asked.
type fieldKind int

const (
	fieldText    fieldKind = iota // a string, number or integer typed in
	fieldBool                     // yes or no
	fieldChoice                   // one of Options
	fieldChoices                  // any of Options
)

// formOption is one choice of an enum: the value sent and the label shown.
type formOption struct {
	Value, Label string
}

// formField is one property of the form.
type formField struct {
	Name        string
	Title       string // the schema's title, else the name
	Description string
	Required    bool
	Kind        fieldKind
	Type        string // string, number, integer, boolean or array
	Options     []formOption
	// Default is the schema's default as the prompter starts with it:
	// the text for fieldText, "true"/"false", the chosen values.
	Default     string
	DefaultList []string
	// Check refuses a typed value, with the reason; nil accepts any.
	Check func(string) error
	// MinItems and MaxItems bound a multiple choice (-1: no bound).
	MinItems, MaxItems int
}

// formSpec is the form as a prompter shows it.
type formSpec struct {
	Fields []formField
}

// fieldSchema is one property of an elicitation's requestedSchema.
type fieldSchema struct {
	Type        string          `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Format      string          `json:"format"`
	Pattern     string          `json:"pattern"`
	MinLength   *int            `json:"minLength"`
	MaxLength   *int            `json:"maxLength"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	Default     json.RawMessage `json:"default"`
	Enum        []string        `json:"enum"`
	EnumNames   []string        `json:"enumNames"`
	OneOf       []constTitle    `json:"oneOf"`
	AnyOf       []constTitle    `json:"anyOf"`
	Items       *fieldSchema    `json:"items"`
	MinItems    *int            `json:"minItems"`
	MaxItems    *int            `json:"maxItems"`
}

type constTitle struct {
	Const string `json:"const"`
	Title string `json:"title"`
}

// parseForm reads a requestedSchema. A property it cannot show is an
// error naming it: the caller then declines rather than send a form the
// person never saw whole.
func parseForm(raw json.RawMessage) (*formSpec, error) {
	obj, ok := parseObjectSchema(raw)
	spec := &formSpec{}
	if !ok {
		return spec, nil // no properties: a form that only asks to go on
	}
	var s struct {
		Properties map[string]fieldSchema `json:"properties"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("the form's schema cannot be read: %v", err)
	}
	for _, name := range obj.Names {
		f, err := newFormField(name, s.Properties[name], obj.required(name))
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", Sanitize(name), err)
		}
		spec.Fields = append(spec.Fields, f)
	}
	return spec, nil
}

// newFormField is the field of one property.
func newFormField(name string, p fieldSchema, required bool) (formField, error) {
	f := formField{Name: name, Title: p.Title, Description: p.Description, Required: required, Type: p.Type, MinItems: -1, MaxItems: -1}
	if f.Title == "" {
		f.Title = name
	}
	switch p.Type {
	case "string":
		if opts := enumOptions(p); len(opts) > 0 {
			f.Kind, f.Options = fieldChoice, opts
			_ = json.Unmarshal(p.Default, &f.Default)
			return f, nil
		}
		f.Kind, f.Check = fieldText, stringCheck(p, required)
		_ = json.Unmarshal(p.Default, &f.Default)
	case "number", "integer":
		f.Kind, f.Check = fieldText, numberCheck(p, required)
		var d json.Number
		if json.Unmarshal(p.Default, &d) == nil {
			f.Default = d.String()
		}
	case "boolean":
		f.Kind = fieldBool
		var d bool
		if json.Unmarshal(p.Default, &d) == nil {
			f.Default = strconv.FormatBool(d)
		}
	case "array":
		if p.Items == nil {
			return f, fmt.Errorf("an array without items")
		}
		opts := enumOptions(*p.Items)
		if len(opts) == 0 {
			return f, fmt.Errorf("an array whose items are no enum")
		}
		f.Kind, f.Options = fieldChoices, opts
		if p.MinItems != nil {
			f.MinItems = *p.MinItems
		}
		if p.MaxItems != nil {
			f.MaxItems = *p.MaxItems
		}
		_ = json.Unmarshal(p.Default, &f.DefaultList)
	default:
		return f, fmt.Errorf("type %q is not one a form can ask for", Sanitize(p.Type))
	}
	return f, nil
}

// enumOptions are the choices of an enum: oneOf/anyOf const+title, or
// enum with the legacy enumNames as labels.
func enumOptions(p fieldSchema) []formOption {
	var out []formOption
	for _, c := range append(p.OneOf, p.AnyOf...) {
		label := c.Title
		if label == "" {
			label = c.Const
		}
		out = append(out, formOption{Value: c.Const, Label: label})
	}
	for i, v := range p.Enum {
		label := v
		if i < len(p.EnumNames) && p.EnumNames[i] != "" {
			label = p.EnumNames[i]
		}
		out = append(out, formOption{Value: v, Label: label})
	}
	return out
}

// stringCheck refuses a string that breaks the property's length or
// format; an empty optional field is left out, so it passes.
func stringCheck(p fieldSchema, required bool) func(string) error {
	// A pattern is checked as typed too: otherwise a form whose every
	// field was accepted is refused whole at the end. JSON Schema's
	// patterns are ECMA-262 regular expressions; one Go's regexp cannot
	// compile is left to the check of the whole answer.
	pattern, _ := regexp.Compile(p.Pattern)
	if p.Pattern == "" {
		pattern = nil
	}
	return func(s string) error {
		if s == "" {
			if required {
				return fmt.Errorf("required")
			}
			return nil
		}
		n := utf8.RuneCountInString(s)
		if p.MinLength != nil && n < *p.MinLength {
			return fmt.Errorf("at least %d characters", *p.MinLength)
		}
		if p.MaxLength != nil && n > *p.MaxLength {
			return fmt.Errorf("at most %d characters", *p.MaxLength)
		}
		if pattern != nil && !pattern.MatchString(s) {
			return fmt.Errorf("does not match the pattern %s", sanitizeLine(p.Pattern))
		}
		return formatCheck(p.Format, s)
	}
}

// formatCheck checks the formats elicitation allows, as the form's
// final check does (peerschema.CheckForm).
func formatCheck(format, s string) error {
	if why := peerschema.FormatProblem(format, s); why != "" {
		return errors.New(why)
	}
	return nil
}

// numberCheck refuses what is not a number (an integer) within bounds.
func numberCheck(p fieldSchema, required bool) func(string) error {
	return func(s string) error {
		s = strings.TrimSpace(s)
		if s == "" {
			if required {
				return fmt.Errorf("required")
			}
			return nil
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return fmt.Errorf("not a number")
		}
		if p.Type == "integer" && v != math.Trunc(v) {
			return fmt.Errorf("not a whole number")
		}
		if p.Minimum != nil && v < *p.Minimum {
			return fmt.Errorf("at least %s", formatNumber(*p.Minimum))
		}
		if p.Maximum != nil && v > *p.Maximum {
			return fmt.Errorf("at most %s", formatNumber(*p.Maximum))
		}
		return nil
	}
}

// formAnswer is what the prompter collected: text fields as typed, a
// boolean as "true"/"false", choices as their values.
type formAnswer struct {
	Text  map[string]string
	Lists map[string][]string
}

// content is the answer as the elicitation result's content, each value
// of its field's type; empty optional fields are left out.
func (spec *formSpec) content(a formAnswer) map[string]any {
	out := map[string]any{}
	for _, f := range spec.Fields {
		if f.Kind == fieldChoices {
			if list, ok := a.Lists[f.Name]; ok {
				out[f.Name] = list
			}
			continue
		}
		s, ok := a.Text[f.Name]
		if !ok || (s == "" && f.Kind != fieldBool) {
			continue
		}
		switch f.Type {
		case "number", "integer":
			// As JSON writes numbers: a person may type "+5", ".5" or "007".
			v, _ := strconv.ParseFloat(strings.TrimSpace(s), 64)
			out[f.Name] = json.Number(strconv.FormatFloat(v, 'f', -1, 64))
		case "boolean":
			out[f.Name] = s == "true"
		default:
			out[f.Name] = s
		}
	}
	return out
}

// prefilled is the form with answer's values as the fields' defaults, so
// that a form asked again starts from what the person typed.
func (spec *formSpec) prefilled(a formAnswer) *formSpec {
	out := &formSpec{Fields: append([]formField(nil), spec.Fields...)}
	for i := range out.Fields {
		f := &out.Fields[i]
		if f.Kind == fieldChoices {
			if list, ok := a.Lists[f.Name]; ok {
				f.DefaultList = append([]string{}, list...)
			}
			continue
		}
		if s, ok := a.Text[f.Name]; ok {
			f.Default = s
		}
	}
	return out
}

// checkChoices refuses a multiple choice outside minItems/maxItems.
func (f formField) checkChoices(list []string) error {
	if f.MinItems >= 0 && len(list) < f.MinItems {
		return fmt.Errorf("choose at least %d", f.MinItems)
	}
	if f.MaxItems >= 0 && len(list) > f.MaxItems {
		return fmt.Errorf("choose at most %d", f.MaxItems)
	}
	if f.Required && len(list) == 0 && f.MinItems < 0 {
		return fmt.Errorf("required")
	}
	return nil
}
