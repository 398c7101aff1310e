package webtest

import (
	"fmt"
)

// BrokenWords is a JavaScript expression: the words of the elements
// matching sel that the page breaks across two lines (a break inside a
// word, which in Georgian reads as two words).
func BrokenWords(sel string) string {
	return fmt.Sprintf(`(() => {
  const out = [];
  for (const el of document.querySelectorAll(%q)) {
    if (el.offsetParent === null) continue;
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      for (const m of n.data.matchAll(/\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
})()`, sel)
}
