// Live co-hosting, the host's side: inviting a referee (or a second host)
// by a one-time link and its QR code, and the corrections they propose.
// The host's phone stays the one writer of the game's entries: it reads the
// corrections with the game (GET /host/api/games/{id}/live) every few
// seconds, in the server's order; a foul a co-host adds is entered here at
// once as the host's own foul entry and marked applied; the mafia's shot
// of an earlier night, the Detective's or the Don's check and the Doctor's
// save, a day's vote, repeat vote or "shall all of them leave?" with its
// voters and a foul taken back wait in the list with Apply (for a vote the
// host taps the hands first):
// the engine rebuilds the game from the entries with the correction in
// place (E.amend), the host sees
// which later entries still fit and which no longer do and why, and
// confirms (the game goes on from where the kept entries stand; the sync
// rewrites the server's entries from there) or cancels (nothing changes).
// Any other correction (a note in words, a vote count with no voters) says
// on both phones that it is corrected by hand, and waits in the list, where the host marks it done
// (after fixing the game by hand) or declines it. Offline, the reads pause
// and resume with the connection; an applied correction is sent with the
// entries when the connection is back.

import * as E from './engine.js';
import { h } from './dom.js';
import { mount, button, toast, seatGrid } from './ui.js';
import { t, tn, current } from './i18n.js';
import { send } from './sync.js';
import { onClock } from './timer.js';

// How often the corrections are read: every second once this phone invited
// someone (rec.cohosts), otherwise now and then (a phone the game moved to
// learns of the co-hosts so).
const EVERY = 1000;
const SELDOM = 15000;
// While co-hosts follow, the clock's state is sent at each change and at
// least this often besides: a referee's phone that hears nothing for a few
// of these says it stopped hearing the host (follow.js).
export const CLOCK_EVERY = 3000;

/** A correction as both phones list it: "Nino: a foul for 3 · Levan". */
export function fixLine(fix, who) {
  let key = fix.kind;
  if (!fix.seat && fix.kind === 'shot') key = 'shot_miss';
  if (!fix.seat && (fix.kind === 'check' || fix.kind === 'save')) key = `${fix.kind}_none`;
  if (fix.kind === 'vote' && fix.round) key = { revote: 'vote_revote', all_vote: 'vote_all' }[fix.vote] || 'vote_day';
  return t(`assist.cohost.${key}`, { By: fix.by, Who: fix.seat ? who(fix.seat) : '', Count: fix.count || 0, Text: fix.text || '',
    Round: fix.round || 0, Voters: (fix.voters || []).join(', ') });
}

/** The list of corrections, each with its writer and its state; act(fix) adds the host's buttons. */
export function fixList(fixes, who, act) {
  if (!fixes.length) return h('p', { class: 'note', dataset: { t: 'no-fixes' } }, t('assist.cohost.none'));
  return h('ol', { class: 'fixes', dataset: { t: 'fixes' } }, fixes.map((f) => h('li', { dataset: { seq: String(f.seq), state: f.state } },
    h('span', {}, fixLine(f, who)), ' ', h('em', {}, t(`assist.cohost.${f.state}`)),
    // a correction no replay applies: both phones say the host makes it by hand
    f.state === 'proposed' && f.kind !== 'foul_add' && !replayed(f) ? h('small', { class: 'note', dataset: { t: 'fix-by-hand' } }, ` ${t('assist.cohost.by_hand')}`) : null,
    act ? act(f) : null)));
}

/**
 * Watches game G's corrections while it is open: returns a stop function.
 * Pending fouls are entered in the server's order, one at a time.
 */
export function watchFixes(G) {
  let stopped = false;
  let timer = null;
  const tick = async () => {
    timer = null;
    if (stopped) return;
    if (!G.rec.create && !G.diverged()) {
      await tellClock(G);
      await readFixes(G);
    }
    if (!stopped) timer = setTimeout(tick, G.rec.cohosts ? EVERY : SELDOM);
  };
  timer = setTimeout(tick, EVERY);
  onClock(() => { if (!stopped) tellClock(G); });
  return () => { stopped = true; clearTimeout(timer); onClock(null); };
}

