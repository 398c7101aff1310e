package main

import (
	"fmt"
	"runtime"

	"mafia/engine"
)

// printer is what sim needs of a language. (Until package locale lands, an
// English placeholder.)
type printer interface {
	Refusal(err error) string
	T(id string, data map[string]any, count int) string
	Winner(w engine.Winner) string
}

type enPrinter struct{}

func printerFor(lang string) printer { return enPrinter{} }

func (enPrinter) Refusal(err error) string      { return err.Error() }
func (enPrinter) Winner(w engine.Winner) string { return w.String() }
func (enPrinter) T(id string, data map[string]any, count int) string {
	return fmt.Sprint(id, data)
}

func workersUsed(n int) int {
	if n > 0 {
		return n
	}
	return runtime.GOMAXPROCS(0)
}
