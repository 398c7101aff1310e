package account

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestHTTP_ASpentAddressIsRefusedBeforeItsBodyIsRead (issue 25, the login
// flood's cost): once an address's attempts are spent, its next login and
// signup are refused login_limited whatever their body, a body that is not
// even JSON included: the refusal comes before the body is read, decoded
// or its name folded. A browser with device tokens still reaches
// LoginFrom (which lets a known device past its address's limit); and
// the refusal's sentence is the catalog's each time.
func TestHTTP_ASpentAddressIsRefusedBeforeItsBodyIsRead(t *testing.T) {
	w := newWeb(t, Config{PerAddress: Limit{Every: time.Hour, Burst: 3}})
	for range 3 {
		if code, body, _ := w.call(t, nil, "POST", "/api/account/login", "", map[string]any{"name": "nino", "password": "guess1234"}); code != http.StatusForbidden {
			t.Fatalf("a guess within the address's burst: %d %s", code, body)
		}
	}
	post := func(path, body string, device bool) (int, string) {
		req, _ := http.NewRequest("POST", w.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if device {
			req.AddCookie(&http.Cookie{Name: DeviceCookie, Value: "1.abc.def"})
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 512)
		for {
			n, err := resp.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return resp.StatusCode, b.String()
	}
	var first string
	for _, path := range []string{"/api/account/login", "/api/account/signup", "/api/account/login"} {
		code, body := post(path, `this is not JSON {`, false)
		if code != http.StatusTooManyRequests || !strings.Contains(body, `"code":"login_limited"`) {
			t.Errorf("%s from a spent address, body not JSON: %d %s, want 429 login_limited", path, code, body)
		}
		if first == "" {
			first = body
		} else if body != first && path == "/api/account/login" {
			t.Errorf("the refusal's body changed: %s then %s", first, body)
		}
	}
	if code, body := post("/api/account/login", `this is not JSON {`, true); code != http.StatusBadRequest {
		t.Errorf("a browser with device tokens from the spent address: %d %s, want its body read (400)", code, body)
	}
}
