//go:build unix

// Package pgtest gives tests a real PostgreSQL: one server per test binary,
// started from the system's binaries (initdb, pg_ctl) in a temporary
// directory, listening on a free port of 127.0.0.1 only, and a fresh
// database for each call of URL.
//
// A test binary that uses it calls Main from its TestMain, which stops the
// server once the tests have run:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
// Should the binary die without running Main's cleanup (a panic, a test's
// timeout, kill -9), a watcher started with the server stops it once the
// binary's process is gone, and its directory is removed.
//
// Where the binaries are missing, URL skips the test with a message; under
// CI (CI=true), which installs PostgreSQL, it fails the test instead. It
// runs on Unix (pgtest_other.go skips elsewhere).
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"mafia/internal/freeport"
)

// server is the one PostgreSQL of this test binary.
type server struct {
	bin  string // the directory of initdb, pg_ctl and postgres
	dir  string // the temporary directory: data/, the socket, the log
	port int
	cred *syscall.Credential // whom the server runs as, when the tests run as root
	opts string              // pg_ctl's -o: the address, port and settings it was started with
	// watched: the watcher runs, and removes the directory once the
	// binary has gone (stop leaves it to it).
	watched bool
}

var (
	once    sync.Once
	srv     *server
	srvErr  error
	missing bool // the binaries are not installed
	dbs     atomic.Int64
	// strategy is CREATE DATABASE's STRATEGY clause for the server's
	// version (see URL).
	strategy     string
	strategyOnce sync.Once
	// The template of Migrated's databases, migrated once.
	tmplOnce sync.Once
	tmplName string
	tmplErr  error
)

// Main runs the tests of m, stops the server if one was started, and exits
// with the tests' code.
func Main(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

// Stop stops the server if one was started, and removes its directory. Main
// calls it; a TestMain that cannot use Main calls it after m.Run.
func Stop() {
	if srv == nil {
		return
	}
	srv.stop()
	srv = nil
}

// URL returns the URL of a new, empty database on the test binary's
// PostgreSQL, starting the server at the first call. It skips t when
// PostgreSQL is not installed (fails it under CI=true).
func URL(t testing.TB) string {
	t.Helper()
	ready(t)
	name := fmt.Sprintf("t%d", dbs.Add(1))
	if err := create(name, ""); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	return srv.url(name)
}

// Migrated returns the URL of a new database that is a copy of one made
// once for the test binary and brought up to date by migrate, the code
// under test's own (a store's Open, then its Close): each test still gets
// a database of its own, as the code under test leaves a new one, without
// running every migration again (about as much of the server's CPU as
// making the database). migrate must close every connection it opened:
// PostgreSQL copies only a database nobody is connected to. Every call of
// a test binary must pass the same migrate. A test of the migrations
// themselves uses URL.
func Migrated(t testing.TB, migrate func(url string) error) string {
	t.Helper()
	ready(t)
	tmplOnce.Do(func() {
		tmplName = fmt.Sprintf("t%d", dbs.Add(1))
		if tmplErr = create(tmplName, ""); tmplErr == nil {
			if err := migrate(srv.url(tmplName)); err != nil {
				tmplErr = fmt.Errorf("migrate the template database: %w", err)
			}
		}
	})
	if tmplErr != nil {
		t.Fatalf("pgtest: %v", tmplErr)
	}
	name := fmt.Sprintf("t%d", dbs.Add(1))
	if err := create(name, tmplName); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	return srv.url(name)
}

// ready starts the server at the first call; it skips t when PostgreSQL
// is not installed (fails it under CI=true), and fails it when the server
// did not start.
func ready(t testing.TB) {
	t.Helper()
	once.Do(func() { srv, srvErr = start() })
	if missing {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pgtest: PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin nor on PATH), and CI must run these tests")
		}
		t.Skip("pgtest: PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin nor on PATH): skipped")
	}
	if srvErr != nil {
		t.Fatalf("pgtest: start PostgreSQL: %v", srvErr)
	}
}

