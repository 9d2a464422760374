package mcptest_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

// ParseFault's doc comment is the grammar a test author copies. A spec
// written by a wrong grammar still parses (the size or marker becomes
// part of the target), and the fault then silently never fires, so the
// documented separators must be the ones the parser reads.
func TestParseFaultDocGrammar(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "core.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "ParseFault" && fn.Doc != nil {
			doc = fn.Doc.Text()
		}
	}
	m := regexp.MustCompile(`(?i)kind\[:target\]\[(\W)size\]\[(\W)\]`).FindStringSubmatch(doc)
	if m == nil {
		t.Fatalf("ParseFault's doc states no KIND[:TARGET][?SIZE][?] grammar:\n%s", doc)
	}
	spec := "flood-stderr" + m[1] + "2KiB" + m[2]
	got, err := mcptest.ParseFault(spec)
	if err != nil {
		t.Fatalf("ParseFault(%q), written as documented: %v", spec, err)
	}
	if got.Size != 2048 || !got.Sticky || got.Target != "" {
		t.Errorf("ParseFault(%q), written as documented, = %+v; want size 2048, sticky, no target", spec, got)
	}
}
