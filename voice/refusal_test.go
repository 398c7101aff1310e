package voice_test

import (
	"context"
	"strings"
	"testing"

	"mafia/engine"
	"mafia/locale"
	"mafia/server"
	"mafia/voice"
	"mafia/wire"
)

// TestVoice_SignallingRefused pins who may not join a table's audio, each
// refusal coded and said in the connection's language: a table without
// voice (and a server that carries none), a seat that is not the
// connection's, a microphone from a connection that holds no seat, a
// spectator at a table whose voice is its players', an answer before a
// join.
func TestVoice_SignallingRefused(t *testing.T) {
	r := newRig(t, true)
	off, _, offTokens := r.create(t, 5, "off")
	seats, _, seatTokens := r.create(t, 5, "seats")
	all, _, allTokens := r.create(t, 5, "everyone")
	bare := newRig(t, false)
	bareTable, _, bareTokens := bare.create(t, 5, "everyone")

	cases := []struct {
		name  string
		rig   *rig
		table string
		token string
		m     wire.ClientMessage
		want  engine.Code
	}{
		{"a table without voice", r, off, offTokens[1], wire.ClientMessage{Type: "voice", Action: "join", Mic: true}, server.CodeVoiceOff},
		{"a server without voice", bare, bareTable, bareTokens[1], wire.ClientMessage{Type: "voice", Action: "join"}, server.CodeVoiceOff},
		{"a seat not yours", r, all, allTokens[1], wire.ClientMessage{Type: "voice", Action: "join", Mic: true, Seat: 2}, voice.CodeNotYourSeat},
		{"a spectator's microphone", r, all, "", wire.ClientMessage{Type: "voice", Action: "join", Mic: true}, voice.CodeListenOnly},
		{"a spectator at a players' voice", r, seats, "", wire.ClientMessage{Type: "voice", Action: "join"}, voice.CodeNoSpectators},
		{"an answer before a join", r, seats, seatTokens[2], wire.ClientMessage{Type: "voice", Action: "answer", SDP: "v=0"}, voice.CodeNotJoined},
		{"an unknown action", r, seats, seatTokens[3], wire.ClientMessage{Type: "voice", Action: "shout"}, voice.CodeBadSignal},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, lang := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
				p := c.rig.dialLang(t, c.table, c.token, 0, string(lang))
				var id int64
				if c.m.Action == "shout" { // off the schema on purpose
					id, _ = p.conn.Send(context.Background(), c.m)
				} else {
					id = p.send(c.m)
				}
				got := p.answer(id)
				if code(got) != string(c.want) {
					t.Fatalf("%s: answered %q, want %s", lang, got, c.want)
				}
				pr := locale.New(lang)
				msg := strings.TrimPrefix(got, string(c.want)+": ")
				if msg == pr.Refusal(nil) || !pr.Has("error."+string(c.want)) {
					t.Errorf("%s: %s has no sentence of its own: %q", lang, c.want, msg)
				}
				p.conn.CloseNow()
			}
		})
	}
	// A seat's own join, named or not, is taken.
	p := r.dial(t, all, allTokens[4], 4)
	if a := p.answer(p.joinVoice(true)); a != "" {
		t.Fatalf("seat 4's own join refused: %s", a)
	}
	p.connected()
}
