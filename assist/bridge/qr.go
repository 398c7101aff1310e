package bridge

import (
	"mafia/engine"
	"mafia/internal/qrsvg"
)

// QRSVG draws text's QR code as an SVG square (qrsvg.Draw). The page draws
// the codes of the card links and of the hand-off link with it: each holds
// a token, so none is ever fetched by a URL.
func QRSVG(text string) (string, error) { return qrsvg.Draw(text) }

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
