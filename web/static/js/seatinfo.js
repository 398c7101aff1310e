// seatinfo.js: who a seat's player is, beyond the name (issue 28, "What to
// build" item 4): at a rated table, each account's rating (its overall
// ordinal, as its page and the leaderboards show it), read once a page
// from the account's page (GET /api/players/{name}); the seat is drawn
// again when it comes.

import { accountApi } from './account.js';

// ratings are the accounts' overall ordinals by name: a number, null
// (not rated yet, or not found), or ASKING.
const ratings = new Map();
const ASKING = 'asking';

/** ratingOf returns the overall rating (ordinal) of account name, or
 * undefined while it is asked for or when it has none; redraw is called
 * when it comes. */
export function ratingOf(name, redraw) {
  if (!name) return undefined;
  const r = ratings.get(name);
  if (r === undefined) {
    ratings.set(name, ASKING);
    accountApi.player(name).then((p) => {
      const o = (Array.isArray(p && p.ratings) ? p.ratings : []).find((x) => x.kind === 'overall');
      ratings.set(name, o && typeof o.ordinal === 'number' ? o.ordinal : null);
      redraw();
    }).catch(() => { ratings.set(name, null); });
    return undefined;
  }
  return r === ASKING || r === null ? undefined : r;
}
