package account

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/web/internal/webtest"
)

// Issue 28, defect 9: the account's wording.

// TestBrowserAccountSaysWhatWentWrongAndWhatItDoes: on a phone, a wrong
// current password in the password change says the current password is
// wrong (not "wrong name or password"); while the change is on its way the
// page says it is working (not only a dimmed button); after logging out,
// the account page opens on Log in, not Sign up.
func TestBrowserAccountSaysWhatWentWrongAndWhatItDoes(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	base, _ := webtest.StartAccountsSite(t)
	en := locale.New(locale.En)
	p := webtest.NewTab(t, "account", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(base+"/account"), browsertest.WaitVisible(chromedp.CSS("#account-form")))
	webtest.SignUp(p, "Mika", "password1")
	p.WaitJS(10*time.Second, `location.pathname === '/players/Mika'`)
	p.Do(15*time.Second, chromedp.Navigate(base+"/account"), browsertest.WaitVisible(chromedp.CSS("#old-password")))
	// The change waits at a gate of the test's, so that the page's
	// progress is seen whatever the machine's speed.
	webtest.Eval[bool](p, `(() => {
		window.__gate = new Promise((r) => { window.__open = r; });
		const f = window.fetch;
		window.fetch = async (...a) => { if (String(a[0]).includes('/api/account/password')) await window.__gate; return f(...a); };
		return true; })()`)
	p.Expect("status of 403")
	p.Do(10*time.Second,
		browsertest.SendKeys(chromedp.CSS("#old-password"), "not my password"),
		browsertest.SendKeys(chromedp.CSS("#new-password"), "password2"),
		browsertest.Click(chromedp.CSS("#password-submit")),
	)
	working := en.T("web.account.working", nil)
	if !p.Eventually(webtest.Slack*5*time.Second, `(() => { const s = document.querySelector('#account-busy'); return !!s && s.offsetParent !== null && s.textContent === `+jsString(working)+`; })()`) {
		t.Errorf("while the password change is on its way the page does not say it is working (%q)", working)
	}
	p.Shot("d9-account-working-360")
	webtest.Eval[bool](p, `(window.__open(), true)`)
	p.WaitJS(10*time.Second, `!!document.querySelector('#account-error')`)
	if got, want := webtest.Eval[string](p, `document.querySelector('#account-error').textContent`), en.T("web.account.wrong_current", nil); got != want {
		t.Errorf("a wrong current password says %q, want %q", got, want)
	}
	p.Do(10*time.Second, browsertest.Click(chromedp.CSS("#logout")))
	p.WaitJS(10*time.Second, `!!document.querySelector('#account-form')`)
	p.Do(15*time.Second, chromedp.Navigate(base+"/account"), browsertest.WaitVisible(chromedp.CSS("#account-form")))
	if got, want := webtest.Eval[string](p, `document.querySelector('#account-h').textContent`), en.T("web.account.login", nil); got != want {
		t.Errorf("after logging out the account page opens on %q, want %q", got, want)
	}
	p.Shot("d9-account-after-logout-360")
}

// jsString quotes s as a JavaScript string.
func jsString(s string) string {
	b := []byte{'"'}
	for _, r := range s {
		switch r {
		case '"', '\\':
			b = append(b, '\\', byte(r))
		default:
			b = append(b, string(r)...)
		}
	}
	return string(append(b, '"'))
}
