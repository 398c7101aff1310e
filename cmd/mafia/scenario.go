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
	// Flags may stand before or after the paths.
	var paths []string
	rest := args[1:]
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		paths = append(paths, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(paths) == 0 {
		fs.Usage()
		return 2
	}
	files, err := scenario.Files(paths)
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
