package peerschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// FormError is an accepted form whose content its requestedSchema
// refuses: each field and what is wrong with it, worded from the
// schema's side, so that no value of the answer is repeated (it may be a
// secret the person typed). A server must never be sent an answer its
// own form forbids: the CLI asks again, the inspector's page marks the
// fields.
type FormError struct {
	Fields []FieldProblem
}

// FieldProblem is one field of a form and what is wrong with it.
type FieldProblem struct {
	Field   string `json:"field"` // the property's name ("a/b" when nested); "" for the form itself
	Problem string `json:"problem"`
}

func (e *FormError) Error() string {
	parts := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		if f.Field == "" {
			parts[i] = f.Problem
		} else {
			parts[i] = fmt.Sprintf("%q %s", f.Field, f.Problem)
		}
	}
	return strings.Join(parts, "; ")
}

// CheckForm checks an accepted form's content against the form's
// requestedSchema, compiled by Compile, and its string fields against the
// formats they name (FormatProblem). It returns nil, a *FormError, or
// the error of content that does not encode. A schema that cannot be
// compiled checks nothing: the person's answer is the best there is.
func CheckForm(requestedSchema json.RawMessage, content map[string]any) error {
	if len(bytes.TrimSpace(requestedSchema)) == 0 {
		return nil
	}
	sch, err := Compile(requestedSchema, "https://mcpwire.invalid/requested-schema.json")
	if err != nil {
		return nil
	}
	raw, err := json.Marshal(content)
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	fe := &FormError{}
	err = sch.Validate(doc)
	var v *jsonschema.ValidationError
	switch {
	case errors.As(err, &v):
		for _, leaf := range leaves(v) {
			fe.Fields = append(fe.Fields, fieldProblems(leaf)...)
		}
	case err != nil:
		return err
	}
	fe.Fields = append(fe.Fields, formatProblems(requestedSchema, content)...)
	if len(fe.Fields) == 0 {
		return nil
	}
	return fe
}

// leaves are the causes at the ends of v's tree: each one thing wrong.
func leaves(v *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(v.Causes) == 0 {
		return []*jsonschema.ValidationError{v}
	}
	var out []*jsonschema.ValidationError
	for _, c := range v.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// fieldProblems words one failed keyword, from the schema's side (what it
// wants), so that no value of the answer is repeated.
func fieldProblems(v *jsonschema.ValidationError) []FieldProblem {
	field := strings.Join(v.InstanceLocation, "/")
	one := func(p string) []FieldProblem { return []FieldProblem{{Field: field, Problem: p}} }
	switch k := v.ErrorKind.(type) {
	case *kind.Required:
		out := make([]FieldProblem, len(k.Missing))
		for i, name := range k.Missing {
			out[i] = FieldProblem{Field: joinField(field, name), Problem: "is required"}
		}
		return out
	case *kind.AdditionalProperties:
		out := make([]FieldProblem, len(k.Properties))
		for i, name := range k.Properties {
			out[i] = FieldProblem{Field: joinField(field, name), Problem: "is not a field of the form"}
		}
		return out
	case *kind.Type:
		want := make([]string, len(k.Want))
		for i, t := range k.Want {
			want[i] = withArticle(t)
		}
		return one(fmt.Sprintf("must be %s, not %s", strings.Join(want, " or "), withArticle(k.Got)))
	case *kind.Enum:
		return one("must be one of " + jsonList(k.Want))
	case *kind.Const:
		return one("must be " + jsonList([]any{k.Want}))
	case *kind.Minimum:
		return one("must be at least " + ratText(k.Want))
	case *kind.Maximum:
		return one("must be at most " + ratText(k.Want))
	case *kind.ExclusiveMinimum:
		return one("must be more than " + ratText(k.Want))
	case *kind.ExclusiveMaximum:
		return one("must be less than " + ratText(k.Want))
	case *kind.MultipleOf:
		return one("must be a multiple of " + ratText(k.Want))
	case *kind.MinLength:
		return one(fmt.Sprintf("must be at least %d characters long", k.Want))
	case *kind.MaxLength:
		return one(fmt.Sprintf("must be at most %d characters long", k.Want))
	case *kind.Pattern:
		return one(fmt.Sprintf("must match the pattern %q", k.Want))
	case *kind.Format:
		return one(fmt.Sprintf("must be in the format %q", k.Want))
	}
	return one(fmt.Sprintf("breaks the form's %q", strings.Join(v.ErrorKind.KeywordPath(), "/")))
}

// withArticle is a JSON Schema type as a phrase: "an integer".
func withArticle(t string) string {
	switch t {
	case "null":
		return t
	case "integer", "object", "array":
		return "an " + t
	}
	return "a " + t
}

// ratText writes a schema's bound as JSON would: 3, 0.5.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func joinField(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "/" + name
}

// jsonList is values as JSON, comma-separated.
func jsonList(values []any) string {
	parts := make([]string, len(values))
	for i, v := range values {
		b, _ := json.Marshal(v)
		parts[i] = string(b)
	}
	return strings.Join(parts, ", ")
}
