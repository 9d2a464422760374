package cli

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"testing"
)

// --listen 0.0.0.0:PORT serves every interface, so the page answers a Host
// header that names this machine as another machine does: by any address
// of its interfaces, or by its hostname, at the port listened on. Any
// other name (a DNS-rebinding page's) and any other port stay refused.
func TestInspectListenWildcard(t *testing.T) {
	c, base := startInspectOn(t, "127.0.0.1", append([]string{"--listen", "0.0.0.0:0"}, server()...)...)
	u, _ := url.Parse(base)
	port, _ := strconv.Atoi(u.Port())
	// status asks the page, reached at address dial, for its servers with
	// the Host header host:port.
	status := func(t *testing.T, dial, host string, port int) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, "http://"+net.JoinHostPort(dial, u.Port())+u.Path+"/api/servers", nil)
		req.Host = net.JoinHostPort(host, strconv.Itoa(port))
		page, _ := url.Parse(base + "/api/servers")
		for _, ck := range c.Jar.Cookies(page) { // the browser's cookie, wherever it reaches the page
			req.AddCookie(ck)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Logf("Host %s: %s %s", req.Host, resp.Status, b)
		}
		return resp.StatusCode
	}
	t.Run("hostname", func(t *testing.T) {
		name, err := os.Hostname()
		if err != nil || name == "" {
			t.Skipf("this machine has no hostname: %v", err)
		}
		if got := status(t, "127.0.0.1", name, port); got != http.StatusOK {
			t.Errorf("Host %s: %d, want 200", name, got)
		}
	})
	t.Run("another name", func(t *testing.T) {
		if got := status(t, "127.0.0.1", "rebound.example", port); got != http.StatusForbidden {
			t.Errorf("Host rebound.example: %d, want 403", got)
		}
	})
	t.Run("an address of this machine", func(t *testing.T) {
		addr := nonLoopbackAddr(t)
		if addr == "" {
			t.Skip("this machine has no address but loopback: no other machine could reach it")
		}
		if got := status(t, addr, addr, port); got != http.StatusOK {
			t.Errorf("at %s: %d, want 200", addr, got)
		}
		if got := status(t, addr, addr, port+1); got != http.StatusForbidden {
			t.Errorf("at %s with another port in Host: %d, want 403", addr, got)
		}
	})
}

// nonLoopbackAddr is an IPv4 address of this machine's interfaces that is
// neither loopback nor link-local, "" if it has none.
func nonLoopbackAddr(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok && ipn.IP.To4() != nil && !ipn.IP.IsLoopback() && !ipn.IP.IsLinkLocalUnicast() {
			return ipn.IP.String()
		}
	}
	return ""
}
