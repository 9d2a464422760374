package jsonrpc

import "slices"

// pendingCalls are the calls awaiting a response, by id. An idle session
// has none and most have one at a time, so the first call out takes a
// field; only a second call out at once makes the map, which is kept from
// then on (a session that called concurrently once likely will again),
// so neither a sequential nor a concurrent caller allocates per call. An
// idle session holds no map. It lives in inFlight, under Conn.mu.
type pendingCalls struct {
	oneID int64
	one   *pendingCall
	many  map[int64]*pendingCall // once made, it holds every call
}

func (pc *pendingCalls) get(id int64) *pendingCall {
	if pc.one != nil && pc.oneID == id {
		return pc.one
	}
	return pc.many[id]
}

func (pc *pendingCalls) put(id int64, p *pendingCall) {
	switch {
	case pc.many != nil:
		pc.many[id] = p
	case pc.one == nil:
		pc.oneID, pc.one = id, p
	default:
		pc.many = map[int64]*pendingCall{pc.oneID: pc.one, id: p}
		pc.oneID, pc.one = 0, nil
	}
}

func (pc *pendingCalls) del(id int64) {
	if pc.one != nil && pc.oneID == id {
		pc.oneID, pc.one = 0, nil
		return
	}
	delete(pc.many, id)
}

func (pc *pendingCalls) len() int {
	n := len(pc.many)
	if pc.one != nil {
		n++
	}
	return n
}

// each calls f for every pending call, in no order.
func (pc *pendingCalls) each(f func(id int64, p *pendingCall)) {
	if pc.one != nil {
		f(pc.oneID, pc.one)
	}
	for id, p := range pc.many {
		f(id, p)
	}
}

// ids returns the pending calls' ids in order.
func (pc *pendingCalls) ids() []int64 {
	var ids []int64
	pc.each(func(id int64, _ *pendingCall) { ids = append(ids, id) })
	slices.Sort(ids)
	return ids
}

// takeAll empties the set and returns what it held.
func (pc *pendingCalls) takeAll() []*pendingCall {
	var all []*pendingCall
	pc.each(func(_ int64, p *pendingCall) { all = append(all, p) })
	pc.oneID, pc.one = 0, nil
	clear(pc.many)
	return all
}
