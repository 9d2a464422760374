package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

// --protocol pins the era or negotiates it (auto, the default): a
// modern-only server is reachable with auto and 2026-07-28, not with a
// legacy pin, and a bad value is a usage error naming the choices.
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
	if !strings.Contains(r.out, "Protocol:      2026-07-28 (modern era, stateless; the server supports 2026-07-28)") {
		t.Errorf("info: %q", r.out)
	}
	r = run(t, args(a("info", "--json", "--protocol", "2026-07-28"), modern)...).wantCode(t, 0)
	if !strings.Contains(r.out, `"name": "mcptest"`) || !strings.Contains(r.out, `"era": "modern"`) || !strings.Contains(r.out, `"supportedVersions": [`) {
		t.Errorf("info --json: %q", r.out)
	}
	r = run(t, args(a("info"), modern)...).wantCode(t, 0)
	if !strings.Contains(r.out, "Protocol:      2026-07-28 (modern era, stateless; the server supports 2026-07-28)") {
		t.Errorf("info without --protocol: %q", r.out)
	}
	r = run(t, args(a("ping", "--protocol", "2025-11-25"), modern)...).wantCode(t, ExitConnect)
	if !strings.Contains(r.err, "hint: --protocol 2025-11-25 pins an era this server may not speak") {
		t.Errorf("ping --protocol 2025-11-25 against a modern-only server, no hint: %q", r.err)
	}
	legacy := a(mcptest.NewHTTPServer(t, mcptest.NewDefault(&mcptest.Options{Eras: mcptest.LegacyOnly}), nil).URL)
	r = run(t, args(a("ping", "--protocol", "2026-07-28"), legacy)...).wantCode(t, ExitConnect)
	if !strings.Contains(r.err, "hint: --protocol 2026-07-28 pins an era this server may not speak") {
		t.Errorf("ping --protocol 2026-07-28 against a legacy-only server, no hint: %q", r.err)
	}
	r = run(t, args(a("info", "--protocol", "auto"), legacy)...).wantCode(t, 0)
	if !strings.Contains(r.out, "Protocol:      2025-11-25 (legacy era, opened with initialize)") {
		t.Errorf("info --protocol auto, legacy server: %q", r.out)
	}
	r = run(t, args(a("info", "--json"), legacy)...).wantCode(t, 0)
	if !strings.Contains(r.out, `"era": "legacy"`) || strings.Contains(r.out, "supportedVersions") {
		t.Errorf("info --json, legacy server: %q", r.out)
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
	run(t, "ping", "--config", cfg, "--timeout", "5s").wantCode(t, 0) // auto
	if r = run(t, "ping", "--config", cfg, "--protocol", "2025-11-25"); r.code == 0 {
		t.Errorf("ping --protocol 2025-11-25 reached a modern-only server: %q", r.out)
	}
	run(t, "ping", "--config", cfg, "--protocol", "x").wantCode(t, ExitUsage)
}
