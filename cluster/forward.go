package cluster

// This file passes a plain HTTP request for a table (its lobby row, a
// join, a leave, its log) to the node that owns the table, over NATS, and
// its answer back: the owner serves it in its own process, with the
// client's address, as if the client had asked it directly.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"

	"github.com/nats-io/nats.go"
)

// subjectHTTP is prefixed to a node's id: the request that asks that node
// to serve one HTTP request.
const subjectHTTP = "mafia.http."

// HopHeader marks a request a node has passed on to another: the owner
// serves it or refuses it, and never passes it on again (no loops).
const HopHeader = "X-Mafia-Relayed"

// maxForwardBody bounds a forwarded request's body (a join, a leave: a few
// hundred bytes; the server's own limit is smaller).
const maxForwardBody = 64 << 10

// passedBack are the response headers an owner's answer carries back.
var passedBack = []string{"Content-Type", "Set-Cookie", "Retry-After", "Cache-Control", "Content-Language", "Vary"}

// httpRequest is one HTTP request passed to its table's owner.
type httpRequest struct {
	From   string              `json:"from"`
	Method string              `json:"method"`
	Path   string              `json:"path"`
	Query  string              `json:"query,omitempty"`
	Host   string              `json:"host,omitempty"`
	Header map[string][]string `json:"header,omitempty"`
	Body   []byte              `json:"body,omitempty"`
	// Client is the client's address as the relaying node's server
	// decided it (its trusted proxies applied).
	Client string `json:"client,omitempty"`
}

// httpReply is the owner's answer.
type httpReply struct {
	Status int                 `json:"status"`
	Header map[string][]string `json:"header,omitempty"`
	Body   []byte              `json:"body,omitempty"`
}

// Forward passes the HTTP request r to node, which serves it with its own
// local handler (the one given to Handler or Config.Local), and writes its
// answer to w. client is the client's address as this node decided it
// (empty: r's peer). A node that does not answer within OpenWait, or a bus
// that is down, is 503 relay_unavailable.
func (n *Node) Forward(w http.ResponseWriter, r *http.Request, node, client string) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxForwardBody+1))
	if err != nil || len(body) > maxForwardBody {
		n.refuse(w, r)
		return
	}
	if client == "" {
		client, _, _ = net.SplitHostPort(r.RemoteAddr)
	}
	req := httpRequest{From: n.cfg.ID, Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Host: r.Host, Header: map[string][]string{}, Body: body, Client: client}
	for _, h := range append([]string{"Content-Type"}, forwarded...) {
		if v := r.Header.Values(h); len(v) > 0 {
			req.Header[h] = v
		}
	}
	var rep httpReply
	if err := n.ask(r.Context(), subjectHTTP+node, req, &rep); err != nil || rep.Status == 0 {
		n.stats.forwardFailed.Add(1)
		n.refuse(w, r)
		return
	}
	n.stats.forwarded.Add(1)
	for k, v := range rep.Header {
		for _, x := range v {
			w.Header().Add(k, x)
		}
	}
	w.WriteHeader(rep.Status)
	_, _ = w.Write(rep.Body)
}

// answerHTTP serves a request another node passed on, in this process.
func (n *Node) answerHTTP(m *nats.Msg) {
	var req httpRequest
	d, ok := n.unsealRequest(m)
	if !ok || json.Unmarshal(d, &req) != nil || m.Reply == "" || !strings.HasPrefix(req.Path, "/") {
		return
	}
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		data, _ := json.Marshal(n.serveHTTP(req))
		_ = n.respond(m, data)
	}()
}

// serveHTTP runs req through the local handler and records its answer.
func (n *Node) serveHTTP(req httpRequest) httpReply {
	local := n.local()
	if local == nil {
		return httpReply{Status: http.StatusServiceUnavailable}
	}
	target := req.Path
	if req.Query != "" {
		target += "?" + req.Query
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.cfg.OpenWait)
	defer cancel()
	r, err := http.NewRequestWithContext(ctx, req.Method, target, bytes.NewReader(req.Body))
	if err != nil {
		return httpReply{Status: http.StatusBadRequest}
	}
	r.RequestURI = target
	r.Host = req.Host
	for k, v := range req.Header {
		for _, x := range v {
			r.Header.Add(k, x)
		}
	}
	r.Header.Set(HopHeader, req.From)
	r.ContentLength = int64(len(req.Body))
	// The owner sees the client itself, not the relaying node: its limits
	// per address count the client.
	r.RemoteAddr = net.JoinHostPort(req.Client, "0")
	if req.Client == "" {
		r.RemoteAddr = "127.0.0.1:0"
	}
	rec := &recorder{header: http.Header{}}
	local.ServeHTTP(rec, r)
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	rep := httpReply{Status: rec.status, Header: map[string][]string{}, Body: rec.body.Bytes()}
	for _, h := range passedBack {
		if v := rec.header.Values(h); len(v) > 0 {
			rep.Header[h] = v
		}
	}
	return rep
}

// recorder is the ResponseWriter of a request served for another node.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *recorder) Header() http.Header { return w.header }

func (w *recorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *recorder) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if w.body.Len()+len(p) > maxForwardReply {
		return 0, errReplyTooLarge
	}
	return w.body.Write(p)
}

// maxForwardReply bounds an answer passed back (a long game's log is tens
// of KiB; the embedded NATS server's payload limit is larger).
const maxForwardReply = 4 << 20

var errReplyTooLarge = errors.New("cluster: the answer is too large to pass back")

// Relayed reports whether r was passed on by another node (HopHeader), and
// by which.
func Relayed(r *http.Request) (from string, ok bool) {
	from = r.Header.Get(HopHeader)
	return from, from != ""
}
