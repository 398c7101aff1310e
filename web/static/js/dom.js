// dom.js: a tiny element builder and a re-render that keeps the keyboard
// focus where it was.

/**
 * h builds an element. props: class, id, text, html is not supported (no
 * markup from strings); on: {event: fn}; key: a stable name (data-key) that
 * keeps the focus across re-renders; any other prop is set as an attribute
 * (false/null/undefined skip it, true sets it empty), except value, checked,
 * disabled, hidden, selected, which are set as properties.
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v === undefined || v === null || v === false) continue;
      switch (k) {
        case 'class': el.className = v; break;
        case 'text': el.textContent = v; break;
        case 'on': for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn); break;
        case 'key': el.dataset.key = v; break;
        case 'value': case 'checked': case 'disabled': case 'hidden': case 'selected':
          el[k] = v; break;
        default: el.setAttribute(k, v === true ? '' : String(v));
      }
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** patch replaces a container's children, keeping the focus on the element
 * with the same data-key, if any. */
export function patch(container, ...children) {
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.dataset.key : undefined;
  const frag = document.createDocumentFragment();
  append(frag, children);
  container.replaceChildren(frag);
  if (key) {
    const again = container.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) again.focus({ preventScroll: true });
  }
}

/** lines turns a multi-line text into spans, one a line. */
export function lines(text) {
  return text.split('\n').map((l) => h('span', { class: l.startsWith('  ') ? 'line sub' : 'line' }, l.trim()));
}
