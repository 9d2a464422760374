package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
	"github.com/mcpwire/mcpwire/internal/jsonscan"
)

// envelope holds the members of one message as raw JSON, sliced out of the
// frame. Member names match exactly, as JSON-RPC requires ("Method" is not
// "method"); a repeated member keeps its last value. params and result stay
// undecoded: the engine never decodes them, the caller decodes each exactly
// once into its own type.
type envelope struct {
	jsonrpc, id, method, params, result, error []byte
}

// DecodeMessage decodes one JSON-RPC message. It is strict and says what is
// wrong: not an object, a missing or wrong "jsonrpc", a null or fractional
// id, both "result" and "error", and so on. Every error is a *DecodeError.
// A JSON array is rejected here; use DecodeFrame for input that may be a
// batch. The message does not retain data, so a reader may reuse its buffer.
func DecodeMessage(data []byte) (Message, error) { return decodeMessage(data, false) }

// decodeMessage is DecodeMessage; with retain, the message may keep parts
// of data (see AppendFrameRetaining).
func decodeMessage(data []byte, retain bool) (Message, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, newDecodeError(data, "empty frame", syntaxError(data))
	}
	if data[0] != '{' {
		// Not JSON at all is told apart from JSON that is not an object
		// (see DecodeError.Err): a server answers the one -32700 and
		// the other -32600. Only refused frames pay for the scan.
		if !jsonscan.Valid(data) {
			err := syntaxError(data)
			return nil, newDecodeError(data, "malformed JSON: "+syntaxReason(err), err)
		}
		if data[0] == '[' {
			return nil, newDecodeError(data, "a batch (JSON array) where one message was expected", nil)
		}
		return nil, newDecodeError(data, "not a JSON object", nil)
	}
	var env envelope
	valid := validMembers(data, env.set)
	if !valid {
		err := syntaxError(data)
		return nil, newDecodeError(data, "malformed JSON: "+syntaxReason(err), err)
	}
	m, err := env.message(data, retain)
	if err != nil {
		env.markResponse(err)
	}
	return m, err
}

// set keeps the member key (unescaped) of a message.
func (env *envelope) set(key, value []byte) {
	switch string(key) {
	case "jsonrpc":
		env.jsonrpc = value
	case "id":
		env.id = value
	case "method":
		env.method = value
	case "params":
		env.params = value
	case "result":
		env.result = value
	case "error":
		env.error = value
	}
}

// markResponse gives err (a *DecodeError for the frame of env) the frame's
// id when the frame can only be a response: it has a readable id and no
// method.
func (env *envelope) markResponse(err error) {
	var d *DecodeError
	if len(env.id) == 0 || isNull(env.id) || (len(env.method) > 0 && !isNull(env.method)) || !errors.As(err, &d) {
		return
	}
	if id, perr := parseID(env.id); perr == nil {
		d.ID = id
	}
}

// syntaxError returns encoding/json's account of why data is not valid
// JSON; it is only called once jsonscan.Valid (which agrees with
// json.Valid) said so.
func syntaxError(data []byte) error {
	var v json.RawMessage
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	return errors.New("invalid JSON")
}

// DecodeFrame decodes a frame that holds one message or, as protocol
// 2025-03-26 allows, a batch: a non-empty JSON array of messages. Valid
// members of a batch are returned even when others are invalid; the invalid
// ones are reported in the error (a join of *DecodeError).
func DecodeFrame(data []byte) ([]Message, error) {
	return AppendFrame(nil, data)
}

// AppendFrame is DecodeFrame appending the messages to dst, so that a
// reader decoding one message per frame, the common case, needs no slice
// of its own when dst lives on its stack.
func AppendFrame(dst []Message, data []byte) ([]Message, error) {
	return appendFrame(dst, data, false)
}

// AppendFrameRetaining is AppendFrame for a caller that gives data up: the
// messages may keep parts of it (a result, params) instead of copies of
// them, so data must not be written to again. A transport that read a
// large message into a buffer it will not reuse saves a copy of the
// message, and as much memory.
func AppendFrameRetaining(dst []Message, data []byte) ([]Message, error) {
	return appendFrame(dst, data, true)
}

