package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"mafia/bot"
	"mafia/engine"
	"mafia/locale"
	"mafia/rng"
	"mafia/room"
)

// mafia play: one person against bots (--bots: random, smart or expert) in the terminal. The person
// sees exactly their seat's view: only the events Game.EventFor lets through
// to that seat, narrated by package locale. The table is driven the way
// bot.Table drives it (every seat that may act does, then the step ends),
// except that the person's seat is asked on stdin.
//
// The bots move at once (the server's instant pace, room/pace.go): this
// game has no clock, and stops for the person at every turn of theirs, so
// the person reads the bots' moves at their own speed and nothing runs out
// under them; a person's time taken by each bot would only make the person
// wait for lines they could already read. Human pace is for tables online,
// where a step runs on the clock and people watch the bots move.
//
// A smart bot says its spoken lines (bot.Speaker) as it does at a table
// online: on its own floor, before each of its commands, and once after
// the end; each is shown at once, as the table's chat shows a bot's line,
// in the person's language (room.RenderLine), except a line that only says
// aloud a statement the narration has just shown. A person of the mafia
// also reads the mafia bots' night chat.
//
// Enter ends the person's own speech, defence, tie speech or last words; in
// a vote it abstains, at night it does nothing more, to "shall all of them
// leave?" it answers no. End of input (or quit) leaves the table: the game
// stops there and the command exits 0.

const playUsage = "usage: mafia play [--seat N] [--players P] [--seed S] [--bots LEVEL] [--lang ka|en|ru] [--options k=v,k=v]"

// maxPlaySteps stops a game that would not end (it cannot, by the rules,
// but a bug must not hang a terminal).
const maxPlaySteps = 10000

type playConfig struct {
	seat    int // 0: drawn from the seed
	players int
	seed    uint64
	rules   engine.Ruleset
	bots    bot.Mix
	p       *locale.Printer
}

func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, code := parsePlayFlags(args, stderr)
	if code >= 0 {
		return code
	}
	s, err := newPlaySession(cfg, stdin, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "mafia play:", cfg.p.Refusal(err))
		return 2
	}
	return s.run()
}

// parsePlayFlags reads the flags; code is -1 to go on, else the exit code.
func parsePlayFlags(args []string, stderr io.Writer) (cfg playConfig, code int) {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seat := fs.Int("seat", 0, "your seat, 1 to P (default: drawn from the seed)")
	players := fs.Int("players", engine.PresetMax, "players at the table, 5 to 11 (the rulebook's presets)")
	seed := fs.Uint64("seed", 0, "the game's seed: the same seed deals the same cards and bots (default: from the clock)")
	lang := fs.String("lang", "", "language: ka, en or ru (default: from LC_ALL, LC_MESSAGES, LANG, LANGUAGE)")
	options := fs.String("options", "", "house rules as k=v,k=v (the option names of docs/rules.md)")
	bots := fs.String("bots", "expert", "the bots' level: expert (the default), smart or random (or a level per side: town=smart,mafia=random,maniac=random)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, playUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, 0
		}
		return cfg, 2
	}
	p, ok := localePrinter(*lang)
	cfg.p = p
	if !ok {
		fmt.Fprintln(stderr, "mafia play:", p.T("play.bad_lang", map[string]any{"Value": *lang}))
		fs.Usage()
		return cfg, 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mafia play: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return cfg, 2
	}
	if _, err := engine.Preset(*players); err != nil {
		fmt.Fprintln(stderr, "mafia play:", p.Refusal(err))
		fs.Usage()
		return cfg, 2
	}
	if *seat < 0 || *seat > *players {
		fmt.Fprintln(stderr, "mafia play:", p.T("error.no_such_seat", map[string]any{"Seat": *seat, "N": *players}))
		fs.Usage()
		return cfg, 2
	}
	rules, err := parseOptionList(*options)
	if err != nil {
		fmt.Fprintln(stderr, "mafia play:", p.Refusal(err))
		fs.Usage()
		return cfg, 2
	}
	mix, err := bot.ParseMix(*bots)
	if err != nil {
		fmt.Fprintln(stderr, "mafia play:", p.Refusal(err))
		fs.Usage()
		return cfg, 2
	}
	cfg.seat, cfg.players, cfg.rules, cfg.seed, cfg.bots = *seat, *players, rules, *seed, mix
	if !flagSet(fs, "seed") {
		cfg.seed = uint64(time.Now().UnixNano()) ^ uint64(os.Getpid())<<32
	}
	return cfg, -1
}

