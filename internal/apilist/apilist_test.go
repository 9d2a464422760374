package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// moduleRoot is where this package sits in the module: internal/apilist.
const moduleRoot = "../.."

// TestListingsAreCurrent holds the checked-in api/ listings to the code: a
// change to the public surface must come with its listing.
func TestListingsAreCurrent(t *testing.T) {
	want, err := Listings(moduleRoot)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string][]byte{}
	files, err := filepath.Glob(filepath.Join(moduleRoot, Dir, "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		have[filepath.Base(f)] = b
	}
	if report := compare(have, want); report != "" {
		t.Errorf("the public API differs from the listings in %s/ (+ in the code, not listed; - listed, not in the code):\n%s\n"+
			"If the change is deliberate, regenerate the listings from the module root with\n\t%s\nand commit them with the change.",
			Dir, report, RegenerateCommand)
	}
}

// compare reports, per listing file, the lines only the code has (+) and
// the lines only the checked-in file has (-); empty when they agree.
func compare(have, want map[string][]byte) string {
	names := map[string]bool{}
	for n := range have {
		names[n] = true
	}
	for n := range want {
		names[n] = true
	}
	var sorted []string
	for n := range names {
		sorted = append(sorted, n)
	}
	slices.Sort(sorted)
	var b strings.Builder
	for _, n := range sorted {
		h, inHave := have[n]
		w, inWant := want[n]
		switch {
		case !inHave:
			b.WriteString(Dir + "/" + n + ": missing (a public package with no listing)\n")
		case !inWant:
			b.WriteString(Dir + "/" + n + ": stale (no public package has this listing)\n")
		}
		hl, wl := lineSet(h), lineSet(w)
		var diff []string
		for l := range wl {
			if !hl[l] {
				diff = append(diff, "+ "+l)
			}
		}
		for l := range hl {
			if !wl[l] {
				diff = append(diff, "- "+l)
			}
		}
		if inHave && inWant && len(diff) == 0 && string(h) != string(w) {
			diff = append(diff, "  (same lines, different order or spacing)")
		}
		if len(diff) == 0 {
			continue
		}
		slices.SortFunc(diff, func(a, b string) int { return strings.Compare(a[2:], b[2:]) })
		if inHave && inWant {
			b.WriteString(Dir + "/" + n + ":\n")
		}
		for _, d := range diff {
			b.WriteString("\t" + d + "\n")
		}
	}
	return b.String()
}

func lineSet(b []byte) map[string]bool {
	set := map[string]bool{}
	for l := range strings.SplitSeq(string(b), "\n") {
		if l != "" {
			set[l] = true
		}
	}
	return set
}

// TestListingFormat pins what a listing holds on a fixture module with one
// of each kind of declaration: which packages count as public, which names
// are listed, and how each is spelled.
func TestListingFormat(t *testing.T) {
	got, err := Listings("testdata/mod")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for n := range got {
		files = append(files, n)
	}
	slices.Sort(files)
	if want := []string{"pub.sub.txt", "pub.txt"}; !slices.Equal(files, want) {
		t.Fatalf("listing files = %q, want %q (internal/, cmd/, main packages and nested modules have none)", files, want)
	}
	want := `const KindA Kind
const KindB Kind
const Untyped
func Map[K comparable, V any](map[K]V) []K
func OnlyLinux()
func OnlyWindows()
func Open(context.Context, string, string, ...int) (*Thing, error)
method (*Thing) Close() error
method (Thing) String() string
type Alias = hidden.Thing
type Alias struct, Size int
method (*Alias) Grow(int) error
method (Alias) Len() int
type Kind int
type Open2 interface
type Open2 interface, Name() string
type Open2 interface, embedded io.Closer
type Pair[T any] struct
type Pair[T any] struct, First T
type Pair[T any] struct, Second T
type Sealed interface
type Sealed interface, Do(context.Context) (int, error)
type Sealed interface, unexported methods
type Thing struct
type Thing struct, Label string
type Thing struct, Name string
type Thing struct, OnEvent func(Kind, string)
type Thing struct, embedded io.Reader
var ErrGone
var Hook func(context.Context, string) error
func New() *Thing
`
	wantLines := strings.Split(strings.TrimSpace(want), "\n")
	slices.Sort(wantLines)
	gotLines := strings.Split(strings.TrimSpace(string(got["pub.txt"])), "\n")
	if !slices.Equal(gotLines, wantLines) {
		t.Errorf("pub.txt:\n%s\nwant:\n%s", strings.Join(gotLines, "\n"), strings.Join(wantLines, "\n"))
	}
	if s := string(got["pub.sub.txt"]); s != "func F()\n" {
		t.Errorf("pub.sub.txt = %q, want %q", s, "func F()\n")
	}
}

// TestCompareNamesEveryDifference checks the failure report itself: an
// added name, a removed one, a missing file and a stale one are each named.
func TestCompareNamesEveryDifference(t *testing.T) {
	have := map[string][]byte{
		"a.txt":   []byte("func Kept()\nfunc Removed()\n"),
		"old.txt": []byte("func Old()\n"),
	}
	want := map[string][]byte{
		"a.txt":   []byte("func Added()\nfunc Kept()\n"),
		"new.txt": []byte("func New()\n"),
	}
	got := compare(have, want)
	for _, s := range []string{
		"api/a.txt:\n\t+ func Added()\n\t- func Removed()\n",
		"api/new.txt: missing",
		"\t+ func New()",
		"api/old.txt: stale",
		"\t- func Old()",
	} {
		if !strings.Contains(got, s) {
			t.Errorf("report lacks %q:\n%s", s, got)
		}
	}
	if strings.Contains(got, "Kept") {
		t.Errorf("report names an unchanged line:\n%s", got)
	}
	if r := compare(want, want); r != "" {
		t.Errorf("equal listings reported as different:\n%s", r)
	}
}
