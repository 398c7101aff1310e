package cluster

// This file is the cluster's secret: every node of a cluster shares it, and
// from it each node derives the password its NATS routes present and the
// key that seals every message it puts on the bus (AES-256-GCM, the
// subject as associated data). A stranger who reaches a node's ports is
// refused as a route; one who reaches the bus another way (a shared
// external NATS server, a sniffed route password) reads only ciphertext,
// and what it publishes, or replays onto another subject, is dropped.

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// MinSecretLen is the shortest secret a node accepts, in bytes (e.g. the
// 64 hex digits of `openssl rand -hex 32`).
const MinSecretLen = 32

// ErrNoSecret is NewNode's refusal of a Config with neither Secrets nor
// Insecure.
var ErrNoSecret = errors.New("cluster: no cluster secret: every node of a cluster needs the same --cluster-secret FILE (or, for a bus anyone who reaches it may read and write, --cluster-insecure)")

// ReadSecrets reads a secret file: one secret a line (blank lines and lines
// starting with # are skipped), each at least MinSecretLen bytes. The
// first is the current one, which the node uses; the others are accepted
// too, so that a rolling restart can rotate the secret (docs/cluster.md).
func ReadSecrets(path string) ([][]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if len(line) < MinSecretLen {
			return nil, fmt.Errorf("%s:%d: a secret is at least %d characters (openssl rand -hex 32)", path, i+1, MinSecretLen)
		}
		out = append(out, []byte(line))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no secret in the file", path)
	}
	return out, nil
}

// routeUser is the user name of every route's CONNECT; the password is
// derived from the secret.
const routeUser = "mafia"

// busKeys are what a node derives from its secrets: the first is the
// current one.
type busKeys struct {
	routePass []string      // the routes' passwords, one a secret
	aeads     []cipher.AEAD // the sealing keys, one a secret
}

// derive is HMAC-SHA256(secret, label): a key of its own for each use, so
// that a route password seen on the wire opens no message.
func derive(secret []byte, label string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(label))
	return m.Sum(nil)
}

func newBusKeys(secrets [][]byte) (*busKeys, error) {
	if len(secrets) == 0 {
		return nil, nil
	}
	k := &busKeys{}
	for _, s := range secrets {
		if len(s) < MinSecretLen {
			return nil, fmt.Errorf("cluster: a secret is at least %d bytes", MinSecretLen)
		}
		k.routePass = append(k.routePass, hex.EncodeToString(derive(s, "mafia route password v1")))
		block, err := aes.NewCipher(derive(s, "mafia bus seal v1"))
		if err != nil {
			return nil, err
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, err
		}
		k.aeads = append(k.aeads, aead)
	}
	return k, nil
}

// sealOverhead is what sealing adds to a message: the nonce and the tag.
const sealOverhead = 12 + 16

// seal is data sealed for subject with the current key (data itself with
// no keys: an insecure bus).
func (k *busKeys) seal(subject string, data []byte) []byte {
	if k == nil {
		return data
	}
	a := k.aeads[0]
	out := make([]byte, a.NonceSize(), a.NonceSize()+len(data)+a.Overhead())
	if _, err := rand.Read(out); err != nil {
		panic(err) // crypto/rand does not fail (Go 1.24+)
	}
	return a.Seal(out, out, data, []byte(subject))
}

// prefix is the room sealIn takes before a message (its nonce); suffix
// the room it takes after it (its tag).
func (k *busKeys) prefix() int {
	if k == nil {
		return 0
	}
	return k.aeads[0].NonceSize()
}

func (k *busKeys) suffix() int {
	if k == nil {
		return 0
	}
	return k.aeads[0].Overhead()
}

// sealIn is seal in place for the subject whose bytes are subject: buf
// is prefix() bytes of room and the message, with suffix() bytes of
// capacity beyond it; no copy is made, nothing is allocated.
func (k *busKeys) sealIn(subject []byte, buf []byte) []byte {
	if k == nil {
		return buf
	}
	a := k.aeads[0]
	ns := a.NonceSize()
	if _, err := rand.Read(buf[:ns]); err != nil {
		panic(err) // crypto/rand does not fail (Go 1.24+)
	}
	return a.Seal(buf[:ns], buf[:ns], buf[ns:], subject)
}

// open is a message sealed for subject, opened with any of the keys; ok is
// false for anything else (a stranger's message, one sealed for another
// subject, a tampered one). The last key tried opens data in place (a
// failed open clears what it wrote), so that the usual single key costs
// no copy: data is the caller's to give up.
func (k *busKeys) open(subject string, data []byte) (_ []byte, ok bool) {
	return k.openFor([]byte(subject), data)
}

