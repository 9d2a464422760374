package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// completionConfig writes a config naming the built binary's example
// server and isolates the user's files; it returns the config's path.
func completionConfig(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	t.Chdir(home)
	cfg := filepath.Join(home, "servers.json")
	data := `{"mcpServers": {"ex": {"command": "` + binary + `", "args": ["__serve-mcptest"]}}}`
	if err := os.WriteFile(cfg, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The hidden __complete asks the configured servers for their names.
func TestCompleteToolNamesFromBinary(t *testing.T) {
	cfg := completionConfig(t)
	out, err := exec.CommandContext(t.Context(), binary, "__complete", "call", "--config", cfg, "ex/").Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if lines[0] != "words" || !slices.Contains(lines, "ex/echo\tReturns its message.") || !slices.Contains(lines, "ex/add\tAdds a and b.") {
		t.Errorf("__complete call ex/:\n%s", out)
	}
}

// shellRun runs script in shell with the binary's directory first on
// PATH, skipping the test when the shell is not installed.
func shellRun(t *testing.T, shell string, args ...string) string {
	t.Helper()
	path, err := exec.LookPath(shell)
	if err != nil {
		t.Skipf("%s is not installed: its completion script is not checked", shell)
	}
	cmd := exec.CommandContext(t.Context(), path, args...)
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %q: %v\n%s", shell, args, err, out)
	}
	return string(out)
}

// The bash script, loaded in a real bash and called as bash calls it:
// COMP_WORDS split at bash's word breaks (":" among them), so only the
// part after the last ":" of a URI is replaced.
func TestBashCompletionScript(t *testing.T) {
	cfg := completionConfig(t)
	for _, c := range []struct {
		line  string
		words string // COMP_WORDS as bash splits line
		want  string
	}{
		{"mcpwire ca", "mcpwire ca", "call"},
		{"mcpwire tools --wi", "mcpwire tools --wi", "--wide"},
		{"mcpwire call --config " + cfg + " ex/a", "mcpwire call --config " + cfg + " ex/a", "ex/add ex/add-tool"},
		{"mcpwire read --config " + cfg + " ex/mcptest://static/h", "mcpwire read --config " + cfg + " ex/mcptest : //static/h", "//static/hello.txt"},
		{"mcpwire tools --format=js", "mcpwire tools --format = js", "json jsonl"},
	} {
		script := `source <(mcpwire completion bash)
COMP_LINE='` + c.line + `'; COMP_POINT=${#COMP_LINE}
COMP_WORDS=(` + c.words + `); COMP_CWORD=$((${#COMP_WORDS[@]}-1))
_mcpwire
echo "${COMPREPLY[*]}"`
		if got := strings.TrimSpace(shellRun(t, "bash", "-c", script)); got != c.want {
			t.Errorf("bash %q: COMPREPLY %q, want %q", c.line, got, c.want)
		}
	}
}

// fish completes a command line itself with complete -C.
func TestFishCompletionScript(t *testing.T) {
	cfg := completionConfig(t)
	got := shellRun(t, "fish", "-c", `mcpwire completion fish | source; complete -C 'mcpwire call --config `+cfg+` ex/ad'`)
	if got != "ex/add\tAdds a and b.\nex/add-tool\tRegisters another echo tool under the given name.\n" {
		t.Errorf("fish: %q", got)
	}
}

// zsh: the script is valid, registers itself, and turns the answer into
// _describe's name:description items (compsys's own functions stubbed,
// as completing needs a terminal).
func TestZshCompletionScript(t *testing.T) {
	cfg := completionConfig(t)
	got := shellRun(t, "zsh", "-f", "-c", `autoload -U compinit && compinit -u -D
source <(mcpwire completion zsh)
[[ $_comps[mcpwire] == _mcpwire ]] || echo "not registered"
_describe() { print -rl -- "${(@P)argv[-1]}" }
words=(mcpwire call --config `+cfg+` ex/ad); CURRENT=5
_mcpwire`)
	if got != "ex/add:Adds a and b.\nex/add-tool:Registers another echo tool under the given name.\n" {
		t.Errorf("zsh: %q", got)
	}
}
