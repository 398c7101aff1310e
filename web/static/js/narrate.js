// narrate.js: the game's events as sentences, from the catalog's event.*
// templates. It mirrors locale/event.go line for line (Printer.Event), so
// that the page and the terminal tell a game alike; the browser tests
// compare both on every event of real games.

import { t, tn, has } from './i18n.js';

/** seatNum writes a seat number as the language does in running text. */
export function seatNum(s) { return t('seat.num', { Seat: s }); }

/** andList joins items with commas and the language's "and". */
export function andList(items) {
  if (items.length === 0) return '';
  if (items.length === 1) return items[0];
  return t('list.and', { Init: items.slice(0, -1).join(', '), Last: items[items.length - 1] });
}

export function seatList(seats, label) { return andList(seats.map((s) => seatNum(label ? label(s) : s))); }

function name(group, key) {
  if (!key || key === '?' || !has(`${group}.${key}`)) key = 'none';
  return t(`${group}.${key}`);
}

export const roleName = (r) => name('role', r);
export const teamName = (x) => name('team', x);
export const phaseName = (p) => name('phase', p);
export const resultName = (r) => name('result', r);
export const winnerText = (w) => name('winner', w);

/** narrate tells one event (the copy the viewer received) for viewer, the
 * seat reading it (0 for a spectator or the host). Some events take several
 * lines, joined with "\n"; a line of a list starts with two spaces. label,
 * if given, writes a seat in the sentence (the number and the player's
 * name, see names.js seatLabel); without it the sentence is the
 * terminal's own, word for word. */
export function narrate(e, viewer, label) {
  const L = label || ((s) => s);
  const you = (s) => viewer !== 0 && s === viewer;
  const idFor = (base, s) => (you(s) ? `${base}_you` : base);
  let count = 0;
  if (e.kind === 'game_started') count = e.players || 0;
  else if (e.kind === 'fouled') count = e.fouls || 0;
  else if (e.kind === 'vote_began' || e.kind === 'tie') count = (e.candidates || []).length;
  const data = { Round: e.round || 0, Actor: e.actor ? L(e.actor) : 0, Target: e.target ? L(e.target) : 0, Count: count };
  const say = (id) => t(id, data);
  const by = (base, s) => say(idFor(base, s));
  switch (e.kind) {
    case 'game_started': return gameStarted(e, viewer, L);
    case 'night_began': return say('event.night_began');
    case 'mafia_chose': return by(e.target ? 'event.mafia_chose' : 'event.mafia_chose_none', e.actor);
    case 'checked': data.Answer = resultName(e.result); return by('event.checked', e.actor);
    case 'healed': return by('event.healed', e.actor);
    case 'shot': return by('event.shot', e.actor);
    case 'skipped': return by('event.skipped', e.actor);
    case 'night_ended': {
      const victims = (e.seats || []).length;
      if (victims === 0) return say('event.night_ended_none');
      data.Count = victims;
      return tn('event.night_ended', victims, data);
    }
    case 'player_out': {
      let line = by(`event.out_${e.cause || ''}`, e.target);
      if (you(e.target)) return line;
      if (e.role) {
        data.Role = roleName(e.role);
        line += ` ${say('event.revealed_role')}`;
      } else if (e.team) {
        data.Team = teamName(e.team);
        line += ` ${say('event.revealed_team')}`;
      }
      return line;
    }
    case 'last_words': return by('event.last_words', e.target);
    case 'day_began': return by('event.day_began', e.actor);
    case 'speech_skipped': return by('event.speech_skipped', e.target);
    case 'speech': return by('event.speech', e.target);
    case 'nominated':
      if (you(e.target)) return say('event.nominated_me');
      return by('event.nominated', e.actor);
    case 'defence': return by('event.defence', e.target);
    case 'vote_began': {
      const base = e.phase === 'revote' ? 'event.revote_began' : 'event.vote_began';
      const list = e.candidates || [];
      if (list.length === 1) {
        data.Seat = L(list[0]);
        return say(`${base}_one`);
      }
      data.Seats = seatList(list, label);
      return say(base);
    }
    case 'vote_cast': return by('event.vote_cast', e.actor);
    case 'vote_made': return by('event.vote_made', e.actor);
    case 'vote_closed': return voteClosed(e, say, L);
    case 'tie':
      data.Seats = seatList(e.candidates || [], label);
      // a tie again: "shall all of them leave?" follows, not a revote
      return say(e.phase === 'revote' ? 'event.tie_again' : 'event.tie');
    case 'tie_speech': return by('event.tie_speech', e.target);
    case 'all_vote_began': return say('event.all_vote_began');
    case 'all_vote_cast': return by(e.yes ? 'event.all_vote_yes' : 'event.all_vote_no', e.actor);
    case 'all_vote_closed': {
      const yes = e.seats || [];
      data.Count = yes.length;
      data.Seats = seatList(yes, label);
      if (yes.length === 0) return say('event.all_vote_closed_none');
      return tn(e.yes ? 'event.all_vote_closed_pass' : 'event.all_vote_closed_fail', yes.length, data);
    }
    case 'nobody_leaves': return say('event.nobody_leaves');
    case 'fouled': return tn(idFor('event.fouled', e.target), count, data);
    case 'game_ended': return gameEnded(e, viewer, L);
    // A statement: the speaker's words (a statement, not a fact).
    case 'statement':
      if (!has(`event.statement_${e.verb}`)) break;
      if (e.verb === 'claim') data.Role = roleName(e.role);
      if (e.verb === 'report') data.Answer = resultName(e.result);
      if (e.verb === 'best_move') data.Seats = seatList(e.seats || [], label);
      return by(`event.statement_${e.verb}`, e.actor);
  }
  data.Kind = e.kind;
  return say('event.unknown');
}

