package cli

import (
	"os"

	"github.com/mcpwire/mcpwire/internal/privatefile"
)

// openAuditLog opens --audit-log's file as --record's is opened
// (docs/security.md): created 0600, an existing file set to 0600, and
// never through a symbolic link, since the log holds who called what and,
// with --audit-args, the arguments. It appends where a recording
// truncates: an audit log is kept across runs.
func openAuditLog(path string) (*os.File, error) {
	f, err := privatefile.Open(path, privatefile.Append, "the audit log")
	if err != nil {
		return nil, pathReason(err)
	}
	return f, nil
}