func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

// playSession is one game at the terminal.
type playSession struct {
	p      *locale.Printer
	words  wordBook
	g      *engine.Game
	me     engine.Seat
	bots   []bot.Bot // bots[s] plays seat s; bots[me] is nil
	table  bot.Table // shows the bots the events their seats may see
	in     *bufio.Scanner
	replay string // how to play this deal again; shown at the end
	echo   bool   // stdin is no terminal: write what was read after the prompt
	out    io.Writer
	view   engine.View

	slept   uint16 // the last night the "you sleep" line was shown
	watched bool   // the "you are out" line was shown
}

func newPlaySession(cfg playConfig, stdin io.Reader, stdout io.Writer) (*playSession, error) {
	setup, err := engine.Preset(cfg.players)
	if err != nil {
		return nil, err
	}
	me := engine.Seat(cfg.seat)
	if me == 0 {
		src := rng.New(rng.Derive(cfg.seed, 0))
		me = engine.Seat(src.Intn(cfg.players) + 1)
	}
	s := &playSession{
		p: cfg.p, words: newWordBook(cfg.p), g: new(engine.Game), me: me,
		bots: make([]bot.Bot, cfg.players+1), in: bufio.NewScanner(stdin), echo: !isTerminal(stdin), out: stdout,
	}
	s.say(s.p.Setup(setup))
	warnings, _ := setup.Validate()
	for _, w := range warnings {
		s.say(s.p.Refusal(&engine.Error{Code: w}))
	}
	// The seed is the deal: it is shown only when the game is over (or left),
	// so it cannot be used to look at the other cards.
	s.replay = s.p.T("play.seed", map[string]any{"Seed": cfg.seed, "Count": cfg.players, "Seat": int(me)})
	roles := setup.Deal(cfg.seed, make([]engine.Role, setup.Players()))
	for i := 1; i <= cfg.players; i++ {
		if engine.Seat(i) != me {
			// each seat's bot plays at its side's level
			s.bots[i] = cfg.bots.For(roles[i-1]).New(rng.Derive(cfg.seed, uint64(i)))
		}
	}
	evs, err := s.g.Start(cfg.rules, roles, cfg.seed)
	if err != nil {
		return nil, err
	}
	s.table = bot.Table{Game: s.g, Bots: s.bots}
	s.table.Begin(nil)
	s.narrate(evs)
	return s, nil
}

func (s *playSession) say(line string) { fmt.Fprintln(s.out, line) }

// narrate shows the events this seat may see, as this seat sees them.
// Each morning (after the day begins) it adds the summary of the seat's
// view: who is in the game, the seat's card and what it knows.
func (s *playSession) narrate(evs []engine.Event) {
	s.table.Show(evs)
	for _, e := range evs {
		mine, ok := s.g.EventFor(e, s.me)
		if !ok {
			continue
		}
		s.say(s.p.Event(mine, s.me))
		switch {
		case e.Kind == engine.EvDayBegan:
			s.status()
		case e.Kind == engine.EvPlayerOut && e.Target == s.me && !s.g.Ended() && !s.watched:
			s.watched = true
			s.say(s.p.T("play.watch", nil))
		}
	}
}

// status prints the summary of this seat's view.
func (s *playSession) status() {
	for _, line := range s.p.Summary(s.g.ViewFor(s.me)) {
		s.say("  " + line)
	}
}

