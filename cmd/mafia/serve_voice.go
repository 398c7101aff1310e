package main

import (
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"mafia/voice"
)

// voiceFlags are serve's voice flags (docs/voice.md, "Running it").
type voiceFlags struct {
	udp, publicIP                           *string
	turnUDP, turnPublicIP, turnRealm, ports *string
	iceServers, turnSecret                  *string
}

func addVoiceFlags(fs *flag.FlagSet) voiceFlags {
	return voiceFlags{
		udp:          fs.String("voice-udp", "", "carry the voices of tables made with voice on this one UDP address, e.g. :7000 (docs/voice.md; off by default: voice messages are refused voice_off)"),
		publicIP:     fs.String("voice-public-ip", "", "the public IP addresses clients reach --voice-udp at, comma-separated, when the server is behind a 1:1 NAT (default: the port's own)"),
		turnUDP:      fs.String("turn-udp", "", "run a TURN (and STUN) server on this UDP address, e.g. :3478, for the players behind a NAT that lets no direct path through; each join gets a short-lived credential of its seat (needs --voice-udp; off by default)"),
		turnPublicIP: fs.String("turn-public-ip", "", "the public IP address clients reach --turn-udp and its relays at (default: --turn-udp's own, which must then be an IP)"),
		turnRealm:    fs.String("turn-realm", "mafia", "the TURN server's realm"),
		ports:        fs.String("turn-relay-ports", "", "the UDP ports the TURN server's relays take, MIN-MAX, e.g. 49160-49200 (default: any free port)"),
		iceServers:   fs.String("voice-ice-servers", "", "instead of --turn-udp, an external STUN/TURN server's URLs handed to clients, comma-separated, e.g. turn:turn.example.ge:3478,stun:turn.example.ge:3478"),
		turnSecret:   fs.String("voice-turn-secret", "", "a file whose first line is the external TURN server's shared secret (coturn's static-auth-secret): each join gets a credential signed with it (TURN REST API)"),
	}
}

// openVoice makes the voice tables' forwarding unit on the process's one
// UDP port (--voice-udp; "" : no voice at all, every voice message refused
// voice_off), its public addresses --voice-public-ip, and the STUN/TURN
// servers clients are told of: the built-in one (--turn-udp) or an
// external one (--voice-ice-servers, --voice-turn-secret) (docs/voice.md).
func (sv *serve) openVoice() (*voice.Hub, error) {
	f := sv.f.voice
	if *f.udp == "" {
		if *f.turnUDP != "" || *f.iceServers != "" {
			return nil, errors.New("--turn-udp and --voice-ice-servers need --voice-udp")
		}
		return nil, nil
	}
	if *f.turnUDP != "" && *f.iceServers != "" {
		return nil, errors.New("--turn-udp and --voice-ice-servers: name one")
	}
	udp, err := net.ListenPacket("udp", *f.udp)
	if err != nil {
		return nil, fmt.Errorf("--voice-udp: %w", err)
	}
	cfg := voice.Config{UDP: udp, Log: sv.log}
	local, _ := udp.LocalAddr().(*net.UDPAddr)
	if local != nil && local.IP.IsLoopback() {
		cfg.Loopback = true // a port on loopback offers loopback candidates (a test, a measurement)
	}
	if *f.publicIP != "" {
		cfg.PublicIPs = strings.Split(*f.publicIP, ",")
	}
	switch {
	case *f.turnUDP != "":
		turn, url, secret, err := sv.openTURN(f, local, cfg.PublicIPs)
		if err != nil {
			udp.Close()
			return nil, err
		}
		sv.closers = append(sv.closers, func() { turn.Close() })
		cfg.ICE = voice.ICEConfig{URLs: url, Secret: secret}
	case *f.iceServers != "":
		turn := false
		for _, u := range strings.Split(*f.iceServers, ",") {
			scheme, rest, _ := strings.Cut(strings.TrimSpace(u), ":")
			if rest == "" || (scheme != "stun" && scheme != "stuns" && scheme != "turn" && scheme != "turns") {
				udp.Close()
				return nil, fmt.Errorf("--voice-ice-servers: %q is no stun:, stuns:, turn: or turns: URL", u)
			}
			turn = turn || strings.HasPrefix(scheme, "turn")
			cfg.ICE.URLs = append(cfg.ICE.URLs, strings.TrimSpace(u))
		}
		if turn && *f.turnSecret == "" {
			udp.Close()
			return nil, errors.New("--voice-ice-servers names a TURN server: give its shared secret with --voice-turn-secret FILE (credentials are never static)")
		}
		if *f.turnSecret != "" {
			data, err := os.ReadFile(*f.turnSecret)
			if err != nil {
				udp.Close()
				return nil, fmt.Errorf("--voice-turn-secret: %w", err)
			}
			line, _, _ := strings.Cut(string(data), "\n")
			if line = strings.TrimSpace(line); line == "" {
				udp.Close()
				return nil, errors.New("--voice-turn-secret: the file's first line is empty")
			}
			cfg.ICE.Secret = []byte(line)
		}
	}
	hub, err := voice.New(cfg)
	if err != nil {
		udp.Close()
		return nil, err
	}
	sv.closers = append(sv.closers, func() { hub.Close() })
	sv.log.Info("voice", "udp", udp.LocalAddr().String(), "public_ips", cfg.PublicIPs, "ice_servers", cfg.ICE.URLs)
	return hub, nil
}

