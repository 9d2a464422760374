package mcp

import (
	"encoding/json"
	"slices"
)

// LoggingLevel is a syslog severity (RFC 5424), lowest first.
type LoggingLevel string

// The eight levels, in increasing severity.
const (
	LevelDebug     LoggingLevel = "debug"
	LevelInfo      LoggingLevel = "info"
	LevelNotice    LoggingLevel = "notice"
	LevelWarning   LoggingLevel = "warning"
	LevelError     LoggingLevel = "error"
	LevelCritical  LoggingLevel = "critical"
	LevelAlert     LoggingLevel = "alert"
	LevelEmergency LoggingLevel = "emergency"
)

var loggingLevels = []LoggingLevel{LevelDebug, LevelInfo, LevelNotice, LevelWarning, LevelError, LevelCritical, LevelAlert, LevelEmergency}

// Severity returns the level's rank, 0 for debug up to 7 for emergency, and
// -1 for a level the protocol does not define.
func (l LoggingLevel) Severity() int { return slices.Index(loggingLevels, l) }

// LoggingMessage is the params of notifications/message.
type LoggingMessage struct {
	Level  LoggingLevel `json:"level"`
	Logger string       `json:"logger,omitempty"`
	// Data is any JSON value: a string, or an object with details.
	Data json.RawMessage `json:"data"`
	Meta map[string]any  `json:"_meta,omitempty"`
}

type setLevelParams struct {
	Level LoggingLevel `json:"level"`
}
