package mcp

import (
	"strings"
	"testing"
)

// Sessions that send the same _meta members share one copy; a log level
// set on one session reaches only its own requests.
func TestModernMetaShared(t *testing.T) {
	hello := &modernHello{info: Implementation{Name: "shared-meta-test", Version: "1"}}
	a, b := &modernSession{hello: hello}, &modernSession{hello: hello}
	for _, m := range []*modernSession{a, b} {
		if err := m.encodeMeta(ModernProtocolVersion, ""); err != nil {
			t.Fatal(err)
		}
		m.hello = nil // as once the session opened
	}
	if a.meta.Load() != b.meta.Load() {
		t.Error("two sessions with the same _meta members hold a copy each")
	}
	if err := a.setLogLevel(LevelDebug); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.meta.Load().members, `"debug"`) || strings.Contains(b.meta.Load().members, "logLevel") {
		t.Errorf("after a's log level: a %s, b %s", a.meta.Load().members, b.meta.Load().members)
	}
	if err := b.setLogLevel(LevelDebug); err != nil {
		t.Fatal(err)
	}
	if a.meta.Load() != b.meta.Load() {
		t.Error("two sessions at the same log level hold a copy each")
	}
	other := &modernSession{hello: &modernHello{info: Implementation{Name: "other", Version: "1"}}}
	if err := other.encodeMeta(ModernProtocolVersion, LevelDebug); err != nil {
		t.Fatal(err)
	}
	if other.meta.Load() == a.meta.Load() {
		t.Error("sessions of different client info share _meta")
	}
}
