package main

import (
	"fmt"
	"net"
	"strings"

	"mafia/voice"
)

// openVoice makes the voice tables' forwarding unit on the process's one
// UDP port (--voice-udp; "" : no voice at all, every voice message refused
// voice_off), its public addresses --voice-public-ip (docs/voice.md).
func (sv *serve) openVoice() (*voice.Hub, error) {
	f := sv.f
	if f.voiceUDP == "" {
		return nil, nil
	}
	udp, err := net.ListenPacket("udp", f.voiceUDP)
	if err != nil {
		return nil, fmt.Errorf("--voice-udp: %w", err)
	}
	cfg := voice.Config{UDP: udp, Log: sv.log}
	if a, ok := udp.LocalAddr().(*net.UDPAddr); ok && a.IP.IsLoopback() {
		cfg.Loopback = true // a port on loopback offers loopback candidates (a test, a measurement)
	}
	if f.voicePublicIP != "" {
		cfg.PublicIPs = strings.Split(f.voicePublicIP, ",")
	}
	hub, err := voice.New(cfg)
	if err != nil {
		udp.Close()
		return nil, err
	}
	sv.closers = append(sv.closers, func() { hub.Close() })
	sv.log.Info("voice", "udp", udp.LocalAddr().String(), "public_ips", cfg.PublicIPs)
	return hub, nil
}