// create makes the database name, a copy of template ("": PostgreSQL's
// default, template1).
func create(name, template string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, srv.url("postgres"))
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(ctx)
	strategyOnce.Do(func() {
		// FILE_COPY (PostgreSQL 15 and later) copies the template's files
		// and checkpoints, which fsync=off makes cheap; 15's default,
		// WAL_LOG, writes every block of the template through the
		// write-ahead log: 0.18 CPU-s of the server's a database against
		// 0.07 (measured on this machine's PostgreSQL 15), for the
		// hundreds of databases a CI run makes.
		var v int
		if conn.QueryRow(ctx, "SELECT current_setting('server_version_num')::int").Scan(&v) == nil && v >= 150000 {
			strategy = " STRATEGY FILE_COPY"
		}
	})
	sql := "CREATE DATABASE " + name
	if template != "" {
		sql += " TEMPLATE " + template
	}
	if _, err := conn.Exec(ctx, sql+strategy); err != nil {
		return fmt.Errorf("create database %s: %w", name, err)
	}
	return nil
}

func (s *server) url(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, db)
}

// findBin returns the directory of the newest installed PostgreSQL's
// binaries, or "".
func findBin() string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if isFile(filepath.Join(d, "initdb")) && isFile(filepath.Join(d, "pg_ctl")) {
			return d
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		d := filepath.Dir(p)
		if isFile(filepath.Join(d, "pg_ctl")) {
			return d
		}
	}
	return ""
}

// version is the major version in a path /usr/lib/postgresql/N/bin.
func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

func start() (*server, error) {
	bin := findBin()
	if bin == "" {
		missing = true
		return nil, nil
	}
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, err
	}
	s := &server{bin: bin, dir: dir}
	if os.Geteuid() == 0 {
		// PostgreSQL refuses to run as root: run it as its own user (or
		// nobody), who must own the directory.
		if s.cred, err = unprivileged(); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		if err := os.Chown(dir, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	if out, err := s.run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8",
		"--no-locale", "--no-sync", "--no-instructions"); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	// A free port may be taken between finding it and the server binding
	// it: try a few.
	for try := 0; ; try++ {
		if s.port, err = freeport.Port(); err != nil { // below the ephemeral range: Down and Up restart PostgreSQL on it
			os.RemoveAll(dir)
			return nil, err
		}
		opts := strings.Join([]string{
			"-c listen_addresses=127.0.0.1",
			"-p " + strconv.Itoa(s.port),
			"-k " + dir, // the unix socket, in the directory only
			"-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off",
			"-c max_connections=200",
		}, " ")
		out, err := s.run("pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-o", opts, "-w", "-t", "60", "start")
		if err == nil {
			s.opts = opts
			break
		}
		if try == 4 {
			log, _ := os.ReadFile(filepath.Join(dir, "log"))
			os.RemoveAll(dir)
			return nil, fmt.Errorf("pg_ctl start: %v: %s\n%s", err, out, log)
		}
	}
	s.watch()
	return s, nil
}

// watch starts a process that stops the server and removes its directory
// once this test binary's process is gone, however it ended.
func (s *server) watch() {
	// It looks in /proc, not with kill -0, which another user may not send.
	script := fmt.Sprintf(`while [ -d /proc/%d ]; do sleep 1; done
[ -d %q ] && %q -D %q -m immediate stop >/dev/null 2>&1
rm -rf %q`, os.Getpid(), filepath.Join(s.dir, "data"), filepath.Join(s.bin, "pg_ctl"),
		filepath.Join(s.dir, "data"), s.dir)
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if s.cred != nil {
		// pg_ctl must run as the server's user; removing the directory,
		// which is that user's, works as well.
		cmd.SysProcAttr.Credential = s.cred
	}
	if cmd.Start() == nil {
		s.watched = true
		// Not waited for: it outlives this process by design, and a
		// goroutine blocked in Wait until then would be one left running
		// for the packages whose tests check that none is (goleak).
		_ = cmd.Process.Release()
	}
}

