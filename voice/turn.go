package voice

// This file is the TURN server a process may run beside its forwarding
// unit (mafia serve --turn-udp), for the players behind a NAT that lets no
// direct path through: it relays only to the unit's own addresses, only
// with a credential the unit handed out (ICEConfig), and only a few
// allocations per seat.

import (
	"errors"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pion/logging"
	"github.com/pion/turn/v5"
)

// TURNConfig is what the built-in TURN server needs.
type TURNConfig struct {
	// UDP is the TURN server's port (clients' requests). Required; the
	// server closes it.
	UDP net.PacketConn
	// RelayIP is the address a relay is announced at (the public one);
	// RelayBind is the local address relays are opened on ("0.0.0.0" if
	// empty). MinPort..MaxPort, if set, is the range relays take their
	// ports from (a firewall's opening); unset: any port.
	RelayIP          net.IP
	RelayBind        string
	MinPort, MaxPort uint16
	// Realm is the TURN realm (default "mafia").
	Realm string
	// Secret is the shared secret credentials are signed with (the same
	// as the unit's ICEConfig.Secret). Required.
	Secret []byte
	// Peers are the only addresses a relay may send to: the forwarding
	// unit's (a TURN server open to any peer would let a client reach
	// anything the server reaches). Required.
	Peers []net.IP
	// PerSeat bounds a seat's allocations at once (default 8: a phone
	// gathers one per network, a few more across an ICE restart); Total
	// the server's (default 2000).
	PerSeat, Total int
	// Now is the clock credentials' expiry is checked by (nil: time.Now).
	Now func() time.Time
}

// TURN is a running TURN server.
type TURN struct {
	srv *turn.Server

	mu     sync.Mutex
	counts map[string]int // allocations by quota key
	total  int
}

// NewTURN starts a TURN server.
func NewTURN(cfg TURNConfig) (*TURN, error) {
	switch {
	case cfg.UDP == nil:
		return nil, errors.New("voice: TURN: no UDP socket")
	case len(cfg.Secret) == 0:
		return nil, errors.New("voice: TURN: no secret")
	case len(cfg.Peers) == 0:
		return nil, errors.New("voice: TURN: no peer address to relay to")
	case cfg.RelayIP == nil:
		return nil, errors.New("voice: TURN: no relay address")
	}
	if cfg.Realm == "" {
		cfg.Realm = "mafia"
	}
	if cfg.RelayBind == "" {
		cfg.RelayBind = "0.0.0.0"
	}
	if cfg.PerSeat <= 0 {
		cfg.PerSeat = 8
	}
	if cfg.Total <= 0 {
		cfg.Total = 2000
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	t := &TURN{counts: map[string]int{}}
	var gen turn.RelayAddressGenerator = &turn.RelayAddressGeneratorStatic{RelayAddress: cfg.RelayIP, Address: cfg.RelayBind}
	if cfg.MinPort != 0 || cfg.MaxPort != 0 {
		gen = &turn.RelayAddressGeneratorPortRange{RelayAddress: cfg.RelayIP, Address: cfg.RelayBind,
			MinPort: cfg.MinPort, MaxPort: cfg.MaxPort}
	}
	peers := append([]net.IP(nil), cfg.Peers...)
	srv, err := turn.NewServer(turn.ServerConfig{
		Realm:         cfg.Realm,
		LoggerFactory: &logging.DefaultLoggerFactory{DefaultLogLevel: logging.LogLevelDisabled},
		AuthHandler: func(ra *turn.RequestAttributes) (string, []byte, bool) {
			key, ok := quotaKey(ra.Username)
			if !ok {
				return "", nil, false
			}
			exp, _, _ := strings.Cut(ra.Username, ":")
			e, err := strconv.ParseInt(exp, 10, 64)
			if err != nil || e < now().Unix() {
				return "", nil, false
			}
			return key, turn.GenerateAuthKey(ra.Username, ra.Realm, turnPassword(cfg.Secret, ra.Username)), true
		},
		QuotaHandler: func(key, _ string, _ net.Addr) bool {
			t.mu.Lock()
			defer t.mu.Unlock()
			return t.counts[key] < cfg.PerSeat && t.total < cfg.Total
		},
		EventHandler: turn.EventHandler{
			OnAllocationCreated: func(_, _ net.Addr, _, key, _ string, _ net.Addr, _ int) { t.count(key, 1) },
			OnAllocationDeleted: func(_, _ net.Addr, _, key, _ string) { t.count(key, -1) },
		},
		PacketConnConfigs: []turn.PacketConnConfig{{
			PacketConn:            cfg.UDP,
			RelayAddressGenerator: gen,
			PermissionHandler: func(_ net.Addr, ip net.IP) bool {
				for _, p := range peers {
					if p.Equal(ip) {
						return true
					}
				}
				return false
			},
		}},
	})
	if err != nil {
		return nil, err
	}
	t.srv = srv
	return t, nil
}

func (t *TURN) count(key string, d int) {
	t.mu.Lock()
	t.counts[key] += d
	if t.counts[key] <= 0 {
		delete(t.counts, key)
	}
	t.total += d
	t.mu.Unlock()
}

// Allocations is how many relays are open now.
func (t *TURN) Allocations() int { return t.srv.AllocationCount() }

// Close stops the server, its relays and its port.
func (t *TURN) Close() error { return t.srv.Close() }
