package bridge

import (
	"fmt"
	"strings"

	"rsc.io/qr"

	"mafia/engine"
)

// QRSVG draws text's QR code as an SVG square with a quiet zone of four
// modules. The page draws the codes of the card links and of the hand-off
// link with it: each holds a token, so none is ever fetched by a URL.
func QRSVG(text string) (string, error) {
	c, err := qr.Encode(text, qr.M)
	if err != nil {
		return "", err
	}
	const quiet = 4
	size := c.Size + 2*quiet
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges">`, size, size)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, size, size)
	for y := 0; y < c.Size; y++ {
		for x := 0; x < c.Size; x++ {
			if c.Black(x, y) {
				fmt.Fprintf(&b, "M%d %dh1v1h-1z", x+quiet, y+quiet)
			}
		}
	}
	b.WriteString(`"/></svg>`)
	return b.String(), nil
}

// QRReply is QR's answer: the SVG of the code.
type QRReply struct {
	SVG string `json:"svg"`
}

// QR draws text's QR code (QRSVG) for the page: {"svg": …} or a refusal
// for a text too long for a code.
func (b *Bridge) QR(text string) string {
	if text == "" {
		return b.refuse(&engine.Error{Code: "bad_request", Name: "text"})
	}
	svg, err := QRSVG(text)
	if err != nil {
		return b.refuse(&engine.Error{Code: "bad_request", Name: "text"})
	}
	return encode(QRReply{SVG: svg})
}
