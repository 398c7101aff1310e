package browsertest

import (
	"time"

	"github.com/chromedp/chromedp"
)

// Every is how often a query of these wrappers looks again for an element
// not there yet (or not yet visible, enabled): 50 ms, where chromedp's own
// default is 5 ms. Each look is a DevTools round trip through the browser
// process to the page (DOM.querySelectorAll, then the node's box), so a
// test waiting on a query kept three processes busy: at a table page with
// a clock running, 10 s of a query waiting for an element that never came
// took about 1.1 CPU-s more than 10 s of the page left alone (browser
// process 0.42, renderer 0.34, the test binary 0.38), and about 0.2 more
// at 50 ms. A query that finds its element at once is not slowed; one that
// waits sees it at most 50 ms later, which no test can tell from a slower
// page (every wait is bounded by seconds, Slack times). Web pages' waits on
// a JavaScript condition (Tab.WaitJS) poll inside the page and are not
// affected.
const Every = 50 * time.Millisecond

// every is the query option that sets Every.
var every = chromedp.RetryInterval(Every)

// Click is chromedp.Click, looking again every Every.
func Click[S chromedp.Selectable](sel S, opts ...chromedp.QueryOption) chromedp.Action[chromedp.Void] {
	return chromedp.Click(sel, withEvery(opts)...)
}

// WaitVisible is chromedp.WaitVisible, looking again every Every.
func WaitVisible[S chromedp.Selectable](sel S, opts ...chromedp.QueryOption) chromedp.Action[chromedp.Void] {
	return chromedp.WaitVisible(sel, withEvery(opts)...)
}

// WaitEnabled is chromedp.WaitEnabled, looking again every Every.
func WaitEnabled[S chromedp.Selectable](sel S, opts ...chromedp.QueryOption) chromedp.Action[chromedp.Void] {
	return chromedp.WaitEnabled(sel, withEvery(opts)...)
}

// WaitReady is chromedp.WaitReady, looking again every Every.
func WaitReady[S chromedp.Selectable](sel S, opts ...chromedp.QueryOption) chromedp.Action[chromedp.Void] {
	return chromedp.WaitReady(sel, withEvery(opts)...)
}

// SendKeys is chromedp.SendKeys, looking again every Every.
func SendKeys[S chromedp.Selectable](sel S, v string, opts ...chromedp.QueryOption) chromedp.Action[chromedp.Void] {
	return chromedp.SendKeys(sel, v, withEvery(opts)...)
}

// SetValue is chromedp.SetValue, looking again every Every.
func SetValue[S chromedp.Selectable](sel S, value string, opts ...chromedp.QueryOption) chromedp.Action[chromedp.Void] {
	return chromedp.SetValue(sel, value, withEvery(opts)...)
}

// Focus is chromedp.Focus, looking again every Every.
func Focus[S chromedp.Selectable](sel S, opts ...chromedp.QueryOption) chromedp.Action[chromedp.Void] {
	return chromedp.Focus(sel, withEvery(opts)...)
}

// ScrollIntoView is chromedp.ScrollIntoView, looking again every Every.
func ScrollIntoView[S chromedp.Selectable](sel S, opts ...chromedp.QueryOption) chromedp.Action[chromedp.Void] {
	return chromedp.ScrollIntoView(sel, withEvery(opts)...)
}

// withEvery puts the Every option first, so that a caller's own
// RetryInterval still wins.
func withEvery(opts []chromedp.QueryOption) []chromedp.QueryOption {
	return append([]chromedp.QueryOption{every}, opts...)
}
