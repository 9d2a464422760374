package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
)

// A server that lists resources but not templates (-32601) still gets
// its resources listed, with a warning; another error still fails.
func TestResourcesWithoutTemplates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err      error
		wantCode int
		wantErr  string
	}{
		{jsonrpc.ErrMethodNotFound, 0, "warning: the server does not list resource templates"},
		{jsonrpc.NewError(jsonrpc.CodeInternalError, "templates broke"), ExitProtocol, "listing resource templates"},
	} {
		srv := mcptest.NewDefault(nil)
		srv.HandleMethod("resources/templates/list", func(context.Context, *mcptest.Session, json.RawMessage) (any, error) {
			return nil, tc.err
		})
		hs := mcptest.NewHTTPServer(t, srv, nil)
		r := run(t, "resources", hs.URL)
		if r.code != tc.wantCode || !strings.Contains(r.err, tc.wantErr) {
			t.Errorf("templates answering %v: exit %d, stderr %q; want %d and %q", tc.err, r.code, r.err, tc.wantCode, tc.wantErr)
		}
		if tc.wantCode == 0 && !strings.Contains(r.out, mcptest.HelloURI) {
			t.Errorf("resources not listed:\n%s", r.out)
		}
	}
}
