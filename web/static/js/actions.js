// actions.js: what this seat may do now, and nothing else: the night's
// action on its legal targets only, the nomination and the end of one's own
// speech, the vote (one tap, final), the answer to "shall all of them
// leave?". The legal moves come from the server's view (view.legal).

import { h } from './dom.js';
import { t } from './i18n.js';
import { SPEECHES, nameOf } from './names.js';
import { renderSay } from './statements.js';

const NIGHT = ['kill', 'check', 'shoot', 'heal'];

/** renderActions returns the action section, or null when there is nothing
 * to show. ctx.command(verb, target, yes, step) sends a command. */
export function renderActions(st, ctx) {
  const v = st.view;
  if (!v || !st.seat || v.phase === 'ended') return null;
  // Each button is for the step it was drawn in: a tap that reaches the
  // server after that step ended is refused (stale_step), never applied to
  // the next one (a vote for the vote counted in the revote).
  const command = (verb, target, yes) => ctx.command(verb, target, yes, v.step);
  const legal = v.legal || {};
  const me = v.seats ? v.seats[st.seat - 1] || {} : {};
  const out = [];
  const note = (text) => out.push(h('p', { class: 'note' }, text));
  const targets = (verb, list, labelID) => h('div', { class: 'targets', role: 'group', 'aria-label': t(`web.act.${verb}`) },
    list.map((s) => h('button', {
      type: 'button', class: `target v-${verb}`, key: `${verb}-${s}`, 'data-verb': verb, 'data-target': s,
      disabled: st.busy || st.paused, 'aria-label': t(labelID, { Seat: s, Name: nameOf(st, s) }),
      on: { click: () => command(verb, s) },
    }, h('span', { class: 'num', 'aria-hidden': 'true' }, String(s)), h('span', { class: 'name' }, nameOf(st, s)))));

  if (st.paused) note(t('error.paused'));
  // A player voted out or killed at night still has the last words.
  if (me.alive === false && !(v.phase === 'last_words' && v.speaker === st.seat)) {
    note(t('view.you_out'));
    return section(out);
  }
  const night = v.night || {};
  switch (v.phase) {
    case 'night': {
      // A hidden card hides the night's moves too: their names tell it.
      if (st.cardHidden) {
        note(t('web.card.hidden_night'));
        break;
      }
      let any = false;
      for (const verb of NIGHT) {
        const list = legal[verb] || [];
        if (list.length) {
          any = true;
          out.push(h('h3', {}, t(`web.act.${verb}`)));
          out.push(targets(verb, list, `web.act.${verb}_target`));
        }
      }
      // A night's move is final, as a vote is: say so before the tap.
      if (any) out.push(h('p', { class: 'hint', id: 'night-hint' }, t('web.act.night_hint')));
      if (legal.skip) {
        any = true;
        out.push(h('button', {
          type: 'button', class: 'secondary', key: 'skip', 'data-verb': 'skip', disabled: st.busy || st.paused,
          on: { click: () => command('skip') },
        }, t('web.act.skip')));
      }
      if (night.kill) note(t('web.night.kill', { Seat: night.kill }));
      if (night.check) note(t('web.night.check', { Seat: night.check }));
      if (night.shot) note(t('web.night.shot', { Seat: night.shot }));
      if (night.heal) note(t('web.night.heal', { Seat: night.heal }));
      if (night.skip) note(t('web.night.skip'));
      if (!any && !night.kill && !night.check && !night.shot && !night.heal && !night.skip) note(t('play.sleep'));
      break;
    }
    case 'speech': case 'defence': case 'tie_speech': case 'last_words':
      if (v.speaker === st.seat) {
        out.push(h('h3', {}, t(`event.${v.phase === 'speech' ? 'speech' : v.phase}_you`)));
        const nom = legal.nominate || [];
        if (nom.length) {
          out.push(h('p', { class: 'hint' }, t('web.act.nominate_hint')));
          out.push(targets('nominate', nom, 'web.act.nominate_target'));
        } else if (v.nominated && v.phase === 'speech') {
          note(t('web.act.nominated'));
        }
        if (legal.pass) {
          out.push(h('button', {
            type: 'button', class: 'primary', key: 'pass', 'data-verb': 'pass', disabled: st.busy || st.paused,
            on: { click: () => command('pass') },
          }, t(`web.act.pass_${v.phase}`)));
        }
        out.push(...(renderSay(st, ctx) || []));
      }
      break;
    case 'vote': case 'revote': {
      // A vote's view comes when the vote closes: until then the page says
      // what it sent.
      if (st.waitView && st.sent && st.sent.verb === 'vote') {
        note(t('web.act.voted', { Seat: st.sent.target }));
        break;
      }
      const ok = new Set(legal.vote || []);
      const list = (v.candidates || []).filter((s) => ok.has(s));
      for (const s of ok) if (!list.includes(s)) list.push(s);
      if (list.length) {
        out.push(h('h3', {}, t('web.act.vote')));
        out.push(h('p', { class: 'hint' }, t('web.act.vote_hint')));
        // Whoever does not vote is counted for the last candidate.
        const cands = v.candidates || [];
        if (cands.length > 1) {
          const last = cands[cands.length - 1];
          out.push(h('p', { class: 'hint', id: 'vote-default', 'data-seat': last },
            t('web.act.vote_default', { Seat: last, Name: nameOf(st, last) })));
        }
        out.push(targets('vote', list, 'web.act.vote_target'));
      } else if (v.voted && v.my_vote) {
        note(t('web.act.voted', { Seat: v.my_vote }));
      }
      break;
    }
    case 'all_vote':
      if (st.waitView && st.sent && st.sent.verb === 'all_vote') {
        note(t(st.sent.yes ? 'web.act.answered_yes' : 'web.act.answered_no'));
      } else if (legal.all_vote) {
        out.push(h('h3', {}, t('web.act.all_vote')));
        out.push(h('div', { class: 'targets', role: 'group', 'aria-label': t('web.act.all_vote') },
          h('button', {
            type: 'button', class: 'target yes', key: 'yes', 'data-verb': 'all_vote', 'data-yes': 'true',
            disabled: st.busy || st.paused, on: { click: () => command('all_vote', 0, true) },
          }, t('web.act.yes')),
          h('button', {
            type: 'button', class: 'target no', key: 'no', 'data-verb': 'all_vote', 'data-yes': 'false',
            disabled: st.busy || st.paused, on: { click: () => command('all_vote', 0, false) },
          }, t('web.act.no'))));
      } else if (v.voted) {
        note(t(v.my_yes ? 'web.act.answered_yes' : 'web.act.answered_no'));
      }
      break;
    default:
  }
  return out.length ? section(out) : null;
}

function section(children) {
  return [h('h2', { class: 'vh' }, t('web.act.heading')), ...children];
}

/** isSpeech reports whether a phase gives one player the floor. */
export const isSpeech = (p) => SPEECHES.has(p);