/** The speech clock's state as the server keeps it: the step, the seat with the floor, milliseconds. */
function clockState(G) {
  const tm = G.rec.ui && G.rec.ui.timer;
  if (!tm || !tm.key) return { key: '', seat: 0, total: 0, left: 0, running: false };
  const total = Math.round(tm.total);
  const left = Math.min(total, Math.max(0, Math.round(tm.running ? tm.until - Date.now() : tm.left)));
  const seat = Number(String(tm.key).split(':')[2]) || 0;
  return { key: String(tm.key), seat, total, left, running: !!tm.running && left > 0 };
}

/**
 * Tells the server the clock's state once co-hosts were invited: at once
 * when it changed (a start, a pause, a resume, the next step), otherwise
 * every CLOCK_EVERY ms, so the referee knows this phone is heard.
 */
async function tellClock(G) {
  if (!G.rec.cohosts || G.rec.create) return;
  const c = clockState(G);
  const sig = `${c.key}|${c.running}|${c.running ? '' : c.left}`;
  if (sig === G.clockSig && Date.now() - (G.clockSent || 0) < CLOCK_EVERY) return;
  G.clockSig = sig;
  G.clockSent = Date.now();
  const got = await send('PUT', `/host/api/games/${G.rec.id}/clock`, c, G.rec.token);
  if (!got || !got.res.ok) G.clockSig = null; // told again at the next tick
}

/** Reads the corrections once, and applies the fouls that wait. */
async function readFixes(G) {
  const got = await send('GET', `/host/api/games/${G.rec.id}/live`, undefined, G.rec.token);
  if (!got || !got.res.ok) return;
  const fixesWere = JSON.stringify(G.fixes || []);
  G.fixes = got.body.fixes || [];
  const list = document.querySelector('[data-t="fixes-box"]');
  if (list && fixesWere !== JSON.stringify(G.fixes)) list.replaceChildren(...fixesPart(G)); // the screen is open
  const was = JSON.stringify(G.cohosts || []);
  G.cohosts = got.body.cohosts || [];
  const box = document.querySelector('[data-t="cohosts-box"]');
  if (box && was !== JSON.stringify(G.cohosts)) box.replaceChildren(cohostList(G) || ''); // joined since the screen opened
  if (G.cohosts.length && !G.rec.cohosts) { G.rec.cohosts = G.cohosts.length; G.save(); }
  // A correction that waits for the host is said once on this phone (the
  // list is in the game's menu: Invite a referee).
  G.seenFixes = G.seenFixes || new Set();
  for (const f of G.fixes) {
    if (f.state !== 'proposed' || f.kind === 'foul_add' || G.seenFixes.has(f.seq)) continue;
    G.seenFixes.add(f.seq);
    toast(fixLine(f, (s) => G.who(s)));
  }
  for (const f of G.fixes) {
    if (f.state !== 'proposed' || f.kind !== 'foul_add') continue;
    if (G.saving) return; // a tap's entries are being saved: next time
    await applyFoul(G, f);
  }
  // A correction this phone applied by rewriting the entries is marked on
  // the server by the rewrite's sync; one the server never held the old
  // entries of (or whose mark was lost) is marked here.
  for (const f of G.fixes) {
    const entry = (G.rec.fixed || {})[f.seq];
    if (f.state !== 'proposed' || f.kind === 'foul_add' || !entry) continue;
    if (G.rec.rewrite && (G.rec.rewrite.fixes || []).includes(f.seq)) continue;
    await settle(G, f, 'applied', entry);
  }
}

/** A correction applied by replaying the game: the mafia's shot, a day's vote (with its hands), a foul taken back. */
const replayed = (f) => ['shot', 'foul_remove', 'check', 'don_check', 'save'].includes(f.kind) || (f.kind === 'vote' && f.round > 0);

/**
 * A day's vote for a candidate, corrected: the host taps the hands raised
 * for them (the referee's are marked at first), then sees what the
 * replay with those hands keeps and drops (amendScreen).
 */