// stop stops the server and removes its directory.
//
// It signals the postmaster itself rather than waiting on `pg_ctl stop -w`:
// an immediate stop asks every backend to quit, and a backend of one of the
// binary's own connections, still open and unread at this point, may block
// telling its client so until the postmaster kills it 5 s later; pg_ctl
// then polls for the pid file. The server's data is thrown away anyway:
// the postmaster gets SIGQUIT (an immediate stop), a short wait, then
// SIGKILL; backends left over end with this process's connections. The
// directory is left to the watcher (see watch), which removes it once this
// process has gone: a data directory of a package's hundred databases is
// tens of thousands of files, and removing them here took 7 s that held
// the package (store/postgres sat 12 to 61 s after its last test, CI's
// race step included; the postmaster is gone in 0.1 s).
func (s *server) stop() {
	data := filepath.Join(s.dir, "data")
	if pid := postmasterPID(data); pid > 0 {
		_ = syscall.Kill(pid, syscall.SIGQUIT)
		for deadline := time.Now().Add(2 * time.Second); alive(pid) && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		if alive(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	} else {
		_, _ = s.run("pg_ctl", "-D", data, "-m", "immediate", "-w", "-t", "10", "stop")
	}
	if !s.watched {
		os.RemoveAll(s.dir)
	}
}

// postmasterPID is the pid in the data directory's postmaster.pid (its
// first line), 0 when there is none.
func postmasterPID(data string) int {
	b, err := os.ReadFile(filepath.Join(data, "postmaster.pid"))
	if err != nil {
		return 0
	}
	first, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil || pid <= 1 {
		return 0
	}
	return pid
}

// alive reports whether process pid runs (a zombie, which its parent has
// not reaped yet, does not).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	// The state follows the command's closing parenthesis: "pid (comm) S ...".
	_, rest, ok := strings.Cut(string(b), ") ")
	return ok && !strings.HasPrefix(rest, "Z")
}

// run runs one of the server's binaries (as the server's user).
func (s *server) run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return cmd.CombinedOutput()
}

// unprivileged returns the user the server runs as under root: postgres,
// else nobody.
func unprivileged() (*syscall.Credential, error) {
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, err1 := strconv.Atoi(u.Uid)
		gid, err2 := strconv.Atoi(u.Gid)
		if err1 == nil && err2 == nil {
			return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
		}
	}
	return nil, errors.New("running as root, and there is no user postgres nor nobody to run PostgreSQL as")
}

// Down stops the test binary's PostgreSQL as a restart or a managed
// failover does (pg_ctl's fast mode: open sessions are ended, transactions
// under way roll back), keeping its data, so that Up can start it again
// on the same port: for tests of what a server does while its database is
// briefly away. It fails t if no server was started (call URL first).
func Down(t testing.TB) {
	t.Helper()
	if srv == nil {
		t.Fatal("pgtest: Down before URL started PostgreSQL")
	}
	if out, err := srv.run("pg_ctl", "-D", filepath.Join(srv.dir, "data"), "-m", "fast", "-w", "-t", "60", "stop"); err != nil {
		t.Fatalf("pgtest: pg_ctl stop: %v: %s", err, out)
	}
}

// Up starts the PostgreSQL that Down stopped, on the same port with the
// same settings and data, and returns once it takes connections.
func Up(t testing.TB) {
	t.Helper()
	if srv == nil {
		t.Fatal("pgtest: Up before URL started PostgreSQL")
	}
	out, err := srv.run("pg_ctl", "-D", filepath.Join(srv.dir, "data"), "-l", filepath.Join(srv.dir, "log"),
		"-o", srv.opts, "-w", "-t", "60", "start")
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(srv.dir, "log"))
		t.Fatalf("pgtest: pg_ctl start again: %v: %s\n%s", err, out, log)
	}
}
