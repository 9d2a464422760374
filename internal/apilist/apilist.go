// Apilist writes the listing of the module's public surface: one file per public package under api/, one line per exported
// name (constants, variables, functions, types, methods, struct fields
// and interface methods), sorted.
//
// The listing is checked in so that every change to what users can name is
// a change to a file a reviewer sees. TestListingsAreCurrent (in go test
// ./...) fails when the code and the files disagree; regenerate them with
//
//	go run ./internal/apilist
//
// from the module root, and review the diff.
//
// It reads source only (go/parser and go/doc, no type checking), so a line
// shows a declaration as written: parameter names are left out, so that
// renaming one is not a change of surface, but a type's spelling is kept.
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Dir is where the listings live, relative to the module root.
const Dir = "api"

// RegenerateCommand is what a maintainer runs, from the module root, to
// bring the listings in line with the code.
const RegenerateCommand = "go run ./internal/apilist"

// platforms are the build contexts whose files make up a package's
// surface: a name declared only for one of them is still public there.
var platforms = [][2]string{
	{"linux", "amd64"},
	{"darwin", "arm64"},
	{"windows", "amd64"},
}

// Listings returns, for each public package of the module rooted at root,
// its listing file's name under Dir and its contents.
func Listings(root string) (map[string][]byte, error) {
	pkgs, err := publicPackages(root)
	if err != nil {
		return nil, err
	}
	modPath, err := modulePath(root)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]byte, len(pkgs))
	for _, rel := range pkgs {
		dir := filepath.Join(root, rel)
		lines, err := packageLines(dir)
		if err != nil {
			return nil, fmt.Errorf("apilist: package %s: %w", rel, err)
		}
		more, err := aliasLines(root, modPath, dir, lines)
		if err != nil {
			return nil, fmt.Errorf("apilist: package %s: %w", rel, err)
		}
		lines = append(lines, more...)
		slices.Sort(lines)
		lines = slices.Compact(lines)
		var b bytes.Buffer
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		out[FileName(rel)] = b.Bytes()
	}
	return out, nil
}

// FileName is the listing file of the package at rel (a slash-separated
// path from the module root): its path with slashes turned into dots.
func FileName(rel string) string {
	return strings.ReplaceAll(filepath.ToSlash(rel), "/", ".") + ".txt"
}

