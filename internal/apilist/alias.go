package main

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// aliasLines lists what a public package exposes through aliases of its
// module's internal types (mcptest's "type Server = server.Server"): the
// target's exported fields, interface methods and methods, under the
// alias's name. A user calls them as the public package's, so a change
// to them is a change of its surface, and the alias line alone would not
// show it.
//
// lines is the package's own listing (packageLines of dir); root and
// modPath are the module's. Only aliases of types in internal packages of
// the module are followed: another public package's types are listed in
// that package's file.
func aliasLines(root, modPath, dir string, lines []string) ([]string, error) {
	imports, err := importsOf(dir)
	if err != nil {
		return nil, err
	}
	listed := map[string][]string{} // internal package dir → its listing
	var out []string
	for _, l := range lines {
		alias, target, ok := strings.Cut(strings.TrimPrefix(l, "type "), " = ")
		if !ok || !strings.HasPrefix(l, "type ") || strings.ContainsAny(alias, "[ ") {
			continue
		}
		pkgName, typeName, ok := strings.Cut(target, ".")
		if !ok || strings.ContainsAny(typeName, "[ .") {
			continue
		}
		path, ok := imports[pkgName]
		if !ok {
			continue
		}
		rel, ok := strings.CutPrefix(path, modPath+"/")
		if !ok || !isInternal(rel) {
			continue
		}
		target = filepath.Join(root, filepath.FromSlash(rel))
		of, ok := listed[target]
		if !ok {
			of, err = packageLines(target)
			if err != nil {
				return nil, err
			}
			listed[target] = of
		}
		out = append(out, renamed(of, typeName, alias)...)
	}
	return out, nil
}

// renamed picks, from a package's listing, the member lines of type from
// (fields, interface methods, methods) and writes them for type to.
func renamed(listing []string, from, to string) []string {
	var out []string
	for _, l := range listing {
		switch {
		case strings.HasPrefix(l, "type "+from+" struct, "), strings.HasPrefix(l, "type "+from+" interface, "):
			out = append(out, "type "+to+strings.TrimPrefix(l, "type "+from))
		case strings.HasPrefix(l, "method ("+from+") "):
			out = append(out, "method ("+to+") "+strings.TrimPrefix(l, "method ("+from+") "))
		case strings.HasPrefix(l, "method (*"+from+") "):
			out = append(out, "method (*"+to+") "+strings.TrimPrefix(l, "method (*"+from+") "))
		}
	}
	return out
}

// isInternal reports whether rel, a package path inside the module, is
// under an internal directory.
func isInternal(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if part == "internal" {
			return true
		}
	}
	return false
}

// importsOf maps the names the package in dir imports under (its files'
// explicit names, or the path's last element) to their paths. A name
// bound to two paths in different files is left out: it cannot be
// resolved without type checking.
func importsOf(dir string) (map[string]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	clash := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			return nil, err
		}
		for _, im := range af.Imports {
			path, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				return nil, err
			}
			name := path[strings.LastIndex(path, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			if old, ok := m[name]; ok && old != path {
				clash[name] = true
			}
			m[name] = path
		}
	}
	for n := range clash {
		delete(m, n)
	}
	return m, nil
}

// modulePath reads the module path from root's go.mod: its module line
// (written by go mod, so unquoted and on one line).
func modulePath(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	return "", fmt.Errorf("apilist: no module line in %s", filepath.Join(root, "go.mod"))
}
