package lograte

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// fakeNow is a clock the test moves.
type fakeNow struct{ t time.Time }

func (f *fakeNow) now() time.Time { return f.t }

func newLogger(every time.Duration) (*slog.Logger, *bytes.Buffer, *fakeNow) {
	var buf bytes.Buffer
	clk := &fakeNow{t: time.Unix(1_800_000_000, 0)}
	h := New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}), every, clk.now)
	return slog.New(h), &buf, clk
}

func lines(buf *bytes.Buffer) []map[string]any {
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		json.Unmarshal([]byte(l), &m)
		out = append(out, m)
	}
	return out
}

var errFull = errors.New("database or disk is full (13)")

// TestHandler_TheFirstOfEachKindThenOnePerIntervalWithTheCount pins the
// limit: the first error of a kind at once, the same again within the
// interval dropped, the first after it passed with the number dropped; the
// same failure from many tables' loggers (With) is one kind.
func TestHandler_TheFirstOfEachKindThenOnePerIntervalWithTheCount(t *testing.T) {
	log, buf, clk := newLogger(10 * time.Second)
	for s := 0; s < 30; s++ { // 30 s, every table failing 4 times a second
		for q := 0; q < 4; q++ {
			for table := 0; table < 100; table++ {
				err := fmt.Errorf("store/sqlite: append: %w", errFull)
				log.With("table", fmt.Sprint("t", table)).Error("append events", "err", err)
			}
			clk.t = clk.t.Add(250 * time.Millisecond)
		}
	}
	got := lines(buf)
	if len(got) != 3 {
		t.Fatalf("%d lines for 12,000 identical failures over 30 s at one a 10 s, want 3:\n%s", len(got), buf)
	}
	if got[0]["suppressed"] != nil || got[0]["table"] != "t0" || !strings.Contains(got[0]["err"].(string), "disk is full") {
		t.Errorf("the first line is not the first failure, whole: %v", got[0])
	}
	for _, l := range got[1:] {
		if n, _ := l["suppressed"].(float64); n != 4*100*10-1 {
			t.Errorf("a later line says %v suppressed, want %d: %v", l["suppressed"], 4*100*10-1, l)
		}
	}
}

// TestHandler_KindsAreToldApart: another message, another root cause, or
// another attribute of the record itself is another kind, passed at once;
// records below Warn are never limited.
func TestHandler_KindsAreToldApart(t *testing.T) {
	log, buf, _ := newLogger(time.Minute)
	log.Error("append events", "err", fmt.Errorf("a: %w", errFull))
	log.Error("append events", "err", fmt.Errorf("b: %w", errFull)) // same cause: dropped
	log.Error("append events", "err", errors.New("attempt to write a readonly database (8)"))
	log.Error("save clock", "err", errFull)
	log.Warn("save clock", "err", errFull)
	log.Error("table set aside as damaged", "table", "a", "err", errFull)
	log.Error("table set aside as damaged", "table", "b", "err", errFull)
	for i := 0; i < 5; i++ {
		log.Info("serving", "n", 1)
		log.Debug("detail")
	}
	var msgs []string
	for _, l := range lines(buf) {
		msgs = append(msgs, fmt.Sprint(l["level"], " ", l["msg"], " ", l["table"]))
	}
	want := []string{"ERROR append events <nil>", "ERROR append events <nil>", "ERROR save clock <nil>",
		"WARN save clock <nil>", "ERROR table set aside as damaged a", "ERROR table set aside as damaged b"}
	for i := 0; i < 5; i++ {
		want = append(want, "INFO serving <nil>", "DEBUG detail <nil>")
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
}

// TestHandler_ManyKindsStayBounded: past maxKinds distinct kinds, records
// are limited by level and message alone, so the memory and the log stay
// bounded however many distinct errors arrive.
func TestHandler_ManyKindsStayBounded(t *testing.T) {
	log, buf, _ := newLogger(time.Minute)
	h := log.Handler().(*Handler)
	for i := 0; i < 5*maxKinds; i++ {
		log.Error("request failed", "path", fmt.Sprint("/api/tables/", i))
	}
	if n := len(h.state.kinds); n > maxKinds+1 {
		t.Errorf("%d kinds remembered, want at most %d", n, maxKinds+1)
	}
	if n := len(lines(buf)); n != maxKinds+1 {
		t.Errorf("%d lines for %d distinct errors, want %d", n, 5*maxKinds, maxKinds+1)
	}
}

// TestHandler_NoIntervalNoLimit: an interval of 0 passes everything.
func TestHandler_NoIntervalNoLimit(t *testing.T) {
	log, buf, _ := newLogger(0)
	for i := 0; i < 10; i++ {
		log.Error("x", "err", errFull)
	}
	if n := len(lines(buf)); n != 10 {
		t.Errorf("%d lines, want 10", n)
	}
}
