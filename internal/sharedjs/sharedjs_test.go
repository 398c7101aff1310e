package sharedjs_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
	"mafia/internal/sharedjs"
	"mafia/internal/static"
)

var browser = browsertest.New("mafia/internal/sharedjs")

func TestMain(m *testing.M) {
	code := m.Run()
	browser.Close()
	os.Exit(code)
}

// catalogs are two languages' catalogs as the server serves them
// (web/catalog.go): plural forms by name, {{.Field}} templates.
var catalogs = map[string]string{
	"ru": `{"lang":"ru","messages":{"votes":{"one":"{{.Count}} голос","few":"{{.Count}} голоса","many":"{{.Count}} голосов","other":"{{.Count}} голоса"},` +
		`"hello":{"other":"Привет, {{.Name}}"}}}`,
	"en": `{"lang":"en","messages":{"votes":{"one":"{{.Count}} vote","other":"{{.Count}} votes"},"hello":{"other":"Hello, {{.Name}}"}}}`,
}

// script runs the modules as both pages do, in a page drawn in Russian,
// and reports what each rule produced.
const script = `(async () => {
  const { h, patch, morph, keep, lines } = await import('/static/v/js/dom.js');
  const I = await import('/static/v/js/i18n.js');
  const out = {};

  let clicks = 0, taps = 0;
  const b = h('button', { class: 'big', text: 'go', on: { click: () => { clicks++; } }, onclick: () => { taps++; },
    dataset: { t: 'go', seat: 3 }, key: 'k', disabled: false, hidden: null, 'aria-label': 'Go', novalidate: true });
  b.click();
  out.props = [b.className, b.textContent, b.dataset.t, b.dataset.seat, b.dataset.key].join('|');
  out.events = clicks + '|' + taps;
  out.attrs = [b.getAttribute('aria-label'), b.getAttribute('novalidate'), b.hasAttribute('disabled'), b.hasAttribute('hidden')].join('|');
  const input = h('input', { type: 'text', value: 'typed' });
  const sel = h('select', {}, ['a', 'b', 'c'].map((v) => h('option', { value: v, selected: v === 'b' }, v)));
  const box = h('input', { type: 'checkbox', checked: true, disabled: true });
  out.properties = [input.value, input.getAttribute('value'), sel.value, box.checked, box.disabled].join('|');
  const list = h('ul', {}, 'a', [h('li', {}, 'b'), [null, false, 'c', [3]]], undefined);
  out.children = list.textContent + '|' + list.childNodes.length;
  const root = h('div');
  document.body.append(root);
  patch(root, h('input', { key: 'name' }), h('button', {}, 'b'));
  root.querySelector('input').focus();
  patch(root, h('p', {}, 'new'), h('input', { key: 'name' }));
  out.focus = String(document.activeElement === root.querySelector('input') && root.firstChild.textContent === 'new');

  // morph: what is drawn the same stays the same node; what differs is
  // changed in place; listeners are the new render's.
  const m = h('div');
  document.body.append(m);
  let first = 0, second = 0;
  const seat = (n, cls, fn) => h('li', { class: cls, 'data-seat': n }, h('span', {}, 'seat ' + n), h('button', { on: { click: fn } }, 'go'));
  morph(m, h('ol', {}, seat(1, 'a', () => { first++; }), seat(2, 'a', () => { first++; })));
  const [one, two] = m.querySelectorAll('li');
  const span2 = two.firstChild, button1 = one.lastChild;
  morph(m, h('ol', {}, seat(1, 'a', () => { second++; }), h('li', { class: 'b', 'data-seat': 2, title: 't' }, h('span', {}, 'out 2'))));
  const [one2, two2] = m.querySelectorAll('li');
  button1.click();
  one2.lastChild.click();
  out.morphSame = [one === one2, two === two2, span2 === two2.firstChild, two2.className, two2.getAttribute('title'), two2.textContent, button1 === one2.lastChild, first, second].join('|');
  morph(m, h('ol', {}, seat(1, 'a'), h('li', { 'data-seat': 2 }, 'x'), h('li', { 'data-seat': 3 }, 'y')));
  const three = m.querySelectorAll('li');
  out.morphGrow = [three.length, three[0] === one, three[1] === two, three[1].hasAttribute('title'), three[1].hasAttribute('class'), three[2].textContent].join('|');
  morph(m, h('ol', {}, seat(1, 'a')));
  out.morphShrink = [m.querySelectorAll('li').length, m.querySelector('li') === one].join('|');
  // another tag or data-key is another element
  morph(m, h('ul', {}, h('li', { key: 'k1' }, 'a')));
  const ul = m.firstChild, k1 = ul.firstChild;
  morph(m, h('ul', {}, h('li', { key: 'k2' }, 'a')));
  out.morphKey = [ul.tagName, m.firstChild === ul, ul.firstChild === k1, ul.firstChild.dataset.key].join('|');
  // a field's value is the new render's, and the focus stays on it
  morph(m, h('input', { key: 'f', value: 'a' }));
  const f = m.firstChild;
  f.focus();
  morph(m, h('p', {}, 'before'), h('input', { key: 'f', value: 'b' }));
  out.morphField = [m.lastChild === f || m.querySelector('input') === document.activeElement, m.querySelector('input').value].join('|');
  // an element its maker keeps (keep) goes in as it is, and no other
  // element is changed into it
  morph(m, h('form', { id: 'other' }));
  const form = h('form', { id: 'kept' }, h('input', { value: 'typed' }));
  keep(form);
  morph(m, form);
  const inPlace = m.firstChild === form;
  morph(m, h('form', { id: 'new' }), form);
  out.morphKept = [inPlace, m.childNodes.length, m.firstChild.id, m.lastChild === form, form.id, form.firstChild.value].join('|');
  // a morph asked for while one runs (a field's blur as morph takes it
  // out draws again) runs after it, and its render is what shows
  const r = h('div');
  document.body.append(r);
  const field = (text) => h('input', { key: 'note', value: text, on: { blur: () => morph(r, h('p', {}, 'saved'), field('again')) } });
  morph(r, h('p', {}, 'first'), field('typed'));
  r.querySelector('input').focus();
  let thrown = '';
  try { morph(r, h('p', {}, 'frame')); } catch (e) { thrown = e.name; }
  out.morphNested = [thrown, r.textContent, r.querySelector('input') ? r.querySelector('input').value : 'none'].join('|');
  out.lines = lines('a\n  b').map((s) => s.className + ':' + s.textContent).join(',');

  localStorage.clear();
  out.before = I.t('hello', { Name: 'x' });
  const drawn = I.choose('test.lang');
  I.remember('test.lang', 'en');
  const saved = I.choose('test.lang');
  const cookie = document.cookie.includes('lang=en');
  localStorage.setItem('test.lang', 'de');
  document.documentElement.lang = 'fr';
  out.choose = [drawn, saved, cookie, I.choose('test.lang')].join('|');

  await I.load('ru');
  out.spoken = I.current() + '|' + document.documentElement.lang;
  out.plural = [1, 3, 5, 21, 0].map((n) => I.tn('votes', n)).join(',');
  out.count = I.tn('votes', 2, { Other: 1 }) + '|' + I.tn('votes', 2, { Count: 'two' });
  out.fill = I.t('hello', { Name: 'Нино' }) + '|' + I.t('hello');
  out.missing = I.t('nope') + '|' + I.tn('nope', 2);
  out.has = [I.has('hello'), I.has('nope'), I.has('toString')].join('|');
  await I.load('de');
  out.unheld = I.current() + '|' + I.tn('votes', 1);
  I.speak('ka', { t: (id) => 'T:' + id, tn: (id, n) => 'N:' + id + n, has: () => true });
  out.source = [I.t('a'), I.tn('b', 2), I.has('c'), I.current(), document.documentElement.lang].join('|');
  return JSON.stringify(out);
})()`

