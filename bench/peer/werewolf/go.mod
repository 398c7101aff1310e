module mafia/bench/peer/werewolf

go 1.23

require github.com/Zereker/werewolf v0.0.0

require google.golang.org/protobuf v1.36.11 // indirect

// The Go module proxy does not serve the peer (403): its source is a clone
// beside this file, at the commit docs/performance.md names (README.md).
replace github.com/Zereker/werewolf => ./src
