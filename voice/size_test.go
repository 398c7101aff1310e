package voice_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"mafia/wire"
)

// TestVoice_AnAnswerPastFourKiBIsTaken: at a 20-seat table a client's answer
// names 19 seats' tracks and its microphone's, past the 4 KiB every other
// frame is held to: it is taken, and the peer connects. Any other frame
// that long is still too_large.
func TestVoice_AnAnswerPastFourKiBIsTaken(t *testing.T) {
	r := newRig(t, true)
	id, _, tokens := r.createSeats(t, 20, 1)
	p := r.dial(t, id, tokens[1], 1)
	var answerLen int
	p.onAnswer = func(sdp string) { answerLen = len(sdp) }
	if a := p.answer(p.joinVoice(true)); a != "" {
		t.Fatalf("the join refused: %s", a)
	}
	p.connected()
	p.mu.Lock()
	refused := fmt.Sprint(p.errs)
	p.mu.Unlock()
	if answerLen <= 4096 || refused != "map[]" {
		t.Fatalf("the answer was %d bytes; refusals %s", answerLen, refused)
	}
	long := wire.ClientMessage{Type: "chat", Channel: "town", Text: strings.Repeat("ა", 2000)}
	_, _ = p.conn.Send(context.Background(), long)
	// Refused unread: its answer carries no id.
	if got := p.answer(0); code(got) != "too_large" {
		t.Errorf("a chat frame of %d bytes answered %q, want too_large", len(long.AppendJSON(nil)), got)
	}
}

// createSeats makes a voice table of n seats of which the first k are
// joined by the test's people.
func (r *rig) createSeats(t *testing.T, n, k int) (string, string, []string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"name": "Voice", "voice": "seats",
		"setup": map[string]int{"don": 1, "mafia": 4, "maniac": 1, "detective": 1, "doctor": 1, "citizens": n - 8}})
	resp, err := http.Post(r.hs.URL+"/api/tables", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %s", resp.Status)
	}
	var out struct {
		Table     string `json:"table"`
		HostToken string `json:"host_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	tokens := make([]string, k+1)
	for s := 1; s <= k; s++ {
		j, err := r.api.Join(context.Background(), out.Table, fmt.Sprintf("P%d", s), s, "")
		if err != nil {
			t.Fatal(err)
		}
		tokens[s] = j.Token
	}
	return out.Table, out.HostToken, tokens
}
