//go:build !unix

package server

import "errors"

// RaiseFileLimit is not available on this system.
func RaiseFileLimit() (soft, hard uint64, err error) {
	return 0, 0, errors.New("no open-file limit on this system")
}

func fileLimit() uint64 { return 0 }
