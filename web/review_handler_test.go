package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"mafia/internal/qrsvg"
)

// TestTheReviewIsThePageAndItsQRCodeIsOfTheReview: /t/{id}/review is the
// page (review.js draws it), and its ?qr= is the QR code of the review's
// own link, not the invite's, with the invite's checks.
func TestTheReviewIsThePageAndItsQRCodeIsOfTheReview(t *testing.T) {
	h := handler()
	w := get(t, h, "/t/5f71e455a543935b/review", nil)
	if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") ||
		!strings.Contains(w.Body.String(), "/js/main.js") {
		t.Fatalf("GET /t/{id}/review: %d %q", w.Code, w.Header().Get("Content-Type"))
	}
	q := "?qr=" + url.QueryEscape("https://mafia.example")
	review := get(t, h, "/t/5f71e455a543935b/review"+q, nil)
	invite := get(t, h, "/t/5f71e455a543935b"+q, nil)
	want, err := qrsvg.Draw("https://mafia.example/t/5f71e455a543935b/review")
	if err != nil {
		t.Fatal(err)
	}
	if review.Code != http.StatusOK || review.Header().Get("Content-Type") != "image/svg+xml" || review.Body.String() != want {
		t.Fatalf("the review's QR code: %d %q, not the review link's", review.Code, review.Header().Get("Content-Type"))
	}
	if invite.Body.String() == want {
		t.Fatal("the invite's QR code is the review's")
	}
	if w := get(t, h, "/t/5f71e455a543935b/review?qr="+url.QueryEscape("javascript:alert(1)"), nil); w.Code != http.StatusBadRequest {
		t.Errorf("a review QR code of a bad origin: %d, want 400", w.Code)
	}
	if w := get(t, h, "/t/5f71e455a543935b/review/more", nil); w.Code != http.StatusNotFound {
		t.Errorf("GET /t/{id}/review/more: %d, want 404", w.Code)
	}
}

// TestTheReviewsQRCodeCarriesTheStepBeingViewed: ?qr=ORIGIN&step=N&view=S
// is the QR code of ORIGIN/t/{id}/review#step=N&view=S, the link the share
// box holds at that step; a step or a view that is not a small number, or
// one without the other, is refused, 400.
func TestTheReviewsQRCodeCarriesTheStepBeingViewed(t *testing.T) {
	h := handler()
	q := "?qr=" + url.QueryEscape("https://mafia.example")
	want, err := qrsvg.Draw("https://mafia.example/t/5f71e455a543935b/review#step=12&view=3")
	if err != nil {
		t.Fatal(err)
	}
	w := get(t, h, "/t/5f71e455a543935b/review"+q+"&step=12&view=3", nil)
	if w.Code != http.StatusOK || w.Body.String() != want {
		t.Fatalf("the QR code of step 12 from seat 3: %d, not that step's link", w.Code)
	}
	for _, bad := range []string{"&step=12", "&view=3", "&step=-1&view=0", "&step=1e3&view=0", "&step=12&view=", "&step=123456&view=0", "&step=1&view=2%23x", "&step=1&view=a"} {
		if w := get(t, h, "/t/5f71e455a543935b/review"+q+bad, nil); w.Code != http.StatusBadRequest {
			t.Errorf("the review's QR code with %q: %d, want 400", bad, w.Code)
		}
	}
}
