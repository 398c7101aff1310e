package main

import (
	"runtime"

	"mafia/engine"
	"mafia/locale"
)

// printer is what sim needs of a language.
type printer interface {
	Refusal(err error) string
	T(id string, data map[string]any, count int) string
	Team(t engine.Team) string
}

// simPrinter adapts a locale.Printer: count > 0 picks a plural form.
type simPrinter struct{ *locale.Printer }

func (p simPrinter) T(id string, data map[string]any, count int) string {
	if count > 0 {
		return p.Printer.Plural(id, count, data)
	}
	return p.Printer.T(id, data)
}

// printerFor returns the printer for a --lang value ("" : the environment's).
func printerFor(lang string) printer {
	p, _ := localePrinter(lang)
	return simPrinter{p}
}

func workersUsed(n int) int {
	if n > 0 {
		return n
	}
	return runtime.GOMAXPROCS(0)
}
