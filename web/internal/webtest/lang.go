package webtest

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"mafia/locale"
)

// PreferLanguage makes the tab's browser prefer the languages of an
// Accept-Language list (navigator.languages too).
func PreferLanguage(tb *Tab, accept string) {
	tb.T.Helper()
	ua := Eval[string](tb, `navigator.userAgent`)
	tb.Do(5*time.Second, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: accept})
		return err
	}))
}

// StrconvQuote quotes s as a Go string literal (strconv.Quote), for a
// JavaScript expression built around it.
func StrconvQuote(s string) string { return strconv.Quote(s) }

var fieldRE = regexp.MustCompile(`\{\{\s*\.\w+\s*\}\}`)

// NoEnglish fails the test when the page shows a sentence of the English
// catalog that the page's own language words differently: a string that
// did not come from the page's catalog. A page that has just changed its
// language is still drawing what comes after its reconnect (the chat so
// far, asked for after the welcome, in the new language): it is given up
// to ten seconds to show none, and then what it still shows is reported.
func NoEnglish(tb *Tab, lang locale.Lang) {
	tb.T.Helper()
	var found []string
	for deadline := time.Now().Add(Slack * 10 * time.Second); ; {
		found = englishOn(Eval[string](tb, `document.body.innerText`), lang)
		if len(found) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond) // polls the page, as waitJS does
	}
	for _, f := range found {
		tb.T.Errorf("%s: the page in %s shows English %s", tb.Name, lang, f)
	}
}

// englishOn lists the English catalog's fixed words (each with its id) that
// text shows where lang words them differently.
func englishOn(text string, lang locale.Lang) []string {
	var found []string
	en, other := locale.Messages(locale.En), locale.Messages(lang)
	for id, forms := range en {
		if !strings.HasPrefix(id, "web.") && !strings.HasPrefix(id, "view.") && !strings.HasPrefix(id, "event.") {
			continue
		}
		for form, s := range forms {
			if s == other[id][form] || strings.HasPrefix(id, "web.lang_") {
				continue
			}
			// The fixed words between a message's fields.
			for _, part := range fieldRE.Split(s, -1) {
				part = strings.TrimSpace(strings.Trim(part, ".:,()"))
				if len(part) < 8 {
					continue
				}
				if strings.Contains(text, part) {
					found = append(found, fmt.Sprintf("%q (from %s)", part, id))
				}
			}
		}
	}
	return found
}
