package cli

import (
	"strings"
	"testing"
	"time"
)

func TestServeSessionLimitFlags(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		want     string // "" when the flags are accepted
		idle     time.Duration
		sessions int
	}{
		{[]string{"--listen", ":0"}, "", 30 * time.Minute, 10000},
		{[]string{"--listen", ":0", "--session-idle-timeout", "5m", "--max-sessions", "50"}, "", 5 * time.Minute, 50},
		{[]string{"--listen", ":0", "--session-idle-timeout", "0", "--max-sessions", "0"}, "", 0, 0},
		{[]string{"--listen", ":0", "--session-idle-timeout", "-1s"}, "--session-idle-timeout must not be negative", 0, 0},
		{[]string{"--listen", ":0", "--max-sessions", "-1"}, "--max-sessions must not be negative", 0, 0},
		{[]string{"--stdio", "--session-idle-timeout", "1m"}, "--session-idle-timeout is for --listen", 0, 0},
		{[]string{"--stdio", "--max-sessions", "5"}, "--max-sessions is for --listen", 0, 0},
	} {
		o, err := checkServeFlags(t, tc.args, tc.want)
		if err == nil && (o.SessionIdle != tc.idle || o.MaxSessions != tc.sessions) {
			t.Errorf("%v: idle %s, max %d; want %s, %d", tc.args, o.SessionIdle, o.MaxSessions, tc.idle, tc.sessions)
		}
	}
}

// checkServeFlags parses args as serve's flags and checks them, failing
// the test unless the check's error says want ("": no error).
func checkServeFlags(t *testing.T, args []string, want string) (*gatewayOptions, error) {
	t.Helper()
	o := &gatewayOptions{}
	fs := NewFlagSet("serve")
	o.Flags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	_, err := o.check()
	if (want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), want) {
		t.Errorf("%v: %v, want %q", args, err, want)
	}
	return o, err
}
