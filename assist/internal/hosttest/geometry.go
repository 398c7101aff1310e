package hosttest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// Box is an element's box on the screen, in CSS pixels.
type Box struct {
	Left, Top, Right, Bottom float64
	Found                    bool
}

// String writes the box as [left,top–right,bottom].
func (b Box) String() string {
	return fmt.Sprintf("[%.0f,%.0f–%.0f,%.0f]", b.Left, b.Top, b.Right, b.Bottom)
}

// Overlaps reports whether two boxes share any area.
func (b Box) Overlaps(o Box) bool {
	return b.Found && o.Found && b.Left < o.Right && o.Left < b.Right && b.Top < o.Bottom && o.Top < b.Bottom
}

// InView reports whether the box lies wholly inside a viewport of w×h.
func (b Box) InView(w, h float64) bool {
	return b.Found && b.Left >= 0 && b.Top >= 0 && b.Right <= w+0.5 && b.Bottom <= h+0.5
}

// BoxOf returns the box of the first element a CSS selector finds.
func (tb *Tab) BoxOf(sel string) Box {
	tb.t.Helper()
	return Eval[Box](tb, `(() => { const el = document.querySelector(`+strconv.Quote(sel)+`);
		if (!el) return {Found: false};
		const r = el.getBoundingClientRect();
		return {Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom, Found: r.width > 0 && r.height > 0}; })()`)
}

// NoSideScroll fails when the page is wider than its viewport (a phone
// would scroll sideways), naming the elements that stick out.
func (tb *Tab) NoSideScroll(where string) {
	tb.t.Helper()
	wide := Eval[[]string](tb, `(() => {
		const w = document.documentElement.clientWidth;
		const out = [];
		if (document.documentElement.scrollWidth > w) out.push('page ' + document.documentElement.scrollWidth + ' > ' + w);
		for (const el of document.body.querySelectorAll('*')) {
			const r = el.getBoundingClientRect();
			if (r.width > 0 && r.right > w + 0.5) out.push(el.tagName.toLowerCase() + (el.dataset.t ? '[' + el.dataset.t + ']' : '') + '.' + el.className + ' right=' + Math.round(r.right));
			if (out.length > 8) break;
		}
		return out; })()`)
	if len(wide) > 0 {
		tb.t.Errorf("%s: wider than the screen: %v", where, wide)
	}
}

// ShowToast shows a toast with text on the page, as a refusal would.
func (h *Host) ShowToast(text string) {
	h.t.Helper()
	Eval[bool](h.Tab, `(() => { import('/host/static/' + document.body.dataset.version + '/js/ui.js').then((m) => m.toast(`+strconv.Quote(text)+`, 'error')); return true; })()`)
	h.WaitJS(5*time.Second, `!!document.querySelector('.toast.show') && document.getElementById('toast').textContent === `+strconv.Quote(text))
	// Wait for the toast's slide-in to end.
	h.WaitJS(5*time.Second, `getComputedStyle(document.getElementById('toast')).opacity === '1' && new Promise((r) => setTimeout(() => r(true), 300))`)
}

// Contrast returns the contrast ratio (WCAG) of an element's text against
// the page's background, its colour taken with its own and its ancestors'
// opacity.
func (tb *Tab) Contrast(sel string) float64 {
	tb.t.Helper()
	return Eval[float64](tb, `(() => {
		const el = document.querySelector(`+strconv.Quote(sel)+`);
		const rgba = (s) => { const m = s.match(/[\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
		let bg = [0, 0, 0, 0];
		for (let e = el; e && bg[3] === 0; e = e.parentElement) bg = rgba(getComputedStyle(e).backgroundColor);
		if (bg[3] === 0) bg = rgba(getComputedStyle(document.body).backgroundColor);
		let a = rgba(getComputedStyle(el).color)[3];
		for (let e = el; e; e = e.parentElement) a *= Number(getComputedStyle(e).opacity);
		const c = rgba(getComputedStyle(el).color).slice(0, 3).map((x, i) => x * a + bg[i] * (1 - a));
		const lum = (v) => { const [r, g, b] = v.map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
		const l1 = lum(c), l2 = lum(bg.slice(0, 3));
		return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05); })()`)
}

// DimmestText returns the lowest contrast of any visible text on the
// screen but the elements a selector excludes, and where it is.
func (tb *Tab) DimmestText(except string) (float64, string) {
	tb.t.Helper()
	type dim struct {
		C   float64
		Sel string
	}
	d := Eval[dim](tb, `(() => {
		const rgba = (s) => { const m = s.match(/[\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
		const lum = (v) => { const [r, g, b] = v.map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
		let best = {C: 99, Sel: ''};
		for (const el of document.querySelectorAll('#screen *')) {
			if (el.closest(`+strconv.Quote(except)+`)) continue;
			const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
			const r = el.getBoundingClientRect();
			if (!own || r.width === 0 || r.height === 0) continue;
			let bg = [0, 0, 0, 0];
			for (let e = el; e && bg[3] === 0; e = e.parentElement) bg = rgba(getComputedStyle(e).backgroundColor);
			if (bg[3] === 0) bg = rgba(getComputedStyle(document.body).backgroundColor);
			let a = rgba(getComputedStyle(el).color)[3];
			for (let e = el; e; e = e.parentElement) a *= Number(getComputedStyle(e).opacity);
			const c = rgba(getComputedStyle(el).color).slice(0, 3).map((x, i) => x * a + bg[i] * (1 - a));
			const l1 = lum(c), l2 = lum(bg.slice(0, 3));
			const k = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
			if (k < best.C) best = {C: k, Sel: el.tagName.toLowerCase() + '.' + el.className + ' "' + el.textContent.trim().slice(0, 30) + '"'};
		}
		return best; })()`)
	return d.C, d.Sel
}

// WriteArtifact keeps a file the test made (in $MAFIA_SCREENSHOTS, like
// the screenshots, or the test's artifact folder).
func WriteArtifact(t *testing.T, name string, b []byte) {
	t.Helper()
	dir := os.Getenv("MAFIA_SCREENSHOTS")
	if dir == "" {
		dir = t.ArtifactDir()
	}
	_ = os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// BrokenCells returns, for the cells sel finds, each one whose text runs
// over more lines than it has words (a word cut in two), or, for those
// numeric says, over more than one line ("1" over "0"): "text (lines)".
func BrokenCells(tb *Tab, sel string, numeric bool) []string {
	return Eval[[]string](tb, `(() => {
		const out = [];
		for (const el of document.querySelectorAll(`+JsString(sel)+`)) {
			if (!el.offsetParent) continue; // not shown
			const r = document.createRange(); r.selectNodeContents(el);
			const lines = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))).size;
			const words = el.textContent.trim().split(/\s+/).filter(Boolean).length;
			if (lines > (`+map[bool]string{true: "1", false: "words"}[numeric]+`)) out.push(el.textContent.trim() + ' (' + lines + ')');
		}
		return out;
	})()`)
}
