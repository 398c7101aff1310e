// chat.js: the table's chats, open as the rules allow (room/chat.go): the
// town's to the player who holds the floor (to every seat before the start
// and after the end), the mafia's to the living mafia at night, the dead's
// to the dead while the game goes on. Spectators read the town's chat and
// write nowhere. The server keeps the chat (room/history.go): after each
// welcome the page asks for the newest page of the chat so far that its
// seat may read (a new tab, a reload, a late spectator: the town's to all,
// the dead's to the dead, the mafia's to the mafia, all after the end;
// table.js asks once more when the game ends, so that every seat reads
// the mafia's and the dead's chats then),
// and for the page before it whenever its reader scrolls to the top of the
// list, never by itself (docs/protocol.md, "Frame lengths"). The last
// lines are also kept for the tab's life (sessionStorage), so that a
// reload shows them before the server's page comes.
//
// The composer (chat.composer, drawn by the table beside the floor) always
// writes to the one chat the seat may write in now: the town's during its
// own floor and at the end, the mafia's at night, the dead's for the dead;
// the tabs only choose what to read, and follow the composer when its chat
// changes (a mafioso who read the mafia at night reads the town at day).
// Each chat has a draft of its own: text typed for one chat is never shown
// in another's box (a mafia plan left unsent at night is not in the town's
// box at the day's speech, last words are not in the dead's box). When a
// chat closes under a draft, the page says it was not sent; the draft
// waits for that chat to open again.

import { h, morph } from './dom.js';
import { t } from './i18n.js';
import { SPEECHES, isMafia, nameOf } from './names.js';
import { stepKey } from './state.js';
import { botTag } from './seats.js';

const KEEP = 200; // lines kept in sessionStorage

// put sets an element's property only when it differs.
function put(el, prop, value) { if (el[prop] !== value) el[prop] = value; }

// stepOf is the step key (state.js stepKey) of a line of a history page:
// a line said on the floor is its speaker's, whose key names them.
// over reports whether the game of st is over.
function over(st) { return !!(st.view && st.view.phase === 'ended'); }

function stepOf(l) {
  return SPEECHES.has(l.phase) ? `${l.round}|${l.phase}|${l.from}` : '';
}

// An invite link of this server in a line: its path, /t/{id}.
function inviteIn(text) {
  const at = text.indexOf(`${location.origin}/t/`);
  if (at < 0) return '';
  const m = text.slice(at + location.origin.length).match(/^\/t\/[0-9a-f]{8,64}/);
  return m ? m[0] : '';
}

// linked returns a line's text with this server's invite links as links
// (as text nodes and anchors: never markup).
function linked(text) {
  const path = inviteIn(text);
  if (!path) return text;
  const url = `${location.origin}${path}`;
  const at = text.indexOf(url);
  return [text.slice(0, at), h('a', { href: path }, url), text.slice(at + url.length)];
}

/** Chat is the chat's section: its form is built once and kept. */
export class Chat {
  constructor(table, send, history) {
    this.table = table;
    this.send = send;
    this.history = history; // (before) => Promise of a history page, or null
    this.before = 0; // the next older page's before (0: none)
    this.loading = false;
    this.tab = 'town';
    try {
      this.msgs = JSON.parse(sessionStorage.getItem(`mafia.chat.${table}`) || '[]');
    } catch {
      this.msgs = [];
    }
    this.el = h('section', { id: 't-chat', class: 'part p-chat', 'aria-labelledby': 'chat-h' });
    this.heading = h('h2', { id: 'chat-h' });
    this.tabs = h('div', { class: 'tabs', role: 'tablist' });
    // An older page is asked for when the reader scrolls to the top: a
    // scroll the reader made (a wheel, a touch, a key, the scroll bar),
    // not one the page made by drawing a shorter list, which would make
    // the page's traffic follow what the list holds.
    const touched = () => { this.touched = Date.now(); };
    this.list = h('ol', { class: 'msgs', id: 'chat-msgs', role: 'tabpanel', 'aria-live': 'polite', tabindex: '0',
      on: {
        wheel: touched, touchmove: touched, pointerdown: touched, keydown: touched,
        scroll: () => { if (this.list.scrollTop <= 4 && Date.now() - (this.touched || 0) < 1500) this.older(); },
      } });
    this.more = h('button', { type: 'button', class: 'more', id: 'chat-more', hidden: true, on: { click: () => this.older() } });
    this.input = h('input', { id: 'chat-input', type: 'text', maxlength: 500, autocomplete: 'off', key: 'chat-input' });
    this.label = h('label', { for: 'chat-input', class: 'vh' });
    this.button = h('button', { type: 'submit', key: 'chat-send' });
    this.hint = h('p', { class: 'hint', id: 'chat-hint' });
    this.form = h('form', { class: 'compose', on: { submit: (ev) => { ev.preventDefault(); this.submit(); } } },
      this.label, h('div', { class: 'row' }, this.input, this.button));
    this.composer = h('section', { id: 't-compose', class: 'part p-compose', 'aria-label': t('web.chat.heading') }, this.form);
    this.el.append(this.heading, this.more, this.tabs, this.list, this.hint);
    this.unsent = h('p', { class: 'note unsent', id: 'chat-unsent', role: 'status', hidden: true });
    this.el.append(this.unsent);
    this.writeTo = '';
    this.drafts = {}; // channel => text typed and not sent
    this.lost = ''; // the chat that closed under a draft
  }

