package cli

import (
	"errors"
	"flag"
	"slices"
	"strings"
	"testing"
	"time"
)

func testFlags() (*flag.FlagSet, *StringList, *bool, *time.Duration) {
	fs := NewFlagSet("t")
	var list StringList
	var b bool
	var d time.Duration
	fs.Var(&list, "arg", "")
	fs.BoolVar(&b, "json", false, "")
	fs.DurationVar(&d, "timeout", time.Second, "")
	return fs, &list, &b, &d
}

func TestParseIntersperses(t *testing.T) {
	fs, list, b, d := testFlags()
	p, err := Parse(fs, []string{"echo", "--arg", "a=1", "-json", "--timeout=2s", "-arg=b=2", "http://x", "--", "cmd", "--arg", "-v"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Args, []string{"echo", "http://x"}) {
		t.Errorf("Args = %q", p.Args)
	}
	if !p.Dash || !slices.Equal(p.Command, []string{"cmd", "--arg", "-v"}) {
		t.Errorf("Command = %q (dash %v)", p.Command, p.Dash)
	}
	if !slices.Equal(*list, []string{"a=1", "b=2"}) || !*b || *d != 2*time.Second {
		t.Errorf("flags: arg=%q json=%v timeout=%v", *list, *b, *d)
	}
}

func TestParseDashAlone(t *testing.T) {
	fs, _, _, _ := testFlags()
	p, err := Parse(fs, []string{"x", "--"})
	if err != nil || !p.Dash || len(p.Command) != 0 || !slices.Equal(p.Args, []string{"x"}) {
		t.Fatalf("got %+v, %v", p, err)
	}
	// A value that happens to be "--" is a value, not the terminator.
	fs, list, _, _ := testFlags()
	p, err = Parse(fs, []string{"--arg", "--", "y"})
	if err != nil || p.Dash || !slices.Equal(*list, []string{"--"}) || !slices.Equal(p.Args, []string{"y"}) {
		t.Fatalf("got %+v %q, %v", p, *list, err)
	}
	// "-" is positional (stdin by convention).
	fs, _, _, _ = testFlags()
	p, err = Parse(fs, []string{"-"})
	if err != nil || !slices.Equal(p.Args, []string{"-"}) {
		t.Fatalf("got %+v, %v", p, err)
	}
}

func TestParseHelp(t *testing.T) {
	for _, h := range []string{"-h", "--help", "-help"} {
		fs, _, _, _ := testFlags()
		if _, err := Parse(fs, []string{"x", h}); err != flag.ErrHelp {
			t.Errorf("%s: err = %v, want flag.ErrHelp", h, err)
		}
	}
	// After "--", -h belongs to the server's command.
	fs, _, _, _ := testFlags()
	if p, err := Parse(fs, []string{"--", "srv", "-h"}); err != nil || !slices.Equal(p.Command, []string{"srv", "-h"}) {
		t.Errorf("got %+v, %v", p, err)
	}
}

func TestParseErrorsNameTheFlagNotTheValue(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--nope"}, "unknown flag --nope"},
		{[]string{"--nope=secret-value"}, "unknown flag --nope"},
		{[]string{"---arg", "x"}, "unknown flag ---arg"},
		{[]string{"--arg"}, "flag --arg needs a value"},
		{[]string{"--timeout", "soon"}, "invalid value for --timeout"},
		{[]string{"--json=maybe"}, "invalid value for --json"},
	}
	for _, c := range cases {
		fs, _, _, _ := testFlags()
		_, err := Parse(fs, c.args)
		var u *UsageError
		if !errors.As(err, &u) {
			t.Errorf("%q: err = %v, want a *UsageError", c.args, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %q, want it to contain %q", c.args, err, c.want)
		}
		if strings.Contains(err.Error(), "secret-value") {
			t.Errorf("%q: err = %q repeats the value", c.args, err)
		}
	}
}

func TestFlagDefaults(t *testing.T) {
	fs, _, _, _ := testFlags()
	got := FlagDefaults(fs)
	for _, want := range []string{"--arg value", "--json ", "--timeout duration", "(default 1s)"} {
		if !strings.Contains(got, want) {
			t.Errorf("FlagDefaults lacks %q:\n%s", want, got)
		}
	}
	// A usage that says its default itself gets no second one.
	fs.Int("port", 0, "serve on `N` (default: a free port)")
	if got := FlagDefaults(fs); strings.Count(got, "(default") != 2 {
		t.Errorf("FlagDefaults says a default twice:\n%s", got)
	}
}

func TestExactArgs(t *testing.T) {
	if err := ExactArgs([]string{"a"}, 1, "TOOL"); err != nil {
		t.Error(err)
	}
	if err := ExactArgs(nil, 1, "TOOL"); err == nil || !strings.Contains(err.Error(), "missing TOOL") {
		t.Errorf("missing: %v", err)
	}
	if err := ExactArgs([]string{"a", "tok3n-value"}, 1, "TOOL"); err == nil || strings.Contains(err.Error(), "tok3n") {
		t.Errorf("extra: %v", err)
	}
	if err := ExactArgs([]string{"tok3n-value"}, 0, ""); err == nil || strings.Contains(err.Error(), "tok3n") {
		t.Errorf("none: %v", err)
	}
}

func TestDurationFlag(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    time.Duration
		wantErr string
	}{
		{"5s", 5 * time.Second, ""},
		{"250ms", 250 * time.Millisecond, ""},
		{"0", 0, ""},
		{"5", 0, "5 has no unit: add a unit, such as 5s"},
		{"1.5", 0, "add a unit, such as 1.5s"},
		{"-1s", 0, "must not be negative"},
		{"soon", 0, "not a duration"},
		{"5x", 0, "not a duration"},
		{"99999999999999h", 0, "longer than a duration can be"},
		{"1h30m", 90 * time.Minute, ""},
	} {
		d := durationFlag(time.Minute)
		err := d.Set(c.in)
		switch {
		case c.wantErr == "" && (err != nil || time.Duration(d) != c.want):
			t.Errorf("%q: %v, %v; want %v", c.in, time.Duration(d), err, c.want)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%q: err %v, want %q", c.in, err, c.wantErr)
		}
	}
}
