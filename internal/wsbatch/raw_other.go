//go:build !unix

package wsbatch

// rawSetup leaves the Writer without EndNow's write that never waits
// (EndNow writes as End does).
func (w *Writer) rawSetup() {}