// publicPackages lists the directories (relative to root) of the packages
// a user of the module can import and that are libraries: not under an
// internal or cmd directory, not testdata, not in a nested module, not a
// main package.
func publicPackages(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if path != root {
			name := d.Name()
			if name == "internal" || name == "cmd" || name == "testdata" || name == Dir ||
				name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module has its own surface
			}
		}
		pkg, err := build.Default.ImportDir(path, 0)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			return err
		}
		if pkg.Name == "main" {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if rel != "." {
			dirs = append(dirs, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(dirs)
	return dirs, err
}

// packageLines is the sorted, de-duplicated listing of the package in dir,
// over every platform in platforms.
func packageLines(dir string) ([]string, error) {
	seen := map[string]bool{}
	for _, p := range platforms {
		ctx := build.Default
		ctx.GOOS, ctx.GOARCH = p[0], p[1]
		ctx.CgoEnabled = false
		bp, err := ctx.ImportDir(dir, 0)
		if err != nil {
			return nil, err
		}
		lines, err := fileLines(dir, bp.GoFiles)
		if err != nil {
			return nil, err
		}
		for _, l := range lines {
			seen[l] = true
		}
	}
	lines := make([]string, 0, len(seen))
	for l := range seen {
		lines = append(lines, l)
	}
	slices.Sort(lines)
	return lines, nil
}

// fileLines lists the exported declarations of one build of a package.
func fileLines(dir string, names []string) ([]string, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, n := range names {
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, nil
	}
	p, err := doc.NewFromFiles(fset, files, "example.invalid/"+filepath.Base(dir))
	if err != nil {
		return nil, err
	}
	w := &writer{fset: fset}
	w.values("const", p.Consts)
	w.values("var", p.Vars)
	w.funcs(p.Funcs)
	for _, t := range p.Types {
		w.typ(t)
		w.values("const", t.Consts)
		w.values("var", t.Vars)
		w.funcs(t.Funcs)
		w.funcs(t.Methods)
	}
	return w.lines, nil
}

type writer struct {
	fset  *token.FileSet
	lines []string
}

func (w *writer) add(format string, args ...any) {
	w.lines = append(w.lines, fmt.Sprintf(format, args...))
}

// expr prints an expression as gofmt would, on one line, with the
// parameter names of function types in it left out.
func (w *writer) expr(e ast.Expr) string {
	ast.Inspect(e, func(n ast.Node) bool {
		if ft, ok := n.(*ast.FuncType); ok {
			dropNames(ft.Params)
			dropNames(ft.Results)
		}
		return true
	})
	var b bytes.Buffer
	if err := printer.Fprint(&b, w.fset, e); err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// values lists the exported names of const or var groups. In a const group
// a spec with neither type nor value repeats the one before it, so it
// takes that spec's type.
func (w *writer) values(kind string, vals []*doc.Value) {
	for _, v := range vals {
		var typ ast.Expr
		for _, spec := range v.Decl.Specs {
			vs := spec.(*ast.ValueSpec)
			if vs.Type != nil || len(vs.Values) > 0 {
				typ = vs.Type
			}
			for _, n := range vs.Names {
				if !n.IsExported() {
					continue
				}
				if typ != nil {
					w.add("%s %s %s", kind, n.Name, w.expr(typ))
				} else {
					w.add("%s %s", kind, n.Name)
				}
			}
		}
	}
}

func (w *writer) funcs(fns []*doc.Func) {
	for _, f := range fns {
		if !ast.IsExported(f.Name) {
			continue
		}
		sig := w.signature(f.Decl.Type)
		if f.Decl.Recv != nil && len(f.Decl.Recv.List) > 0 {
			w.add("method (%s) %s%s", w.expr(f.Decl.Recv.List[0].Type), f.Name, sig)
			continue
		}
		w.add("func %s%s", f.Name, sig)
	}
}

// signature prints a function type's type parameters, parameters and
// results by type alone.
func (w *writer) signature(ft *ast.FuncType) string {
	var b strings.Builder
	if ft.TypeParams != nil {
		b.WriteString("[" + w.fieldTypes(ft.TypeParams, true) + "]")
	}
	b.WriteString("(" + w.fieldTypes(ft.Params, false) + ")")
	if ft.Results != nil && len(ft.Results.List) > 0 {
		res := w.fieldTypes(ft.Results, false)
		if len(ft.Results.List) == 1 && len(ft.Results.List[0].Names) <= 1 {
			b.WriteString(" " + res)
		} else {
			b.WriteString(" (" + res + ")")
		}
	}
	return b.String()
}

// fieldTypes prints a parameter list by type, once per name; type
// parameters keep their names, which the signature refers to.
func (w *writer) fieldTypes(fl *ast.FieldList, keepNames bool) string {
	if fl == nil {
		return ""
	}
	var parts []string
	for _, f := range fl.List {
		t := w.expr(f.Type)
		if keepNames {
			for _, n := range f.Names {
				parts = append(parts, n.Name+" "+t)
			}
			continue
		}
		for range max(1, len(f.Names)) {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, ", ")
}

// typ lists a type, and then its exported fields or interface methods.
func (w *writer) typ(t *doc.Type) {
	for _, spec := range t.Decl.Specs {
		ts := spec.(*ast.TypeSpec)
		if ts.Name.Name != t.Name {
			continue
		}
		name := ts.Name.Name
		if ts.TypeParams != nil {
			name += "[" + w.fieldTypes(ts.TypeParams, true) + "]"
		}
		if ts.Assign.IsValid() {
			w.add("type %s = %s", name, w.expr(ts.Type))
			continue
		}
		switch u := ts.Type.(type) {
		case *ast.StructType:
			w.add("type %s struct", name)
			for _, f := range u.Fields.List {
				ft := w.expr(f.Type)
				if len(f.Names) == 0 {
					w.add("type %s struct, embedded %s", name, ft)
					continue
				}
				for _, n := range f.Names {
					if n.IsExported() {
						w.add("type %s struct, %s %s", name, n.Name, ft)
					}
				}
			}
		case *ast.InterfaceType:
			w.add("type %s interface", name)
			if u.Incomplete {
				// go/doc dropped unexported methods: nobody outside
				// the module can implement this interface.
				w.add("type %s interface, unexported methods", name)
			}
			for _, m := range u.Methods.List {
				if len(m.Names) == 0 {
					w.add("type %s interface, embedded %s", name, w.expr(m.Type))
					continue
				}
				for _, n := range m.Names {
					if fn, ok := m.Type.(*ast.FuncType); ok {
						w.add("type %s interface, %s%s", name, n.Name, w.signature(fn))
					}
				}
			}
		default:
			w.add("type %s %s", name, w.expr(ts.Type))
		}
	}
}

// dropNames rewrites a parameter list to types alone, one field per name.
func dropNames(fl *ast.FieldList) {
	if fl == nil {
		return
	}
	var list []*ast.Field
	for _, f := range fl.List {
		for range max(1, len(f.Names)) {
			list = append(list, &ast.Field{Type: f.Type})
		}
	}
	fl.List = list
}
