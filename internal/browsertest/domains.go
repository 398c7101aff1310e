package browsertest

import (
	"context"
	"os"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Quiet turns off, in a tab that chromedp has just attached to, the
// DevTools domains that chromedp turns on for every target and that no
// test here reads: Network (each request, response and WebSocket frame
// of the page becomes an event sent to the test, with its payload) and
// CSS (the browser tracks every style sheet for the inspector). chromedp
// needs neither to navigate, query, click or evaluate: its page loads
// wait on the Page domain's lifecycle events, its queries on DOM, and the
// console on Runtime and Log, which stay on.
//
// A test that reads the network (counts a page's requests) turns the
// Network domain on again in its own tab.
func Quiet(ctx context.Context) error {
	if os.Getenv("MAFIA_CDP_ALL") == "1" {
		return nil
	}
	if _, err := chromedp.Call(ctx, network.Disable, cdp.Empty{}); err != nil {
		return err
	}
	_, err := chromedp.Call(ctx, css.Disable, cdp.Empty{})
	return err
}

// Tab opens a tab in the browser of root (Browser.Context's; with
// chromedp.WithNewBrowserContext among opts, in a browser context of its
// own), quiet (Quiet) before it loads any page, and closes it when the
// test ends.
func Tab(t testing.TB, root context.Context, opts ...chromedp.ContextOption) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(root, opts...)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	if err := Quiet(ctx); err != nil {
		t.Fatalf("quiet the tab: %v", err)
	}
	return ctx
}
