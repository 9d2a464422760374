package gateway

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/server"
)

// An upstream's resources/list_changed and prompts/list_changed become the
// gateway's own, in both eras, and the host's next listing shows the
// change: a burst of changes upstream reaches the host as announcements
// that end with a listing holding all of them.
func TestResourcesAndPromptsListChangedRelayed(t *testing.T) {
	up := server.NewServer(nil)
	up.AddResource(server.Resource{URI: "mem://a", Name: "a", Text: "a"})
	up.AddPrompt(server.Prompt{Name: "first"}, func(context.Context, map[string]string) (*server.PromptResult, error) { return nil, nil })
	g := newGateway(t, map[string]*server.Server{"up": up}, nil)
	for i, era := range eras {
		t.Run(era, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			resources, prompts := make(chan struct{}, 64), make(chan struct{}, 64)
			o := pinned(era)
			o.OnResourcesListChanged = func(context.Context) { resources <- struct{}{} }
			o.OnPromptsListChanged = func(context.Context) { prompts <- struct{}{} }
			c := host(t, g, o)
			if _, err := c.ListResources(ctx); err != nil { // the host is connected and listening
				t.Fatal(err)
			}

			uris := []string{"mem://b" + era, "mem://c" + era, "mem://d" + era}
			for _, uri := range uris {
				up.AddResource(server.Resource{URI: uri, Name: uri, Text: uri})
			}
			waitListed(ctx, t, resources, "resources", uris, func() ([]string, error) {
				list, err := c.ListResources(ctx)
				var got []string
				for _, r := range list {
					got = append(got, r.URI)
				}
				return got, err
			})

			name := []string{"second", "third"}[i]
			up.AddPrompt(server.Prompt{Name: name}, func(context.Context, map[string]string) (*server.PromptResult, error) { return nil, nil })
			waitListed(ctx, t, prompts, "prompts", []string{"up__" + name}, func() ([]string, error) {
				list, err := c.ListPrompts(ctx)
				var got []string
				for _, p := range list {
					got = append(got, p.Name)
				}
				return got, err
			})
		})
	}
}

// waitListed waits for announcements until a listing holds every wanted
// name: the gateway announces after each merged list that differs, so the
// last announcement is followed by a listing with all of the burst.
func waitListed(ctx context.Context, t *testing.T, announced <-chan struct{}, what string, want []string, list func() ([]string, error)) {
	t.Helper()
	for {
		select {
		case <-announced:
		case <-ctx.Done():
			t.Fatalf("%s: no list_changed reached the host with %v listed", what, want)
		}
		got, err := list()
		if err != nil {
			t.Fatalf("%s/list: %v", what, err)
		}
		if !slices.ContainsFunc(want, func(w string) bool { return !slices.Contains(got, w) }) {
			return
		}
	}
}
