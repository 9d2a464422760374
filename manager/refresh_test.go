package manager

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
)

// stormSize list_changed announcements, one a millisecond, of each list.
const stormSize = 1000

// maxStormLists bounds the listings a one-second storm may cost: one per
// RefreshMaxWait while it lasts, one after its quiet period, and one that
// a refresh under way when an announcement came may add.
const maxStormLists = 4

// A storm of 1,000 list_changed of each kind, spread over a second, costs
// a handful of listings, change events and cache writes, and the lists
// end exact.
func TestListChangedStormCoalesces(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		srv := f.add("a", nil)
		m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, CacheDir: t.TempDir()})
		defer m.Close()
		log := record(m)
		m.Start(t.Context())
		log.waitFor(t, "a", Connected, 1)
		ss := srv.Sessions()[0]
		tools, prompts, resources := len(m.Tools()), len(m.Prompts()), len(m.Resources())
		counts := func() map[string]int {
			n := map[string]int{}
			for _, msg := range ss.Received() {
				if r, ok := msg.(*jsonrpc.Request); ok {
					n[r.Method]++
				}
			}
			return n
		}
		before := counts()
		changes := log.count("a", ToolsChanged)

		for i := range stormSize {
			srv.AddTool(mcptest.Tool{Name: fmt.Sprintf("t%04d", i)}, echoHandler)
			srv.AddPrompt(mcptest.Prompt{Name: fmt.Sprintf("p%04d", i)}, nil)
			srv.AddResource(mcptest.Resource{URI: fmt.Sprintf("mcptest://storm/%d", i), Name: "r", Text: "x"})
			time.Sleep(time.Millisecond)
		}
		time.Sleep(DefaultRefreshMaxWait)
		synctest.Wait()

		after := counts()
		for _, method := range []string{"tools/list", "prompts/list", "resources/list"} {
			if n := after[method] - before[method]; n == 0 || n > maxStormLists {
				t.Errorf("%d %s requests for %d announcements, want 1 to %d", n, method, stormSize, maxStormLists)
			}
		}
		for _, k := range []EventKind{ToolsChanged, PromptsChanged, ResourcesChanged} {
			n := log.count("a", k)
			if k == ToolsChanged {
				n -= changes
			}
			if n == 0 || n > maxStormLists {
				t.Errorf("%d %s events for %d announcements, want 1 to %d", n, k, stormSize, maxStormLists)
			}
		}
		if got := len(m.Tools()); got != tools+stormSize {
			t.Errorf("%d tools after the storm, want %d", got, tools+stormSize)
		}
		if !hasTool(m.Tools(), fmt.Sprintf("mcp__a__t%04d", stormSize-1)) {
			t.Error("the last tool added is missing")
		}
		if got := len(m.Prompts()); got != prompts+stormSize {
			t.Errorf("%d prompts after the storm, want %d", got, prompts+stormSize)
		}
		if got := len(m.Resources()); got != resources+stormSize {
			t.Errorf("%d resources after the storm, want %d", got, resources+stormSize)
		}
	})
}

// One announcement is served after the quiet period; announcements that
// never pause are served at least every RefreshMaxWait.
func TestRefreshDebounceTiming(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDebouncer(DefaultRefreshQuiet, DefaultRefreshMaxWait)
		defer d.stop()
		start := time.Now()
		d.note(toolList)
		<-d.timer.C
		if got := d.take(); len(got) != 1 || got[0] != toolList || time.Since(start) != DefaultRefreshQuiet {
			t.Errorf("took %v after %v, want tools after %v", got, time.Since(start), DefaultRefreshQuiet)
		}

		start = time.Now()
		var served []time.Duration
		for time.Since(start) < 3*DefaultRefreshMaxWait {
			d.note(promptList)
			select {
			case <-d.timer.C:
				if len(d.take()) > 0 {
					served = append(served, time.Since(start))
				}
			case <-time.After(DefaultRefreshQuiet / 2):
			}
		}
		if len(served) < 2 || served[0] != DefaultRefreshMaxWait {
			t.Errorf("served a never-pausing storm at %v, want every %v", served, DefaultRefreshMaxWait)
		}
	})
}
