// One game on the host's phone: the engine's state, the entries the host
// makes (each applied by the engine here first, then saved on the phone,
// then shown as done and sent), the announcements the host reads aloud,
// and which screen shows now.
//
// A tap's entries are shown as done only once the phone's storage holds
// them (storage.save resolved: the write completed); until then the screen
// stays as it was and takes no other tap. A control carries the step of
// the game it was drawn for (act): a tap that comes after the step has
// passed does nothing, and its entries carry that step, so the engine
// refuses them too (stale_step) if one ever got through.

import * as E from './engine.js';
import * as storage from './storage.js';
import { Syncer } from './sync.js';
import { t, tn } from './i18n.js';
import { name } from './engine.js';
import { h } from './dom.js';
import { mount, toast, button } from './ui.js';
import { stopTicking } from './timer.js';
import { keepAwake } from './wakelock.js';
import { nightScreen } from './night.js';
import { timedScreen } from './day.js';
import { voteScreen, allVoteScreen } from './vote.js';
import { dealScreen } from './deal.js';
import { endScreen } from './end.js';
import { foulsPanel } from './fouls.js';
import { confirmUndo, resumeUI } from './undo.js';
import { menuScreen, divergedScreen } from './handoff.js';
import { watchFixes } from './cohost.js';

export class Game {
  constructor(rec, onStatus) {
    this.rec = rec;
    rec.ui = rec.ui || {};
    rec.synced = rec.synced || 0;
    this.onStatus = onStatus;
    this.saving = false; // a tap's entries are being written to the phone's storage
    keepAwake(true); // the clock must not go dark while the game is open
    this.begin(rec);
  }

  /** Runs a record: the engine replays its entries, and its sync starts. */
  begin(rec) {
    this.rec = rec;
    const r = E.start(rec.settings, rec.commands);
    this.state = r.state;
    this.error = r.error || null;
    if (rec.ui.resume && !this.error) {
      delete rec.ui.resume;
      resumeUI(this, null);
      this.save();
    }
    this.divergedShown = false;
    this.moved = false;
    const syncer = new Syncer(rec, () => {
      this.onStatus(this);
      if (this.diverged() && !this.divergedShown) { this.divergedShown = true; this.render(); }
    });
    this.syncer = syncer;
    this.syncer.kick();
    if (this.stopFixes) this.stopFixes();
    this.stopFixes = watchFixes(this); // the co-hosts' corrections (cohost.js)
    if (!rec.create && syncer.waiting() === 0) this.checkServer(syncer);
  }

  /**
   * On opening a game with nothing to send: has the game gone on on another
   * phone meanwhile? Then this phone says so at once, before the host
   * enters anything. Without a connection nothing is known, and nothing
   * changes.
   */
  async checkServer(syncer) {
    let server;
    try {
      const res = await fetch(`/host/api/games/${this.rec.id}`, { headers: { Authorization: `Bearer ${this.rec.token}` } });
      if (!res.ok) return;
      server = await res.json();
    } catch (_) {
      return;
    }
    if (this.syncer !== syncer || syncer.stopped) return; // another record runs now
    const mine = this.rec.commands;
    const theirs = server.commands || [];
    const other = theirs.length > mine.length || theirs.some((c, i) => i < mine.length && mine[i].id !== c.id);
    if (other && !this.moved) {
      this.moved = true;
      this.render();
    }
  }

  /** The server holds other entries than this phone: the game goes on on another phone. */
  diverged() {
    const s = this.syncer;
    return this.moved || (s.status === 'error' && !!s.error && s.error.code === 'diverged');
  }

  /**
   * Replaces this phone's game by the server's (GET /host/api/games/{id}):
   * the entries this phone made that the server does not hold are dropped.
   */
  async replace(server) {
    this.syncer.stop();
    const rec = this.rec;
    rec.settings = server.settings;
    rec.commands = server.commands;
    rec.synced = server.commands.length;
    delete rec.rewrite; // a correction this phone had not sent goes with its entries
    rec.ended = !!server.ended;
    rec.ui = { dealt: rec.ui.dealt || server.commands.length > 0, resume: true };
    this.begin(rec);
    try {
      await storage.save(rec);
    } catch (_) {
      toast(t('assist.storage.failed'), 'error');
    }
    this.render();
  }

