// seats.js: the table's seats, in a grid (a circle of cards on a wide
// screen): who sits where, who is alive, who speaks, the candidates, the
// fouls, and the cards and check answers this seat may know.

import { h } from './dom.js';
import { t, tn } from './i18n.js';
import { roleName, teamName, resultName } from './narrate.js';
import { nameOf, seatInfo, players } from './names.js';
import { ratingOf } from './seatinfo.js';

/** notesOf returns this device's notes on the seats of table id:
 * {seat: {mark: 'suspect' | 'trust' | '', text}}. They never leave the
 * device (localStorage). */
export function notesOf(id) {
  try {
    return JSON.parse(localStorage.getItem(`mafia.notes.${id}`) || '{}') || {};
  } catch {
    return {};
  }
}

/** saveNote keeps the note on seat s of table id (an empty one is dropped). */
export function saveNote(id, s, note) {
  const all = notesOf(id);
  if (!note.mark && !note.text) delete all[s];
  else all[s] = { mark: note.mark || '', text: (note.text || '').slice(0, 80) };
  try { localStorage.setItem(`mafia.notes.${id}`, JSON.stringify(all)); } catch { /* full */ }
}

/** botTag returns the small "bot" tag of a chat line from seat s when a
 * server's bot plays it (the lobby's seat is a bot's), else null. A seat a
 * bot plays for an absent person (stand_in) is the person's: its lines are
 * theirs, and the bot standing in says none. */
export function botTag(st, s) {
  const info = s ? seatInfo(st, s) : undefined;
  if (!info || !info.bot) return null;
  return h('span', { class: 'badge bot-tag', 'data-bot': true }, t('web.chat_bot.tag'));
}

const MARKS = ['suspect', 'trust'];

// drafts are the note texts being typed, by seat, not yet saved (a note is
// saved when its field changes): the table is drawn again with every
// frame, and the field drawn again shows what was typed, not the note as
// last saved.
const drafts = new Map();

// noteEditor is the editor of the note on seat s: the two marks and a
// short text, saved as they change.
function noteEditor(st, ctx, s, note) {
  const input = h('input', {
    type: 'text', maxlength: 80, key: `note-text-${s}`, id: `note-text-${s}`, value: drafts.has(s) ? drafts.get(s) : (note.text || ''),
    placeholder: t('web.note.placeholder'),
    on: {
      input: (ev) => { drafts.set(s, ev.target.value); },
      change: (ev) => { drafts.delete(s); ctx.note(s, { ...note, text: ev.target.value.trim() }); },
    },
  });
  return h('div', { class: 'note-edit', 'data-seat': s },
    h('div', { class: 'row wrap' }, MARKS.map((m) => h('button', {
      type: 'button', class: 'small', key: `mark-${m}-${s}`, 'data-mark': m, 'aria-pressed': note.mark === m ? 'true' : 'false',
      on: { click: () => ctx.note(s, { ...note, mark: note.mark === m ? '' : m }) },
    }, t(`web.note.${m}`)))),
    h('label', { class: 'vh', for: `note-text-${s}` }, t('web.note.label', { Seat: s })),
    input,
    // Done keeps what was typed: the field may have been drawn again since
    // (the table is, with every frame), and a field drawn with the draft
    // fires no change of its own. It acts on the press, before the field
    // loses the focus: the field's change would draw the seat again and
    // the tap's click would land on nothing.
    h('button', {
      type: 'button', class: 'small secondary', key: `note-done-${s}`,
      on: {
        mousedown: (ev) => { ev.preventDefault(); done(); },
        click: done,
      },
    }, t('web.note.done')));

  function done() {
    if (drafts.has(s)) {
      const text = drafts.get(s).trim();
      drafts.delete(s);
      ctx.note(s, { ...note, text });
    }
    ctx.noteOpen(0);
  }
}

/** renderSeats returns the seats' section. ctx.host(action, target, step)
 * runs a host's action; ctx.note and ctx.noteOpen keep and edit notes. */
