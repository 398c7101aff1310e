package secret

import (
	"regexp"
	"testing"
)

func TestTokensAreFreshHexAndTheirHashesStable(t *testing.T) {
	seen := map[string]bool{}
	token, hash := regexp.MustCompile("^[0-9a-f]{48}$"), regexp.MustCompile("^[0-9a-f]{64}$")
	for range 1000 {
		tok := Token()
		if !token.MatchString(tok) {
			t.Fatalf("token %q is not 48 hex digits", tok)
		}
		if seen[tok] {
			t.Fatalf("token %q made twice", tok)
		}
		seen[tok] = true
		if h := Hash(tok); !hash.MatchString(h) || h != Hash(tok) || h == tok {
			t.Fatalf("hash %q of %q", h, tok)
		}
	}
	// The stored form of a token made before this package existed.
	if got, want := Hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"; got != want {
		t.Errorf("Hash(abc) = %s, want SHA-256 %s", got, want)
	}
	if Seed() == Seed() && Seed() == Seed() {
		t.Error("three pairs of seeds alike")
	}
}
