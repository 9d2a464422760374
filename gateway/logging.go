package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
)

// setLevel applies a host's logging/setLevel to every served upstream that
// logs and is connected. The hosts share the upstreams, so the last level
// set holds there; each host still gets only what its own level lets
// through (the core filters per session). An upstream that refuses is
// named in the error; the others keep the level.
func (g *Gateway) setLevel(ctx context.Context, _ *server.Session, params json.RawMessage) (any, error) {
	var p struct {
		Level mcp.LoggingLevel `json:"level"`
	}
	if err := decodeParams("logging/setLevel", params, &p); err != nil {
		return nil, err
	}
	if p.Level.Severity() < 0 {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, fmt.Sprintf("logging/setLevel: level %q is not an RFC 5424 severity MCP names", p.Level))
	}
	var errs []error
	for _, st := range g.m.Servers() {
		if st.State != manager.StateConnected || !g.serves(st.Name) {
			continue
		}
		g.mu.Lock()
		logs := g.upstreams[st.Name].caps.Logging != nil
		g.mu.Unlock()
		if !logs {
			continue
		}
		c, err := g.m.Client(ctx, st.Name)
		if err == nil {
			err = c.SetLogLevel(ctx, p.Level)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("server %q: %s", st.Name, g.redactText(err.Error())))
		}
	}
	if len(errs) > 0 {
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "logging/setLevel: "+errors.Join(errs...).Error())
	}
	return struct{}{}, nil
}

// onLog relays an upstream's notifications/message to every host session
// whose level lets it through, under a logger that names the server
// ("SERVER", or "SERVER/LOGGER" when the upstream named one).
func (g *Gateway) onLog(serverName string, params json.RawMessage) {
	var msg mcp.LoggingMessage
	if err := json.Unmarshal(params, &msg); err != nil || msg.Level.Severity() < 0 {
		g.warn(fmt.Errorf("server %q sent notifications/message that is not a log message", serverName))
		return
	}
	logger := serverName
	if msg.Logger != "" {
		logger += "/" + msg.Logger
	}
	for _, ss := range g.srv.Sessions() {
		ss.LogAs(logger, string(msg.Level), msg.Data)
	}
}