  /** Takes back the action an undo preview (E.undoable) names. */
  async undo(pre) {
    if (this.saving) return false;
    const before = this.mark();
    const entry = { id: storage.newID(), seq: this.rec.commands.length, verb: 'undo', undo: pre.undo };
    const r = E.apply(entry);
    if (r.error) {
      this.render();
      toast(r.error.message, 'error');
      return false;
    }
    this.rec.commands.push(entry);
    this.state = r.state;
    resumeUI(this, pre.commands);
    if (!(await this.keep(before))) return false;
    this.syncer.kick();
    this.render();
    toast(t('assist.undo.done'));
    return true;
  }

  /**
   * Applies a co-host's correction of an earlier entry that the engine
   * worked out (E.amend: the whole new list of entries): the game is the
   * engine's game of that list, the screens go where it stands, and the
   * record is saved whole, in one write, with the rewrite to send (from the
   * first entry that changed, if the server holds it) and the corrections
   * it applies (seqs). The sending waits meanwhile, so the server never gets
   * half of it; if the write fails, nothing changed. Resolves to whether it
   * was saved.
   */
  async amend(res, seqs) {
    if (this.saving) return false;
    this.saving = true;
    document.body.dataset.saving = 'true';
    const rec = this.rec;
    const old = { commands: rec.commands, rewrite: rec.rewrite, fixed: rec.fixed, ui: JSON.stringify(rec.ui), ended: rec.ended };
    try {
      await this.syncer.pause();
      const cmds = res.commands.map((c) => (c.id ? c : { ...c, id: storage.newID() }));
      let rw = rec.rewrite ? { ...rec.rewrite, fixes: [...(rec.rewrite.fixes || [])] } : null;
      if (res.from < (rw ? rw.from : rec.synced)) {
        rw = { from: res.from, was: rec.commands[res.from].id, fixes: rw ? rw.fixes : [], dropped: rw ? rw.dropped : 0 };
      }
      if (rw) {
        rw.fixes.push(...seqs);
        rw.dropped = (rw.dropped || 0) + res.dropped.length;
        rec.rewrite = rw;
      }
      rec.fixed = { ...(rec.fixed || {}) };
      seqs.forEach((s) => { rec.fixed[s] = res.from + 1; });
      rec.commands = cmds;
      const r = E.start(rec.settings, cmds);
      this.state = r.state;
      resumeUI(this, null);
      try {
        await storage.save(rec);
      } catch (_) {
        rec.commands = old.commands;
        if (old.rewrite) rec.rewrite = old.rewrite; else delete rec.rewrite;
        rec.fixed = old.fixed;
        rec.ui = JSON.parse(old.ui);
        rec.ended = old.ended;
        this.state = E.start(rec.settings, rec.commands).state;
        toast(t('assist.storage.failed'), 'error');
        return false;
      }
      return true;
    } finally {
      this.saving = false;
      delete document.body.dataset.saving;
      this.syncer.resume();
      this.render();
    }
  }

  /** Where the record stands now, to go back to if a write fails. */
  mark() {
    return { n: this.rec.commands.length, ui: JSON.stringify(this.rec.ui), ended: this.rec.ended };
  }

  /**
   * Saves the record with the entries just made and waits until the
   * phone's storage holds it; no tap acts meanwhile. If it cannot be
   * saved, the entries are taken back (the game is as before the tap) and
   * the page says so. Resolves to whether they were saved.
   */
  async keep(before) {
    this.saving = true;
    document.body.dataset.saving = 'true';
    try {
      await storage.save(this.rec);
      return true;
    } catch (_) {
      this.rec.commands.length = before.n;
      this.rec.ui = JSON.parse(before.ui);
      this.rec.ended = before.ended;
      const r = E.start(this.rec.settings, this.rec.commands);
      this.state = r.state;
      this.render();
      toast(t('assist.storage.failed'), 'error');
      return false;
    } finally {
      this.saving = false;
      delete document.body.dataset.saving;
    }
  }

