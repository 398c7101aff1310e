package account

// This file keeps the browsers an account has logged in from (its known
// devices), so that the limits that guard a name against guessing never
// lock its owner out of a browser they have used: a successful login gives
// the browser a device token, signed with a key only the server holds.

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"mafia/store"
)

// DeviceCookie is the cookie a browser's device tokens are kept in
// (HttpOnly, SameSite=Lax, for /api/account/ only), at most MaxDevices of
// them, the newest first.
const DeviceCookie = "mafia_device"

// MaxDevices is how many accounts' device tokens one browser keeps.
const MaxDevices = 4

// deviceMAC signs an account's device nonce. Its key is the account's
// stored password hash: secret (the store's alone), the same on every node
// of a cluster and after a restart, and changed with the password, which
// so forgets every device (as it ends every other login).
func deviceMAC(a store.Account, nonce string) string {
	m := hmac.New(sha256.New, []byte("mafia device\x00"+a.PasswordHash))
	m.Write([]byte(strconv.FormatInt(a.ID, 10) + "." + nonce))
	return hex.EncodeToString(m.Sum(nil))
}

// DeviceToken is a new device token for a person's account: the account's
// id, a nonce and their signature.
func DeviceToken(a store.Account) string {
	var b [12]byte
	rand.Read(b[:])
	nonce := hex.EncodeToString(b[:])
	return strconv.FormatInt(a.ID, 10) + "." + nonce + "." + deviceMAC(a, nonce)
}

// knownDevice reports whether one of tokens is a device token of account
// a (a person's, with a password).
func knownDevice(a store.Account, tokens []string) bool {
	if a.PasswordHash == "" {
		return false
	}
	for _, t := range tokens {
		id, rest, ok := strings.Cut(t, ".")
		nonce, mac, ok2 := strings.Cut(rest, ".")
		if !ok || !ok2 || id != strconv.FormatInt(a.ID, 10) {
			continue
		}
		if hmac.Equal([]byte(mac), []byte(deviceMAC(a, nonce))) {
			return true
		}
	}
	return false
}

// Devices splits a device cookie's value into its tokens (at most
// MaxDevices).
func Devices(cookie string) []string {
	if cookie == "" {
		return nil
	}
	ts := strings.Split(cookie, "~")
	if len(ts) > MaxDevices {
		ts = ts[:MaxDevices]
	}
	return ts
}

// withDevice is a device cookie's value with a new token first, an older
// token of the same account dropped, and at most MaxDevices kept.
func withDevice(old []string, tok string) string {
	id, _, _ := strings.Cut(tok, ".")
	out := []string{tok}
	for _, t := range old {
		if i, _, _ := strings.Cut(t, "."); i != id && len(out) < MaxDevices && t != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, "~")
}