// TestTheSharedModulesInChromium runs dom.js and i18n.js, served as both
// pages serve them, in Chromium: each rule below is what the browser
// client and the host's assistant both rely on.
func TestTheSharedModulesInChromium(t *testing.T) {
	mux := http.NewServeMux()
	// A page with no files of its own: the modules at js/, as both pages
	// include them.
	mux.Handle("GET /static/{ver}/{path...}", static.New(fstest.MapFS{}, ".").Include(sharedjs.FS, ".", "js"))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>t</title></head><body></body></html>`))
	})
	mux.HandleFunc("GET /api/i18n/{lang}", func(w http.ResponseWriter, r *http.Request) {
		c, ok := catalogs[r.PathValue("lang")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(c))
	})
	ts := httptest.NewServer(mux)
	defer ts.Close()

	ctx := browsertest.Tab(t, browser.Context(t), chromedp.WithNewBrowserContext())
	ctx, stop := context.WithTimeout(ctx, 60*time.Second)
	defer stop()
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatal(err)
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	if err := json.Unmarshal([]byte(res), &got); err != nil {
		t.Fatalf("%v: %s", err, res)
	}
	for _, c := range []struct{ rule, key, want string }{
		{"h sets the class, the text and data- attributes (dataset, key)", "props", "big|go|go|3|k"},
		{"h adds listeners by on: {event: fn} and by onevent: fn", "events", "1|1"},
		{"h sets other props as attributes, true as empty, and skips false and null", "attrs", "Go||false|false"},
		{"h sets value, selected, checked and disabled as properties", "properties", "typed||b|true|true"},
		{"h appends text and nodes from arrays at any depth, skipping false, null and undefined", "children", "abc3|4"},
		{"patch keeps the focus on the element of the same key", "focus", "true"},
		{"morph keeps an element drawn again, changes one that differs in place, and makes one with listeners (a button) the new render's", "morphSame", "true|true|true|b|t|out 2|false|1|1"},
		{"morph appends what is new and drops attributes the new render lacks", "morphGrow", "3|true|true|false|false|y"},
		{"morph removes what the new render lacks", "morphShrink", "1|true"},
		{"morph makes an element of another data-key a new one", "morphKey", "UL|true|false|k2"},
		{"morph gives a field the new render's value and keeps the focus on it", "morphField", "true|b"},
		{"morph puts an element its maker keeps in as it is and changes no other into it", "morphKept", "true|2|new|true|kept|typed"},
		{"morph asked for while one runs runs after it, and its render shows", "morphNested", "|saved|again"},
		{"lines makes a span a line, an indented one sub", "lines", "line:a,line sub:b"},
		{"before any language every message is its id", "before", "hello"},
		{"choose takes the saved choice, then <html lang>, else Georgian; remember saves it and sets the cookie", "choose", "ru|en|true|ka"},
		{"load speaks the language and names it on <html>", "spoken", "ru|ru"},
		{"tn picks the language's plural form (Intl.PluralRules)", "plural", "1 голос,3 голоса,5 голосов,21 голос,0 голосов"},
		{"tn's Count is n unless the data names one", "count", "2 голоса|two голоса"},
		{"t fills the fields; a missing field shows", "fill", "Привет, Нино|Привет, <no value>"},
		{"a message the catalog lacks renders as its id", "missing", "nope|nope"},
		{"has names the catalog's own messages only", "has", "true|false|false"},
		{"a language the catalogs do not hold is English", "unheld", "en|1 vote"},
		{"a page may bring its own source of sentences (the assistant's engine)", "source", "T:a|N:b2|true|ka|ka"},
	} {
		t.Run(c.rule, func(t *testing.T) {
			if got[c.key] != c.want {
				t.Errorf("%s: %q, want %q", c.key, got[c.key], c.want)
			}
		})
	}
}