  async submit() {
    const text = this.input.value.trim();
    const ch = this.writeTo;
    if (!text || !ch) return;
    const ok = await this.send(ch, text);
    if (!ok) return;
    // sent: the draft of that chat is gone, and the box is cleared only if
    // it still holds that chat (it may have changed while the line went)
    this.drafts[ch] = '';
    if (this.writeTo === ch && this.input.value.trim() === text) this.input.value = '';
  }

  /** switchTo moves the composer to the chat ch ('' for none): the box's
   * text stays the draft of the chat it was typed for, and ch's own draft
   * comes back. A chat closing under a draft is said (lost). */
  switchTo(ch) {
    const from = this.writeTo;
    if (from) {
      this.drafts[from] = this.input.value;
      if (this.input.value.trim()) this.lost = from;
    }
    this.input.value = (ch && this.drafts[ch]) || '';
    if (ch && ch === this.lost) this.lost = '';
    this.writeTo = ch;
  }

  /** add keeps a line, with the step it came in (stepKey). */
  add(m, step) {
    this.msgs.push({ channel: m.channel, from: m.from || 0, name: m.name || '', text: m.text, now: m.now || Date.now(), step: step || '' });
    this.save();
    if (m.channel !== this.tab) this.unread = { ...(this.unread || {}), [m.channel]: true };
  }

  save() {
    try { sessionStorage.setItem(`mafia.chat.${this.table}`, JSON.stringify(this.msgs.slice(-KEEP))); } catch { /* full */ }
  }

  /** page takes a history page: the newest (first, after a welcome)
   * replaces what the tab had, an older one goes before it. */
  page(m, first) {
    const lines = (m.lines || []).map((l) => ({ channel: l.channel, from: l.from, name: l.name, text: l.text, now: l.now, step: stepOf(l) }));
    if (first) {
      this.msgs = lines;
      this.listKey = '';
    } else {
      this.msgs = lines.concat(this.msgs);
    }
    this.before = m.before || 0;
    this.save();
  }

  /** older asks for the page before the oldest line the tab has, when
   * there is one and no page is on its way. */
  older() {
    if (!this.before || this.loading || !this.history) return;
    this.loading = true;
    if (this.st) this.render(this.st);
    const before = this.before;
    const height = this.list.scrollHeight;
    this.history(before).then((m) => {
      this.loading = false;
      if (!m || m.type !== 'history' || this.before !== before) return;
      this.page(m, false);
      // The list keeps the lines in view where they were, when the page
      // brought some of the tab's (else the list is not drawn again).
      if ((m.lines || []).some((l) => l.channel === this.tab)) this.keepAt = height;
      if (this.st) this.render(this.st);
    });
  }

  /** speech returns the town's lines of the current step's speaker: what
   * the player who holds the floor is saying. */
  speech(st) {
    const v = st.view;
    if (!v || !v.speaker || !SPEECHES.has(v.phase)) return [];
    const key = stepKey(v);
    return this.msgs.filter((m) => m.channel === 'town' && m.from === v.speaker && m.step === key);
  }

  /** channels returns the chats this seat may read, and whether it may
   * write in each now. With the card hidden the mafia's chat is not shown:
   * its name would tell the card. */
  channels(st) {
    const v = st.view;
    const me = v && st.seat ? (v.seats || [])[st.seat - 1] || {} : {};
    const alive = me.alive !== false;
    const ended = v && v.phase === 'ended';
    const out = [{ ch: 'town', open: !!st.seat && (!v || ended || (SPEECHES.has(v.phase) && v.speaker === st.seat)) }];
    if (v && st.seat && isMafia(v.role) && !ended && !st.cardHidden) out.push({ ch: 'mafia', open: v.phase === 'night' && alive });
    if (v && st.seat && !alive && !ended) out.push({ ch: 'dead', open: true });
    // After the end every chat is everyone's to read (not to write): the
    // mafia's and the dead's are shown when they said anything.
    if (ended) {
      for (const ch of ['mafia', 'dead']) {
        if (this.msgs.some((m) => m.channel === ch)) out.push({ ch, open: false });
      }
    }
    return out;
  }