/** tally returns who voted for whom in a closed vote: [seat, voters] by
 * most votes, then by seat. */
export function tally(e) {
  const voters = new Map();
  (e.ballot || []).forEach((c, i) => {
    if (!c) return;
    if (!voters.has(c)) voters.set(c, []);
    voters.get(c).push(i + 1);
  });
  return [...voters.keys()]
    .sort((a, b) => voters.get(b).length - voters.get(a).length || a - b)
    .map((c) => [c, voters.get(c)]);
}

function voteClosed(e, say, L) {
  const lines = [say(e.phase === 'revote' ? 'event.revote_closed' : 'event.vote_closed')];
  for (const [c, vs] of tally(e)) {
    lines.push(`  ${tn('event.tally', vs.length, { Seat: L(c), Count: vs.length, Voters: vs.join(', ') })}`);
  }
  return lines.join('\n');
}

function gameStarted(e, viewer, L) {
  const count = e.players || 0;
  const roles = e.roles || [];
  const lines = [tn('event.game_started', count, { Count: count })];
  if (viewer !== 0 && viewer <= count && roles[viewer - 1]) {
    lines.push(t('event.your_card', { Seat: L(viewer), Role: roleName(roles[viewer - 1]) }));
    const team = [];
    for (let s = 1; s <= count; s++) {
      if (s !== viewer && roles[s - 1]) team.push(t('event.team_member', { Seat: L(s), Role: roleName(roles[s - 1]) }));
    }
    if (team.length) lines.push(t('event.your_team', { Team: andList(team) }));
    return lines.join('\n');
  }
  if (viewer === 0) lines.push(...cards(roles, 0, count, L));
  return lines.join('\n');
}

function gameEnded(e, viewer, L) {
  const roles = e.roles || [];
  const lines = [t('event.game_ended'), winnerText(e.winner)];
  if (e.cause === 'round_limit') lines.push(t('event.game_ended_round_limit', { Round: e.round }));
  let n = 0;
  roles.forEach((r, i) => { if (r) n = i + 1; });
  lines.push(...cards(roles, viewer, n, L));
  return lines.join('\n');
}

function cards(roles, viewer, n, L) {
  const lines = [];
  for (let s = 1; s <= n; s++) {
    if (!roles[s - 1]) continue;
    lines.push(`  ${t(s === viewer ? 'event.card_you' : 'event.card', { Seat: L(s), Role: roleName(roles[s - 1]) })}`);
  }
  return lines.length ? [t('event.cards'), ...lines] : [];
}
