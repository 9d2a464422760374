package transport

import (
	"os"

	"github.com/mcpwire/mcpwire/internal/privatefile"
)

// CreateRecordFile opens path for a wire recording (NewRecorder): created
// with mode 0600, an existing file truncated and set to 0600 (a recording
// holds what the servers said, which may be private, whatever mode the
// old file had), and never through a symbolic link: a link planted at the
// path (in a shared directory, say) would send the recording, or the
// truncation, wherever it points. A link is an *fs.PathError naming the path.
func CreateRecordFile(path string) (*os.File, error) {
	return privatefile.Open(path, privatefile.Truncate, "a recording")
}
