package wire

import (
	"slices"
	"strconv"
	"unicode/utf8"
)

// The server sends about ten frames for every command, each carrying a
// view, so a frame is encoded here field by field rather than by reflection.
// The bytes are exactly encoding/json's for the same value, encoded with
// SetEscapeHTML(false) (its field order, omitempty, sorted map keys and
// string escaping, but <, > and & as themselves: clients show text as text,
// and escaping them would make a name of them six times as long):
// TestAppend_IsEncodingJSON compares the two over whole games and random
// values.

// AppendJSON appends the message's JSON encoding to b.
func (m *ServerMessage) AppendJSON(b []byte) []byte {
	b = appendEnvelope(b, m.V, m.Type, m.ID)
	b = appendIntField(b, `,"seat":`, m.Seat)
	if m.Host {
		b = append(b, `,"host":true`...)
	}
	b = appendIntField(b, `,"seq":`, m.Seq)
	if len(m.Events) > 0 {
		b = append(b, `,"events":[`...)
		for i := range m.Events {
			if i > 0 {
				b = append(b, ',')
			}
			b = m.Events[i].AppendJSON(b)
		}
		b = append(b, ']')
	}
	if m.View != nil {
		b = append(b, `,"view":`...)
		b = m.View.AppendJSON(b)
	}
	if m.Lobby != nil {
		b = append(b, `,"lobby":`...)
		b = m.Lobby.AppendJSON(b)
	}
	if m.Deadline != 0 {
		b = append(b, `,"deadline":`...)
		b = strconv.AppendInt(b, m.Deadline, 10)
	}
	if m.Paused {
		b = append(b, `,"paused":true`...)
	}
	if m.Now != 0 {
		b = append(b, `,"now":`...)
		b = strconv.AppendInt(b, m.Now, 10)
	}
	b = appendStringField(b, `,"code":`, m.Code)
	b = appendStringField(b, `,"message":`, m.Message)
	b = appendStringField(b, `,"channel":`, m.Channel)
	b = appendIntField(b, `,"from":`, m.From)
	b = appendStringField(b, `,"name":`, m.Name)
	b = appendStringField(b, `,"text":`, m.Text)
	if m.Bot != nil {
		b = append(b, `,"bot":`...)
		b = m.Bot.AppendJSON(b)
	}
	b = appendIntField(b, `,"before":`, m.Before)
	if len(m.Lines) > 0 {
		b = append(b, `,"lines":[`...)
		for i := range m.Lines {
			if i > 0 {
				b = append(b, ',')
			}
			b = m.Lines[i].AppendJSON(b)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// AppendJSON appends the line's JSON encoding to b.
func (l *ChatLine) AppendJSON(b []byte) []byte {
	b = append(b, `{"channel":`...)
	b = appendString(b, l.Channel)
	b = append(b, `,"from":`...)
	b = strconv.AppendInt(b, int64(l.From), 10)
	b = append(b, `,"name":`...)
	b = appendString(b, l.Name)
	b = append(b, `,"text":`...)
	b = appendString(b, l.Text)
	b = append(b, `,"now":`...)
	b = strconv.AppendInt(b, l.Now, 10)
	b = append(b, `,"round":`...)
	b = strconv.AppendInt(b, int64(l.Round), 10)
	b = append(b, `,"phase":`...)
	b = appendString(b, l.Phase)
	if l.Bot != nil {
		b = append(b, `,"bot":`...)
		b = l.Bot.AppendJSON(b)
	}
	return append(b, '}')
}

// AppendJSON appends the bot line's JSON encoding to b.
func (l *BotLine) AppendJSON(b []byte) []byte {
	b = append(b, `{"kind":`...)
	b = appendString(b, l.Kind)
	b = appendIntField(b, `,"seat":`, l.Seat)
	b = appendStringField(b, `,"role":`, l.Role)
	b = appendStringField(b, `,"result":`, l.Result)
	b = appendIntField(b, `,"count":`, l.Count)
	b = appendIntField(b, `,"pick":`, l.Pick)
	b = appendIntsField(b, `,"more":`, l.More)
	if l.Voice {
		b = append(b, `,"voice":true`...)
	}
	return append(b, '}')
}

// appendEnvelope opens a message of either direction: its version, type
// and id (omitted when 0).
func appendEnvelope(b []byte, v int, typ string, id int64) []byte {
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(v), 10)
	b = append(b, `,"type":`...)
	b = appendString(b, typ)
	if id != 0 {
		b = append(b, `,"id":`...)
		b = strconv.AppendInt(b, id, 10)
	}
	return b
}

// AppendJSON appends the view's JSON encoding to b.
func (v *View) AppendJSON(b []byte) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(v.Seat), 10)
	b = append(b, `,"players":`...)
	b = strconv.AppendInt(b, int64(v.Players), 10)
	b = append(b, `,"phase":`...)
	b = appendString(b, v.Phase)
	b = append(b, `,"round":`...)
	b = strconv.AppendInt(b, int64(v.Round), 10)
	b = append(b, `,"step":`...)
	b = strconv.AppendInt(b, int64(v.Step), 10)
	b = appendIntField(b, `,"speaker":`, v.Speaker)
	b = appendStringField(b, `,"winner":`, v.Winner)
	b = appendStringField(b, `,"role":`, v.Role)
	b = append(b, `,"candidates":`...)
	b = appendInts(b, v.Candidates)
	if v.Nominated {
		b = append(b, `,"nominated":true`...)
	}
	if len(v.Talk) > 0 {
		b = append(b, `,"talk":[`...)
		for i := range v.Talk {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.Talk[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	b = append(b, `,"victims":`...)
	b = appendInts(b, v.Victims)
	b = append(b, `,"seats":`...)
	if v.Seats == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range v.Seats {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.Seats[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	if v.Night != nil {
		b = append(b, `,"night":`...)
		b = v.Night.appendJSON(b)
	}
	if v.Voted {
		b = append(b, `,"voted":true`...)
	}
	b = appendIntField(b, `,"my_vote":`, v.MyVote)
	if v.MyYes {
		b = append(b, `,"my_yes":true`...)
	}
	b = append(b, `,"legal":`...)
	b = v.Legal.appendJSON(b)
	b = append(b, `,"rules":`...)
	if v.Rules.raw == nil {
		b = append(b, "{}"...)
	} else {
		b = append(b, v.Rules.raw...)
	}
	return append(b, '}')
}

func (s *Seat) appendJSON(b []byte) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(s.Seat), 10)
	b = append(b, `,"alive":`...)
	b = strconv.AppendBool(b, s.Alive)
	b = append(b, `,"fouls":`...)
	b = strconv.AppendInt(b, int64(s.Fouls), 10)
	if s.LostSpeech {
		b = append(b, `,"lost_speech":true`...)
	}
	b = appendStringField(b, `,"role":`, s.Role)
	b = appendStringField(b, `,"team":`, s.Team)
	b = appendStringField(b, `,"check":`, s.Check)
	b = appendIntField(b, `,"choice":`, s.Choice)
	b = appendIntField(b, `,"vote":`, s.Vote)
	return append(b, '}')
}

func (d *TalkDay) appendJSON(b []byte) []byte {
	b = append(b, `{"round":`...)
	b = strconv.AppendInt(b, int64(d.Round), 10)
	b = append(b, `,"statements":`...)
	if d.Statements == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range d.Statements {
			if i > 0 {
				b = append(b, ',')
			}
			b = d.Statements[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func (s *Statement) appendJSON(b []byte) []byte {
	b = append(b, `{"by":`...)
	b = strconv.AppendInt(b, int64(s.By), 10)
	b = append(b, `,"phase":`...)
	b = appendString(b, s.Phase)
	b = append(b, `,"verb":`...)
	b = appendString(b, s.Verb)
	b = appendIntField(b, `,"target":`, s.Target)
	b = appendStringField(b, `,"role":`, s.Role)
	b = appendStringField(b, `,"result":`, s.Result)
	b = appendIntsField(b, `,"guess":`, s.Guess)
	return append(b, '}')
}

func (n *Night) appendJSON(b []byte) []byte {
	b = append(b, '{')
	start := len(b)
	b = appendIntField(b, `,"kill":`, n.Kill)
	b = appendIntField(b, `,"check":`, n.Check)
	b = appendIntField(b, `,"shot":`, n.Shot)
	b = appendIntField(b, `,"heal":`, n.Heal)
	if n.Skip {
		b = append(b, `,"skip":true`...)
	}
	if n.Shots != nil {
		b = append(b, `,"shots_left":`...)
		b = strconv.AppendInt(b, int64(*n.Shots), 10)
	}
	if len(n.Healed) > 0 {
		b = append(b, `,"healed":`...)
		b = appendInts(b, n.Healed)
	}
	b = appendIntField(b, `,"heal_banned":`, n.Banned)
	return closeObject(b, start)
}

func (l *Legal) appendJSON(b []byte) []byte {
	b = append(b, '{')
	start := len(b)
	b = appendIntsField(b, `,"kill":`, l.Kill)
	b = appendIntsField(b, `,"check":`, l.Check)
	b = appendIntsField(b, `,"shoot":`, l.Shoot)
	b = appendIntsField(b, `,"heal":`, l.Heal)
	b = appendIntsField(b, `,"nominate":`, l.Nominate)
	b = appendIntsField(b, `,"vote":`, l.Vote)
	if l.Skip {
		b = append(b, `,"skip":true`...)
	}
	if l.AllVote {
		b = append(b, `,"all_vote":true`...)
	}
	if l.Pass {
		b = append(b, `,"pass":true`...)
	}
	if l.Claim {
		b = append(b, `,"claim":true`...)
	}
	b = appendIntsField(b, `,"report":`, l.Report)
	b = appendIntsField(b, `,"suspect":`, l.Suspect)
	b = appendIntsField(b, `,"vouch":`, l.Vouch)
	b = appendIntsField(b, `,"will_nominate":`, l.WillNominate)
	if l.BestMove {
		b = append(b, `,"best_move":true`...)
	}
	return closeObject(b, start)
}

// AppendJSON appends the event's JSON encoding to b.
func (e *Event) AppendJSON(b []byte) []byte {
	b = append(b, `{"kind":`...)
	b = appendString(b, e.Kind)
	b = append(b, `,"round":`...)
	b = strconv.AppendInt(b, int64(e.Round), 10)
	b = appendStringField(b, `,"phase":`, e.Phase)
	b = appendIntField(b, `,"actor":`, e.Actor)
	b = appendIntField(b, `,"target":`, e.Target)
	b = appendStringField(b, `,"verb":`, e.Verb)
	b = appendStringField(b, `,"result":`, e.Result)
	b = appendStringField(b, `,"cause":`, e.Cause)
	b = appendStringField(b, `,"winner":`, e.Winner)
	b = appendStringField(b, `,"role":`, e.Role)
	b = appendStringField(b, `,"team":`, e.Team)
	if e.Yes != nil {
		b = append(b, `,"yes":`...)
		b = strconv.AppendBool(b, *e.Yes)
	}
	b = appendIntField(b, `,"fouls":`, e.Fouls)
	b = appendIntField(b, `,"players":`, e.Players)
	b = appendIntsField(b, `,"seats":`, e.Seats)
	if len(e.Roles) > 0 {
		b = append(b, `,"roles":`...)
		b = appendStrings(b, e.Roles)
	}
	b = appendIntsField(b, `,"ballot":`, e.Ballot)
	b = appendIntsField(b, `,"candidates":`, e.Candidates)
	b = appendStringField(b, `,"seed":`, e.Seed)
	if len(e.Rules) > 0 {
		b = append(b, `,"rules":`...)
		b = appendStringMap(b, e.Rules)
	}
	return append(b, '}')
}

// AppendJSON appends the lobby's JSON encoding to b.
func (l *Lobby) AppendJSON(b []byte) []byte {
	b = append(b, `{"table":`...)
	b = appendString(b, l.Table)
	b = append(b, `,"name":`...)
	b = appendString(b, l.Name)
	b = append(b, `,"public":`...)
	b = strconv.AppendBool(b, l.Public)
	b = append(b, `,"status":`...)
	b = appendString(b, l.Status)
	b = append(b, `,"players":`...)
	b = strconv.AppendInt(b, int64(l.Players), 10)
	b = append(b, `,"seats":`...)
	if l.Seats == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range l.Seats {
			if i > 0 {
				b = append(b, ',')
			}
			s := &l.Seats[i]
			b = append(b, `{"seat":`...)
			b = strconv.AppendInt(b, int64(s.Seat), 10)
			b = appendStringField(b, `,"name":`, s.Name)
			if s.Bot {
				b = append(b, `,"bot":true`...)
			}
			b = append(b, `,"taken":`...)
			b = strconv.AppendBool(b, s.Taken)
			b = append(b, `,"connected":`...)
			b = strconv.AppendBool(b, s.Connected)
			if s.StandIn {
				b = append(b, `,"stand_in":true`...)
			}
			if s.Account {
				b = append(b, `,"account":true`...)
			}
			if s.BotAccount {
				b = append(b, `,"bot_account":true`...)
			}
			b = appendStringField(b, `,"owner":`, s.Owner)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"rules":`...)
	b = appendStringMap(b, l.Rules)
	b = append(b, `,"timings_ms":`...)
	if l.Timings == nil {
		b = append(b, "null"...)
	} else {
		keys := make([]string, 0, len(l.Timings))
		for k := range l.Timings {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = strconv.AppendInt(b, l.Timings[k], 10)
		}
		b = append(b, '}')
	}
	b = appendStringField(b, `,"rules_code":`, l.RulesCode)
	if l.Paused {
		b = append(b, `,"paused":true`...)
	}
	b = appendStringField(b, `,"pause_reason":`, l.PauseReason)
	if l.Sandbox {
		b = append(b, `,"sandbox":true`...)
	}
	if l.Rated {
		b = append(b, `,"rated":true`...)
	}
	b = appendStringField(b, `,"voice":`, l.Voice)
	b = appendStringField(b, `,"bots":`, l.Bots)
	b = appendStringField(b, `,"pace":`, l.Pace)
	if l.StandInMS != 0 {
		b = append(b, `,"stand_in_ms":`...)
		b = strconv.AppendInt(b, l.StandInMS, 10)
	}
	if l.Owner != nil {
		b = append(b, `,"owner":{"node":`...)
		b = appendString(b, l.Owner.Node)
		b = appendStringField(b, `,"url":`, l.Owner.URL)
		b = append(b, '}')
	}
	return append(b, '}')
}

// closeObject ends an object whose fields were all written with a leading
// comma, from start: the first comma goes.
func closeObject(b []byte, start int) []byte {
	if len(b) > start {
		copy(b[start:], b[start+1:])
		b = b[:len(b)-1]
	}
	return append(b, '}')
}

func appendIntField(b []byte, key string, v int) []byte {
	if v == 0 {
		return b
	}
	b = append(b, key...)
	return strconv.AppendInt(b, int64(v), 10)
}

func appendStringField(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	b = append(b, key...)
	return appendString(b, v)
}

func appendIntsField(b []byte, key string, v []int) []byte {
	if len(v) == 0 {
		return b
	}
	b = append(b, key...)
	return appendInts(b, v)
}

func appendInts(b []byte, v []int) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

func appendStrings(b []byte, v []string) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, x)
	}
	return append(b, ']')
}

func appendStringMap(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = appendString(b, m[k])
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string the way encoding/json does with
// SetEscapeHTML(false): quotes, backslashes and control characters escaped,
// invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped for JavaScript, and
// HTML's <, > and & left as they are.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendJSON appends the client message's JSON encoding to b: what a Go
// client or bot sends, encoded without reflection (the same bytes as
// encoding/json's without HTML escaping).
func (m *ClientMessage) AppendJSON(b []byte) []byte {
	b = appendEnvelope(b, m.V, m.Type, m.ID)
	b = appendStringField(b, `,"verb":`, m.Verb)
	b = appendIntField(b, `,"target":`, m.Target)
	if m.Yes {
		b = append(b, `,"yes":true`...)
	}
	b = appendStringField(b, `,"role":`, m.Role)
	b = appendStringField(b, `,"result":`, m.Result)
	b = appendIntsField(b, `,"guess":`, m.Guess)
	b = appendStringField(b, `,"channel":`, m.Channel)
	b = appendStringField(b, `,"text":`, m.Text)
	b = appendStringField(b, `,"action":`, m.Action)
	b = appendIntField(b, `,"step":`, m.Step)
	b = appendIntField(b, `,"before":`, m.Before)
	if m.Mic {
		b = append(b, `,"mic":true`...)
	}
	b = appendStringField(b, `,"sdp":`, m.SDP)
	if c := m.Candidate; c != nil {
		b = append(b, `,"candidate":{"candidate":`...)
		b = appendString(b, c.Candidate)
		if c.SDPMid != nil {
			b = append(b, `,"sdpMid":`...)
			b = appendString(b, *c.SDPMid)
		}
		if c.SDPMLineIndex != nil {
			b = append(b, `,"sdpMLineIndex":`...)
			b = strconv.AppendUint(b, uint64(*c.SDPMLineIndex), 10)
		}
		if c.UsernameFragment != nil {
			b = append(b, `,"usernameFragment":`...)
			b = appendString(b, *c.UsernameFragment)
		}
		b = append(b, '}')
	}
	b = appendIntField(b, `,"seat":`, m.Seat)
	return append(b, '}')
}