// turnResult is how the person's turn ended.
type turnResult int

const (
	turnDone     turnResult = iota // the step goes on: the host may end it
	turnAdvanced                   // the person ended the step (their speech)
	turnQuit                       // the person left the table
)

func (s *playSession) run() int {
	g := s.g
	for step := 0; !g.Ended(); step++ {
		if step >= maxPlaySteps {
			s.say(s.p.T("play.too_long", nil))
			return 1
		}
		s.botsAct()
		if g.Ended() {
			break
		}
		switch s.humanTurn() {
		case turnQuit:
			s.say(s.p.T("play.left", nil))
			s.say(s.replay)
			return 0
		case turnAdvanced:
			continue
		}
		if g.Ended() {
			break
		}
		evs, err := g.Handle(engine.Command{Verb: engine.Next})
		if err != nil {
			s.say(s.p.Refusal(err))
			return 1
		}
		s.narrate(evs)
	}
	s.verdict()
	s.farewell()
	s.say(s.replay)
	return 0
}

// botsAct lets every bot that may act in this step do so, as bot.Table
// does: each pending seat in turn, asked again while it still acts (a
// speaker after each statement), and a bot holding a floor with no move (a
// defence, a tie speech, last words) while it makes statements.
func (s *playSession) botsAct() {
	g := s.g
	ask := func(seat engine.Seat, more func() bool) {
		for i := 0; i < engine.StatementsPerFloor+2 && more(); i++ {
			s.speak(seat)
			g.ViewInto(&s.view, seat)
			cmd, ok := s.bots[seat].Act(&s.view)
			if !ok {
				break
			}
			evs, err := g.Handle(cmd)
			if err != nil {
				break
			}
			s.narrate(evs)
		}
	}
	for p := g.Pending().Without(s.me); p != 0; {
		seat := p.First()
		p = p.Without(seat)
		ask(seat, func() bool { return g.Pending().Has(seat) })
		if g.Ended() {
			return
		}
	}
	if sp := g.Speaker(); sp != 0 && sp != s.me && g.Phase() != engine.PhaseSpeech && g.Phase().Timed() {
		step := g.Step()
		ask(sp, func() bool { return g.Step() == step && !g.Ended() })
	}
}

// speak lets the bot of seat seat say its lines now, if it is a Speaker
// and holds the floor (or the game is over), as bot.Table asks: each line
// as the table's chat shows it, in the person's language. A line that only
// says aloud the statement just narrated is not shown again (the narration
// says it). At night a mafioso's lines are the mafia's chat: they are shown
// to a person who is of the mafia, and nobody else is asked.
func (s *playSession) speak(seat engine.Seat) {
	g := s.g
	id := "play.chat.bot_line"
	switch {
	case g.Ended():
	case g.Phase() == engine.PhaseNight:
		g.ViewInto(&s.view, s.me)
		if !s.view.Role.IsMafia() || !s.view.Alive.Has(s.me) {
			return
		}
		id = "play.chat.mafia_line"
	case g.Speaker() != seat || !g.Phase().Timed():
		return
	}
	sp, ok := s.bots[seat].(bot.Speaker)
	if !ok {
		return
	}
	for i := 0; i < bot.MaxLines; i++ {
		g.ViewInto(&s.view, seat)
		l, ok := sp.Speak(&s.view)
		if !ok {
			return
		}
		if l.Voice {
			continue
		}
		s.say(s.p.T(id, map[string]any{"Seat": int(seat), "Text": room.RenderLine(s.p.Lang(), l)}))
	}
}

// farewell asks every bot once after the end, for its last line.
func (s *playSession) farewell() {
	for seat := 1; seat < len(s.bots); seat++ {
		if s.bots[seat] != nil {
			s.speak(engine.Seat(seat))
		}
	}
}

