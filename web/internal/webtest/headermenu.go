package webtest

import (
	"context"

	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
)

// TapSetting taps sel, one of the header's settings (a language's button,
// #mute, #vibrate), opening the settings menu first when it is closed, as
// a finger does.
func TapSetting(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		open, err := chromedp.Evaluate[bool](`(() => { const p = document.querySelector('#settings'); return !!p && !p.hidden; })()`)(ctx, tg)
		if err != nil {
			return err
		}
		if !open {
			if _, err := browsertest.Click(chromedp.CSS("#settings-open"))(ctx, tg); err != nil {
				return err
			}
		}
		_, err = browsertest.Click(chromedp.CSS(sel))(ctx, tg)
		return err
	})
}
