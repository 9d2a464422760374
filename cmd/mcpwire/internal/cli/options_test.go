package cli

import (
	"reflect"
	"testing"
	"time"
)

// parseOptions parses args for the command name into its options struct
// and runs nothing.
func parseOptions(t *testing.T, name string, args ...string) (Options, Parsed) {
	t.Helper()
	cmd := lookup(name)
	if cmd == nil {
		t.Fatalf("no command %q", name)
	}
	o, _, p, err := cmd.Parse(args)
	if err != nil {
		t.Fatalf("%s %q: %v", name, args, err)
	}
	return o, p
}

// Each command's flags land in its options struct: what a command line
// means is checked without a server.
func TestOptionsParse(t *testing.T) {
	cases := []struct {
		cmd  string
		args []string
		want Options
		pos  []string
	}{
		{"tools", []string{"echo", "--json", "--wide", "--server", "s", "--config", "a.json"},
			&toolsOptions{Target: TargetFlags{ServerFlags: ServerFlags{Timeout: 30 * time.Second, Transport: "auto"}, Config: ConfigFlags{Files: StringList{"a.json"}, Server: "s"}},
				Output: OutputFlags{JSON: true, Wide: true}}, []string{"echo"}},
		{"call", []string{"add", "--arg", "a=1", "--arg", "b=@-", "--args-json", "{}", "--structured", "--output", "out.bin", "--timeout", "5s", "--", "srv"},
			&callOptions{Target: TargetFlags{ServerFlags: ServerFlags{Timeout: 5 * time.Second, Transport: "auto", timeoutSet: true}},
				Args: StringList{"a=1", "b=@-"}, ArgsJSON: "{}", Structured: true, OutputFile: "out.bin"}, []string{"add"}},
		{"resources", []string{"--format", "json", "--strict"},
			&viewOptions{Target: TargetFlags{ServerFlags: ServerFlags{Timeout: 30 * time.Second, Transport: "auto"}, Config: ConfigFlags{Strict: true}},
				Output: OutputFlags{Format: "json"}}, nil},
		{"read", []string{"demo://a", "--header", "X-A: b", "--bearer-token-env", "TOK", "--transport", "sse", "--output", "a.bin", "https://h/mcp"},
			&readOptions{viewOptions: viewOptions{Target: TargetFlags{ServerFlags: ServerFlags{Timeout: 30 * time.Second, Transport: "sse", Headers: StringList{"X-A: b"}, BearerTokenEnv: "TOK"}}},
				OutputFile: "a.bin"},
			[]string{"demo://a", "https://h/mcp"}},
		{"prompts", []string{"--verbose"},
			&viewOptions{Target: TargetFlags{ServerFlags: ServerFlags{Timeout: 30 * time.Second, Transport: "auto", Verbose: true}}}, nil},
		{"prompt", []string{"greet", "--arg", "name=x", "--env", "K=V", "--inherit-env", "--", "srv"},
			&promptOptions{viewOptions: viewOptions{Target: TargetFlags{ServerFlags: ServerFlags{Timeout: 30 * time.Second, Transport: "auto", Env: StringList{"K=V"}, InheritEnv: true}}},
				Args: StringList{"name=x"}}, []string{"greet"}},
		{"info", []string{"--timeout", "0"},
			&viewOptions{Target: TargetFlags{ServerFlags: ServerFlags{Transport: "auto", timeoutSet: true}}}, nil},
		{"ping", []string{"--server", "s"},
			&viewOptions{Target: TargetFlags{ServerFlags: ServerFlags{Timeout: 30 * time.Second, Transport: "auto"}, Config: ConfigFlags{Server: "s"}}}, nil},
		{"call", []string{"elicit", "--elicit", "defaults", "--elicit-json", `{"a":1}`, "--root", "/a", "--root", "b", "--record", "s.jsonl", "https://h/mcp"},
			&callOptions{Target: TargetFlags{ServerFlags: ServerFlags{Timeout: 30 * time.Second, Transport: "auto", Record: "s.jsonl",
				Input: InputFlags{Elicit: "defaults", ElicitJSON: `{"a":1}`, Roots: StringList{"/a", "b"}}}}}, []string{"elicit", "https://h/mcp"}},
		{"servers", []string{"--sources", "--json", "--timeout", "2s"},
			&serversOptions{Server: ServerFlags{Timeout: 2 * time.Second, timeoutSet: true}, Sources: true, Output: OutputFlags{JSON: true}}, nil},
		{"login", []string{"s", "--no-browser", "--verbose"}, &loginOptions{NoBrowser: true, Verbose: true}, []string{"s"}},
		{"logout", []string{"--config", "c.json", "s"}, &logoutOptions{Config: ConfigFlags{Files: StringList{"c.json"}}}, []string{"s"}},
		{"auth", []string{"status", "--json"}, &authOptions{JSON: true}, []string{"status"}},
		{"version", []string{"--json"}, &versionOptions{JSON: true}, nil},
		{"trust", []string{"--yes", ".mcp.json", ".vscode/mcp.json"}, &trustOptions{Yes: true}, []string{".mcp.json", ".vscode/mcp.json"}},
		{"trust", nil, &trustOptions{}, nil},
		{"demo", []string{"--timeout", "1m"}, &demoOptions{Server: ServerFlags{Timeout: time.Minute}}, nil},
		{ServeName, []string{"--faults", "crash:echo"}, &serveOptions{Faults: "crash:echo"}, nil},
		{ServeName, []string{"--replay", "s.jsonl"}, &serveOptions{Replay: "s.jsonl"}, nil},
	}
	for _, c := range cases {
		got, p := parseOptions(t, c.cmd, c.args...)
		clearWiring(got)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q:\n got %+v\nwant %+v", c.cmd, c.args, got, c.want)
		}
		if !reflect.DeepEqual(p.Args, c.pos) {
			t.Errorf("%s %q: positional %q, want %q", c.cmd, c.args, p.Args, c.pos)
		}
	}
}

// clearWiring drops what a command sets up besides the parsed values
// (its formats, argument counts, the show function), which
// reflect.DeepEqual cannot compare.
func clearWiring(o Options) {
	if p, ok := o.(*promptOptions); ok {
		o = &p.viewOptions
	}
	if r, ok := o.(*readOptions); ok {
		o = &r.viewOptions
	}
	if v, ok := o.(*viewOptions); ok {
		*v = viewOptions{Target: v.Target, Output: v.Output}
	}
	if f := reflect.ValueOf(o).Elem().FieldByName("Output"); f.IsValid() {
		f.Addr().Interface().(*OutputFlags).formats = nil
	}
}

func TestOutputFormatChecked(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
		bad  bool
	}{
		{nil, "table", false},
		{[]string{"--json"}, "json", false},
		{[]string{"--format", "jsonl"}, "jsonl", false},
		{[]string{"--format", "yaml"}, "", true},
		{[]string{"--json", "--format", "table"}, "", true},
	} {
		o, _ := parseOptions(t, "tools", c.args...)
		got, err := o.(*toolsOptions).Output.Resolve()
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("%q: %q, %v", c.args, got, err)
		}
	}
}
