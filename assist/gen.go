package assist

// The host's page runs the engine in the browser: regenerate the module
// (static/engine.wasm.gz) and Go's loader (static/wasm_exec.js) after any
// change to the engine, the catalogs, or ./record, ./bridge and ./wasm.
//go:generate go run ./internal/genwasm
