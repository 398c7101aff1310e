// chat.js: the table's chats, open as the rules allow (room/chat.go): the
// town's to the player who holds the floor (to every seat before the start
// and after the end), the mafia's to the living mafia at night, the dead's
// to the dead while the game goes on. Spectators read the town's chat and
// write nowhere. The messages are kept for the tab's life (sessionStorage),
// so a reload keeps them.

import { h, patch } from './dom.js';
import { t } from './i18n.js';
import { SPEECHES, isMafia, nameOf } from './names.js';

const KEEP = 200;

/** Chat is the chat's section: its form is built once and kept. */
export class Chat {
  constructor(table, send) {
    this.table = table;
    this.send = send;
    this.tab = 'town';
    try {
      this.msgs = JSON.parse(sessionStorage.getItem(`mafia.chat.${table}`) || '[]');
    } catch {
      this.msgs = [];
    }
    this.el = h('section', { id: 't-chat', class: 'part p-chat', 'aria-labelledby': 'chat-h' });
    this.heading = h('h2', { id: 'chat-h' });
    this.tabs = h('div', { class: 'tabs', role: 'tablist' });
    this.list = h('ol', { class: 'msgs', id: 'chat-msgs', role: 'tabpanel', 'aria-live': 'polite' });
    this.input = h('input', { id: 'chat-input', type: 'text', maxlength: 500, autocomplete: 'off', key: 'chat-input' });
    this.label = h('label', { for: 'chat-input', class: 'vh' });
    this.button = h('button', { type: 'submit', key: 'chat-send' });
    this.hint = h('p', { class: 'hint', id: 'chat-hint' });
    this.form = h('form', { class: 'row', on: { submit: (ev) => { ev.preventDefault(); this.submit(); } } },
      this.label, this.input, this.button);
    this.el.append(this.heading, this.tabs, this.list, this.form, this.hint);
  }

  async submit() {
    const text = this.input.value.trim();
    if (!text) return;
    const ok = await this.send(this.tab, text);
    if (ok) this.input.value = '';
  }

  add(m) {
    this.msgs.push({ channel: m.channel, from: m.from || 0, name: m.name || '', text: m.text, now: m.now || Date.now() });
    if (this.msgs.length > KEEP) this.msgs.splice(0, this.msgs.length - KEEP);
    try { sessionStorage.setItem(`mafia.chat.${this.table}`, JSON.stringify(this.msgs)); } catch { /* full */ }
    if (m.channel !== this.tab) this.unread = { ...(this.unread || {}), [m.channel]: true };
  }

  /** channels returns the chats this seat may read, and whether it may
   * write in each now. */
  channels(st) {
    const v = st.view;
    const me = v && st.seat ? (v.seats || [])[st.seat - 1] || {} : {};
    const alive = me.alive !== false;
    const ended = v && v.phase === 'ended';
    const out = [{ ch: 'town', open: !!st.seat && (!v || ended || (SPEECHES.has(v.phase) && v.speaker === st.seat)) }];
    if (v && st.seat && isMafia(v.role)) out.push({ ch: 'mafia', open: v.phase === 'night' && alive && !ended });
    if (v && st.seat && !alive) out.push({ ch: 'dead', open: !ended });
    return out;
  }

  render(st) {
    const chans = this.channels(st);
    if (!chans.some((c) => c.ch === this.tab)) this.tab = 'town';
    const cur = chans.find((c) => c.ch === this.tab);
    this.heading.textContent = t('web.chat.heading');
    patch(this.tabs, chans.map((c) => h('button', {
      type: 'button', role: 'tab', key: `tab-${c.ch}`, 'aria-selected': c.ch === this.tab ? 'true' : 'false',
      'aria-controls': 'chat-msgs', class: this.unread && this.unread[c.ch] ? 'unread' : '',
      on: { click: () => { this.tab = c.ch; if (this.unread) this.unread[c.ch] = false; this.render(st); } },
    }, t(`web.chat.${c.ch}`))));
    const msgs = this.msgs.filter((m) => m.channel === this.tab);
    // The list is a live region: it is redrawn only when it changes, so
    // that a screen reader reads each message once.
    const names = ((st.lobby && st.lobby.seats) || []).map((s) => s.name || '').join(',');
    const key = `${this.tab}|${msgs.length}|${document.documentElement.lang}|${st.seat}|${names}`;
    if (key !== this.listKey) this.drawList(st, msgs);
    this.listKey = key;
    this.label.textContent = t('web.chat.label', { Channel: t(`web.chat.${this.tab}`) });
    this.input.placeholder = t('web.chat.placeholder');
    this.button.textContent = t('web.chat.send');
    this.input.disabled = !cur.open;
    this.button.disabled = !cur.open;
    this.hint.textContent = cur.open ? '' : t(st.seat ? `web.chat.closed_${this.tab}` : 'web.chat.closed_spectator');
    this.hint.hidden = !!cur.open;
  }

  drawList(st, msgs) {
    const atEnd = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 8;
    patch(this.list, msgs.length ? msgs.map((m) => h('li', { class: m.from === st.seat && m.from ? 'mine' : '' },
      h('span', { class: 'from' }, m.from ? `${nameOf(st, m.from)} (${m.from})` : m.name || t('web.chat.spectator')),
      ' ', h('span', { class: 'text' }, m.text)))
      : h('li', { class: 'empty' }, t('web.chat.empty')));
    if (atEnd) this.list.scrollTop = this.list.scrollHeight;
  }
}