function voteFixScreen(G, f, marked) {
  const vote = recordedVote(E.protocol(), f.round, f.vote || '', f.seat);
  if (!vote) {
    const res = E.amend({ kind: 'vote', vote: f.vote || '', round: f.round, seat: f.seat, voters: [] });
    toast(res.error ? res.error.message : t('assist.amend.not_reached_vote'), 'error');
    return;
  }
  // the referee's hands are marked at first (the ones entered when the correction names none)
  const hands = marked || (f.voters ? [...f.voters].sort((a, b) => a - b) : vote.hands);
  const toggle = (s) => voteFixScreen(G, f, hands.includes(s) ? hands.filter((x) => x !== s) : [...hands, s].sort((a, b) => a - b));
  const whom = f.vote === 'all_vote' ? vote.candidates.map((s) => G.who(s)).join(', ') : G.who(f.seat);
  mount(
    h('header', { class: 'step-head', dataset: { t: 'vote-fix-screen' } }, h('h2', {}, t('assist.amend.title'))),
    h('p', { class: 'say' }, fixLine(f, (s) => G.who(s))),
    h('p', { class: 'note' }, t('assist.amend.voters', { Who: whom })),
    h('div', { class: 'count', dataset: { t: 'hands' } }, String(hands.length)),
    seatGrid({
      seats: vote.seats,
      label: (s) => [G.rec.settings.names[s - 1], ''],
      selected: (s) => hands.includes(s),
      onpick: toggle,
    }),
    h('div', { class: 'actions' },
      button(t('assist.amend.work_out'), () => amendScreen(G, f, { kind: 'vote', vote: f.vote || '', round: f.round, seat: f.seat, voters: hands }), 'primary', 'vote-fix-work-out'),
      button(t('assist.cancel'), () => cohostScreen(G), 'secondary', 'amend-cancel')));
}

/**
 * A day's vote as the protocol p recorded it, once closed: which (the
 * first '', 'revote', 'all_vote'), who could vote (seats), the candidates,
 * and the hands entered for candidate (an all-vote: the yes); null when
 * the game has not closed that vote. Both phones pre-mark the hands so.
 */
export function recordedVote(p, round, which, candidate) {
  const r = (p.rounds || []).find((x) => x.n === round);
  const d = r && r.day;
  if (!d) return null;
  if (which === 'all_vote') {
    const before = d.votes[d.votes.length - 1];
    if (!d.all_vote || !d.all_vote.closed || !before) return null;
    return { seats: before.ballot.map((b) => b.voter), candidates: d.all_vote.candidates, hands: [...d.all_vote.yes] };
  }
  const v = d.votes.find((x) => x.phase === (which === 'revote' ? 'revote' : 'vote'));
  if (!v || !v.closed) return null;
  return { seats: v.ballot.map((b) => b.voter), candidates: v.candidates, hands: v.cast.filter((c) => c.target === candidate).map((c) => c.by) };
}

/**
 * The mafia's shot of an earlier night, or a day's vote, applied: what the engine's replay
 * with the correction in place keeps and drops, and why, for the host to
 * confirm or cancel.
 */
function amendScreen(G, f, req) {
  const res = E.amend(req || { kind: f.kind, round: f.round, seat: f.seat });
  if (res.error) { toast(res.error.message, 'error'); return; }
  const n = res.dropped.length;
  const confirm = async () => {
    if (await G.amend(res, [f.seq])) toast(t('assist.amend.done'));
  };
  mount(
    h('header', { class: 'step-head', dataset: { t: 'amend-screen' } }, h('h2', {}, t('assist.amend.title'))),
    h('p', { class: 'say' }, fixLine(f, (s) => G.who(s))),
    h('p', { class: 'note' }, t('assist.amend.from', { N: res.from + 1 })),
    h('p', { class: 'note', dataset: { t: 'amend-kept', n: String(res.kept) } }, tn('assist.amend.kept', res.kept, { Count: res.kept })),
    n ? [
      h('p', { class: 'warn', dataset: { t: 'amend-dropped-head', n: String(n) } }, tn('assist.amend.dropped', n, { Count: n })),
      h('ul', { class: 'undo-lines', dataset: { t: 'amend-dropped' } }, res.dropped.map((l) => h('li', {}, l))),
      h('p', { class: 'note', dataset: { t: 'amend-reason' } }, t('assist.amend.reason', { Reason: res.reason })),
    ] : null,
    h('div', { class: 'actions' },
      button(t('assist.amend.confirm'), confirm, 'primary', 'amend-confirm'),
      button(t('assist.cancel'), () => cohostScreen(G), 'secondary', 'amend-cancel')));
}

