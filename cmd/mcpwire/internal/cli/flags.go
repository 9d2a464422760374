package cli

import (
	"errors"
	"flag"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// NewFlagSet returns a flag set that reports errors instead of exiting and
// prints nothing by itself: Parse turns every problem into a *UsageError.
func NewFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// Parsed is the outcome of Parse.
type Parsed struct {
	// Args are the positional arguments, in order, wherever they stood
	// among the flags.
	Args []string
	// Command is everything after the first "--" (the stdio server's
	// command line), nil when there was no "--".
	Command []string
	// Dash reports that a "--" was present, even with nothing after it.
	Dash bool
}

// Parse parses args against fs, allowing flags and positional arguments in
// any order (the standard flag package stops at the first positional). A
// flag is "-name" or "--name", with its value either after "=" or as the
// next argument; boolean flags take no separate value. "--" ends flag
// parsing and everything after it is Parsed.Command. A lone "-" is a
// positional argument.
//
// "-h" and "--help" return flag.ErrHelp. Every other problem is a
// *UsageError that names the flag; flag values are never echoed, because a
// value may be a secret.
func Parse(fs *flag.FlagSet, args []string) (Parsed, error) {
	var p Parsed
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			p.Dash = true
			p.Command = append([]string{}, args[i+1:]...)
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			p.Args = append(p.Args, a)
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		value, hasValue := "", false
		if k, v, ok := strings.Cut(name, "="); ok {
			name, value, hasValue = k, v, true
		}
		if name == "h" || name == "help" {
			return p, flag.ErrHelp
		}
		f := fs.Lookup(name)
		if f == nil || name == "" || strings.HasPrefix(name, "-") {
			return p, unknownFlag(fs, a)
		}
		if !hasValue {
			if isBool(f) {
				value = "true"
			} else {
				if i+1 >= len(args) {
					return p, Usagef("flag --%s needs a value", name)
				}
				i++
				value = args[i]
			}
		}
		if err := fs.Set(name, value); err != nil {
			return p, Usagef("invalid value for --%s: %s", name, setErrorText(err))
		}
	}
	return p, nil
}

// flagName is the flag as typed, without any "=value" part.
func flagName(arg string) string {
	k, _, _ := strings.Cut(arg, "=")
	return k
}

// setErrorText is the reason a flag.Value rejected its input. Values in
// this package return *UsageError with text that never repeats the input;
// the standard ones (durations, bools) quote the input, which is harmless
// for those kinds, so their text is kept.
func setErrorText(err error) string {
	var u *UsageError
	if errors.As(err, &u) {
		return u.Msg
	}
	return err.Error()
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// StringList is a repeatable string flag.
type StringList []string

func (l *StringList) String() string { return strings.Join(*l, ", ") }

// Set appends one value.
func (l *StringList) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// JSONFlag registers --json, the machine-readable output switch every
// command shares.
func JSONFlag(fs *flag.FlagSet, v *bool) {
	fs.BoolVar(v, "json", false, "print stable JSON to stdout instead of text")
}

// NoArgs rejects positional arguments for commands that take none.
func NoArgs(p Parsed) error {
	return ExactArgs(p.Args, 0, "")
}

// ExactArgs checks that args has exactly n elements; what names them for
// the error ("TOOL", "URI").
func ExactArgs(args []string, n int, what string) error {
	return argCount(args, n, n, what)
}

// wellFormedDuration matches what time.ParseDuration reads; such a value
// that it refuses is one too long for a time.Duration.
var wellFormedDuration = regexp.MustCompile(`^[-+]?(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+$`)

// durationFlag is a time.Duration flag that refuses a bare number: "5"
// could mean seconds or milliseconds, so it asks for a unit.
type durationFlag time.Duration

func (d *durationFlag) String() string { return time.Duration(*d).String() }

// Set parses v as a Go duration ("500ms", "5s", "1m"); "0" disables.
func (d *durationFlag) Set(v string) error {
	if v == "0" {
		*d = 0
		return nil
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return Usagef("%s has no unit: add a unit, such as %ss (or %sms)", v, v, v)
	}
	t, err := time.ParseDuration(v)
	if err != nil && wellFormedDuration.MatchString(v) {
		return Usagef("%q is longer than a duration can be (about 292 years); 0 waits forever", v)
	}
	if err != nil {
		return Usagef("%q is not a duration: use a number with a unit, such as 5s, 500ms or 1m", v)
	}
	if t < 0 {
		return Usagef("must not be negative (0 disables it)")
	}
	*d = durationFlag(t)
	return nil
}
