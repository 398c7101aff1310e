package account

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"

	"mafia/engine"
)

// The bounds of a password, in bytes of UTF-8.
const (
	MinPassword = 8
	MaxPassword = 256
)

// Params are argon2id's parameters. Every stored hash carries the ones it
// was made with, so that raising them later changes new hashes only (and
// a login rehashes an old one).
type Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes
	Threads uint8
	KeyLen  uint32 // bytes of hash
	SaltLen uint32 // bytes of salt
}

// DefaultParams are OWASP's recommended minimum for argon2id (19 MiB, two
// passes, one thread), with a 32-byte hash and a 16-byte salt.
var DefaultParams = Params{Memory: 19 * 1024, Time: 2, Threads: 1, KeyLen: 32, SaltLen: 16}

// b64 is the PHC string format's base64: standard alphabet, no padding.
var b64 = base64.RawStdEncoding

// hashPassword makes the PHC-style string of a password with fresh salt:
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>.
func hashPassword(password string, p Params) string {
	salt := make([]byte, p.SaltLen)
	rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

// decoyHash is a hash in p's format whose salt and key are random bytes:
// what a login for an unknown name is verified against, so that it costs
// the argon2id computation a known name's does (verifyPassword computes
// the key from the salt and compares). No password matches it (the key is
// no argon2id output, and 2^-256 is the chance of meeting it), and making
// it costs no hashing: a server's start paid about 0.1 CPU-s for a real
// hash of a random token before its first request.
func decoyHash(p Params) string {
	salt, key := make([]byte, p.SaltLen), make([]byte, p.KeyLen)
	rand.Read(salt)
	rand.Read(key)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

var errBadHash = errors.New("account: not an argon2id hash")

// parseHash reads a PHC-style argon2id string.
func parseHash(encoded string) (Params, []byte, []byte, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return Params{}, nil, nil, errBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return Params{}, nil, nil, errBadHash
	}
	var p Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil ||
		p.Memory == 0 || p.Time == 0 || p.Threads == 0 {
		return Params{}, nil, nil, errBadHash
	}
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return Params{}, nil, nil, errBadHash
	}
	key, err := b64.DecodeString(parts[5])
	if err != nil || len(key) == 0 {
		return Params{}, nil, nil, errBadHash
	}
	p.SaltLen, p.KeyLen = uint32(len(salt)), uint32(len(key))
	return p, salt, key, nil
}

// verifyPassword reports whether password matches the encoded hash, in
// time that does not depend on where they differ, and whether the hash
// was made with other parameters than want (to be rehashed).
func verifyPassword(password, encoded string, want Params) (ok, stale bool) {
	p, salt, key, err := parseHash(encoded)
	if err != nil {
		return false, false
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	ok = subtle.ConstantTimeCompare(got, key) == 1
	return ok, p != want
}

// checkPassword refuses a password out of bounds.
func checkPassword(pw string) error {
	if len(pw) < MinPassword {
		return &engine.Error{Code: CodeWeakPassword, N: MinPassword}
	}
	if len(pw) > MaxPassword {
		return &engine.Error{Code: CodePasswordTooLong, N: MaxPassword}
	}
	return nil
}
