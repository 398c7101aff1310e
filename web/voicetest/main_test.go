package voicetest_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
)

// tones are the seats' microphones: seat s's fake microphone plays a sine
// of tones[s] Hz (the seats with a browser of their own).
var tones = map[int]float64{2: 500, 3: 900, 4: 1300}

// browsers are the seats' Chromiums, one process each (a fake microphone's
// file is a process's flag), started by the first test that needs them.
var browsers = map[int]*browsertest.Browser{}

// toneDir holds the tones' WAV files.
var toneDir string

// TestMain writes the tones, runs the tests and closes the browsers.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mafia-voicetest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	toneDir = dir
	for s, hz := range tones {
		path := filepath.Join(dir, fmt.Sprintf("seat%d.wav", s))
		if err := os.WriteFile(path, sineWAV(hz, 48000, 2), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		browsers[s] = browsertest.New("mafia/web/voicetest",
			chromedp.Flag("use-fake-ui-for-media-stream", true),
			chromedp.Flag("use-fake-device-for-media-stream", true),
			chromedp.Flag("use-file-for-fake-audio-capture", path),
			// Host candidates by address, not by mDNS name (the server
			// resolves no mDNS): a phone's browser that was allowed its
			// microphone does the same.
			chromedp.Flag("disable-features", "WebRtcHideLocalIpsWithMdns"),
		)
	}
	code := m.Run()
	for _, b := range browsers {
		b.Close()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// sineWAV is secs seconds of a sine of hz Hz, 16-bit mono PCM at rate Hz,
// at half scale (Chromium loops the file).
func sineWAV(hz float64, rate, secs int) []byte {
	n := rate * secs
	b := make([]byte, 44+2*n)
	copy(b, "RIFF")
	binary.LittleEndian.PutUint32(b[4:], uint32(36+2*n))
	copy(b[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(b[16:], 16)
	binary.LittleEndian.PutUint16(b[20:], 1) // PCM
	binary.LittleEndian.PutUint16(b[22:], 1) // mono
	binary.LittleEndian.PutUint32(b[24:], uint32(rate))
	binary.LittleEndian.PutUint32(b[28:], uint32(2*rate))
	binary.LittleEndian.PutUint16(b[32:], 2)
	binary.LittleEndian.PutUint16(b[34:], 16)
	copy(b[36:], "data")
	binary.LittleEndian.PutUint32(b[40:], uint32(2*n))
	for i := range n {
		v := int16(0.5 * 32767 * math.Sin(2*math.Pi*hz*float64(i)/float64(rate)))
		binary.LittleEndian.PutUint16(b[44+2*i:], uint16(v))
	}
	return b
}
