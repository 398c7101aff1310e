package wsconn

import (
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"

	"mafia/internal/wsbatch"
)

// Accept answers r, a client's WebSocket handshake, with 101 and takes
// the connection from net/http through w (wsbatch.ResponseWriter.Take:
// its Writer, and its poller's connection where it has one); limit is
// the largest message read (New). No extension is offered (compression
// would squeeze the padding that keeps frames of one length) and no
// subprotocol. A request that is not a handshake is answered with the
// status coder/websocket's Accept gave it (426, 405 or 400, and the
// headers that say what is wanted) and an error.
func Accept(w *wsbatch.ResponseWriter, r *http.Request, limit int64) (*Conn, error) {
	key, status, why := check(w.Header(), r)
	if status != 0 {
		http.Error(w, why, status)
		return nil, errors.New("wsconn: " + why)
	}
	h := w.Header()
	h.Set("Upgrade", "websocket")
	h.Set("Connection", "Upgrade")
	h.Set("Sec-WebSocket-Accept", acceptKey(key))
	w.WriteHeader(http.StatusSwitchingProtocols)
	nc, pre, err := w.Take()
	if err != nil {
		return nil, err
	}
	return New(nc, w.W, limit, pre), nil
}

// Handshake checks r as a WebSocket's handshake, as Accept does, without
// answering it: nil for one Accept takes, else an error that says why,
// with the headers that name what is wanted (Upgrade, Connection,
// Sec-WebSocket-Version) set on h. A caller checks it first, to refuse a
// request that is no handshake with a refusal of its own, before doing
// anything for it.
func Handshake(h http.Header, r *http.Request) error {
	if _, status, why := check(h, r); status != 0 {
		return errors.New("wsconn: " + why)
	}
	return nil
}

// check reads r as a handshake: its key, or the status and why of a
// refusal (headers set on h as the refusal needs them).
func check(h http.Header, r *http.Request) (key string, status int, why string) {
	if !r.ProtoAtLeast(1, 1) {
		return "", http.StatusUpgradeRequired, "a WebSocket's handshake is HTTP/1.1 or later"
	}
	if !hasToken(r.Header, "Connection", "upgrade") || !hasToken(r.Header, "Upgrade", "websocket") {
		h.Set("Connection", "Upgrade")
		h.Set("Upgrade", "websocket")
		return "", http.StatusUpgradeRequired, "not a WebSocket's handshake: Connection: Upgrade and Upgrade: websocket are wanted"
	}
	if r.Method != http.MethodGet {
		return "", http.StatusMethodNotAllowed, "a WebSocket's handshake is a GET"
	}
	if r.Header.Get("Sec-WebSocket-Version") != "13" {
		h.Set("Sec-WebSocket-Version", "13")
		return "", http.StatusBadRequest, "only version 13 of the WebSocket protocol is spoken"
	}
	keys := r.Header.Values("Sec-WebSocket-Key")
	if len(keys) != 1 {
		return "", http.StatusBadRequest, "one Sec-WebSocket-Key is wanted"
	}
	key = strings.TrimSpace(keys[0])
	if v, err := base64.StdEncoding.DecodeString(key); err != nil || len(v) != 16 {
		return "", http.StatusBadRequest, "Sec-WebSocket-Key is not 16 bytes in base64"
	}
	return key, 0, ""
}

// hasToken reports whether a header named name holds token among its
// comma-separated values, in any case.
func hasToken(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for t := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// acceptKey is the Sec-WebSocket-Accept answering key (RFC 6455 section
// 4.2.2).
func acceptKey(key string) string {
	s := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	return base64.StdEncoding.EncodeToString(s[:])
}
