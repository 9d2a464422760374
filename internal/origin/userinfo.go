package origin

import "strings"

// CutBareUserinfo drops what precedes the last "@" of the first segment
// of a URL written without "//" ("user:token@host/mcp" is host/mcp): the
// user info of a URL whose scheme was left out, which url.Parse does not
// see as user info (it lands in the scheme and opaque part, or the path).
func CutBareUserinfo(s string) string {
	end := strings.IndexAny(s, "/?#")
	if end < 0 {
		end = len(s)
	}
	if i := strings.LastIndexByte(s[:end], '@'); i >= 0 {
		return s[i+1:]
	}
	return s
}
