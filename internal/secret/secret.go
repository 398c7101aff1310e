// Package secret makes the program's secrets and keeps what is stored of
// them: tokens (a seat's, a host's, an assistant's game's), their stored
// hashes, and the seeds of deals and bots, all from crypto/rand. It owns
// the one way each is made and must not be bypassed: a token made or
// hashed elsewhere would not match the store's.
package secret

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
)

// Token returns a fresh secret token: 24 random bytes, in hex.
func Token() string {
	var b [24]byte
	rand.Read(b[:]) // crypto/rand.Read never fails (it panics if the system has no randomness)
	return hex.EncodeToString(b[:])
}

// Hash returns the stored form of a token: its SHA-256, in hex. A token
// is 192 random bits, so a plain hash is enough (nothing to guess).
func Hash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// Seed returns a fresh random seed, for a deal or for a table's bots.
func Seed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}
