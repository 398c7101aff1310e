// Small DOM helpers shared by the screens: elements, seat grids, buttons,
// a toast for refusals, and the screen mount.

/** Makes an element: h('button', {class: 'big', onclick}, 'text', child…). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Hides the toast at once (a new screen). */
export function clearToast() {
  const el = document.getElementById('toast');
  if (el) el.className = 'toast';
}

/** Replaces the screen's content. */
export function mount(...children) {
  const main = document.getElementById('screen');
  main.replaceChildren(...children.flat().filter(Boolean));
  window.scrollTo(0, 0);
}

let toastTimer = null;

/** Shows a short message at the bottom (a refusal, a note). */
export function toast(text, kind) {
  let el = document.getElementById('toast');
  if (!el) {
    el = h('div', { id: 'toast', role: 'status', 'aria-live': 'polite' });
    document.body.append(el);
  }
  el.textContent = text;
  el.className = `toast show ${kind || ''}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = 'toast'; }, 4000);
}

/** A big button. */
export const button = (label, onclick, cls, testid) =>
  h('button', { type: 'button', class: `btn ${cls || ''}`, onclick, dataset: testid ? { t: testid } : undefined }, label);

/**
 * A grid of seats. opts: {seats: [1..n], label(seat) → [name, sub],
 * enabled(seat), selected(seat), mark(seat) → small text, onpick(seat),
 * ondisabled(seat)}.
 */
export function seatGrid(opts) {
  return h('div', { class: 'seats' }, opts.seats.map((s) => {
    const on = opts.enabled ? opts.enabled(s) : true;
    const [title, sub] = opts.label(s);
    const mark = opts.mark ? opts.mark(s) : '';
    return h('button', {
      type: 'button',
      class: `seat ${on ? '' : 'off'} ${opts.selected && opts.selected(s) ? 'sel' : ''} ${opts.out && opts.out(s) ? 'out' : ''}`,
      'aria-disabled': on ? null : 'true',
      dataset: { seat: String(s) },
      onclick: () => (on ? opts.onpick(s) : opts.ondisabled && opts.ondisabled(s)),
    }, h('span', { class: 'num' }, String(s)), h('span', { class: 'nm' }, title),
    sub ? h('span', { class: 'sub' }, sub) : null, mark ? h('span', { class: 'mark' }, mark) : null);
  }));
}

/** Seats 1..n. */
export const range = (n) => Array.from({ length: n }, (_, i) => i + 1);
