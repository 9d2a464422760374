package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// WaitTask honours a server's pollInterval only up to a bound: one so
// large that, in milliseconds, it overflows a time.Duration must not turn
// into a negative wait (a tight loop of tasks/get), and one of years must
// not leave the task unwatched for years.
func TestWaitTaskPollIntervalBounded(t *testing.T) {
	for _, interval := range []int64{9223372036855, 1 << 53, 1e12} {
		t.Run(fmt.Sprint(interval), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newFakeServer(t)
				var gets []time.Time
				s.on(MethodTasksGet, func(context.Context, *jsonrpc.Request) (any, error) {
					gets = append(gets, time.Now())
					status := TaskWorking
					if len(gets) >= 3 {
						status = TaskCompleted
					}
					return json.RawMessage(fmt.Sprintf(`{"taskId":"t1","status":%q,"createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttl":null,"pollInterval":%d}`, status, interval)), nil
				})
				c := connect(t, s, nil)
				task, err := c.WaitTask(t.Context(), "t1")
				if err != nil || task.Status != TaskCompleted {
					t.Fatalf("WaitTask = %+v, %v", task, err)
				}
				if len(gets) != 3 {
					t.Fatalf("%d tasks/get, want 3", len(gets))
				}
				for i := 1; i < len(gets); i++ {
					if wait := gets[i].Sub(gets[i-1]); wait <= 0 || wait > maxTaskPollInterval {
						t.Errorf("tasks/get %d came %v after the one before, want within (0, %v]", i+1, wait, maxTaskPollInterval)
					}
				}
			})
		})
	}
}