/**
 * Enters a co-host's foul as the host's own entry, then marks it applied.
 * The phone keeps which correction each entry applied (rec.fixed, saved
 * with the entry), so a correction whose mark was lost on the way is
 * marked again, never entered twice.
 */
async function applyFoul(G, f) {
  G.rec.fixed = G.rec.fixed || {};
  const done = G.rec.fixed[f.seq];
  if (done) { await settle(G, f, 'applied', done); return; }
  const foul = { verb: 'foul', target: f.seat };
  if (G.refusal(foul)) { // the engine would refuse it (the seat is out, the game over): declined
    await settle(G, f, 'declined', 0);
    return;
  }
  const entry = G.rec.commands.length + 1;
  G.rec.fixed[f.seq] = entry;
  if (!(await G.do([foul]))) { // not saved on the phone: tried again at the next read
    delete G.rec.fixed[f.seq];
    return;
  }
  toast(t('assist.cohost.foul_given', { By: f.by, Who: G.who(f.seat) }));
  await settle(G, f, 'applied', entry);
}

/** Marks a correction applied or declined on the server. */
async function settle(G, f, state, entry) {
  const got = await send('PUT', `/host/api/games/${G.rec.id}/fixes/${f.seq}`, { state, entry }, G.rec.token);
  if (got && got.res.ok) f.state = state;
}

/** Invited, following since or revoked when: one co-host as the host's list says it. */
function cohostLine(c) {
  const at = (iso) => new Date(iso).toLocaleTimeString(current(), { hour: '2-digit', minute: '2-digit' });
  if (c.revoked) return t('assist.cohost.revoked_at', { Name: c.name, Time: at(c.revoked) });
  if (c.account && !c.joined) return t('assist.cohost.account_at', { Name: c.name, Account: c.account, Time: at(c.added) });
  if (c.joined) return t('assist.cohost.joined_at', { Name: c.name, Time: at(c.joined_at || c.added) });
  return t('assist.cohost.invited_at', { Name: c.name, Time: at(c.added) });
}

/**
 * The co-hosts of the game, each with Revoke (their key stops at once)
 * and New link (a one-time code again: a lost phone's key stops, the new
 * link joins another; a revoked one is so invited again).
 */
function cohostList(G) {
  if (!(G.cohosts || []).length) return null;
  const answer = async (got, then) => {
    if (!got) { toast(t('assist.join.offline'), 'error'); return; }
    if (!got.res.ok) { toast((got.body.error && got.body.error.message) || String(got.res.status), 'error'); return; }
    G.cohosts = got.body.cohosts;
    then(got.body);
  };
  const base = `/host/api/games/${G.rec.id}/cohosts`;
  const revoke = async (c) => answer(await send('DELETE', `${base}/${c.id}`, undefined, G.rec.token), () => {
    toast(t('assist.cohost.revoked', { Name: c.name }));
    cohostScreen(G);
  });
  const reissue = async (c) => answer(await send('POST', `${base}/${c.id}/code`, {}, G.rec.token), (body) => {
    cohostScreen(G, `${location.origin}/host/?lang=${current()}#/follow/${G.rec.id}/${body.code}`);
  });
  return h('ul', { class: 'cohosts', dataset: { t: 'cohosts' } }, G.cohosts.map((c) => {
    const state = c.revoked ? 'revoked' : (c.joined ? 'joined' : 'invited');
    return h('li', { dataset: { id: String(c.id), state } }, h('span', {}, cohostLine(c)), ' ',
      h('span', { class: 'actions' },
        c.revoked ? null : button(t('assist.cohost.revoke'), () => revoke(c), 'secondary small', `cohost-revoke-${c.id}`),
        button(t('assist.cohost.new_code'), () => reissue(c), 'secondary small', `cohost-code-${c.id}`)));
  }));
}