  render(st) {
    this.st = st;
    const chans = this.channels(st);
    const open = chans.find((c) => c.open);
    const writeTo = open ? open.ch : '';
    // The tab follows the chat one may write in, whenever that changes.
    if (writeTo !== this.writeTo) {
      if (writeTo) this.tab = writeTo;
      this.switchTo(writeTo);
      if (this.unread) this.unread[this.tab] = false;
    }
    if (!chans.some((c) => c.ch === this.tab)) this.tab = 'town';
    const cur = chans.find((c) => c.ch === this.tab);
    put(this.heading, 'textContent', t('web.chat.heading'));
    morph(this.tabs, chans.map((c) => h('button', {
      type: 'button', role: 'tab', key: `tab-${c.ch}`, 'aria-selected': c.ch === this.tab ? 'true' : 'false',
      'aria-controls': 'chat-msgs', class: this.unread && this.unread[c.ch] ? 'unread' : '',
      on: { click: () => { this.tab = c.ch; if (this.unread) this.unread[c.ch] = false; this.render(st); } },
    }, t(`web.chat.${c.ch}`))));
    const msgs = this.msgs.filter((m) => m.channel === this.tab);
    // The list is a live region: it is redrawn only when it changes, so
    // that a screen reader reads each message once.
    const names = ((st.lobby && st.lobby.seats) || []).map((s) => `${s.name || ''}${s.bot ? '*' : ''}`).join(',');
    const key = `${this.tab}|${msgs.length}|${document.documentElement.lang}|${st.seat}|${names}`;
    if (key !== this.listKey) this.drawList(st, msgs);
    this.listKey = key;
    const ch = writeTo || this.tab;
    // Each is written only when it changes: the chat is drawn with every
    // frame, and a text written again is a new node to lay out.
    put(this.label, 'textContent', t('web.chat.label', { Channel: t(`web.chat.${ch}`) }));
    put(this.label, 'className', 'to');
    put(this.input, 'placeholder', t(`web.chat.placeholder_${ch}`));
    if (this.input.dataset.channel !== writeTo) this.input.dataset.channel = writeTo;
    put(this.button, 'textContent', t('web.chat.send'));
    put(this.input, 'disabled', !writeTo);
    put(this.button, 'disabled', !writeTo);
    put(this.composer, 'hidden', !writeTo);
    if (this.composer.dataset.channel !== writeTo) this.composer.dataset.channel = writeTo;
    const ended = over(st) && this.tab !== 'town';
    put(this.hint, 'textContent', cur.open ? '' : t(ended ? 'web.chat_history.over' : st.seat ? `web.chat.closed_${this.tab}` : 'web.chat.closed_spectator'));
    put(this.hint, 'hidden', !!cur.open);
    put(this.unsent, 'textContent', this.lost ? t(`web.chat.unsent_${this.lost}`) : '');
    put(this.unsent, 'hidden', !this.lost);
    put(this.more, 'textContent', t(this.loading ? 'web.chat_history.loading' : 'web.chat_history.more'));
    put(this.more, 'hidden', !this.before);
  }

  /** again returns the last invitation to play again in the town's chat
   * (a link to another table of this server): {path, name}, or null. */
  again(st) {
    for (let i = this.msgs.length - 1; i >= 0; i--) {
      const m = this.msgs[i];
      const path = m.channel === 'town' && m.from ? inviteIn(m.text) : '';
      if (path && path !== `/t/${this.table}`) return { path, name: nameOf(st, m.from) };
    }
    return null;
  }

  drawList(st, msgs) {
    const atEnd = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 8;
    const keepAt = this.keepAt;
    this.keepAt = 0;
    // a line of a seat a server's bot plays is tagged as a bot's
    // A server's bot is said once: its tag and its seat ("bot (5)"), not
    // its name "Bot 5" beside the tag.
    const line = (m, tag) => h('li', { class: m.from === st.seat && m.from ? 'mine' : '', 'data-bot': tag ? true : null },
      tag ? [tag, ' '] : null,
      h('span', { class: 'from' }, m.from ? (tag ? `(${m.from})` : `${nameOf(st, m.from)} (${m.from})`) : m.name || t('web.chat.spectator')),
      ' ', h('span', { class: 'text' }, linked(m.text)));
    morph(this.list, msgs.length ? msgs.map((m) => line(m, botTag(st, m.from)))
      : h('li', { class: 'empty' }, t('web.chat.empty')));
    if (keepAt) this.list.scrollTop += this.list.scrollHeight - keepAt;
    else if (atEnd) this.list.scrollTop = this.list.scrollHeight;
  }
}
