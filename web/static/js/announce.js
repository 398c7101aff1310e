// announce.js: the table's announcements, from the events this seat has
// seen: the morning (who died in the night, or nobody), the vote's result
// with its count, a tie and what follows, the answer to "shall all of them
// leave?", and the leaving of this seat's own player. It is pure: the same
// events give the same announcement, so a reload shows it again; it must
// not touch the page.
//
// An announcement stays until the next vote begins, a newer one replaces
// it, or the player dismisses it (the caller keeps that, by its key).

import { narrate } from './narrate.js';

/** announcementOf returns the announcement the events end with, or null:
 * {key, kind ('morning', 'vote', 'out'), lines, you (this seat left)}.
 * label writes a seat in the sentences (narrate's label). */
export function announcementOf(events, seat, label) {
  let cur = null;
  const tell = (e) => narrate(e, seat, label).split('\n');
  events.forEach((e, i) => {
    switch (e.kind) {
      case 'night_ended':
        cur = { key: i, kind: 'morning', lines: tell(e), you: false };
        break;
      case 'vote_closed':
      case 'all_vote_closed':
        cur = { key: i, kind: 'vote', lines: tell(e), you: false };
        break;
      case 'tie': case 'nobody_leaves':
        if (!cur || cur.kind !== 'vote') cur = { key: i, kind: 'vote', lines: [], you: false };
        cur.lines.push(...tell(e));
        break;
      case 'player_out':
        if (!cur || e.cause === 'fouls') cur = { key: i, kind: 'out', lines: [], you: false };
        cur.lines.push(...tell(e));
        if (seat && e.target === seat) cur.you = true;
        break;
      case 'vote_began': case 'all_vote_began':
        cur = null;
        break;
      default:
    }
  });
  return cur;
}

/** cues returns the signals that new events call for, for seat: 'night'
 * when a night begins, 'morning' when it ends, 'nominated' when the seat's
 * player is nominated, 'turn' when the floor becomes theirs. */
export function cues(events, seat) {
  const out = [];
  for (const e of events) {
    if (e.kind === 'night_began') out.push('night');
    else if (e.kind === 'night_ended') out.push('morning');
    else if (seat && e.kind === 'nominated' && e.target === seat) out.push('nominated');
    else if (seat && e.target === seat && ['speech', 'defence', 'tie_speech', 'last_words'].includes(e.kind)) out.push('turn');
  }
  return out;
}
