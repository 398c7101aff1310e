package qrsvg

import (
	"strconv"
	"strings"
	"testing"

	"rsc.io/qr"
)

func TestDrawIsTheCodesModulesWithAQuietZone(t *testing.T) {
	text := "https://mafia.example.ge/t/0123456789abcdef"
	svg, err := Draw(text)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := qr.Encode(text, qr.M)
	black := 0
	for y := 0; y < c.Size; y++ {
		for x := 0; x < c.Size; x++ {
			if c.Black(x, y) {
				black++
			}
		}
	}
	if got := strings.Count(svg, "h1v1h-1z"); got != black {
		t.Errorf("%d modules drawn, the code has %d black", got, black)
	}
	side := c.Size + 8
	if !strings.Contains(svg, `viewBox="0 0 `+strconv.Itoa(side)+" "+strconv.Itoa(side)+`"`) {
		t.Errorf("the square is not %d modules wide (code and quiet zone): %.120s", side, svg)
	}
	if !strings.HasPrefix(svg, "<svg ") || !strings.HasSuffix(svg, "</svg>") {
		t.Errorf("not an SVG: %.60s…", svg)
	}
}
