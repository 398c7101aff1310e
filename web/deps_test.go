package web

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestTheClientDependsOnNoRoomServerOrStore: the browser client is told
// what it needs by whoever mounts it (Config: the room's default clocks);
// the program it is built from holds the rules and the catalogs, never the
// room, the server, the store or the assistant.
func TestTheClientDependsOnNoRoomServerOrStore(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "mafia/engine") {
		t.Fatalf("go list -deps names no mafia/engine: %v", deps)
	}
	for _, d := range deps {
		for _, bad := range []string{"mafia/room", "mafia/server", "mafia/store", "mafia/assist"} {
			if d == bad || strings.HasPrefix(d, bad+"/") {
				t.Errorf("package web depends on %s", d)
			}
		}
	}
}
