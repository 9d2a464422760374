package config

import (
	"fmt"
	"os"
	"path/filepath"
)

// Inspection is a config file read without trusting it: its servers as
// written, with no variable read or expanded, for a user deciding whether
// to approve it.
type Inspection struct {
	// File is the file's absolute path, as approvals key it.
	File   string
	Format Format
	// SHA256 is ContentHash of the content read; Approve it to trust
	// exactly what was shown.
	SHA256 string
	// Servers are the valid definitions in file order. Their values hold
	// the ${...} references as written; Vars names what each would read;
	// Source.Untrusted is set.
	Servers []*Server
	// Names are all the names the file defines, valid or not, in order.
	Names []string
	// Problems are the file's own (syntax, invalid fields). None comes
	// from a variable, as none is read.
	Problems []Problem
}

// Inspect reads one config file (format from DetectFormat) without
// reading any variable: ${VAR} and ${input:id} references stay as
// written and are listed in each server's Vars. Of opts it uses Dir and
// HomeDir (${workspaceFolder}, ${userHome}, a relative cwd), with Load's
// defaults (the working directory, the user's home).
func Inspect(file string, opts LoadOptions) (*Inspection, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return inspectData(data, abs, DetectFormat(abs), opts), nil
}

// inspectData parses data as an untrusted file.
func inspectData(data []byte, file string, format Format, opts LoadOptions) *Inspection {
	in := &Inspection{File: file, Format: format, SHA256: ContentHash(data)}
	entries, problems := parseDocumentWith(data, file, format, opts, true)
	in.Problems = problems
	for _, e := range entries {
		in.Names = append(in.Names, e.name)
		if e.server != nil {
			e.server.Source.Untrusted = true
			in.Servers = append(in.Servers, e.server)
		}
	}
	return in
}