/** The corrections as the host's screen lists them, each with its buttons while it waits. */
function fixesPart(G) {
  const mine = (f) => !!(G.rec.fixed || {})[f.seq]; // applied here, not yet marked on the server
  const decline = (f) => button(t('assist.cohost.decline'), async () => { await settle(G, f, 'declined', 0); cohostScreen(G); }, 'secondary small', `fix-decline-${f.seq}`);
  const act = (f) => {
    if (f.state !== 'proposed' || f.kind === 'foul_add' || mine(f)) return null;
    if (replayed(f)) {
      const open = () => (f.kind === 'vote' ? voteFixScreen(G, f) : amendScreen(G, f));
      return h('span', { class: 'actions' },
        button(t('assist.cohost.amend'), open, 'primary small', `fix-amend-${f.seq}`), decline(f));
    }
    return h('span', { class: 'actions' },
      button(t('assist.cohost.apply'), async () => { await settle(G, f, 'applied', 0); cohostScreen(G); }, 'secondary small', `fix-apply-${f.seq}`),
      decline(f));
  };
  const fixes = (G.fixes || []).map((f) => (f.state === 'proposed' && mine(f) ? { ...f, state: 'applied' } : f));
  const waiting = fixes.some((f) => f.state === 'proposed' && f.kind !== 'foul_add' && !replayed(f));
  return [fixList(fixes, (s) => G.who(s), act), waiting ? h('p', { class: 'note' }, t('assist.cohost.undo_hint')) : ''];
}

/** The invitation and the corrections, from the game's menu. */
export function cohostScreen(G, made) {
  // A tournament's table names its referee (the game's club fields): the invitation is theirs by default.
  const named = (G.rec.settings.club && G.rec.settings.club.referee) || '';
  const name = h('input', { type: 'text', maxlength: 32, value: named, dataset: { t: 'cohost-name' }, placeholder: t('assist.cohost.name') });
  const acct = h('input', { type: 'text', maxlength: 64, autocapitalize: 'off', dataset: { t: 'cohost-account' }, placeholder: t('assist.cohost.account') });
  const invite = async () => {
    const got = await send('POST', `/host/api/games/${G.rec.id}/cohosts`, { name: name.value, account: acct.value }, G.rec.token);
    if (!got) { toast(t('assist.join.offline'), 'error'); return; }
    if (!got.res.ok) { toast((got.body.error && got.body.error.message) || String(got.res.status), 'error'); return; }
    G.cohosts = got.body.cohosts;
    G.rec.cohosts = G.cohosts.length;
    G.save();
    cohostScreen(G, `${location.origin}/host/?lang=${current()}#/follow/${G.rec.id}/${got.body.code}`);
  };
  const code = made ? E.qr(made) : null;
  mount(
    h('header', { class: 'step-head', dataset: { t: 'cohost-screen' } }, h('h2', {}, t('assist.cohost.title'))),
    h('p', { class: 'note' }, t('assist.cohost.hint')),
    made ? [
      code && code.svg ? h('img', { class: 'qr', alt: t('assist.cohost.qr_alt'), dataset: { t: 'cohost-qr' },
        src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(code.svg)}` }) : null,
      h('input', { type: 'text', readonly: true, class: 'link', value: made, dataset: { t: 'cohost-link' }, onfocus: (e) => e.target.select() }),
      h('p', { class: 'warn' }, t('assist.cohost.secret')),
    ] : h('div', { class: 'actions' }, name, acct, button(t('assist.cohost.make'), invite, 'primary', 'cohost-make')),
    h('div', { dataset: { t: 'cohosts-box' } }, cohostList(G)),
    h('h3', {}, t('assist.cohost.list')),
    h('div', { dataset: { t: 'fixes-box' } }, fixesPart(G)),
    h('div', { class: 'actions' }, button(t('assist.back'), () => G.render(), 'primary', 'back')));
}
