package sqlite

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpen_RefusesAFileAnotherStoreHolds: a second Open of a file that a
// store holds is refused with a LockedError naming the file and the
// holder's pid, and the file opens again once the first store is closed.
func TestOpen_RefusesAFileAnotherStoreHolds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mafia.db")
	first, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Open(path)
	if err == nil {
		second.Close()
		first.Close()
		t.Fatal("a second store opened a file the first holds")
	}
	var le *LockedError
	if !errors.Is(err, ErrLocked) || !errors.As(err, &le) {
		t.Fatalf("second Open: %v, want ErrLocked", err)
	}
	if le.PID != os.Getpid() || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), fmt.Sprint(os.Getpid())) {
		t.Errorf("the refusal %q does not name the file %s and the pid %d", err, path, os.Getpid())
	}
	// The same file under another name (a symbolic link) is the same lock.
	link := filepath.Join(t.TempDir(), "link.db")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if db, err := Open(link); !errors.Is(err, ErrLocked) {
		if db != nil {
			db.Close()
		}
		t.Errorf("Open through a link: %v, want ErrLocked", err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(path)
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	again.Close()
}

// lockChildEnv, when set, makes TestOpen_RefusesAFileAnotherProcessHolds the
// child that holds the file: "store PATH" opens it as a store, "sqlite
// PATH" takes sqliteLock on PATH. It prints "held" and waits for its stdin
// to close.
const lockChildEnv = "MAFIA_SQLITE_LOCK_CHILD"

func lockChild(spec string) {
	mode, path, _ := strings.Cut(spec, " ")
	switch mode {
	case "store":
		db, err := Open(path)
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(2)
		}
		defer db.Close()
	case "sqlite":
		release, _, err := sqliteLock(path)
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(2)
		}
		defer release()
	}
	fmt.Println("held")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
}

// startLockChild starts a child process that holds path as mode says, and
// waits until it does.
func startLockChild(t *testing.T, mode, path string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestOpen_RefusesAFileAnotherProcessHolds$", "-test.count=1")
	cmd.Env = append(os.Environ(), lockChildEnv+"="+mode+" "+path)
	cmd.Stderr = os.Stderr
	if _, err := cmd.StdinPipe(); err != nil { // closed when the test ends: the child then exits
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "held" {
		t.Fatalf("the child said %q (%v)", line, err)
	}
	return cmd
}

// TestOpen_RefusesAFileAnotherProcessHolds: while another process holds a
// store on the file, Open is refused with that process's pid; once it is
// killed (SIGKILL: it releases nothing itself), the file opens at once. The
// same for the lock that stands in where there is no flock.
func TestOpen_RefusesAFileAnotherProcessHolds(t *testing.T) {
	if spec := os.Getenv(lockChildEnv); spec != "" {
		lockChild(spec)
		return
	}
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	path := filepath.Join(t.TempDir(), "mafia.db")
	child := startLockChild(t, "store", path)
	db, err := Open(path)
	var le *LockedError
	if !errors.As(err, &le) {
		if db != nil {
			db.Close()
		}
		t.Fatalf("Open beside another process's store: %v, want a LockedError", err)
	}
	if le.PID != child.Process.Pid {
		t.Errorf("the refusal names pid %d, the holder is %d: %v", le.PID, child.Process.Pid, err)
	}
	child.Process.Kill()
	child.Wait()
	db, err = Open(path)
	if err != nil {
		t.Fatalf("after the holder was killed: %v", err)
	}
	db.Close()

	t.Run("sqliteLock", func(t *testing.T) {
		lp := filepath.Join(t.TempDir(), "x.db.lock")
		child := startLockChild(t, "sqlite", lp)
		if release, _, err := sqliteLock(lp); !errors.Is(err, errHeld) {
			if release != nil {
				release()
			}
			t.Fatalf("sqliteLock beside another process's: %v, want errHeld", err)
		}
		child.Process.Kill()
		child.Wait()
		release, _, err := sqliteLock(lp)
		if err != nil {
			t.Fatalf("after the holder was killed: %v", err)
		}
		// In one process, too, a second hold is refused until the first ends.
		if r2, _, err := sqliteLock(lp); !errors.Is(err, errHeld) {
			if r2 != nil {
				r2()
			}
			t.Errorf("a second sqliteLock in the same process: %v, want errHeld", err)
		}
		if err := release(); err != nil {
			t.Fatal(err)
		}
		r3, _, err := sqliteLock(lp)
		if err != nil {
			t.Fatalf("after release: %v", err)
		}
		r3()
	})
}
