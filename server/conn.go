package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"mafia/engine"
	"mafia/room"
	"mafia/wire"
)

// Protocol error codes of a connection (catalog id "error.<code>").
const (
	CodeMalformed   engine.Code = "malformed"
	CodeTooLarge    engine.Code = "too_large"
	CodeRateLimited engine.Code = "rate_limited"
)

// hardFrameLimit is where a connection is closed rather than answered:
// frames above MaxFrame and below this get a coded error.
const hardFrameLimit = 64 << 10

const writeTimeout = 10 * time.Second

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	rm, err := s.room(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	since, _ := strconv.Atoi(r.URL.Query().Get("since"))
	lang := langOf(r)
	token := tokenOf(r, id)
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.cfg.Origins})
	if err != nil {
		return // Accept has answered (e.g. 403 for a foreign Origin)
	}
	c.SetReadLimit(hardFrameLimit)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sub, err := rm.Attach(ctx, token, since)
	if err != nil {
		s.writeError(ctx, c, lang, 0, err)
		c.Close(websocket.StatusPolicyViolation, "refused")
		return
	}
	s.metrics.conns.Inc()
	defer s.metrics.conns.Dec()
	done := make(chan struct{})
	local := make(chan *room.Reply, 8)
	go func() {
		defer close(done)
		s.writePump(ctx, c, sub, local, lang)
		cancel()
	}()
	s.readPump(ctx, c, rm, sub, local)
	rm.Detach(sub)
	cancel()
	<-done
	c.CloseNow()
}

// readPump reads the client's frames and hands them to the room; bad ones
// get a coded error and change nothing.
func (s *Server) readPump(ctx context.Context, c *websocket.Conn, rm *room.Room, sub *room.Sub, local chan<- *room.Reply) {
	lim := rate.NewLimiter(rate.Limit(s.cfg.Rate), s.cfg.Burst)
	for {
		typ, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		now := s.cfg.Clock.Now()
		if typ != websocket.MessageText {
			refuse(local, 0, CodeMalformed)
			continue
		}
		if int64(len(data)) > s.cfg.MaxFrame {
			refuse(local, 0, CodeTooLarge)
			continue
		}
		if !lim.Allow() {
			refuse(local, 0, CodeRateLimited)
			continue
		}
		m, err := wire.ParseClientMessage(data)
		if err != nil {
			refuse(local, m.ID, CodeMalformed)
			continue
		}
		if err := rm.Submit(sub, m, now); err != nil {
			refuseErr(local, m.ID, err)
		}
	}
}

// refuse answers a frame the room never saw, through the connection's own
// queue (the room's queue is the room's to close).
func refuse(local chan<- *room.Reply, id int64, code engine.Code) {
	refuseErr(local, id, &engine.Error{Code: code})
}

func refuseErr(local chan<- *room.Reply, id int64, err error) {
	select {
	case local <- &room.Reply{ID: id, Err: err}:
	default: // a flood of bad frames: answering them all is not owed
	}
}

// writePump writes the room's frames and renders replies in the
// connection's language. It returns when the room closes the queue or a
// write fails.
func (s *Server) writePump(ctx context.Context, c *websocket.Conn, sub *room.Sub, local <-chan *room.Reply, lang string) {
	ping := time.NewTicker(30 * time.Second)
	defer ping.Stop()
	for {
		var frame []byte
		select {
		case o, ok := <-sub.Out:
			if !ok {
				c.Close(websocket.StatusPolicyViolation, "dropped")
				return
			}
			frame = o.Frame
			if o.Reply != nil {
				frame = s.replyFrame(lang, o.Reply)
			}
		case rep := <-local:
			frame = s.replyFrame(lang, rep)
		case <-ping.C:
			pctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := c.Ping(pctx)
			cancel()
			if err != nil {
				return
			}
			continue
		case <-ctx.Done():
			return
		}
		{
			wctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := c.Write(wctx, websocket.MessageText, frame)
			cancel()
			if err != nil {
				return
			}
			s.metrics.framesOut.Inc()
		}
	}
}

func (s *Server) replyFrame(lang string, rep *room.Reply) []byte {
	if rep.Err == nil {
		return wire.Encode(wire.ServerMessage{Type: "reply", ID: rep.ID})
	}
	var e *engine.Error
	if !errors.As(rep.Err, &e) {
		s.log.Error("internal error in a reply", "err", rep.Err)
		e = &engine.Error{Code: room.CodeInternal}
	}
	s.metrics.errors.WithLabelValues(string(e.Code)).Inc()
	return wire.Encode(wire.ServerMessage{Type: "error", ID: rep.ID, Code: string(e.Code), Message: s.cfg.Render(lang, e)})
}

func (s *Server) writeError(ctx context.Context, c *websocket.Conn, lang string, id int64, err error) {
	wctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	_ = c.Write(wctx, websocket.MessageText, s.replyFrame(lang, &room.Reply{ID: id, Err: err}))
}