// verdict tells the person how the game ended for them.
func (s *playSession) verdict() {
	v := s.g.ViewFor(s.me)
	switch w := s.g.Winner(); {
	case w == engine.WinnerDraw:
		s.say(s.p.T("play.you_draw", nil))
	case w == engine.WinnerTown && v.Role.Team() == engine.TeamTown,
		w == engine.WinnerMafia && v.Role.Team() == engine.TeamMafia,
		w == engine.WinnerManiac && v.Role.Team() == engine.TeamManiac:
		s.say(s.p.T("play.you_win", nil))
	default:
		s.say(s.p.T("play.you_lose", nil))
	}
}

// readLine reads one line of input; false at the end of input.
func (s *playSession) readLine() (string, bool) {
	fmt.Fprint(s.out, "> ")
	if !s.in.Scan() {
		fmt.Fprintln(s.out)
		return "", false
	}
	if s.echo {
		fmt.Fprintln(s.out, s.in.Text())
	}
	return s.in.Text(), true
}

// isTerminal reports whether r is a terminal, which echoes what is typed.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// seatList writes seats as bare numbers, for prompts.
func seatList(set engine.SeatSet) string {
	parts := make([]string, 0, set.Len())
	for _, s := range set.Seats() {
		parts = append(parts, strconv.Itoa(int(s)))
	}
	return strings.Join(parts, ", ")
}

// turnKind is what the person may do in the current step.
type turnKind int

const (
	turnNone  turnKind = iota
	turnNight          // a night action (kill, check, shoot, heal) or skip
	turnFloor          // their own speech, defence, tie speech or last words
	turnVote           // a vote or revote
	turnAll            // "shall all of them leave?"
)

// nightVerbs are the night actions, in the rulebook's order.
var nightVerbs = []engine.Verb{engine.Kill, engine.Check, engine.Shoot, engine.Heal}

// turnOf reads from the view alone what its seat may do now.
func turnOf(v *engine.View) turnKind {
	switch {
	case v.Phase == engine.PhaseNight:
		for _, verb := range nightVerbs {
			if v.Targets(verb) != 0 {
				return turnNight
			}
		}
	case v.Phase.Timed() && v.Speaker == v.Seat && v.Seat != 0:
		return turnFloor
	case v.Targets(engine.Vote) != 0:
		return turnVote
	case v.Can(engine.AllVote):
		return turnAll
	}
	return turnNone
}

// humanTurn asks the person for their moves in this step, until they have
// nothing left to do, end the step with Enter, or leave.
func (s *playSession) humanTurn() turnResult {
	v := s.g.ViewFor(s.me)
	kind := turnOf(&v)
	if kind == turnNone {
		s.idle(&v)
		return turnDone
	}
	for {
		s.say(s.p.T("play.prompt", map[string]any{"Choices": strings.Join(s.choices(&v, kind), " | ")}))
		line, ok := s.readLine()
		if !ok {
			return turnQuit
		}
		cmd, act := s.command(&v, kind, s.words.parse(line))
		switch act {
		case actAsk:
			continue
		case actEnd:
			return turnDone
		case actQuit:
			return turnQuit
		}
		evs, err := s.g.Handle(cmd)
		if err != nil {
			s.say(s.p.Refusal(err))
			continue
		}
		s.narrate(evs)
		if cmd.Verb == engine.Pass {
			return turnAdvanced
		}
		v = s.g.ViewFor(s.me)
		if kind = turnOf(&v); kind == turnNone || s.g.Ended() {
			return turnDone
		}
	}
}

// idle tells a living person with nothing to do at night that they sleep
// (once a night).
func (s *playSession) idle(v *engine.View) {
	if v.Phase != engine.PhaseNight || !v.Alive.Has(s.me) || s.slept == v.Round {
		return
	}
	s.slept = v.Round
	if v.Role == engine.Maniac && v.Round < 2 && v.Rules.FirstNight == engine.FirstNightFull {
		s.say(s.p.Refusal(&engine.Error{Code: engine.CodeManiacNightOne}))
		return
	}
	s.say(s.p.T("play.sleep", nil))
}

