package mcp

import (
	"slices"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
)

// The JSON of initialize is written and read here rather than by
// encoding/json's reflection. encoding/json keeps, for the life of the
// process, a table of fields for every struct type it has met; for the
// types of initialize's params and result that is about 30 KiB, which
// every program that connects once pays: as much as ten idle Streamable
// HTTP sessions hold between them. Only the shapes in
// common use are handled; anything else goes through encoding/json as
// before, so the outcome is the same either way (the tests compare them).

// appendInitializeParams appends p encoded as json.Marshal encodes it. ok
// is false, and nothing is appended, when p has a part left to
// encoding/json: tasks or experimental capabilities, or client icons.
func appendInitializeParams(b []byte, p *initializeParams) (_ []byte, ok bool) {
	if !plainCapabilities(&p.Capabilities) || !plainImplementation(&p.ClientInfo) {
		return b, false
	}
	b = append(b, `{"protocolVersion":`...)
	b = jsonenc.AppendString(b, p.ProtocolVersion)
	b = append(b, `,"capabilities":`...)
	b = appendClientCapabilities(b, &p.Capabilities)
	b = append(b, `,"clientInfo":`...)
	b = appendImplementation(b, &p.ClientInfo)
	return append(b, '}'), true
}

// plainCapabilities reports whether appendClientCapabilities encodes c:
// it has no tasks, experimental or extension capabilities.
func plainCapabilities(c *ClientCapabilities) bool {
	return c.Tasks == nil && c.Experimental == nil && c.Extensions == nil
}

// plainImplementation reports whether appendImplementation encodes info:
// it has no icons.
func plainImplementation(info *Implementation) bool { return info.Icons == nil }

// appendClientCapabilities appends c encoded as json.Marshal encodes it;
// c must be plainCapabilities.
func appendClientCapabilities(b []byte, c *ClientCapabilities) []byte {
	b = append(b, '{')
	first := true
	if c.Roots != nil {
		b = appendName(b, &first, "roots")
		b = append(b, '{')
		if c.Roots.ListChanged {
			b = append(b, `"listChanged":true`...)
		}
		b = append(b, '}')
	}
	if c.Sampling != nil {
		b = appendName(b, &first, "sampling")
		b = appendEmptyMembers(b, "context", c.Sampling.Context != nil, "tools", c.Sampling.Tools != nil)
	}
	if c.Elicitation != nil {
		b = appendName(b, &first, "elicitation")
		b = appendEmptyMembers(b, "form", c.Elicitation.Form != nil, "url", c.Elicitation.URL != nil)
	}
	return append(b, '}')
}

// appendImplementation appends info encoded as json.Marshal encodes it;
// info must be plainImplementation.
func appendImplementation(b []byte, info *Implementation) []byte {
	b = append(b, `{"name":`...)
	b = jsonenc.AppendString(b, info.Name)
	if info.Title != "" {
		b = append(b, `,"title":`...)
		b = jsonenc.AppendString(b, info.Title)
	}
	b = append(b, `,"version":`...)
	b = jsonenc.AppendString(b, info.Version)
	if info.Description != "" {
		b = append(b, `,"description":`...)
		b = jsonenc.AppendString(b, info.Description)
	}
	if info.WebsiteURL != "" {
		b = append(b, `,"websiteUrl":`...)
		b = jsonenc.AppendString(b, info.WebsiteURL)
	}
	return append(b, '}')
}

// appendName appends an object member's name, after a comma unless it is
// the first.
func appendName(b []byte, first *bool, name string) []byte {
	if !*first {
		b = append(b, ',')
	}
	*first = false
	b = append(b, '"')
	b = append(b, name...)
	return append(b, `":`...)
}

// appendEmptyMembers appends an object with up to two members whose values
// are empty objects, each present when its flag is set.
func appendEmptyMembers(b []byte, name1 string, has1 bool, name2 string, has2 bool) []byte {
	b = append(b, '{')
	first := true
	if has1 {
		b = appendName(b, &first, name1)
		b = append(b, "{}"...)
	}
	if has2 {
		b = appendName(b, &first, name2)
		b = append(b, "{}"...)
	}
	return append(b, '}')
}

