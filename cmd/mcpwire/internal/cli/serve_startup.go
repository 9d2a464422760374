package cli

import (
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/manager"
)

// reportServing tells the operator, once the servers have settled at
// start-up, which configured servers the gateway is not serving as they
// meant: the project files not yet approved (their servers are left out
// silently otherwise, and a host just sees fewer tools), the servers
// whose definition is broken, and those that failed to connect (served
// all the same: their calls fail naming them until supervision
// reconnects them). A gateway's stderr is its operator's only view of
// this; every other command says it through its exit status.
func (s *Session) reportServing(servers []manager.ServerStatus) {
	out := s.io.ErrOut
	if files := untrustedFiles(servers); len(files) > 0 {
		approve := "mcpwire trust"
		if len(files) == 1 {
			approve = trustCommandFor(files[0])
		}
		fmt.Fprintf(out, "mcpwire: serve: not serving the servers of %s: project config not yet trusted; review and approve it with %q (or name it with --config, or set %s=1)\n",
			Sanitize(strings.Join(files, ", ")), approve, TrustProjectEnv)
	}
	for _, st := range servers {
		if st.State == manager.StateConnected || st.State == manager.StateDisabled || st.State == manager.StateUntrusted || st.Err == nil {
			continue
		}
		if text, ok := invalidDefinition(st.Err); ok {
			fmt.Fprintf(out, "mcpwire: serve: not serving server %q: its definition is invalid: %s\n", st.Name, Sanitize(fold(s.io.Redact(text))))
			continue
		}
		msg, _ := splitStderrTail(shortenNotMCP(st.Err))
		fmt.Fprintf(out, "mcpwire: serve: server %q (%s) did not connect; its tools fail until it reconnects: %s\n",
			st.Name, st.Source, Sanitize(fold(s.io.Redact(cliWording(msg)))))
	}
}
