package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/engine"
	"mafia/wire"
)

// stored is a JavaScript expression: the chat lines the page keeps, as
// text (what any later screen of the tab could show).
const stored = `(() => { const k = Object.keys(sessionStorage).find((k) => k.startsWith('mafia.chat.')); return k ? sessionStorage.getItem(k) : ''; })()`

// TestBrowserTheChatSoFarComesToANewTabAndALateSpectator: the server keeps
// the chat (issue 13, item 3; defect 4): a spectator who comes mid-game
// and a second tab of a seated player get the chat so far, each only what
// it may read: the town's to all, the dead's to the dead, the mafia's to
// nobody while the game goes on (a living mafioso's new connection gets
// no more frames than a citizen's), and everything to everyone after the
// end.
func TestBrowserTheChatSoFarComesToANewTabAndALateSpectator(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	ts := startPeopleServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	pt := newPeopleTable(ctx, t, ts, "Chat so far", 11, map[string]string{"round_limit": "1"}, map[string]int64{
		"night": 6_000, "speech": 30_000, "defence": 1_000, "tie_speech": 1_000, "last_words": 1_000, "vote": 3_000})
	mafia := pt.seatsWith(engine.Mafioso, engine.Don)
	citizens := pt.seatsWith(engine.Citizen)
	dead, speaker := citizens[0], citizens[1]
	const secret, deadTalk, townLine = "mafia-secret-line", "dead-talk-line", "town-line-of-the-day"
	posted := map[int]bool{}
	for s := 1; s <= 11; s++ {
		switch {
		case s == speaker:
			pt.play(s, func(v *wire.View) (wire.ClientMessage, bool) {
				if v.Phase == "speech" && v.Speaker == v.Seat && !posted[s] {
					posted[s] = true
					return wire.ClientMessage{Type: "chat", Channel: "town", Text: townLine}, true
				}
				return wire.ClientMessage{}, false // holds the floor
			})
		case s == mafia[0]:
			pt.play(s, func(v *wire.View) (wire.ClientMessage, bool) {
				if v.Phase == "night" && !posted[s] {
					posted[s] = true
					return wire.ClientMessage{Type: "chat", Channel: "mafia", Text: secret}, true
				}
				return with(kills(dead, 1))(v)
			})
		default:
			pt.play(s, with(kills(dead, 1)))
		}
	}
	// The night ends; the dead talk; the speaker speaks (and holds the floor).
	for until := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if v := pt.seats[dead-1].now(); v != nil && !v.Seats[dead-1].Alive && v.Phase != "night" {
			break
		}
		if time.Now().After(until) {
			t.Fatal("the night did not kill seat", dead)
		}
	}
	if _, err := pt.seats[dead-1].c.Send(ctx, wire.ClientMessage{Type: "chat", Channel: "dead", Text: deadTalk}); err != nil {
		t.Fatal(err)
	}
	for until := time.Now().Add(40 * time.Second); !pt.seats[dead-1].heard("town", speaker, townLine); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(until) {
			t.Fatal("the speaker's line did not come")
		}
	}

	// A late spectator: the town's line, nothing else.
	spec := newTab(t, "spectator", 360, 740)
	spec.do(15*time.Second, chromedp.Navigate(ts.URL+"/t/"+pt.table))
	if !spec.eventually(10*time.Second, fmt.Sprintf(`(document.querySelector('#chat-msgs') || {textContent: ''}).textContent.includes(%q)`, townLine)) {
		t.Errorf("a late spectator does not get the town's chat so far: %s", eval[string](spec, stored))
	}
	// A second tab of the dead player: the town's and the dead's.
	again := newTab(t, "dead-again", 360, 740)
	pt.open(again, dead)
	if !again.eventually(10*time.Second, fmt.Sprintf(`(%s).includes(%q) && (%s).includes(%q)`, stored, townLine, stored, deadTalk)) {
		t.Errorf("a new tab of the dead player does not get the town's and the dead's chat so far: %s", eval[string](again, stored))
	}
	for _, tb := range []*tab{spec, again} {
		text := eval[string](tb, stored) + eval[string](tb, `document.body.innerText`)
		if strings.Contains(text, secret) {
			t.Errorf("%s: the mafia's line reached a page during the game", tb.name)
		}
		if tb == spec && strings.Contains(text, deadTalk) {
			t.Errorf("a spectator got the dead's chat")
		}
	}
	// A living mafioso's new connection gets what a citizen's gets after
	// its welcome: the town's line alone.
	chats := func(s int) []string {
		c, err := pt.api.Dial(ctx, pt.table, pt.seats[s-1].token, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
		var got []string
		rctx, rcancel := context.WithTimeout(ctx, 1500*time.Millisecond)
		defer rcancel()
		for {
			m, err := c.Read(rctx)
			if err != nil {
				return got
			}
			if m.Type == "chat" {
				got = append(got, m.Channel+":"+m.Text)
			}
		}
	}
	if m, c := chats(mafia[len(mafia)-1]), chats(citizens[2]); fmt.Sprint(m) != fmt.Sprint(c) || len(c) != 1 {
		t.Errorf("after a welcome a mafioso's connection got %q, a citizen's %q: want the town's line alone, alike", m, c)
	}

	// The end: everything to everyone, the mafia's line too.
	if _, err := pt.seats[speaker-1].c.Send(ctx, wire.ClientMessage{Type: "command", Verb: "pass", Step: pt.seats[speaker-1].now().Step}); err != nil {
		t.Fatal(err)
	}
	pt.play(speaker, passer)
	spec.waitJS(60*time.Second, `!!document.querySelector('#winner')`)
	late := newTab(t, "after-the-end", 360, 740)
	late.do(15*time.Second, chromedp.Navigate(ts.URL+"/t/"+pt.table))
	if !late.eventually(10*time.Second, fmt.Sprintf(`(%s).includes(%q) && (%s).includes(%q)`, stored, secret, stored, deadTalk)) {
		t.Errorf("after the end a spectator does not get every chat: %s", eval[string](late, stored))
	}
}