// Member names of the parts of an initialize result that
// decodeInitializeResult reads, in the order of its switches.
var (
	initializeResultNames = []string{"protocolVersion", "capabilities", "serverInfo", "instructions"}
	serverCapNames        = []string{"prompts", "resources", "tools", "logging", "completions"}
	serverInfoNames       = []string{"name", "title", "version", "description", "websiteUrl"}
	listChangedNames      = []string{"listChanged"}
	resourcesCapNames     = []string{"subscribe", "listChanged"}
)

// decodeInitializeResult decodes raw into res when raw has the common
// shape: protocolVersion; capabilities made of prompts, resources, tools
// (each an object of its flags), logging and completions (empty objects);
// serverInfo without icons; instructions. For anything else, including a
// member given twice, spelled in another case, or null, it returns false
// and leaves res alone, and encoding/json decodes raw with its own rules.
func decodeInitializeResult(raw []byte, res *InitializeResult) bool {
	d := scanner{b: raw}
	var out InitializeResult
	ok := d.object(initializeResultNames, func(i int) (ok bool) {
		switch i {
		case 0:
			out.ProtocolVersion, ok = d.text()
		case 1:
			ok = d.serverCapabilities(&out.Capabilities)
		case 2:
			ok = d.implementation(&out.ServerInfo)
		case 3:
			out.Instructions, ok = d.text()
		}
		return ok
	})
	if !ok || !d.atEnd() {
		return false
	}
	*res = out
	return true
}

// serverCapabilities reads the capabilities object of an initialize
// result (see decodeInitializeResult).
func (d *scanner) serverCapabilities(c *ServerCapabilities) bool {
	return d.object(serverCapNames, func(i int) bool {
		switch i {
		case 0:
			c.Prompts = &PromptsCapability{}
			return d.booleans(listChangedNames, &c.Prompts.ListChanged)
		case 1:
			c.Resources = &ResourcesCapability{}
			return d.booleans(resourcesCapNames, &c.Resources.Subscribe, &c.Resources.ListChanged)
		case 2:
			c.Tools = &ToolsCapability{}
			return d.booleans(listChangedNames, &c.Tools.ListChanged)
		case 3:
			c.Logging = &EmptyObject{}
			return d.object(nil, nil)
		default:
			c.Completions = &EmptyObject{}
			return d.object(nil, nil)
		}
	})
}

// implementation reads serverInfo without icons.
func (d *scanner) implementation(impl *Implementation) bool {
	return d.texts(serverInfoNames, &impl.Name, &impl.Title, &impl.Version, &impl.Description, &impl.WebsiteURL)
}

// booleans reads an object of flags named among names into dst, in the
// same order.
func (d *scanner) booleans(names []string, dst ...*bool) bool {
	return d.object(names, func(i int) (ok bool) {
		*dst[i], ok = d.boolean()
		return ok
	})
}

// texts reads an object of strings named among names into dst, in the
// same order.
func (d *scanner) texts(names []string, dst ...*string) bool {
	return d.object(names, func(i int) (ok bool) {
		*dst[i], ok = d.text()
		return ok
	})
}

// object reads an object whose member names are all among names, each at
// most once, and reads each member's value with value(i), i being the
// name's index in names. With no names it reads an empty object only.
func (d *scanner) object(names []string, value func(i int) bool) bool {
	var seen uint64
	return d.members(func(name string) bool {
		i := slices.Index(names, name)
		if i < 0 || seen&(1<<i) != 0 || !value(i) {
			return false
		}
		seen |= 1 << i
		return true
	})
}

// members reads an object, reading each member's value with value(name)
// once its name is read; value refuses a name by returning false.
func (d *scanner) members(value func(name string) bool) bool {
	return d.memberKeys(func(key []byte) bool { return value(string(key)) })
}

// memberKeys is members with each name as its bytes in the input (plain:
// without escapes), for callers that only compare it.
func (d *scanner) memberKeys(value func(key []byte) bool) bool {
	if !d.consume('{') {
		return false
	}
	if d.consume('}') {
		return true
	}
	for {
		key, ok := d.plainKey()
		if !ok || !d.consume(':') || !value(key) {
			return false
		}
		if d.consume(',') {
			continue
		}
		return d.consume('}')
	}
}