// openTURN starts the built-in TURN server (--turn-udp): its secret is a
// random one of this process's, known to nobody else; its relays go only
// to the unit's addresses. It returns the server, the URLs clients are told
// and the secret.
func (sv *serve) openTURN(f voiceFlags, unit *net.UDPAddr, unitPublic []string) (*voice.TURN, []string, []byte, error) {
	udp, err := net.ListenPacket("udp", *f.turnUDP)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("--turn-udp: %w", err)
	}
	fail := func(err error) (*voice.TURN, []string, []byte, error) { udp.Close(); return nil, nil, nil, err }
	at, _ := udp.LocalAddr().(*net.UDPAddr)
	cfg := voice.TURNConfig{UDP: udp, Realm: *f.turnRealm}
	switch {
	case *f.turnPublicIP != "":
		if cfg.RelayIP = net.ParseIP(*f.turnPublicIP); cfg.RelayIP == nil {
			return fail(fmt.Errorf("--turn-public-ip: %q is no IP address", *f.turnPublicIP))
		}
	case at != nil && !at.IP.IsUnspecified():
		cfg.RelayIP = at.IP
	default:
		return fail(errors.New("--turn-udp listens on every address: name the one clients reach with --turn-public-ip"))
	}
	if at != nil && !at.IP.IsUnspecified() {
		cfg.RelayBind = at.IP.String()
	}
	if *f.ports != "" {
		lo, hi, ok := strings.Cut(*f.ports, "-")
		l, err1 := strconv.ParseUint(lo, 10, 16)
		h, err2 := strconv.ParseUint(hi, 10, 16)
		if !ok || err1 != nil || err2 != nil || l == 0 || l > h {
			return fail(fmt.Errorf("--turn-relay-ports: %q is not MIN-MAX", *f.ports))
		}
		cfg.MinPort, cfg.MaxPort = uint16(l), uint16(h)
	}
	// The unit's addresses, the only ones a relay sends to.
	for _, ip := range unitPublic {
		if p := net.ParseIP(strings.TrimSpace(ip)); p != nil {
			cfg.Peers = append(cfg.Peers, p)
		}
	}
	if unit != nil && !unit.IP.IsUnspecified() {
		cfg.Peers = append(cfg.Peers, unit.IP)
	} else if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				cfg.Peers = append(cfg.Peers, n.IP)
			}
		}
	}
	cfg.Secret = make([]byte, 32)
	_, _ = rand.Read(cfg.Secret) // crypto/rand.Read does not fail
	turn, err := voice.NewTURN(cfg)
	if err != nil {
		return fail(fmt.Errorf("--turn-udp: %w", err))
	}
	hp := net.JoinHostPort(cfg.RelayIP.String(), strconv.Itoa(at.Port))
	urls := []string{"stun:" + hp, "turn:" + hp + "?transport=udp"}
	sv.log.Info("turn", "udp", udp.LocalAddr().String(), "public_ip", cfg.RelayIP.String(), "relay_ports", *f.ports, "realm", cfg.Realm)
	return turn, urls, cfg.Secret, nil
}
