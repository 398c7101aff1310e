package cohost

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// invite makes a referee's link from the host's game menu and returns it.
func invite(host *hosttest.Host, name string) string {
	host.Tap("menu")
	host.Tap("menu-cohost")
	host.WaitJS(5*time.Second, `!!document.querySelector('[data-t="cohost-make"]')`)
	host.SetValue(`[data-t="cohost-name"]`, name)
	host.Tap("cohost-make")
	host.WaitJS(10*time.Second, `!!document.querySelector('[data-t="cohost-link"]')`)
	link := hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="cohost-link"]').value`)
	host.Tap("back")
	return link
}

// refClock is the referee's clock as its face shows it.
const refClock = `document.querySelector('[data-t="follow-clock"]')`

// TestCohost_TheRefereeSeesTheHostsSpeechClock: the referee's phone shows
// the host's speech clock: who has the floor, the time left and whether
// it runs. The host pauses the first speech at once and invites the
// referee, whose phone shows the same seat and the very time left,
// paused; the host resumes and the referee's clock runs within a second
// of the host's; the host pauses and the referee's clock stops where the
// host's did (and stays there over two more reads); with the referee's
// sound on, its phone gives the 10 s and 0 s signals as the host's clock
// passes them; the host's End moves the referee's clock to the next
// speaker; and when the host's phone goes offline the referee's clock
// says it stopped hearing the host, until the host is back.
func TestCohost_TheRefereeSeesTheHostsSpeechClock(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	host := hosttest.OpenHost(t, ts, "host")
	names := []string{"Nino", "Giorgi", "Tamar", "Levan", "Ana", "Dato", "Eka"}
	host.Create(hosttest.GameSpec{Names: names, Deal: record.DealPass, Timings: map[string]int{"speech": 20}})
	d := hosttest.TownDriver()
	d.Stop = func(st record.State) bool { return st.Phase == "speech" && st.Round == 1 }
	host.Play(d)
	host.Tap("pause")
	pausedAt := hosttest.Eval[int](host.Tab, `window.__assistGame.rec.ui.timer.left`)
	speaker := host.State().Speaker
	link := invite(host, "Referee Keti")

	// The referee sees the paused clock: the seat, the very time left.
	ref := hosttest.OpenHost(t, ts, "referee")
	ref.Do(30*time.Second, hosttest.Navigate(link))
	ref.WaitJS(30*time.Second, refClock+` && `+refClock+`.dataset.running === 'false' && `+refClock+`.dataset.seat === '`+strconv.Itoa(speaker)+`' && `+refClock+`.dataset.left === '`+strconv.Itoa(pausedAt)+`'`)
	if floor := hosttest.Eval[string](ref.Tab, `document.querySelector('[data-t="follow-clock-floor"]').textContent.replaceAll('\u00a0', ' ')`); floor != "The floor: "+strconv.Itoa(speaker)+" · "+names[speaker-1]+" · paused" {
		t.Errorf("the referee's clock says %q", floor)
	}
	ref.Tap("follow-sound")
	ref.Shot("cohost-referee-clock-paused")

	// The host resumes: the referee's clock runs, within a second of the host's.
	host.Tap("pause")
	ref.WaitJS(hosttest.SyncWait, refClock+`.dataset.running === 'true'`)
	hostLeft := hosttest.Eval[[]float64](host.Tab, `(() => { const tm = window.__assistGame.rec.ui.timer; return [tm.running ? tm.until - Date.now() : tm.left, Date.now()]; })()`)
	refLeft := hosttest.Eval[[]float64](ref.Tab, `[window.__followClockLeft(), Date.now()]`)
	if want := hostLeft[0] - (refLeft[1] - hostLeft[1]); refLeft[0] < want-1000 || refLeft[0] > want+1000 {
		t.Errorf("the referee's clock shows %.0f ms left where the host's shows %.0f", refLeft[0], want)
	}
	ref.Shot("cohost-referee-clock-running")

	// The host pauses: the referee's clock stops at the host's time.
	host.Tap("pause")
	pausedAt = hosttest.Eval[int](host.Tab, `window.__assistGame.rec.ui.timer.left`)
	ref.WaitJS(hosttest.SyncWait, refClock+`.dataset.running === 'false' && `+refClock+`.dataset.left === '`+strconv.Itoa(pausedAt)+`'`)
	face := hosttest.Eval[string](ref.Tab, refClock+`.textContent`)
	reads := hosttest.Eval[int](ref.Tab, `window.__followReads`)
	ref.WaitJS(hosttest.SyncWait, `window.__followReads >= `+strconv.Itoa(reads+2))
	if after, hostFace := hosttest.Eval[string](ref.Tab, refClock+`.textContent`), hosttest.Eval[string](host.Tab, `document.querySelector('[data-t="clock"]').textContent`); after != face || after != hostFace {
		t.Errorf("the paused clock: the referee's showed %s, then %s; the host's shows %s", face, after, hostFace)
	}

	// The host resumes to the end: the referee's phone signals 10 s and 0.
	host.Tap("pause")
	ref.WaitJS(40*time.Second, `(window.__assistBeeps || []).join() === 'warn,end'`)
	ref.WaitJS(hosttest.SyncWait, refClock+`.textContent === '0:00'`)

	// The host's End: the referee's clock is the next speaker's.
	host.Tap("end")
	next := host.State()
	if next.Phase != "speech" || next.Speaker == speaker {
		t.Fatalf("after End the host is at %s, seat %d", next.Phase, next.Speaker)
	}
	ref.WaitJS(hosttest.SyncWait, refClock+`.dataset.seat === '`+strconv.Itoa(next.Speaker)+`' && `+refClock+`.dataset.running === 'true'`)

	// The host's phone goes offline: the referee's clock says so; back, it runs again.
	host.Offline(true)
	ref.WaitJS(30*time.Second, `!document.querySelector('[data-t="follow-clock-lost"]').hidden && `+refClock+`.dataset.running === 'false'`)
	ref.Shot("cohost-referee-clock-lost")
	if floor := hosttest.Eval[string](ref.Tab, `document.querySelector('[data-t="follow-clock-floor"]').textContent`); strings.Contains(floor, "paused") {
		t.Errorf("the clock not heard says %q: not a pause of the host's", floor)
	}
	if text := ref.Text(); strings.Contains(text, "null") {
		t.Errorf("the referee's redrawn screen shows \"null\": %q", text)
	}
	host.Offline(false)
	ref.WaitJS(30*time.Second, `document.querySelector('[data-t="follow-clock-lost"]').hidden`)
}
