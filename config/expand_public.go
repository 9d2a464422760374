package config

import "os"

// ExpandString expands the variable references in s with the syntax Load
// uses for server definitions (${VAR}, ${VAR:-default}, ${env:VAR},
// ${input:id}, ${workspaceFolder}, ${userHome}, $${ for a literal), taking
// variables from opts.Env (default os.LookupEnv), inputs from
// opts.Inputs, and the directories from opts.Dir and opts.HomeDir. It
// serves the blocks Load keeps unexpanded, such as Server.OAuth. The
// error names the reference that could not be resolved, never a value.
func ExpandString(s string, opts LoadOptions) (string, error) {
	return newResolver(opts).expand(s)
}

// newResolver resolves references with opts's variables, inputs and
// directories; variables default to the process environment.
func newResolver(opts LoadOptions) *resolver {
	env := opts.Env
	if env == nil {
		env = os.LookupEnv
	}
	return &resolver{env: env, inputs: opts.Inputs, workspace: opts.Dir, home: opts.HomeDir}
}
