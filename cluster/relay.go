package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"

	"mafia/engine"
	"mafia/internal/httpapi"
)

// forwarded are the request headers a relay passes to the owner's server:
// who the client is (token, cookie), its language, and where it comes from.
var forwarded = []string{"Authorization", "Cookie", "Accept-Language", "Origin", "Sec-Fetch-Site", "User-Agent"}

// openRequest asks the owner to open a session: it dials its own server's
// WebSocket for Path?Query with Header, as the client would have.
type openRequest struct {
	Session string              `json:"session"`
	From    string              `json:"from"`
	Table   string              `json:"table"`
	Path    string              `json:"path"`
	Query   string              `json:"query"`
	Header  map[string][]string `json:"header"`
	// Client is the client's address: the peer of the owner's in-process
	// handshake (dialLocal).
	Client string `json:"client"`
	// Link is the relaying node's link address (link.go), so that the
	// owner sends the session's records there even before it has heard
	// the node's announcement; empty: none.
	Link string `json:"relay_link,omitempty"`
}

// openReply answers an openRequest: OK, or the owner's HTTP answer to the
// handshake (status, content type and body), which the relay gives the
// client instead of an upgrade.
type openReply struct {
	OK          bool   `json:"ok"`
	Status      int    `json:"status,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	Body        []byte `json:"body,omitempty"`
}

// Handler serves a node's public HTTP: a table's WebSocket
// (GET /api/tables/{id}/ws) whose table another live node owns is relayed
// to that node; every other request, and a table this node owns or nobody
// announces, goes to local.
func (n *Node) Handler(local http.Handler) http.Handler {
	n.localH.Store(&local)
	mux := http.NewServeMux()
	mux.Handle("/", local)
	mux.HandleFunc("GET /api/tables/{id}/ws", func(w http.ResponseWriter, r *http.Request) {
		owner := n.Owner(r.PathValue("id"))
		if owner == "" || owner == n.cfg.ID {
			local.ServeHTTP(w, r)
			return
		}
		n.Relay(w, r, owner, r.PathValue("id"))
	})
	return mux
}

// Relay relays the WebSocket handshake r for table to its owner node:
// the owner dials its own server as the client would have; if the server
// refuses the handshake, the client gets the same HTTP answer; if it
// accepts, the client's WebSocket is accepted here and every frame and the
// close pass between the two until either side ends.
func (n *Node) Relay(w http.ResponseWriter, r *http.Request, owner, table string) {
	n.RelayFor(w, r, owner, table, "")
}

// RelayFor is Relay for a client whose address this node's server decided
// (its trusted proxies applied; empty: r's peer): the owner counts that
// address against its limits.
func (n *Node) RelayFor(w http.ResponseWriter, r *http.Request, owner, table, client string) {
	id := sessionID()
	s, err := n.newSession(id, owner, "a")
	if err != nil {
		n.stats.result(sideA, resultUnavailable)
		n.refuse(w, r)
		return
	}
	req := openRequest{Session: id, From: n.cfg.ID, Link: n.linkAddr, Table: table, Path: r.URL.Path, Query: r.URL.RawQuery, Header: map[string][]string{}}
	for _, h := range forwarded {
		if v := r.Header.Values(h); len(v) > 0 {
			req.Header[h] = v
		}
	}
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		req.Client = host
	}
	if client != "" {
		req.Client = client
	}
	var rep openReply
	if err := n.ask(r.Context(), subjectOpen+owner, req, &rep); err != nil {
		n.stats.result(sideA, resultUnavailable)
		s.abort(closeNodeGone, reasonNodeGone, true)
		n.refuse(w, r)
		return
	}
	if !rep.OK {
		n.stats.result(sideA, resultRefused)
		s.abort(closeNodeGone, reasonNodeGone, false)
		if rep.ContentType != "" {
			w.Header().Set("Content-Type", rep.ContentType)
		}
		w.WriteHeader(rep.Status)
		_, _ = w.Write(rep.Body)
		return
	}
	n.stats.result(sideA, resultOK)
	// The owner's server checked the origin (forwarded). The server's own
	// WebSocket, as the owner's players have: no compression, the frames
	// waiting for the client out in one system call (session.pumpIn).
	c := acceptClient(w, r)
	if c == nil {
		s.abort(websocket.StatusNormalClosure, "", true)
		return
	}
	s.run(*c)
}

// ask sends req to subject as a NATS request and decodes the answer into
// rep, waiting at most OpenWait (or until ctx ends).
func (n *Node) ask(ctx context.Context, subject string, req, rep any) error {
	data, err := json.Marshal(req)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, n.cfg.OpenWait)
	defer cancel()
	// An inbox of its own, so that the request is sealed with its reply
	// subject (sealRequest). Its channel holds the one answer: a
	// SubscribeSync's would be NATS's default of 65,536 messages, half a
	// megabyte made and cleared for every relayed seat's handshake and
	// every forwarded request.
	inbox := n.nc.NewInbox()
	answers := make(chan *nats.Msg, 1)
	sub, err := n.nc.ChanSubscribe(inbox, answers)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	if err := n.nc.PublishRequest(subject, inbox, n.sealRequest(subject, inbox, data)); err != nil {
		return err
	}
	var resp *nats.Msg
	select {
	case resp = <-answers:
	case <-ctx.Done():
		return ctx.Err()
	}
	d, ok := n.unseal(resp)
	if !ok {
		return errUnsealed
	}
	return json.Unmarshal(d, rep)
}

// errUnsealed is an answer not sealed with the cluster's secret.
var errUnsealed = errors.New("cluster: an answer not sealed with the cluster's secret")

// clientReadLimit bounds a client's frame on the relaying node; the owner's
// server enforces its own, smaller limit (and closes 1009 past it).
const clientReadLimit = 64 << 10

// clientWriteTimeout bounds each write to a client's WebSocket on the
// relaying node.
const clientWriteTimeout = 10 * time.Second

// refuse answers a handshake the relay could not pass on: 503
// relay_unavailable, in the request's language, through the program's one
// writer of refusals (internal/httpapi).
func (n *Node) refuse(w http.ResponseWriter, r *http.Request) {
	n.refusals().Fail(w, r, &engine.Error{Code: CodeRelayUnavailable})
}

// refusals is the node's writer of refusals: its own code's sentence from
// Config.Say, and a second's wait (Retry-After).
func (n *Node) refusals() *httpapi.Responder {
	n.respOnce.Do(func() {
		v := n.cfg.Vocabulary
		if v == nil {
			v = httpapi.NewVocabulary(Kinds, httpapi.Kinds)
		}
		n.resp = &httpapi.Responder{Vocabulary: v, Log: n.cfg.Log,
			Render: func(lang string, err error) string {
				var e *engine.Error
				if errors.As(err, &e) {
					return n.cfg.Say(lang, string(e.Code))
				}
				return err.Error()
			},
			RetryAfter: func(*engine.Error) int { return 1 }}
	})
	return n.resp
}

// CodeRelayUnavailable is the error of a handshake the relaying node could
// not pass to the table's owner (it did not answer, or the bus is down).
const CodeRelayUnavailable engine.Code = "relay_unavailable"

// Kinds gives the package's codes their kinds (503 for busy).
var Kinds = map[engine.Code]engine.Kind{CodeRelayUnavailable: engine.KindBusy}

// answerOpen opens the owner's side of a session: it dials this node's own
// server and answers with OK or the server's refusal.
func (n *Node) answerOpen(m *nats.Msg) {
	var req openRequest
	d, ok := n.unsealRequest(m)
	if !ok || json.Unmarshal(d, &req) != nil || req.Session == "" || !validToken(req.Session) || m.Reply == "" {
		return
	}
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		n.open(m, req)
	}()
}

// open opens the owner's side of req with the local server (in process
// through Config.Accept, else by dialling it) and runs it.
func (n *Node) open(m *nats.Msg, req openRequest) {
	n.learnLink(req.From, req.Link)
	s, err := n.newSession(req.Session, req.From, "b")
	if err != nil {
		n.stats.result(sideB, resultUnavailable)
		return // the relaying node times out and refuses
	}
	var c Conn
	var rep openReply
	if n.cfg.Accept != nil {
		c, rep = n.accept(req)
	} else {
		c, rep = n.dial(req)
	}
	if c == nil {
		data, _ := json.Marshal(rep)
		n.stats.result(sideB, resultRefused) // before the answer: the relaying node's client may read it at once
		_ = n.respond(m, data)
		s.abort(websocket.StatusNormalClosure, "", false)
		return
	}
	data, _ := json.Marshal(openReply{OK: true})
	if err := n.respond(m, data); err != nil {
		n.stats.result(sideB, resultUnavailable)
		c.CloseNow()
		s.abort(closeNodeGone, reasonNodeGone, true)
		return
	}
	n.stats.result(sideB, resultOK)
	s.run(c)
}

// accept opens the owner's side of req in process (Config.Accept): the
// server's own entry for a relayed session, with no WebSocket between
// them. nil and the server's answer when it refuses the handshake.
func (n *Node) accept(req openRequest) (Conn, openReply) {
	target := req.Path
	if req.Query != "" {
		target += "?" + req.Query
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.cfg.OpenWait)
	defer cancel()
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, openReply{Status: http.StatusBadRequest}
	}
	r.RequestURI = target
	if u, err := url.Parse(n.cfg.LocalURL); err == nil {
		r.Host = u.Host
	}
	for k, v := range req.Header {
		for _, x := range v {
			r.Header.Add(k, x)
		}
	}
	r.Header.Set(HopHeader, req.From)
	// The owner sees the client itself: its limits per address count it.
	r.RemoteAddr = net.JoinHostPort(req.Client, "0")
	if net.ParseIP(req.Client) == nil {
		r.RemoteAddr = "127.0.0.1:0"
	}
	rec := &recorder{header: http.Header{}}
	c := n.cfg.Accept(rec, r, req.Table)
	if c != nil {
		return c, openReply{OK: true}
	}
	if rec.status == 0 {
		rec.status = http.StatusBadGateway
	}
	return nil, openReply{Status: rec.status, ContentType: rec.header.Get("Content-Type"), Body: rec.body.Bytes()}
}

// dial opens the owner's side of req by dialling its own server's
// WebSocket (dialLocal), for a node given no Accept.
func (n *Node) dial(req openRequest) (Conn, openReply) {
	h := http.Header{}
	for k, v := range req.Header {
		for _, x := range v {
			h.Add(k, x)
		}
	}
	h.Set(HopHeader, req.From)
	u := strings.Replace(n.cfg.LocalURL, "http", "ws", 1) + req.Path
	if req.Query != "" {
		u += "?" + req.Query
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.cfg.OpenWait)
	c, resp, err := n.dialLocal(ctx, u, h, req.Client)
	cancel()
	if err != nil {
		rep := openReply{Status: http.StatusBadGateway}
		if resp != nil {
			rep.Status = resp.StatusCode
			rep.ContentType = resp.Header.Get("Content-Type")
			if resp.Body != nil {
				rep.Body, _ = io.ReadAll(resp.Body)
			}
		}
		return nil, rep
	}
	c.SetReadLimit(1 << 20) // a long game's welcome is tens of KiB
	return c, openReply{OK: true}
}
