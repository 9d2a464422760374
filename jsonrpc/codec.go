package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// envelope is the union of every member a JSON-RPC message may carry. Raw
// members keep params and result undecoded: the engine never decodes them,
// the caller decodes each exactly once into its own type.
type envelope struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// DecodeMessage decodes one JSON-RPC message. It is strict and says what is
// wrong: not an object, a missing or wrong "jsonrpc", a null or fractional
// id, both "result" and "error", and so on. Every error is a *DecodeError.
// A JSON array is rejected here; use DecodeFrame for input that may be a
// batch.
func DecodeMessage(data []byte) (Message, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, newDecodeError(data, "empty frame", nil)
	}
	if data[0] != '{' {
		if data[0] == '[' {
			return nil, newDecodeError(data, "a batch (JSON array) where one message was expected", nil)
		}
		return nil, newDecodeError(data, "not a JSON object", nil)
	}
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, newDecodeError(data, "malformed JSON: "+syntaxReason(err), err)
	}
	return env.message(data)
}

// DecodeFrame decodes a frame that holds one message or, as protocol
// 2025-03-26 allows, a batch: a non-empty JSON array of messages. Valid
// members of a batch are returned even when others are invalid; the invalid
// ones are reported in the error (a join of *DecodeError).
func DecodeFrame(data []byte) ([]Message, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '[' {
		m, err := DecodeMessage(data)
		if err != nil {
			return nil, err
		}
		return []Message{m}, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, newDecodeError(data, "malformed batch: "+syntaxReason(err), err)
	}
	if len(items) == 0 {
		return nil, newDecodeError(data, "empty batch", nil)
	}
	msgs := make([]Message, 0, len(items))
	var errs []error
	for i, item := range items {
		m, err := DecodeMessage(item)
		if err != nil {
			var d *DecodeError
			if errors.As(err, &d) {
				d.Reason = fmt.Sprintf("batch item %d: %s", i, d.Reason)
			}
			errs = append(errs, err)
			continue
		}
		msgs = append(msgs, m)
	}
	return msgs, errors.Join(errs...)
}

func (env *envelope) message(frame []byte) (Message, error) {
	if env.JSONRPC == nil {
		return nil, newDecodeError(frame, `missing "jsonrpc" member`, nil)
	}
	if *env.JSONRPC != Version {
		return nil, newDecodeError(frame, fmt.Sprintf(`"jsonrpc" is %q, want "2.0"`, *env.JSONRPC), nil)
	}
	hasResult := len(env.Result) > 0
	hasError := len(env.Error) > 0 && !isNull(env.Error)
	if env.Method != nil {
		if hasResult || hasError {
			return nil, newDecodeError(frame, `"method" together with "result" or "error"`, nil)
		}
		if *env.Method == "" {
			return nil, newDecodeError(frame, `empty "method"`, nil)
		}
		params, err := checkParams(env.Params)
		if err != nil {
			return nil, newDecodeError(frame, err.Error(), nil)
		}
		if len(env.ID) == 0 {
			return &Notification{Method: *env.Method, Params: params}, nil
		}
		if isNull(env.ID) {
			return nil, newDecodeError(frame, "request id is null", nil)
		}
		id, err := parseID(env.ID)
		if err != nil {
			return nil, newDecodeError(frame, err.Error(), nil)
		}
		return &Request{ID: id, Method: *env.Method, Params: params}, nil
	}
	switch {
	case hasResult && hasError:
		if !isNull(env.Result) {
			return nil, newDecodeError(frame, `both "result" and "error"`, nil)
		}
		hasResult = false
	case !hasResult && !hasError:
		if len(env.Error) > 0 {
			return nil, newDecodeError(frame, `"error" is null`, nil)
		}
		return nil, newDecodeError(frame, `neither "method", "result" nor "error"`, nil)
	}
	var id ID
	if len(env.ID) > 0 && !isNull(env.ID) {
		var err error
		if id, err = parseID(env.ID); err != nil {
			return nil, newDecodeError(frame, err.Error(), nil)
		}
	} else if hasResult {
		return nil, newDecodeError(frame, "result response without an id", nil)
	}
	if hasResult {
		return &Response{ID: id, Result: env.Result}, nil
	}
	e, err := parseErrorObject(env.Error)
	if err != nil {
		return nil, newDecodeError(frame, err.Error(), nil)
	}
	return &Response{ID: id, Error: e}, nil
}

func checkParams(raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) == 0 || isNull(raw) {
		return nil, nil
	}
	if raw[0] != '{' && raw[0] != '[' {
		return nil, errors.New(`"params" is neither an object nor an array`)
	}
	return raw, nil
}

func parseErrorObject(raw json.RawMessage) (*Error, error) {
	if raw[0] != '{' {
		return nil, errors.New(`"error" is not an object`)
	}
	var obj struct {
		Code    json.RawMessage `json:"code"`
		Message *string         `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf(`"error" is malformed: %s`, syntaxReason(err))
	}
	if len(obj.Code) == 0 {
		return nil, errors.New(`"error" has no "code"`)
	}
	code, err := strconv.ParseInt(string(obj.Code), 10, 64)
	if err != nil {
		return nil, fmt.Errorf(`"error.code" is %s, want an integer`, excerpt(obj.Code))
	}
	e := &Error{Code: code}
	if obj.Message != nil {
		e.Message = *obj.Message
	}
	if len(obj.Data) > 0 && !isNull(obj.Data) {
		e.Data = obj.Data
	}
	return e, nil
}

func parseID(raw []byte) (ID, error) {
	if len(raw) == 0 || isNull(raw) {
		return ID{}, nil
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return ID{}, fmt.Errorf("id %s is not a valid string", excerpt(raw))
		}
		return StringID(s), nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
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
		b = appendJSONString(b, m.Method)
		if b, err = appendRaw(b, `,"params":`, m.Params); err != nil {
			return b, fmt.Errorf("jsonrpc: params of %s: %w", m.Method, err)
		}
	case *Notification:
		b = append(b, `,"method":`...)
		b = appendJSONString(b, m.Method)
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

// appendJSONString appends s as a JSON string. Plain ASCII (the common case
// for method names and ids) is copied; anything else goes through
// encoding/json for correct escaping.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
