// Command mafia is the project's one binary: it runs scenarios, simulates
// games with bots, plays a game in the terminal, and (later) serves tables.
// It wires the packages together and owns no rules itself.
package main

import (
	"fmt"
	"io"
	"os"
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"serve", "host online tables: HTTP, WebSocket, SQLite", runServe},
		{"play", "play a game in the terminal against bots", runPlay},
		{"sim", "play many bot games and print win rates", runSim},
		{"scenario", "run conformance scenarios: mafia scenario run PATH...", runScenario},
		{"seating", "seat a tournament: players x tables x games, seats and pairs kept even", runSeating},
		{"bench", "load-test a running server with bot players over WebSockets", runBench},
		{"help", "list the commands", runHelp},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	name := args[0]
	if name == "-h" || name == "--help" || name == "-help" {
		usage(stdout)
		return 0
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "mafia: unknown command %q\n\n", name)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: mafia COMMAND [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'mafia COMMAND -h' for a command's flags.")
}

func runHelp(args []string, _ io.Reader, stdout, _ io.Writer) int {
	usage(stdout)
	return 0
}