  /**
   * Wraps a control's action for the step of the game it is drawn for: it
   * runs only while the game still stands at that step and no tap's
   * entries are being saved; otherwise the tap does nothing.
   */
  act(fn) {
    const step = this.state.step;
    return (...args) => {
      if (this.saving || this.state.step !== step) return undefined;
      return fn(...args);
    };
  }

  close() {
    this.syncer.stop();
    if (this.stopFixes) this.stopFixes();
    stopTicking();
    keepAwake(false);
  }

  /** Saves where the screens are (no entry: nothing waits for it). */
  save() {
    storage.save(this.rec).catch(() => toast(t('assist.storage.failed'), 'error'));
  }

  /** A seat as the host reads it: "7 · Nino". */
  who(s) {
    return t('assist.who', { Seat: s, Name: this.rec.settings.names[s - 1] || '' });
  }

  role(s) { return name('role', this.state.roles[s]); }

  /**
   * Enters one tap's commands ({verb, by, target, yes}) one by one, each for
   * the step the game stands at: each goes to the engine here, and a
   * refused one stops the list with the engine's sentence. then(ok), if
   * given, moves the host's screens on (it must not draw). The entries are
   * saved on the phone, and only then shown as done and queued for the
   * server. Resolves to whether every command was taken. A tap while the
   * last one's entries are being saved does nothing.
   */
  async do(cmds, then) {
    if (this.saving) return false;
    const before = this.mark();
    const step = this.state.step;
    const events = [];
    let refused = null;
    let part = 0; // the entries of one tap are taken back together
    for (const c of cmds) {
      const entry = { id: storage.newID(), seq: this.rec.commands.length, verb: c.verb, step };
      if (part) entry.part = part;
      if (c.by) entry.by = c.by;
      if (c.target) entry.target = c.target;
      if (c.yes) entry.yes = true;
      const r = E.apply(entry);
      if (r.error) { refused = r.error; break; }
      this.rec.commands.push(entry);
      part += 1;
      this.state = r.state;
      events.push(...(r.events || []));
    }
    const notes = events.length ? this.after(events) : [];
    if (then) then(!refused);
    if (part > 0 && !(await this.keep(before))) return false;
    if (part > 0) this.syncer.kick();
    this.render();
    notes.forEach((n) => toast(n));
    // A tap for a step that has passed does nothing, and says nothing.
    if (refused && refused.code !== 'stale_step') toast(refused.message, 'error');
    return !refused;
  }

  /** Would the engine take this command? Returns the refusal's sentence or null. */
  refusal(c) {
    const r = E.check({ id: 'check', seq: 0, verb: c.verb, by: c.by || 0, target: c.target || 0, yes: !!c.yes });
    return r.error ? r.error.message : null;
  }

