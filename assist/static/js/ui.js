// Small DOM helpers shared by the screens: seat grids, buttons, a toast
// for refusals, and the screen mount (elements are dom.js's h, the browser
// client's too).
//
// A tap acts only on the screen it was made on. Every screen drawn gets a
// number; a tap begins a sequence on the screen shown at the time, and the
// taps that continue it (the second tap of a double tap: a click whose
// count, event.detail, is above one, as browsers count a double tap or a
// double click) belong to that same screen. A control drawn since does
// nothing for them: a double tap on "End" ends one speech, not the next
// speaker's as well. (The game adds the step the control was drawn for:
// game.js, act.)

import { h } from './dom.js';

/** Hides the toast at once (a new screen). */
export function clearToast() {
  const el = document.getElementById('toast');
  if (el) el.className = 'toast';
}

// The screens drawn so far, and the one the current tap sequence began on.
let drawn = 0;
let tapScreen = 0;

// Before any control hears a click: a click that begins a sequence (a click
// count of one, or none for a key) belongs to the screen shown now; one
// that continues a sequence, to the screen it began on.
document.addEventListener('click', (e) => {
  if (!(e.detail > 1)) tapScreen = drawn;
}, true);

/**
 * Wraps a control's action: it runs only for a tap made on the screen the
 * control is shown on (not for a tap that continues one made on an earlier
 * screen, nor for a control no longer shown); otherwise the tap does
 * nothing, and says nothing.
 */
export function guard(fn) {
  return (e) => {
    if (e && e.currentTarget && (!e.currentTarget.isConnected || tapScreen !== drawn)) return undefined;
    return fn(e);
  };
}

/** Replaces the screen's content: a new screen, which earlier taps do not reach. */
export function mount(...children) {
  const main = document.getElementById('screen');
  main.replaceChildren(...children.flat().filter(Boolean));
  drawn += 1;
  main.dataset.screen = String(drawn);
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

/** A big button; its action runs only for a tap on the screen it is shown on (guard). */
export const button = (label, onclick, cls, testid) =>
  h('button', { type: 'button', class: `btn ${cls || ''}`, onclick: guard(onclick), dataset: testid ? { t: testid } : undefined }, label);

/**
 * A grid of seats. opts: {seats: [1..n], label(seat) → [name, sub],
 * enabled(seat), selected(seat), mark(seat) → small text, onpick(seat),
 * ondisabled(seat), acts}. A grid that acts (a pick enters something at
 * once: a foul, a nomination) guards its picks like a button; a grid that
 * only marks seats (hands, a night's choice before "confirm") takes every
 * tap, however fast.
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
      onclick: (opts.acts ? guard : (f) => f)(() => (on ? opts.onpick(s) : opts.ondisabled && opts.ondisabled(s))),
    }, h('span', { class: 'num' }, String(s)), h('span', { class: 'nm' }, title),
    sub ? h('span', { class: 'sub' }, sub) : null, mark ? h('span', { class: 'mark' }, mark) : null);
  }));
}

/** Seats 1..n. */
export const range = (n) => Array.from({ length: n }, (_, i) => i + 1);
