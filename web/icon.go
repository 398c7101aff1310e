package web

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"sync"
)

// The brand icon (static/icon.svg: a gold hat over a red smile on the
// page's dark tile) drawn as a PNG for the web app's manifest, which a
// phone's launcher wants at 192 and 512 pixels. The SVG's shapes are few
// and simple, so they are drawn here from their own numbers (its 64-unit
// box), each pixel sampled 4x4 times for smooth edges.

var (
	iconMu   sync.Mutex
	iconPNGs = map[int][]byte{}
)

// iconPNG returns the icon as a PNG of n x n pixels (drawn once per size).
func iconPNG(n int) []byte {
	iconMu.Lock()
	defer iconMu.Unlock()
	if b, ok := iconPNGs[n]; ok {
		return b
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, drawIcon(n)); err != nil {
		panic("web: icon: " + err.Error())
	}
	iconPNGs[n] = buf.Bytes()
	return iconPNGs[n]
}

var (
	iconTile  = color.NRGBA{0x15, 0x16, 0x1d, 0xff}
	iconGold  = color.NRGBA{0xd9, 0xa4, 0x41, 0xff}
	iconSmile = color.NRGBA{0xc2, 0x41, 0x3b, 0xff}
)

// smile is the smile's curve (the SVG's two cubic Béziers) as a polyline.
var smile = func() [][2]float64 {
	cubic := func(p0, p1, p2, p3 [2]float64, out [][2]float64) [][2]float64 {
		for i := 0; i <= 24; i++ {
			t := float64(i) / 24
			u := 1 - t
			a, b, c, d := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
			out = append(out, [2]float64{a*p0[0] + b*p1[0] + c*p2[0] + d*p3[0], a*p0[1] + b*p1[1] + c*p2[1] + d*p3[1]})
		}
		return out
	}
	pts := cubic([2]float64{18, 40}, [2]float64{22, 45}, [2]float64{27, 47}, [2]float64{32, 47}, nil)
	return cubic([2]float64{32, 47}, [2]float64{37, 47}, [2]float64{42, 45}, [2]float64{46, 40}, pts)
}()

// iconAt is the icon's colour at point (x, y) of its 64-unit box, and
// whether the point is on the icon at all (outside the tile's rounded
// corners it is not).
func iconAt(x, y float64) (color.NRGBA, bool) {
	if !inRoundRect(x, y, 0, 0, 64, 64, 14) {
		return color.NRGBA{}, false
	}
	for i := 1; y >= 37 && y <= 50 && x >= 15 && x <= 49 && i < len(smile); i++ {
		if segDist(x, y, smile[i-1], smile[i]) <= 2 {
			return iconSmile, true
		}
	}
	// The hat: its crown, its dome (the SVG's curve, close to half an
	// ellipse) and its brim.
	dome := y <= 30 && y >= 23 && (x-32)*(x-32)/400+(y-30)*(y-30)/49 <= 1
	if inRoundRect(x, y, 20, 14, 24, 12, 3) || dome || inRoundRect(x, y, 8, 29, 48, 4, 2) {
		return iconGold, true
	}
	return iconTile, true
}

// inRoundRect reports whether (x, y) is in the rectangle at (rx, ry) of
// w x h with corners of radius r.
func inRoundRect(x, y, rx, ry, w, h, r float64) bool {
	if x < rx || y < ry || x > rx+w || y > ry+h {
		return false
	}
	cx := math.Max(rx+r, math.Min(x, rx+w-r))
	cy := math.Max(ry+r, math.Min(y, ry+h-r))
	return (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r
}

// segDist is the distance from (x, y) to the segment a-b.
func segDist(x, y float64, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = math.Max(0, math.Min(1, ((x-a[0])*dx+(y-a[1])*dy)/l))
	}
	px, py := a[0]+t*dx-x, a[1]+t*dy-y
	return math.Hypot(px, py)
}

// drawIcon draws the icon at n x n pixels.
func drawIcon(n int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	const ss = 4 // samples a side
	scale := 64 / float64(n)
	for py := 0; py < n; py++ {
		for px := 0; px < n; px++ {
			var r, g, b, a float64
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					c, ok := iconAt((float64(px)+(float64(sx)+.5)/ss)*scale, (float64(py)+(float64(sy)+.5)/ss)*scale)
					if !ok {
						continue
					}
					r += float64(c.R)
					g += float64(c.G)
					b += float64(c.B)
					a++
				}
			}
			if a == 0 {
				continue
			}
			img.SetNRGBA(px, py, color.NRGBA{uint8(r / a), uint8(g / a), uint8(b / a), uint8(a * 255 / ss / ss)})
		}
	}
	return img
}
