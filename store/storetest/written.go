package storetest

import (
	"bytes"
	"os"
	"strconv"
)

// Written is how many bytes this process has handed to write system calls
// so far (Linux's wchar in /proc/self/io: the WAL's frames, the
// checkpoints' pages and the rest), or -1 where it cannot be read.
func Written() int64 {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return -1
	}
	for line := range bytes.Lines(b) {
		if v, ok := bytes.CutPrefix(line, []byte("wchar:")); ok {
			n, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
			if err != nil {
				return -1
			}
			return n
		}
	}
	return -1
}
