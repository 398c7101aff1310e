// dom.js: the one element builder of the browser client (web/) and the
// host's assistant (assist/), and a re-render that keeps the keyboard focus
// where it was.

/**
 * h builds an element: h('button', {class: 'big', onclick}, 'text', child…).
 * props: class; text (the text content); on: {event: fn}, or onevent: fn
 * for one event; dataset: {name: value} (data-name); key: a stable name
 * (data-key) that keeps the focus across re-renders (patch); value,
 * checked, disabled, hidden and selected are set as properties; any other
 * prop is set as an attribute (true sets it empty). A prop that is false,
 * null or undefined is skipped. html is not supported (no markup from
 * strings). children: nodes, text, and arrays of them at any depth (false,
 * null and undefined are skipped).
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
        case 'dataset': Object.assign(el.dataset, v); break;
        case 'key': el.dataset.key = v; break;
        case 'value': case 'checked': case 'disabled': case 'hidden': case 'selected':
          el[k] = v; break;
        default:
          if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
          else el.setAttribute(k, v === true ? '' : String(v));
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
