package main

import "io"

func refusalText(lang string) func(error) string {
	return func(err error) string { return err.Error() }
}
func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int { return 2 }
