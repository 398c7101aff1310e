package cluster

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"mafia/engine"
	"mafia/internal/httpapi"
)

// TestTheRelaysRefusalHasTheStatusOfTheVocabularyGiven: the relay answers
// its refusals by the program's one vocabulary (Config.Vocabulary), as
// every handler does, not one of its own: relay_unavailable is 503 by the
// package's own kinds, and whatever status the vocabulary given says.
func TestTheRelaysRefusalHasTheStatusOfTheVocabularyGiven(t *testing.T) {
	for _, c := range []struct {
		v    *httpapi.Vocabulary
		want int
	}{
		{nil, http.StatusServiceUnavailable},
		{httpapi.NewVocabulary(httpapi.Kinds, map[engine.Code]engine.Kind{CodeRelayUnavailable: engine.KindConflict}), http.StatusConflict},
	} {
		ca := newFakeClock()
		a := startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick, OpenWait: 100 * time.Millisecond, Vocabulary: c.v})
		rec := httptest.NewRecorder()
		a.Forward(rec, httptest.NewRequest(http.MethodGet, "/api/tables/t1", nil), "nobody", "")
		if rec.Code != c.want {
			t.Errorf("vocabulary %v: %d %s, want %d", c.v != nil, rec.Code, rec.Body, c.want)
		}
	}
}
