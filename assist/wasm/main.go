//go:build js && wasm

// Command wasm is the engine for the host's page: the bridge's functions
// exported to JavaScript as the global object mafiaAssist, each taking and
// returning strings (JSON) or numbers. Built by `go generate ./assist` into
// ../static/engine.wasm.gz (committed; nothing is built at run time).
package main

import (
	"syscall/js"

	"mafia/assist/bridge"
)

func main() {
	b := bridge.New()
	str := func(args []js.Value, i int) string {
		if i < len(args) && args[i].Type() == js.TypeString {
			return args[i].String()
		}
		return ""
	}
	num := func(args []js.Value, i int) int {
		if i < len(args) && args[i].Type() == js.TypeNumber {
			return args[i].Int()
		}
		return 0
	}
	api := map[string]func(args []js.Value) any{
		"lang":     func(a []js.Value) any { return b.SetLang(str(a, 0)) },
		"t":        func(a []js.Value) any { return b.T(str(a, 0), str(a, 1)) },
		"plural":   func(a []js.Value) any { return b.Plural(str(a, 0), num(a, 1), str(a, 2)) },
		"name":     func(a []js.Value) any { return b.Name(str(a, 0), str(a, 1)) },
		"start":    func(a []js.Value) any { return b.Start(str(a, 0), str(a, 1)) },
		"apply":    func(a []js.Value) any { return b.Apply(str(a, 0)) },
		"check":    func(a []js.Value) any { return b.Check(str(a, 0)) },
		"state":    func(a []js.Value) any { return b.State() },
		"mafia":    func(a []js.Value) any { return b.Mafia(num(a, 0)) },
		"protocol": func(a []js.Value) any { return b.Protocol() },
		"log":      func(a []js.Value) any { return b.Log() },
		"preset":   func(a []js.Value) any { return b.Preset(num(a, 0)) },
		"setup":    func(a []js.Value) any { return b.Setup(str(a, 0)) },
		"options":  func(a []js.Value) any { return b.Options() },
		"rules":    func(a []js.Value) any { return b.RulesFrom(str(a, 0)) },
		"code":     func(a []js.Value) any { return b.RulesCode(str(a, 0)) },
		"undoable": func(a []js.Value) any { return b.Undoable() },
		"qr":       func(a []js.Value) any { return b.QR(str(a, 0)) },
		"deal":     func(a []js.Value) any { return b.Deal(str(a, 0), str(a, 1)) },
		"amend":    func(a []js.Value) any { return b.Amend(str(a, 0)) },
	}
	obj := js.Global().Get("Object").New()
	for name, f := range api {
		obj.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any { return f(args) }))
	}
	js.Global().Set("mafiaAssist", obj)
	if cb := js.Global().Get("mafiaAssistReady"); cb.Type() == js.TypeFunction {
		cb.Invoke()
	}
	select {}
}