// openFor is open with the subject's bytes (made once by a link's reader).
func (k *busKeys) openFor(ad []byte, data []byte) (_ []byte, ok bool) {
	if k == nil {
		return data, true
	}
	for i, a := range k.aeads {
		ns := a.NonceSize()
		if len(data) < ns+a.Overhead() {
			return nil, false
		}
		var dst []byte
		if i == len(k.aeads)-1 {
			dst = data[ns:ns]
		}
		if p, err := a.Open(dst, data[:ns], data[ns:], ad); err == nil {
			return p, true
		}
	}
	return nil, false
}

// routeAuth is the embedded server's check of a route that connects to it:
// its password must be one of the secrets' (the current or another listed
// one); every refusal is counted.
type routeAuth struct {
	pass    []string
	refused *atomic.Int64
}

// Check implements natsserver.Authentication.
func (a routeAuth) Check(c natsserver.ClientAuthentication) bool {
	o := c.GetOpts()
	if o != nil && o.Username == routeUser {
		for _, p := range a.pass {
			if subtle.ConstantTimeCompare([]byte(p), []byte(o.Password)) == 1 {
				return true
			}
		}
	}
	a.refused.Add(1)
	return false
}

// clientToken is a fresh random token that the embedded server's client
// listener requires: only the node's own in-process connection knows it.
func clientToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// publish puts data on the bus for subject, sealed.
func (n *Node) publish(subject string, data []byte) error {
	return n.nc.Publish(subject, n.keys.seal(subject, data))
}

// respond answers the request m with data, sealed for its reply subject.
func (n *Node) respond(m *nats.Msg, data []byte) error {
	return m.Respond(n.keys.seal(m.Reply, data))
}

// unseal is m's data if it was sealed for m's own subject with one of the
// cluster's secrets; anything else is dropped and counted.
func (n *Node) unseal(m *nats.Msg) ([]byte, bool) {
	d, ok := n.keys.open(m.Subject, m.Data)
	if !ok {
		n.dropped.Add(1)
	}
	return d, ok
}

// sessionID is a new relayed session's id: 128 random bits, so that its
// subjects cannot be guessed either.
func sessionID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// requestWindow is how far a request's time may be from the owner's
// clock: a sealed request older than this, or already answered, is a
// replay (the nodes' clocks must agree within it).
const requestWindow = time.Minute

// sealRequest seals a request for subject whose answer goes to reply: its
// time is sealed with it, and the reply subject is bound to it, so that the
// same sealed request sent again, or with another reply subject, is
// refused.
func (n *Node) sealRequest(subject, reply string, data []byte) []byte {
	if n.keys == nil {
		return data
	}
	b := make([]byte, 8+len(data))
	binary.BigEndian.PutUint64(b, uint64(time.Now().UnixNano()))
	copy(b[8:], data)
	return n.keys.seal(subject+"\n"+reply, b)
}

// unsealRequest is the request m, if it was sealed for its subject and
// reply subject within requestWindow and not seen before; anything else is
// dropped and counted.
func (n *Node) unsealRequest(m *nats.Msg) ([]byte, bool) {
	if n.keys == nil {
		return m.Data, true
	}
	d, ok := n.keys.open(m.Subject+"\n"+m.Reply, m.Data)
	if !ok || len(d) < 8 || !n.fresh(m.Reply, time.Unix(0, int64(binary.BigEndian.Uint64(d)))) {
		n.dropped.Add(1)
		return nil, false
	}
	return d[8:], true
}

// fresh reports whether a request answered to reply and sealed at at is
// new: within requestWindow of now and its reply subject not seen yet.
func (n *Node) fresh(reply string, at time.Time) bool {
	now := time.Now()
	if at.Before(now.Add(-requestWindow)) || at.After(now.Add(requestWindow)) {
		return false
	}
	n.seenMu.Lock()
	defer n.seenMu.Unlock()
	if n.seen == nil {
		n.seen = map[string]time.Time{}
	}
	if _, dup := n.seen[reply]; dup {
		return false
	}
	if len(n.seen) >= 1024 && now.Sub(n.pruned) > time.Second {
		for r, t := range n.seen {
			if t.Before(now.Add(-requestWindow)) {
				delete(n.seen, r)
			}
		}
		n.pruned = now
	}
	n.seen[reply] = at
	return true
}