// action is what to do with a line the person typed.
type action int

const (
	actSend action = iota // send the command to the engine
	actAsk                // answered here (help, a hint): ask again
	actEnd                // the person's turn is over without a command (Enter in a vote)
	actQuit               // the person leaves the table
)

// command turns a line into an engine command, or answers it here: help,
// status, hints, Enter, quit.
func (s *playSession) command(v *engine.View, kind turnKind, in input) (engine.Command, action) {
	me := s.me
	switch in.key {
	case keyHelp:
		s.say(s.help())
		return engine.Command{}, actAsk
	case keyStatus:
		s.status()
		return engine.Command{}, actAsk
	case keyQuit:
		return engine.Command{}, actQuit
	case keyEnter:
		switch {
		case kind == turnFloor:
			return engine.Command{Verb: engine.Pass, By: me}, actSend
		case kind == turnNight && v.Can(engine.Skip):
			return engine.Command{Verb: engine.Skip, By: me}, actSend
		}
		return engine.Command{}, actEnd
	case keyUnknown:
		s.say(s.p.T("play.unknown", map[string]any{"Input": in.raw, "Help": s.words.show[keyHelp]}))
		return engine.Command{}, actAsk
	case keyYes, keyNo:
		return engine.Command{Verb: engine.AllVote, By: me, Yes: in.key == keyYes}, actSend
	case keySkip:
		return engine.Command{Verb: engine.Skip, By: me}, actSend
	case keyNumber:
		verb, ok := s.onlyVerb(v)
		if !ok {
			return engine.Command{}, actAsk
		}
		return s.aim(verb, in.seat)
	case keyClaim:
		r, ok := cardOf(s.p, in.rest)
		if !ok {
			s.say(s.p.T("play.need_card", map[string]any{"Word": s.words.show[keyClaim], "Example": s.p.Role(engine.Detective)}))
			return engine.Command{}, actAsk
		}
		return engine.Command{Verb: engine.Claim, By: me, Role: r}, actSend
	case keyReport:
		r, ok := answerOf(s.p, in.rest)
		if !in.hasSeat || !ok {
			s.say(s.p.T("play.need_answer", map[string]any{"Word": s.words.show[keyReport], "Example": s.p.Result(engine.ResultNotMafia)}))
			return engine.Command{}, actAsk
		}
		cmd, act := s.aim(engine.Report, in.seat)
		cmd.Result = r
		return cmd, act
	case keyBestMove:
		return s.bestMove(in)
	}
	if !in.hasSeat {
		s.say(s.p.T("play.need_seat", map[string]any{"Word": s.words.show[in.key]}))
		return engine.Command{}, actAsk
	}
	return s.aim(verbOf[in.key], in.seat)
}

// bestMove reads a best move: the command's word and three seat numbers.
// Three different seats of the table other than one's own are the
// engine's to check (bad_guess, in the person's language).
func (s *playSession) bestMove(in input) (engine.Command, action) {
	seats := seatsOf(in.rest)
	if in.hasSeat {
		seats = append([]int{in.seat}, seats...)
	}
	if len(seats) != engine.GuessSize {
		s.say(s.p.T("play.need_three", map[string]any{"Word": s.words.show[keyBestMove]}))
		return engine.Command{}, actAsk
	}
	var guess engine.SeatSet
	for _, n := range seats {
		if n > engine.MaxSeats {
			s.say(s.p.T("error.no_such_seat", map[string]any{"Seat": n, "N": s.g.Players()}))
			return engine.Command{}, actAsk
		}
		guess = guess.With(engine.Seat(n))
	}
	return engine.Command{Verb: engine.BestMove, By: s.me, Guess: guess}, actSend
}

