//go:build race

package transport

// raceEnabled says the tests run under the race detector, whose sync.Pool
// drops a random share of what is put back (to find misuse): a function
// that allocates nothing with a warm pool, such as json.Valid, then
// allocates now and then, so allocation counts are not measured there.
const raceEnabled = true
