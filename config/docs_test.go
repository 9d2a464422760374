package config

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// docs/config.md lists every field the parser knows. The names are taken
// from the parser's source, not from a list kept beside it: every string
// a key is compared with (switch m.Key { case "url", ... }, m.Key ==
// "inputs"), the fields skipped in silence, and the json names of the
// oauth block that the auth package reads. A field added to the parser
// fails this test until the page names it, in backquotes.
func TestDocsNameEveryField(t *testing.T) {
	doc, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	names := keyLiterals(t, "entry.go", "parse.go")
	for name := range knownHostFields {
		names = append(names, name)
	}
	names = append(names, jsonTags(t, "../auth/config.go")...)
	if len(names) < 40 {
		t.Fatalf("found only %d field names in the parser's source: %q", len(names), names)
	}
	for _, want := range []string{"url", "httpUrl", "bearer_token_env_var", "context_servers", "command.path", "clientId", "dev"} {
		if !slices.Contains(names, want) {
			t.Errorf("the source walk missed %q (found %q)", want, names)
		}
	}
	for _, name := range names {
		if !strings.Contains(string(doc), "`"+name+"`") {
			t.Errorf("docs/config.md does not name the field `%s`", name)
		}
	}
}

// keyLiterals returns the string literals the files compare a .Key with.
func keyLiterals(t *testing.T, files ...string) []string {
	var out []string
	add := func(e ast.Expr) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	isKey := func(e ast.Expr) bool {
		sel, ok := e.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Key"
	}
	for _, file := range files {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SwitchStmt:
				if n.Tag != nil && isKey(n.Tag) {
					for _, c := range n.Body.List {
						for _, e := range c.(*ast.CaseClause).List {
							add(e)
						}
					}
				}
			case *ast.BinaryExpr:
				if n.Op == token.EQL && isKey(n.X) {
					add(n.Y)
				}
			}
			return true
		})
	}
	return out
}

// jsonTags returns the json names of the struct fields declared in file.
func jsonTags(t *testing.T, file string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if field, ok := n.(*ast.Field); ok && field.Tag != nil {
			tag, _ := strconv.Unquote(field.Tag.Value)
			if name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ","); name != "" && name != "-" {
				out = append(out, name)
			}
		}
		return true
	})
	return out
}
