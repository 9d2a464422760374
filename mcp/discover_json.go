package mcp

import (
	"slices"

	"github.com/mcpwire/mcpwire/internal/weakshare"
)

// The server/discover result is read here in one pass rather than by
// encoding/json (twice: the result, then its _meta for the serverInfo),
// as decodeInitializeResult reads initialize's. Only the common shape is
// handled; anything else goes through encoding/json as before, so the
// outcome is the same either way (the tests compare them).

// Member names of a server/discover result that decodeDiscover reads, in
// the order of its switch. resultType is read and dropped, as
// encoding/json drops it (discoverResult has no field for it).
var discoverResultNames = []string{"supportedVersions", "capabilities", "instructions", "resultType", "_meta"}

// decodeDiscoverResult decodes raw into res when raw has the common shape
// (see decodeDiscover).
func decodeDiscoverResult(raw []byte, res *discoverResult) bool {
	_, ok := decodeDiscover(raw, res)
	return ok
}

// decodeDiscover decodes raw into res when raw has the common shape:
// supportedVersions (strings), capabilities as decodeInitializeResult
// reads them, instructions, resultType, and a _meta whose members are
// objects of strings (the serverInfo among them, if any, without icons).
// It also returns the serverInfo's raw value, nil without one. For
// anything else, including a member given twice, spelled in another case,
// or null, it returns false and leaves res alone.
func decodeDiscover(raw []byte, res *discoverResult) (serverInfo []byte, ok bool) {
	serverInfo, _, ok = decodeDiscoverMeta(raw, res)
	return serverInfo, ok
}

// decodeDiscoverMeta is decodeDiscover that also returns the _meta
// member's raw value (nil without one), of which serverInfo is a part.
func decodeDiscoverMeta(raw []byte, res *discoverResult) (serverInfo, meta []byte, ok bool) {
	d := scanner{b: raw}
	var out discoverResult
	ok = d.object(discoverResultNames, func(i int) (ok bool) {
		switch i {
		case 0:
			out.SupportedVersions, ok = d.textArray()
		case 1:
			ok = d.serverCapabilities(&out.Capabilities)
		case 2:
			out.Instructions, ok = d.text()
		case 3:
			_, ok = d.text()
		default:
			d.space()
			start := d.i
			out.Meta, serverInfo, ok = d.metaOfTextObjects()
			meta = d.b[start:d.i]
		}
		return ok
	})
	if !ok || !d.atEnd() {
		return nil, nil, false
	}
	*res = out
	return serverInfo, meta, true
}

// textArray reads an array of strings (not null).
func (d *scanner) textArray() ([]string, bool) {
	if !d.consume('[') {
		return nil, false
	}
	out := []string{}
	if d.consume(']') {
		return out, true
	}
	for {
		s, ok := d.text()
		if !ok {
			return nil, false
		}
		out = append(out, s)
		if d.consume(',') {
			continue
		}
		return out, d.consume(']')
	}
}

// metaOfTextObjects reads a _meta object whose members are objects of
// strings, as encoding/json decodes it into a map[string]any, and returns
// the serverInfo member's raw value as well. A serverInfo with a member
// that Implementation does not spell exactly so is declined: encoding/json
// would match it without regard to case.
func (d *scanner) metaOfTextObjects() (meta map[string]any, serverInfo []byte, ok bool) {
	meta = map[string]any{}
	ok = d.members(func(name string) bool {
		if _, dup := meta[name]; dup {
			return false
		}
		d.space()
		start := d.i
		v, ok := d.textObject(name == metaServerInfo)
		if !ok {
			return false
		}
		meta[name] = v
		if name == metaServerInfo {
			serverInfo = d.b[start:d.i]
		}
		return true
	})
	if !ok {
		return nil, nil, false
	}
	return meta, serverInfo, true
}

// textObject reads an object of strings, each name once; with info set,
// only the names of serverInfo's strings.
func (d *scanner) textObject(info bool) (map[string]any, bool) {
	out := map[string]any{}
	ok := d.members(func(name string) bool {
		if _, dup := out[name]; dup || (info && !slices.Contains(serverInfoNames, name)) {
			return false
		}
		v, ok := d.text()
		out[name] = v
		return ok
	})
	if !ok {
		return nil, false
	}
	return out, true
}

// implementationOf is the serverInfo that decodeDiscover read as v (an
// object of strings named among serverInfoNames).
func implementationOf(v any) Implementation {
	m, _ := v.(map[string]any)
	text := func(k string) string { s, _ := m[k].(string); return s }
	return Implementation{Name: text("name"), Title: text("title"), Version: text("version"), Description: text("description"), WebsiteURL: text("websiteUrl")}
}

// keepRawMeta keeps meta, the raw _meta of res, for InitializeResult to
// decode when asked, and returns it. A session keeps the bytes rather
// than res.Meta's maps of maps, which cost an idle session about 750
// bytes against the few dozen the bytes take; and as a server sends every
// session the same _meta, the sessions share one read-only copy.
func (res *discoverResult) keepRawMeta(meta []byte) *string {
	if meta == nil {
		return nil
	}
	k := string(meta)
	p := sharedDiscoverMeta.Get(k)
	if p == nil {
		p = sharedDiscoverMeta.Share(k, &k)
	}
	res.rawMeta = p
	return p
}

// sharedDiscoverMeta holds the server/discover _meta that sessions keep
// (see keepRawMeta), weakly.
var sharedDiscoverMeta weakshare.Table[string, string]
