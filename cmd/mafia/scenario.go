package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"mafia/scenario"
)

func runScenario(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "run" {
		fmt.Fprintln(stderr, "usage: mafia scenario run [--trace] FILE_OR_DIR...")
		return 2
	}
	fs := flag.NewFlagSet("scenario run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	trace := fs.Bool("trace", false, "print every event as it happens")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mafia scenario run [--trace] FILE_OR_DIR...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	files, err := scenario.Files(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "mafia scenario: %v\n", err)
		return 2
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "mafia scenario: no scenario files found")
		return 2
	}
	failed := 0
	passed := 0
	opts := scenario.Options{Refusal: refusalText("en")}
	if *trace {
		opts.Trace = stdout
	}
	for _, f := range files {
		sc, err := scenario.Load(f)
		if err != nil {
			fmt.Fprintf(stdout, "ERROR %v\n", err)
			failed++
			continue
		}
		if *trace {
			fmt.Fprintf(stdout, "RUN  %s (%s)\n", sc.Name, f)
		}
		r := scenario.Run(sc, opts)
		fmt.Fprintln(stdout, r.String())
		if r.Pass {
			passed++
		} else {
			failed++
		}
	}
	fmt.Fprintf(stdout, "scenarios: %d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}
