// Package qrsvg draws a text's QR code as an SVG square, for the browser
// client's invitations and the host's assistant's card and hand-off links
// (compiled into its WebAssembly engine too). It owns the drawing only; it
// must not know what the text is or serve it.
package qrsvg

import (
	"fmt"
	"strings"

	"rsc.io/qr"
)

// Draw returns text's QR code (error correction M) as an SVG square with a
// quiet zone of four modules, black on white.
func Draw(text string) (string, error) {
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
