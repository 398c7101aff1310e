package voice

// This file is the STUN and TURN servers a client is told to use, and
// their short-lived credentials: the TURN REST API's, an expiry and a user
// signed with a secret the TURN server shares, never a static password.

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1" //nolint:gosec // the TURN REST API's HMAC is HMAC-SHA1: what every TURN server checks
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"mafia/engine"
	"mafia/wire"
)

// ICEConfig is the STUN and TURN servers handed to every client that joins.
type ICEConfig struct {
	// URLs are the servers, as RTCIceServer.urls spells them
	// ("stun:host:3478", "turn:host:3478?transport=udp"). Empty: none (a
	// client then reaches the unit only directly).
	URLs []string
	// Secret is the TURN server's shared secret: each join gets a username
	// "EXPIRY:USER" and its password, base64(HMAC-SHA1(Secret, username)).
	// Empty: the URLs are handed without credentials (STUN only).
	Secret []byte
	// TTL is how long a credential is good for (default 12 h: a game and
	// its reconnects; an allocation made with it lives on past it only as
	// long as its refreshes, which check it again, allow).
	TTL time.Duration
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// defaultTTL is a credential's life when ICEConfig.TTL is unset.
const defaultTTL = 12 * time.Hour

// Servers is the ICE servers list for one join of seat at table: nil when
// none is configured.
func (c *ICEConfig) Servers(table string, seat engine.Seat) []wire.VoiceICEServer {
	if len(c.URLs) == 0 {
		return nil
	}
	s := wire.VoiceICEServer{URLs: c.URLs}
	if len(c.Secret) > 0 {
		now := time.Now
		if c.Now != nil {
			now = c.Now
		}
		ttl := c.TTL
		if ttl <= 0 {
			ttl = defaultTTL
		}
		s.Username = strconv.FormatInt(now().Add(ttl).Unix(), 10) + ":" + turnUser(table, seat, session())
		s.Credential = turnPassword(c.Secret, s.Username)
	}
	return []wire.VoiceICEServer{s}
}

// turnUser is a credential's user: the table, the seat (0: a connection
// that holds none) and the join's session, so that a TURN server counts
// a seat's allocations.
func turnUser(table string, seat engine.Seat, session string) string {
	return fmt.Sprintf("%s.%d.%s", table, seat, session)
}

// session is a join's random tag.
func session() string {
	var b [6]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail
	return hex.EncodeToString(b[:])
}

// turnPassword is the TURN REST API's password of a username.
func turnPassword(secret []byte, username string) string {
	m := hmac.New(sha1.New, secret)
	m.Write([]byte(username))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// quotaKey is what a TURN server counts allocations by, from a username
// "EXPIRY:TABLE.SEAT.SESSION": the table and seat for a seat (its joins
// again share one quota), the whole user for a connection without a seat;
// ok false for a username that is not one of ours.
func quotaKey(username string) (string, bool) {
	_, user, ok := strings.Cut(username, ":")
	if !ok {
		return "", false
	}
	i := strings.LastIndexByte(user, '.')
	if i < 0 {
		return "", false
	}
	ts := user[:i]
	j := strings.LastIndexByte(ts, '.')
	if j < 0 {
		return "", false
	}
	if ts[j+1:] == "0" {
		return user, true
	}
	return ts, true
}