func appendFrame(dst []Message, data []byte, retain bool) ([]Message, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '[' {
		m, err := decodeMessage(data, retain)
		if err != nil {
			return dst, err
		}
		return append(dst, m), nil
	}
	if !jsonscan.Valid(data) {
		err := syntaxError(data)
		return dst, newDecodeError(data, "malformed batch: "+syntaxReason(err), err)
	}
	msgs := dst
	var errs []error
	i := 0
	for item := range arrayItems(data) {
		m, err := decodeMessage(item, retain)
		if err != nil {
			var d *DecodeError
			if errors.As(err, &d) {
				d.Reason = fmt.Sprintf("batch item %d: %s", i, d.Reason)
			}
			errs = append(errs, err)
		} else {
			msgs = append(msgs, m)
		}
		i++
	}
	if i == 0 {
		return dst, newDecodeError(data, "empty batch", nil)
	}
	return msgs, errors.Join(errs...)
}

func (env *envelope) message(frame []byte, retain bool) (Message, error) {
	if len(env.jsonrpc) == 0 || isNull(env.jsonrpc) {
		return nil, newDecodeError(frame, `missing "jsonrpc" member`, nil)
	}
	if string(env.jsonrpc) != `"2.0"` {
		if v, ok := jsonString(env.jsonrpc); ok {
			if v != jsonrpcVersion {
				return nil, newDecodeError(frame, fmt.Sprintf(`"jsonrpc" is %q, want "2.0"`, v), nil)
			}
		} else {
			return nil, newDecodeError(frame, fmt.Sprintf(`"jsonrpc" is %s, want the string "2.0"`, excerpt(env.jsonrpc)), nil)
		}
	}
	hasResult := len(env.result) > 0
	hasError := len(env.error) > 0 && !isNull(env.error)
	if len(env.method) > 0 && !isNull(env.method) {
		method, ok := methodString(env.method)
		if !ok {
			return nil, newDecodeError(frame, fmt.Sprintf(`"method" is %s, not a string`, excerpt(env.method)), nil)
		}
		if hasResult || hasError {
			return nil, newDecodeError(frame, `"method" together with "result" or "error"`, nil)
		}
		if method == "" {
			return nil, newDecodeError(frame, `empty "method"`, nil)
		}
		params, err := checkParams(env.params, retain)
		if err != nil {
			return nil, newDecodeError(frame, err.Error(), nil)
		}
		if len(env.id) == 0 {
			return &Notification{Method: method, Params: params}, nil
		}
		if isNull(env.id) {
			return nil, newDecodeError(frame, "request id is null", nil)
		}
		id, err := parseID(env.id)
		if err != nil {
			return nil, newDecodeError(frame, err.Error(), nil)
		}
		return &Request{ID: id, Method: method, Params: params}, nil
	}
	switch {
	case hasResult && hasError:
		if !isNull(env.result) {
			return nil, newDecodeError(frame, `both "result" and "error"`, nil)
		}
		hasResult = false
	case !hasResult && !hasError:
		if len(env.error) > 0 {
			return nil, newDecodeError(frame, `"error" is null`, nil)
		}
		return nil, newDecodeError(frame, `neither "method", "result" nor "error"`, nil)
	}
	var id ID
	if len(env.id) > 0 && !isNull(env.id) {
		var err error
		if id, err = parseID(env.id); err != nil {
			return nil, newDecodeError(frame, err.Error(), nil)
		}
	} else if hasResult {
		return nil, newDecodeError(frame, "result response without an id", nil)
	}
	if hasResult {
		return &Response{ID: id, Result: keep(env.result, retain)}, nil
	}
	e, err := parseErrorObject(env.error)
	if err != nil {
		return nil, newDecodeError(frame, err.Error(), nil)
	}
	return &Response{ID: id, Error: e}, nil
}

// checkParams validates params and copies them out of the frame, unless
// the frame is retained.
func checkParams(raw []byte, retain bool) (json.RawMessage, error) {
	if len(raw) == 0 || isNull(raw) {
		return nil, nil
	}
	if raw[0] != '{' && raw[0] != '[' {
		return nil, errors.New(`"params" is neither an object nor an array`)
	}
	return keep(raw, retain), nil
}

// keep returns a member of the frame: itself when the frame is retained,
// else a copy.
func keep(raw []byte, retain bool) json.RawMessage {
	if retain {
		return raw[:len(raw):len(raw)]
	}
	return bytes.Clone(raw)
}

