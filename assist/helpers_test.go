package assist_test

import (
	"bytes"
	"encoding/csv"
	"io"
	"net/http/httptest"
	"testing"

	"mafia/server"
)

// readCSV reads a CSV export, without its leading byte-order mark (which
// TestTheCSVOpensInASpreadsheet checks).
func readCSV(t *testing.T, r io.Reader) [][]string {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(b, []byte("\ufeff")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// getOnline answers a GET from the online server's handler.
func getOnline(t *testing.T, srv *server.Server, path string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	return rec.Body.String()
}
