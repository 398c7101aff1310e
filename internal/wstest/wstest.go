// Package wstest speaks the WebSocket by hand, for tests only: the frames
// no client library sends (unmasked, reserved bits, any declared length,
// control frames of any kind), a handshake on a raw connection, and a
// reader of the server's frames byte for byte. It owns no test and keeps
// no state.
package wstest

import (
	"bufio"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
)

// ClientFrame is a client's frame as a test writes it: b0 (FIN, RSV and
// the opcode) as given, the length n as declared (which need not be the
// payload's) in its shortest form, and the payload, masked with a mask of
// its own or not.
func ClientFrame(b0 byte, n uint64, payload []byte, masked bool) []byte {
	b := []byte{b0}
	m := byte(0)
	if masked {
		m = 0x80
	}
	switch {
	case n < 126:
		b = append(b, m|byte(n))
	case n < 1<<16:
		b = append(b, m|126, byte(n>>8), byte(n))
	default:
		b = append(b, m|127)
		b = binary.BigEndian.AppendUint64(b, n)
	}
	if !masked {
		return append(b, payload...)
	}
	var key [4]byte
	_, _ = rand.Read(key[:])
	b = append(b, key[:]...)
	for i, p := range payload {
		b = append(b, p^key[i%4])
	}
	return b
}

// Masked is ClientFrame of a whole (final) frame of opcode op, masked,
// its length its payload's.
func Masked(op byte, payload []byte) []byte {
	return ClientFrame(0x80|op, uint64(len(payload)), payload, true)
}

// ReadFrame reads one of the server's frames (unmasked) from r: its first
// byte (FIN, RSV, opcode) and its payload.
func ReadFrame(r io.Reader) (b0 byte, payload []byte, err error) {
	var h [2]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return 0, nil, err
	}
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		var l [2]byte
		if _, err := io.ReadFull(r, l[:]); err != nil {
			return 0, nil, err
		}
		n = uint64(binary.BigEndian.Uint16(l[:]))
	case 127:
		var l [8]byte
		if _, err := io.ReadFull(r, l[:]); err != nil {
			return 0, nil, err
		}
		n = binary.BigEndian.Uint64(l[:])
	}
	payload = make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		return 0, nil, err
	}
	return h[0], payload, nil
}

// Upgrade makes a WebSocket handshake on c for path (a server's path, with
// its query), with a key of its own: the reader of what the server sends
// after its 101, or an error if it did not answer 101.
func Upgrade(c net.Conn, path string) (*bufio.Reader, error) {
	var key [16]byte
	_, _ = rand.Read(key[:])
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", path, base64.StdEncoding.EncodeToString(key[:])); err != nil {
		return nil, err
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		return nil, fmt.Errorf("wstest: the handshake was answered %s", resp.Status)
	}
	return br, nil
}
