package inspect

import (
	"net/http"
	"slices"
	"strings"
)

// apiMux routes the page's API by exact path and method. It is not an
// http.ServeMux because the API must answer for itself: a known path
// asked with another method gets 405 with the methods it takes (Allow),
// and an unknown path under /api/ gets 404, both as the JSON errors the
// page reads. A ServeMux beside the page's "GET /" files would hand a GET
// of a POST endpoint to the file server instead (a bare "404 page not
// found"), and the two cannot be told apart by pattern without a conflict.
type apiMux struct {
	routes map[string]map[string]http.Handler // path, then method
}

func newAPIMux() *apiMux { return &apiMux{routes: map[string]map[string]http.Handler{}} }

// HandleFunc registers h for pattern, "METHOD /path". A GET endpoint
// answers HEAD too, as http.ServeMux's do.
func (m *apiMux) HandleFunc(pattern string, h http.HandlerFunc) {
	method, path, ok := strings.Cut(pattern, " ")
	if !ok || !strings.HasPrefix(path, "/api/") {
		panic("inspect: API pattern " + pattern + " is not METHOD /api/...")
	}
	byMethod := m.routes[path]
	if byMethod == nil {
		byMethod = map[string]http.Handler{}
		m.routes[path] = byMethod
	}
	if byMethod[method] != nil {
		panic("inspect: API pattern " + pattern + " registered twice")
	}
	byMethod[method] = h
	if method == http.MethodGet && byMethod[http.MethodHead] == nil {
		byMethod[http.MethodHead] = h
	}
}

func (m *apiMux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	byMethod := m.routes[r.URL.Path]
	if byMethod == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no such API endpoint"})
		return
	}
	if h := byMethod[r.Method]; h != nil {
		h.ServeHTTP(w, r)
		return
	}
	allow := make([]string, 0, len(byMethod))
	for method := range byMethod {
		allow = append(allow, method)
	}
	slices.Sort(allow)
	w.Header().Set("Allow", strings.Join(allow, ", "))
	writeJSON(w, http.StatusMethodNotAllowed, map[string]string{
		"error": r.Method + " is not allowed here; use " + strings.Join(allow, " or "),
	})
}

// pageHandler serves the API under /api/ and the page's files elsewhere.
func pageHandler(api *apiMux, files http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			api.ServeHTTP(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})
}