// aim builds a command on a seat. A number no seat can have is answered
// here with the engine's sentence for a seat off the table.
func (s *playSession) aim(verb engine.Verb, seat int) (engine.Command, action) {
	if seat > engine.MaxSeats {
		s.say(s.p.T("error.no_such_seat", map[string]any{"Seat": seat, "N": s.g.Players()}))
		return engine.Command{}, actAsk
	}
	return engine.Command{Verb: verb, By: s.me, Target: engine.Seat(seat)}, actSend
}

// onlyVerb is the one verb a seat number alone means now; otherwise it
// explains what to type.
func (s *playSession) onlyVerb(v *engine.View) (engine.Verb, bool) {
	var found []engine.Verb
	for _, verb := range append(nightVerbs, engine.Nominate, engine.Vote) {
		if v.Targets(verb) != 0 {
			found = append(found, verb)
		}
	}
	switch len(found) {
	case 1:
		return found[0], true
	case 0:
		s.say(s.p.T("play.unknown", map[string]any{"Input": "N", "Help": s.words.show[keyHelp]}))
	default:
		ex := fmt.Sprintf("%s %d", s.words.show[keyOf[found[0]]], v.Targets(found[0]).First())
		s.say(s.p.T("play.ambiguous", map[string]any{"Example": ex}))
	}
	return engine.VerbNone, false
}

// choices lists what the person may do now, from the view alone.
func (s *playSession) choices(v *engine.View, kind turnKind) []string {
	var out []string
	target := func(verb engine.Verb) {
		if t := v.Targets(verb); t != 0 {
			out = append(out, s.p.T("play.choice_target", map[string]any{"Word": s.words.show[keyOf[verb]], "Seats": seatList(t)}))
		}
	}
	switch kind {
	case turnNight:
		for _, verb := range nightVerbs {
			target(verb)
		}
		if v.Can(engine.Skip) {
			out = append(out, s.words.show[keySkip], s.p.T("play.enter_skip", nil))
		}
	case turnFloor:
		if v.Can(engine.BestMove) {
			out = append(out, s.p.T("play.choice_best_move", map[string]any{"Word": s.words.show[keyBestMove]}))
		}
		if v.Can(engine.Claim) {
			out = append(out, s.p.T("play.choice_say", s.sayWords()))
		}
		switch v.Phase {
		case engine.PhaseSpeech:
			target(engine.Nominate)
			out = append(out, s.p.T("play.enter_speech", nil))
		case engine.PhaseDefence:
			out = append(out, s.p.T("play.enter_defence", nil))
		case engine.PhaseTieSpeech:
			out = append(out, s.p.T("play.enter_tie_speech", nil))
		default:
			out = append(out, s.p.T("play.enter_last_words", nil))
		}
	case turnVote:
		target(engine.Vote)
		out = append(out, s.p.T("play.enter_abstain", nil))
	case turnAll:
		out = append(out, s.p.T("play.choice_yes_no", map[string]any{"Yes": s.words.show[keyYes], "No": s.words.show[keyNo]}),
			s.p.T("play.enter_no", nil))
	}
	return out
}

// sayWords are the words of the statements, for the prompt and the help.
func (s *playSession) sayWords() map[string]any {
	w := s.words.show
	return map[string]any{"Claim": w[keyClaim], "Report": w[keyReport], "Suspect": w[keySuspect], "Vouch": w[keyVouch],
		"Will": w[keyWillNominate]}
}

// help is the list of commands in the person's language.
func (s *playSession) help() string {
	w := s.words.show
	data := s.sayWords()
	for k, v := range map[string]any{
		"Kill": w[keyKill], "Check": w[keyCheck], "Shoot": w[keyShoot], "Heal": w[keyHeal], "Skip": w[keySkip],
		"Nominate": w[keyNominate], "Vote": w[keyVote], "Yes": w[keyYes], "No": w[keyNo],
		"Status": w[keyStatus], "Help": w[keyHelp], "Quit": w[keyQuit], "Best": w[keyBestMove],
	} {
		data[k] = v
	}
	return s.p.T("play.help", data)
}
