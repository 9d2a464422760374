package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

// --protocol pins the era: a modern-only server is reachable only with
// 2026-07-28, and a bad value is a usage error naming the choices.
func TestProtocolFlag(t *testing.T) {
	hs := mcptest.NewHTTPServer(t, mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly}), nil)
	modern := a(hs.URL) // the default transport, auto
	r := run(t, args(a("ping", "--protocol", "2026-07-28"), modern)...).wantCode(t, 0)
	if !strings.Contains(r.out, "ok: mcptest") {
		t.Errorf("ping --protocol 2026-07-28: %q", r.out)
	}
	r = run(t, args(a("call", "add", "--arg", "a=1", "--arg", "b=2", "--protocol", "2026-07-28"), modern)...).wantCode(t, 0)
	if !strings.Contains(r.out, "3") {
		t.Errorf("call add: %q", r.out)
	}
	r = run(t, args(a("info", "--protocol", "2026-07-28"), modern)...).wantCode(t, 0)
	if !strings.Contains(r.out, "Protocol:      2026-07-28 (stateless era; the server supports 2026-07-28)") {
		t.Errorf("info: %q", r.out)
	}
	r = run(t, args(a("info", "--json", "--protocol", "2026-07-28"), modern)...).wantCode(t, 0)
	if !strings.Contains(r.out, `"name": "mcptest"`) {
		t.Errorf("info --json: %q", r.out)
	}
	if r = run(t, args(a("ping"), modern)...); r.code == 0 {
		t.Errorf("ping without --protocol reached a modern-only server: %q", r.out)
	}
	run(t, args(a("ping", "--protocol", "2025-03-26"), server())...).wantCode(t, 0)
	r = run(t, args(a("ping", "--protocol", "newest"), server())...).wantCode(t, ExitUsage)
	if !strings.Contains(r.err, "--protocol must be auto, 2026-07-28 or one of") {
		t.Errorf("bad --protocol: %q", r.err)
	}
}

// --protocol reaches configured servers too.
func TestProtocolFlagConfigured(t *testing.T) {
	hs := mcptest.NewHTTPServer(t, mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly}), nil)
	cfg := filepath.Join(project(t), "modern.json")
	write(t, cfg, `{"mcpServers": {"modern": {"url": "`+hs.URL+`"}}}`)
	r := run(t, "ping", "--config", cfg, "--protocol", "2026-07-28").wantCode(t, 0)
	if !strings.Contains(r.out, "mcptest") {
		t.Errorf("ping: %q", r.out)
	}
	if r = run(t, "ping", "--config", cfg, "--timeout", "5s"); r.code == 0 {
		t.Errorf("ping without --protocol reached a modern-only server: %q", r.out)
	}
	run(t, "ping", "--config", cfg, "--protocol", "x").wantCode(t, ExitUsage)
}
