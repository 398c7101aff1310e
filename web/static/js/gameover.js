// gameover.js: the end of a game: the winner, every card, and the game's
// timeline (nights, checks, nominations, votes): the whole record, fetched
// once the game is over, or what this seat saw until it arrives.

import { h, lines } from './dom.js';
import { t } from './i18n.js';
import { narrate, roleName, winnerText } from './narrate.js';
import { nameOf, teamOf, seatLabel } from './names.js';
import { keepOffer, account, accountApi } from './account.js';
import { boot } from './boot.js';

// The events the timeline tells; the others (each speech, each private
// vote) are in the log. After a tie again, "shall all of them leave?" is
// told too: its answer follows.
const TIMELINE = new Set(['mafia_chose', 'checked', 'healed', 'shot', 'night_ended', 'player_out',
  'speech_skipped', 'nominated', 'vote_closed', 'tie', 'all_vote_began', 'all_vote_closed', 'nobody_leaves', 'fouled']);

/** renderOver returns the game-over section, or null while the game goes on. */
export function renderOver(st, ctx) {
  const v = st.view;
  if (!v || v.phase !== 'ended') return null;
  if (!st.fullLog && ctx.loadLog) ctx.loadLog();
  const end = [...st.events].reverse().find((e) => e.kind === 'game_ended');
  const roles = end ? end.roles || [] : [];
  const out = new Map();
  for (const e of st.events) if (e.kind === 'player_out') out.set(e.target, e);
  const out1 = [h('h2', { id: 'over-h' }, t('web.over.heading'))];
  // The links (data-nav) and "play again" (data-act) carry no listeners:
  // the table screen's one listener acts for them (table.js, onClick).
  // Move the buttons up: "play again" is what most want next.
  out1.push(h('p', { class: `winner w-${v.winner}`, id: 'winner', 'data-winner': v.winner }, winnerText(v.winner)));
  if (st.seat && v.role) {
    let mine = 'play.you_lose';
    if (v.winner === 'draw') mine = 'play.you_draw';
    else if (teamOf(v.role) === v.winner) {
      // A player removed by fouls is never a winner, whoever wins.
      const gone = out.get(st.seat);
      mine = gone && gone.cause === 'fouls' ? 'play.you_fouled_out' : 'play.you_win';
    }
    out1.push(h('p', { class: 'personal' }, t(mine)));
  }
  if (st.seat && boot.accounts) out1.push(keepOffer(st.id));
  if (st.seat && boot.accounts && st.lobby && st.lobby.rated && account()) out1.push(ratingChange(st, ctx));
  out1.push(h('h3', {}, t('web.over.cards')));
  out1.push(h('ol', { class: 'cards', id: 'cards' }, roles.map((r, i) => {
    const s = i + 1;
    const gone = out.get(s);
    return h('li', { class: `card-row team-${teamOf(r)}${gone ? ' dead' : ''}`, 'data-seat': s, 'data-role': r },
      h('span', { class: 'num' }, String(s)),
      h('span', { class: 'name' }, nameOf(st, s), st.seat === s ? ` (${t('web.you')})` : ''),
      h('span', { class: `badge role r-${r}` }, roleName(r)),
      h('span', { class: 'fate' }, gone ? t(`cause.${gone.cause || 'none'}`) : t('web.survived')));
  })));
  out1.push(h('h3', {}, t('web.over.timeline')));
  const label = (s) => seatLabel(st, s, roles[s - 1] ? roleName(roles[s - 1]) : '');
  out1.push(h('ol', { class: 'timeline', id: 'timeline' }, timeline(st, label)));
  out1.push(h('div', { class: 'row wrap again' },
    st.again ? h('a', {
      class: 'button primary', id: 'join-again', href: st.again.path, key: 'join-again', 'data-nav': true,
    }, t('web.over.join_again', { Name: st.again.name })) : null,
    st.seat && ctx.playAgain ? h('button', {
      type: 'button', class: st.again ? 'secondary' : 'primary', id: 'play-again', key: 'play-again', disabled: st.busy, 'data-act': 'play-again',
    }, t('web.over.again')) : null,
    // The game's review: the whole record, with its link to share.
    h('a', {
      class: 'button secondary', id: 'open-review', href: `/t/${st.id}/review`, key: 'review', 'data-nav': true,
    }, t('web.review.open')),
    h('a', {
      class: 'button secondary', href: '/', key: 'back', 'data-nav': true,
    }, t('web.over.back'))));
  return out1;
}

/** signed writes a rating's change with its sign, to one decimal. */
export function signed(d) {
  const r = Math.round(d * 10) / 10;
  return `${r < 0 ? '−' : '+'}${Math.abs(r).toFixed(1)}`;
}

// ratingChange is the line of a rated game's end: the player's overall
// rating before and after (the ordinal, mu - 3 sigma, as the leaderboard
// shows it). The server rates the game beside the room once the end is
// stored, so the page asks the player's page until the game is there.
function ratingChange(st, ctx) {
  if (!st.ratingAsked) {
    st.ratingAsked = true;
    const name = account().name;
    let tries = 0;
    const ask = () => {
      if (st.closed) return;
      accountApi.player(name).then((p) => {
        const g = (p.recent || []).find((x) => x.table === st.id && x.ratings && x.ratings.length);
        if (g) {
          st.rating = g.ratings;
          ctx.redraw();
        } else if (++tries < 60) {
          setTimeout(ask, 1000);
        }
      }, () => { if (++tries < 60) setTimeout(ask, 1000); });
    };
    ask();
  }
  const o = st.rating && st.rating.find((r) => r.kind === 'overall');
  if (!o) return h('p', { class: 'note rating-change', id: 'rating-wait' }, t('web.rated_seat.change_wait'));
  const d = o.after.ordinal - o.before.ordinal;
  return h('div', { class: 'rating-change', id: 'rating-change' },
    h('p', {
      class: d >= 0 ? 'up' : 'down', id: 'rating-overall', 'data-before': o.before.ordinal, 'data-after': o.after.ordinal,
      'data-mu': o.after.mu, 'data-sigma': o.after.sigma, title: `μ ${o.after.mu.toFixed(2)} σ ${o.after.sigma.toFixed(2)}`,
    }, t('web.rated_seat.change', { Before: o.before.ordinal.toFixed(1), After: o.after.ordinal.toFixed(1), Delta: signed(d) })),
    o.left ? h('p', { class: 'note', id: 'rating-left' }, t('web.rated_seat.change_left')) : null);
}

// timeline tells the game by night and day, each seat by its number, its
// player's name and its card (label); the nights and days are collapsed
// but the last, so that the page stays short.
function timeline(st, label) {
  const items = [];
  let group = null;
  const open = (title, cls) => {
    group = h('ol', { class: 'tl-items' });
    items.push({ cls, title, group });
  };
  for (const e of st.fullLog || st.events) {
    if (e.kind === 'night_began') open(t('web.timeline.night', { Round: e.round }), 'night');
    else if (e.kind === 'day_began') open(t('web.timeline.day', { Round: e.round }), 'day');
    else if (TIMELINE.has(e.kind)) {
      if (!group) open(t('web.timeline.night', { Round: e.round || 1 }), 'night');
      group.append(h('li', { class: `ev k-${e.kind}` }, lines(narrate(e, st.seat, label))));
    }
  }
  return items.map((g, i) => h('li', { class: `tl-group ${g.cls}` },
    h('details', { open: i === items.length - 1 }, h('summary', {}, g.title), g.group)));
}
