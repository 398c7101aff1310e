package room

// Idle waits until the room has handled everything queued in its inbox
// before the call (or has stopped): a round trip through the inbox that
// changes nothing. Unlike a request, it is never refused for a full inbox:
// it waits there for room, as a timer's call does. Tests use it to let the
// room catch up before they move a fake clock (FakeClock.SetSettle).
func (r *Room) Idle() {
	ran := make(chan struct{})
	select {
	case r.inbox <- func() { close(ran) }:
	case <-r.done:
		return
	}
	select {
	case <-ran:
	case <-r.done:
	}
}