// parseErrorObject reads a valid JSON value as an error object.
func parseErrorObject(raw []byte) (*Error, error) {
	if raw[0] != '{' {
		return nil, errors.New(`"error" is not an object`)
	}
	var code, message, data []byte
	for key, value := range objectMembers(raw) {
		switch string(key) {
		case "code":
			code = value
		case "message":
			message = value
		case "data":
			data = value
		}
	}
	if len(code) == 0 {
		return nil, errors.New(`"error" has no "code"`)
	}
	n, ok := parseInt(code)
	if !ok {
		return nil, fmt.Errorf(`"error.code" is %s, want an integer`, excerpt(code))
	}
	e := &Error{Code: n}
	if len(message) > 0 && !isNull(message) {
		if e.Message, ok = jsonString(message); !ok {
			return nil, fmt.Errorf(`"error.message" is %s, not a string`, excerpt(message))
		}
	}
	if len(data) > 0 && !isNull(data) {
		e.Data = bytes.Clone(data)
	}
	return e, nil
}

// parseID reads a valid JSON value as an id: a string or an integer; null
// yields the unset id.
func parseID(raw []byte) (ID, error) {
	if len(raw) == 0 || isNull(raw) {
		return ID{}, nil
	}
	switch raw[0] {
	case '"':
		s, ok := jsonString(raw)
		if !ok {
			return ID{}, fmt.Errorf("id %s is not a valid string", excerpt(raw))
		}
		return StringID(s), nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n, ok := parseInt(raw)
		if !ok {
			return ID{}, fmt.Errorf("id %s is not an integer", excerpt(raw))
		}
		return Int64ID(n), nil
	}
	return ID{}, fmt.Errorf("id %s is neither a string nor an integer", excerpt(raw))
}

func isNull(raw []byte) bool { return string(raw) == "null" }

func excerpt(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "…"
	}
	return string(raw)
}

func syntaxReason(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%s at byte %d", se.Error(), se.Offset)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("member %q has the wrong type (%s)", te.Field, te.Value)
	}
	return err.Error()
}

// EncodeMessage returns the compact JSON encoding of m, without a trailing
// newline. Raw params and results that contain line breaks are compacted, so
// the output is always safe for JSON-lines framing.
func EncodeMessage(m Message) ([]byte, error) { return AppendMessage(nil, m) }

// AppendMessage appends the encoding of m to b (see EncodeMessage).
func AppendMessage(b []byte, m Message) ([]byte, error) {
	b = append(b, `{"jsonrpc":"2.0"`...)
	var err error
	switch m := m.(type) {
	case *Request:
		if !m.ID.IsValid() {
			return b, errors.New("jsonrpc: request without an id")
		}
		b = append(b, `,"id":`...)
		b = m.ID.appendJSON(b)
		b = append(b, `,"method":`...)
		b = jsonenc.AppendString(b, m.Method)
		if b, err = appendRaw(b, `,"params":`, m.Params); err != nil {
			return b, fmt.Errorf("jsonrpc: params of %s: %w", m.Method, err)
		}
	case *Notification:
		b = append(b, `,"method":`...)
		b = jsonenc.AppendString(b, m.Method)
		if b, err = appendRaw(b, `,"params":`, m.Params); err != nil {
			return b, fmt.Errorf("jsonrpc: params of %s: %w", m.Method, err)
		}
	case *Response:
		b = append(b, `,"id":`...)
		b = m.ID.appendJSON(b)
		if m.Error != nil {
			eb, mErr := json.Marshal(m.Error)
			if mErr != nil {
				return b, fmt.Errorf("jsonrpc: error object: %w", mErr)
			}
			b = append(b, `,"error":`...)
			b = append(b, eb...)
		} else {
			res := m.Result
			if len(res) == 0 {
				res = json.RawMessage("{}")
			}
			if b, err = appendRaw(b, `,"result":`, res); err != nil {
				return b, fmt.Errorf("jsonrpc: result for id %s: %w", m.ID, err)
			}
		}
	default:
		return b, fmt.Errorf("jsonrpc: cannot encode %T", m)
	}
	return append(b, '}'), nil
}

func appendRaw(b []byte, key string, raw json.RawMessage) ([]byte, error) {
	if len(raw) == 0 {
		return b, nil
	}
	b = append(b, key...)
	if bytes.IndexByte(raw, '\n') < 0 && bytes.IndexByte(raw, '\r') < 0 {
		return append(b, raw...), nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return b, err
	}
	return append(b, buf.Bytes()...), nil
}
