//go:build !unix

package bench

// raiseFileLimit does nothing where there is no RLIMIT_NOFILE.
func raiseFileLimit(int) {}
