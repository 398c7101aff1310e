// Package locale owns every sentence the project shows to people, in
// Georgian (ka), English (en) and Russian (ru): the engine's refusals, the
// narration of game events, the names of roles, teams, phases and results,
// and the strings of the user interfaces (prompts, help, the view summary).
// The sentences live in message catalogs (catalog/active.*.toml, embedded)
// with the plural forms each language needs; the words are the club's own
// (see docs/glossary.md).
//
// It only renders: it must not decide anything about a game, read a Game
// (it gets events and views that were already filtered for their reader),
// or do I/O beyond reading its embedded catalogs. The message library it
// uses stays hidden behind Printer, so callers never import it.
package locale