export function renderSeats(st, ctx) {
  const notes = st.seat && st.view ? notesOf(st.id) : {};
  const n = players(st);
  const v = st.view;
  const playing = !!v && v.phase !== 'ended';
  const cands = v ? v.candidates || [] : [];
  const items = [];
  for (let s = 1; s <= n; s++) {
    const info = seatInfo(st, s) || {};
    const vs = v && v.seats ? v.seats[s - 1] || {} : {};
    const me = st.seat === s;
    const dead = v && vs.alive === false;
    const speaking = v && v.speaker === s && playing;
    const cand = playing && cands.includes(s);
    // With the card hidden the seats tell no card, team, check or choice.
    const shown = !st.cardHidden || !playing;
    const cls = ['seat'];
    if (me) cls.push('me');
    if (dead) cls.push('dead');
    if (speaking) cls.push('speaking');
    if (cand) cls.push('candidate');
    if (!info.taken) cls.push('free');
    if (info.bot || info.bot_account) cls.push('bot');
    const role = shown ? vs.role || (me && v ? v.role : '') : '';
    if (role) cls.push(`role-${role}`);
    const badges = [];
    if (me) badges.push(h('span', { class: 'badge you' }, t('web.you')));
    if (dead) badges.push(h('span', { class: 'badge out' }, t('web.out')));
    if (role) badges.push(h('span', { class: `badge role r-${role}`, 'data-role': role }, roleName(role)));
    else if (vs.team && shown) badges.push(h('span', { class: `badge team t-${vs.team}` }, teamName(vs.team)));
    // At the end every card is shown: a check would say it twice.
    if (vs.check && shown && playing) badges.push(h('span', { class: `badge check c-${vs.check}`, 'data-check': vs.check }, resultName(vs.check)));
    if (speaking) badges.push(h('span', { class: 'badge speaking' }, t('web.speaking')));
    // At a voice table, whom the rules let be heard now, and whether a
    // sound comes (voice.js).
    const heard = !!st.voiceHeard && st.voiceHeard.includes(s);
    if (heard) {
      cls.push('voice-heard');
      const sounding = !!st.voiceSounding && st.voiceSounding.has(s);
      if (sounding) cls.push('voice-sounding');
      badges.push(h('span', { class: `badge voice${sounding ? ' sounding' : ''}`, 'data-voice': sounding ? 'sounding' : 'heard' }, sounding ? '🔊 ' : '🔈 ', t(sounding ? 'web.voice.seat_sounding' : 'web.voice.seat_heard')));
    }
    if (cand) badges.push(h('span', { class: 'badge cand' }, t('web.candidate')));
    if (vs.fouls > 0) badges.push(h('span', { class: 'badge fouls' }, tn('web.fouls', vs.fouls)));
    if (vs.lost_speech) badges.push(h('span', { class: 'badge lost' }, t('web.lost_speech')));
    if (vs.choice && !me && shown) badges.push(h('span', { class: 'badge choice' }, t('web.choice', { Target: vs.choice })));
    // A bot account's seat (a program plays it), an account's (its page).
    if (info.bot_account) badges.push(h('span', { class: 'badge bot-account', 'data-bot-account': true }, t('web.account.bot_badge')));
    // Whose bot it is: the table sees who plays it (lobby seat's owner).
    if (info.bot_account && info.owner) badges.push(h('a', { class: 'badge owner', 'data-owner': info.owner, href: `/players/${encodeURIComponent(info.owner)}` }, t('web.profile.owner'), ' ', info.owner));
    else if (info.account) badges.push(h('a', { class: 'badge account', 'data-account': true, href: `/players/${encodeURIComponent(info.name)}` }, t('web.account.badge')));
    // At a rated table, the account's rating (its page's overall ordinal).
    const rated = st.lobby && st.lobby.rated && (info.account || info.bot_account) && ctx.redraw ? ratingOf(info.name, ctx.redraw) : undefined;
    if (rated !== undefined) {
      badges.push(h('a', {
        class: 'badge rating', 'data-rating': rated.toFixed(1), href: `/players/${encodeURIComponent(info.name)}`,
      }, t('web.seat_rating', { Rating: rated.toFixed(1) })));
    }
    // Away, and played by a server's bot until back (lobby seat's stand_in).
    if (info.stand_in) badges.push(h('span', { class: 'badge offline stand-in', 'data-stand-in': true }, t('web.stand_in')));
    else if (info.taken && !info.bot && !info.connected) badges.push(h('span', { class: 'badge offline' }, t('web.offline')));
    // My own notes on the others.
    const note = notes[s] || {};
    if (note.mark) badges.push(h('span', { class: `badge mark m-${note.mark}`, 'data-mark': note.mark }, t(`web.note.${note.mark}`)));
    const tools = [];
    if (st.host && !v && st.lobby && st.lobby.status === 'lobby' && info.taken && !me) {
      tools.push(h('button', {
        class: 'small', type: 'button', key: `kick-${s}`, disabled: st.busy,
        'aria-label': t('web.host.kick_label', { Seat: s, Name: nameOf(st, s) }),
        on: { click: () => ctx.host('kick', s) },
      }, t('web.host.kick')));
    }
    if (st.host && st.foulTools && playing && !dead) {
      tools.push(h('button', {
        class: 'small', type: 'button', key: `foul-${s}`, 'data-host': 'foul', 'data-target': s, disabled: st.busy,
        'aria-label': t('web.host.foul_label', { Seat: s, Name: nameOf(st, s) }),
        on: { click: () => ctx.host('foul', s, v.step) }, // for this step only
      }, t('web.host.foul')));
    }
    const notable = st.seat && playing && !me;
    items.push(h('li', { class: cls.join(' '), 'data-seat': s, 'data-seat-bot': info.bot || info.bot_account ? 'true' : null },
      h('div', { class: 'seat-top' },
        h('span', { class: 'num', 'aria-hidden': 'true' }, String(s)),
        h('span', { class: 'who' },
          h('span', { class: 'vh' }, `${t('web.seat', { Seat: s })}: `),
          // A word too long for a seat (a 30-letter name) may break.
          h('span', { class: /\S{13,}/.test(nameOf(st, s)) ? 'name long' : 'name' }, nameOf(st, s))),
        notable ? h('button', {
          type: 'button', class: 'small note-open', key: `note-${s}`, 'data-note': s,
          'aria-label': t('web.note.label', { Seat: s }), 'aria-expanded': st.noteOpen === s ? 'true' : 'false',
          on: { click: () => ctx.noteOpen(st.noteOpen === s ? 0 : s) },
        }, '✎') : null),
      badges.length ? h('div', { class: 'badges' }, badges) : null,
      note.text && notable ? h('p', { class: 'note-text' }, note.text) : null,
      notable && st.noteOpen === s ? noteEditor(st, ctx, s, note) : null,
      tools.length ? h('div', { class: 'tools' }, tools) : null));
  }
  return [
    h('h2', { id: 'seats-h' }, t('web.seats')),
    h('ol', { class: `seats n${n}`, 'aria-labelledby': 'seats-h' }, items),
  ];
}
