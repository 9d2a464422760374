package transport

import "github.com/mcpwire/mcpwire/internal/seam"

// Every message these streams deliver is decoded from a frame by the
// jsonrpc codec, which checks the frame whole as JSON first, and no
// response with a result is made up on the way: the MCP client need not
// check results again (seam.CheckedResults). A recordedStream passes on
// what it wraps and says nothing, so a client over it checks.
var (
	_ seam.CheckedResults = (*lineStream)(nil)
	_ seam.CheckedResults = (*httpStream)(nil)
	_ seam.CheckedResults = (*sseStream)(nil)
	_ seam.CheckedResults = (*autoStream)(nil)
)

func (*lineStream) ResultsChecked() bool { return true }
func (*httpStream) ResultsChecked() bool { return true }
func (*sseStream) ResultsChecked() bool  { return true }

// ResultsChecked: both streams an autoStream may choose are checked.
func (*autoStream) ResultsChecked() bool { return true }