  /**
   * Notes what the host must read aloud from the events of an entry, and
   * returns the short notes to show once the entries are saved.
   */
  after(events) {
    const ui = this.rec.ui;
    const notes = [];
    const lines = [];
    let title = null;
    let kind = '';
    for (const e of events) {
      switch (e.kind) {
        case 'night_ended': {
          title = t('assist.ann.morning');
          kind = 'morning';
          // How many the night took; the player_out events that follow say who.
          const victims = (e.seats || []).length;
          lines.push(victims ? tn('assist.ann.killed', victims, { Count: victims }) : t('assist.ann.nobody_killed'));
          break;
        }
        case 'player_out':
          lines.push(t(`assist.ann.out_${e.cause}`, { Who: this.who(e.target) }));
          if (e.role) lines.push(t('assist.ann.revealed_role', { Role: name('role', e.role) }));
          else if (e.team) lines.push(t('assist.ann.revealed_team', { Team: name('team', e.team) }));
          break;
        case 'vote_closed':
          title = title || t(e.phase === 'revote' ? 'assist.ann.revote_result' : 'assist.ann.vote_result');
          kind = 'vote';
          lines.push(...this.tally(e));
          break;
        case 'tie':
          // a tie again in the repeat vote: "shall all of them leave?" follows, not a revote
          lines.push(t(e.phase === 'revote' ? 'assist.ann.tie_again' : 'assist.ann.tie',
            { Who: e.candidates.map((s) => this.who(s)).join(', ') }));
          break;
        case 'all_vote_began':
          lines.push(t('assist.ann.all_vote'));
          ui.allvote = { marked: [] };
          break;
        case 'all_vote_closed':
          title = t('assist.ann.all_vote_result');
          kind = 'vote';
          lines.push(tn('assist.ann.all_vote_yes', e.seats.length, { Count: e.seats.length }));
          if (!e.yes) lines.push(t('assist.ann.all_stay'));
          else {
            // The candidates who leave together are this entry's player_out events.
            const gone = events.filter((x) => x.kind === 'player_out' && x.cause === 'all').length;
            if (gone) lines.push(tn('assist.ann.all_leave', gone, { Count: gone }));
          }
          break;
        case 'nobody_leaves':
          lines.push(t('assist.ann.nobody_leaves'));
          break;
        case 'speech_skipped':
          lines.push(t('assist.ann.speech_lost', { Who: this.who(e.target) }));
          break;
        case 'fouled':
          notes.push(tn('assist.ann.fouled', e.fouls, { Who: this.who(e.target), Count: e.fouls }));
          break;
        case 'night_began':
          ui.night = { round: e.round, step: 0, answer: null, miss: false };
          break;
        case 'vote_began':
          ui.vote = { key: `${e.phase}:${e.round}:${(e.candidates || []).join(',')}`, idx: 0, marked: [], votes: {} };
          break;
        case 'game_ended':
          this.rec.ended = true;
          title = name('winner', e.winner);
          kind = 'end';
          break;
        default:
      }
    }
    if (lines.length || title) ui.announce = { title: title || t('assist.ann.title'), lines, kind };
    return notes;
  }

  /** The lines of a closed vote: each candidate's votes and voters. */
  tally(e) {
    const counts = {};
    (e.ballot || []).forEach((c, i) => { if (c) (counts[c] = counts[c] || []).push(i + 1); });
    return Object.keys(counts).map(Number).sort((a, b) => this.order(a) - this.order(b)).map((c) =>
      tn('assist.ann.tally', counts[c].length, { Who: this.who(c), Count: counts[c].length, Voters: counts[c].join(', ') }));
  }

  order(c) {
    const i = this.state.candidates.indexOf(c);
    return i < 0 ? 99 : i;
  }

  /** Draws the screen the game is at. */
  render() {
    stopTicking();
    this.onStatus(this);
    const st = this.state;
    const ui = this.rec.ui;
    if (this.error) {
      mount(h('p', { class: 'error' }, this.error.message));
      return;
    }
    if (this.diverged()) { divergedScreen(this); return; }
    if (ui.announce) { this.announcement(); return; }
    if (!ui.dealt && st.phase === 'night' && st.round === 1) { dealScreen(this); return; }
    switch (st.phase) {
      case 'night': nightScreen(this); break;
      case 'last_words': case 'speech': case 'defence': case 'tie_speech': timedScreen(this); break;
      case 'vote': case 'revote': voteScreen(this); break;
      case 'all_vote': allVoteScreen(this); break;
      default: endScreen(this);
    }
  }

  announcement() {
    const a = this.rec.ui.announce;
    mount(
      h('section', { class: `announce ${a.kind}`, dataset: { t: 'announce' } },
        h('h2', {}, a.title),
        a.lines.map((l) => h('p', { class: 'say' }, l))),
      button(t('assist.continue'), this.act(() => { this.rec.ui.announce = null; this.save(); this.render(); }), 'primary', 'continue'),
      h('div', { class: 'toolbar' }, this.undoButton()),
    );
  }

  /** The toolbar under the header: fouls, undo, and the game's menu. */
  toolbar() {
    return h('div', { class: 'toolbar' },
      button(t('assist.fouls.button'), this.act(() => foulsPanel(this)), 'secondary small', 'fouls'),
      this.undoButton(),
      button(t('assist.menu.button'), this.act(() => menuScreen(this)), 'secondary small', 'menu'));
  }

  /** The button that takes back the last entry (after a confirmation). */
  undoButton() {
    return button(`↶ ${t('assist.undo.button')}`, this.act(() => confirmUndo(this)), 'secondary small', 'undo');
  }
}
