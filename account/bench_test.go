package account

import "testing"

// BenchmarkHashPassword_DefaultParams is the work of one signup or login
// attempt with the service's defaults (OWASP's argon2id minimum): what the
// limits of attempts protect the server's CPU from.
func BenchmarkHashPassword_DefaultParams(b *testing.B) {
	for b.Loop() {
		hashPassword("correct horse battery", DefaultParams)
	}
}
