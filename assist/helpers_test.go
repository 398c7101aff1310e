package assist_test

import (
	"encoding/csv"
	"io"
	"net/http/httptest"
	"testing"

	"mafia/server"
)

func readCSV(t *testing.T, r io.Reader) [][]string {
	t.Helper()
	rows, err := csv.NewReader(r).ReadAll()
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
