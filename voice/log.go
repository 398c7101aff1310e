package voice

// This file routes WebRTC's own log lines into the unit's log, so an
// operator reads them with the rest of the server's, not as bare lines on
// standard error.

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/pion/logging"
)

// pionLogs makes WebRTC's loggers write its warnings and errors to log
// (its trace, debug and info lines are left out: they are per packet).
type pionLogs struct{ log *slog.Logger }

// NewLogger is the logger of one of WebRTC's parts (its scope).
func (f pionLogs) NewLogger(scope string) logging.LeveledLogger {
	return pionLog{log: f.log.With("webrtc", scope)}
}

// pionLog is one scope's logger.
type pionLog struct{ log *slog.Logger }

func (l pionLog) put(level slog.Level, msg string) { l.log.Log(context.Background(), level, msg) }

// Trace is left out.
func (pionLog) Trace(string) {}

// Tracef is left out.
func (pionLog) Tracef(string, ...any) {}

// Debug is left out.
func (pionLog) Debug(string) {}

// Debugf is left out.
func (pionLog) Debugf(string, ...any) {}

// Info is left out.
func (pionLog) Info(string) {}

// Infof is left out.
func (pionLog) Infof(string, ...any) {}

// Warn logs msg at warning level.
func (l pionLog) Warn(msg string) { l.put(slog.LevelWarn, msg) }

// Warnf logs a formatted message at warning level.
func (l pionLog) Warnf(format string, args ...any) {
	l.put(slog.LevelWarn, fmt.Sprintf(format, args...))
}

// Error logs msg at error level.
func (l pionLog) Error(msg string) { l.put(slog.LevelError, msg) }

// Errorf logs a formatted message at error level.
func (l pionLog) Errorf(format string, args ...any) {
	l.put(slog.LevelError, fmt.Sprintf(format, args...))
}
