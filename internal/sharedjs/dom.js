// dom.js: the one element builder of the browser client (web/) and the
// host's assistant (assist/), a re-render that keeps the keyboard focus
// where it was (patch), and one that changes only what differs (morph).

// gen counts morph's calls: h stamps each element with the count it was
// made in (__g), so morph tells an element made for this render (fresh)
// from one kept across renders by its maker (a form built once, a voice
// button), which it must use as it is.
let gen = 0;

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
  el.__g = gen;
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v === undefined || v === null || v === false) continue;
      switch (k) {
        case 'class': el.className = v; break;
        case 'text': el.textContent = v; break;
        case 'on': for (const [ev, fn] of Object.entries(v)) listen(el, ev, fn); break;
        case 'dataset': Object.assign(el.dataset, v); break;
        case 'key': el.dataset.key = v; break;
        case 'value': case 'checked': case 'disabled': case 'hidden': case 'selected':
          el[k] = v; break;
        default:
          if (k.startsWith('on') && typeof v === 'function') listen(el, k.slice(2), v);
          else el.setAttribute(k, v === true ? '' : String(v));
      }
    }
  }
  append(el, children);
  return el;
}

// listen adds a listener and marks the element as one with listeners
// (__on), which morph never reuses for another render.
function listen(el, ev, fn) {
  el.addEventListener(ev, fn);
  el.__on = true;
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

/**
 * morph makes a container's children those given, as patch does, but
 * changes only what differs: an element drawn again stays the same node
 * (its attributes, value and children brought to the new ones'), so a
 * render that changes one seat re-lays out one seat, not the page. An
 * element made for this render (by h, since the last morph) is matched
 * to the old one at its place with the same tag and data-key, unless
 * either has listeners (a button is the new render's, as with patch);
 * any other node (one its maker keeps and draws again: a form built once)
 * is put in as it is and never changed into another. The focus stays on
 * the element it was on, or on the one with its data-key.
 */
export function morph(container, ...children) {
  // A morph asked for while one runs (a field's blur, fired as morph
  // takes the field out, changes a note and draws again) runs after it:
  // the one running must not find its nodes moved under it.
  later.push([container, children]);
  if (later.length > 1) return;
  try {
    while (later.length) {
      draw(...later[0]);
      later.shift();
    }
  } catch (e) {
    later.length = 0;
    throw e;
  }
}

// later are the morphs asked for, the one running first.
const later = [];

function draw(container, children) {
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.dataset.key : undefined;
  const frag = document.createDocumentFragment();
  append(frag, children);
  const mine = gen;
  gen++;
  reconcile(container, Array.from(frag.childNodes), mine);
  if (key && !container.contains(active)) {
    const again = container.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) again.focus({ preventScroll: true });
  }
}

// kept are the nodes morph puts in as they are (their makers hold them):
// morph never changes one into another node.
const kept = new WeakSet();

/** keep marks elements built once and drawn again by every render (a form
 * whose field keeps what was typed, a button the page holds): morph puts
 * each in as it is, never changes another node into it or it into another. */
export function keep(...els) {
  for (const el of els) kept.add(el);
}

const fresh = (n, mine) => n.nodeType === Node.ELEMENT_NODE ? n.__g === mine : n.nodeType === Node.TEXT_NODE;

function reconcile(parent, nodes, mine) {
  let i = 0;
  for (const n of nodes) {
    const o = parent.childNodes[i];
    i++;
    if (o === n) continue;
    if (kept.has(n) || !fresh(n, mine)) {
      if (n.nodeType === Node.ELEMENT_NODE) kept.add(n);
      parent.insertBefore(n, o || null);
      continue;
    }
    if (o && !kept.has(o) && alike(o, n)) {
      update(o, n, mine);
      continue;
    }
    parent.insertBefore(n, o || null);
  }
  while (parent.childNodes.length > i) parent.lastChild.remove();
}

// alike says whether o can be made n in place: a text node, or an element
// of the same tag and data-key with no listeners. An element with
// listeners is always the new render's: its listeners hold what that
// render drew it for (the step a button acts in: a press on a button
// drawn before the step ended must be refused as stale, never carried to
// the next step).
function alike(o, n) {
  if (o.nodeType !== n.nodeType) return false;
  if (n.nodeType === Node.TEXT_NODE) return true;
  if (n.nodeType !== Node.ELEMENT_NODE || o.__on || n.__on) return false;
  return o.tagName === n.tagName && o.getAttribute('data-key') === n.getAttribute('data-key');
}

// update makes o what n is: its text, or its attributes, the properties h
// sets (value, checked, selected) and its children.
function update(o, n, mine) {
  if (n.nodeType === Node.TEXT_NODE) {
    if (o.data !== n.data) o.data = n.data;
    return;
  }
  for (const a of Array.from(o.attributes)) {
    if (!n.hasAttribute(a.name)) o.removeAttribute(a.name);
  }
  for (const a of n.attributes) {
    if (o.getAttribute(a.name) !== a.value) o.setAttribute(a.name, a.value);
  }
  reconcile(o, Array.from(n.childNodes), mine);
  // A field's value and a box's check are properties (h sets them so):
  // the new element's, as patch would have shown. After the children: a
  // select's value needs its options.
  if ('value' in n && o.value !== n.value && (n.tagName === 'INPUT' || n.tagName === 'TEXTAREA' || n.tagName === 'SELECT')) o.value = n.value;
  if ('checked' in n && o.checked !== n.checked) o.checked = n.checked;
  if (n.tagName === 'OPTION' && o.selected !== n.selected) o.selected = n.selected;
}

/** lines turns a multi-line text into spans, one a line. */
export function lines(text) {
  return text.split('\n').map((l) => h('span', { class: l.startsWith('  ') ? 'line sub' : 'line' }, l.trim()));
}
