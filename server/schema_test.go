package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"mafia/client"
)

// This file checks docs/protocol.schema.json against what the server
// really sends and receives: every server test's connections (the raw
// driver's and client.Conn's, through its Tap) hand each frame to a
// recorder, which validates it at once; TestMain fails the package if any
// frame did not fit. A client's message is validated once its answer has
// come, unless it was refused for its shape (the tests send wrong messages
// on purpose: those codes say the server agreed it was not the protocol's).

// schemaFile is the schema, from the server package's directory.
var schemaFile = filepath.Join("..", "docs", "protocol.schema.json")

var (
	schemaOnce sync.Once
	schemaDefs map[string]*jsonschema.Schema
	schemaErr  error
	schemaCut  *schemaMemo // nil: every document is held to the whole schema
)

// schemaDef returns the schema's $defs entry name, compiled.
func schemaDef(name string) (*jsonschema.Schema, error) {
	schemaOnce.Do(func() {
		schemaDefs = map[string]*jsonschema.Schema{}
		f, err := os.Open(schemaFile)
		if err != nil {
			schemaErr = err
			return
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			schemaErr = err
			return
		}
		if schemaCut, err = newSchemaMemo(doc); err != nil {
			schemaErr = err
			return
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource("protocol.schema.json", doc); err != nil {
			schemaErr = err
			return
		}
		for _, n := range []string{"server_message", "client_message", "lobby", "create_request", "create_response",
			"join_request", "join_response", "tables_response", "error_body", "record"} {
			s, err := c.Compile("protocol.schema.json#/$defs/" + n)
			if err != nil {
				schemaErr = fmt.Errorf("compile %s: %w", n, err)
				return
			}
			schemaDefs[n] = s
		}
	})
	if schemaErr != nil {
		return nil, schemaErr
	}
	s, ok := schemaDefs[name]
	if !ok {
		return nil, fmt.Errorf("the schema has no $defs/%s", name)
	}
	return s, nil
}

// validate checks one JSON document (a frame: trailing padding is white
// space) against the schema's $defs entry def: through schemaCut (see
// schemamemo_test.go), which checks each distinct part of the frames
// once, when the schema can be taken apart.
func validate(def string, doc []byte) error {
	s, err := schemaDef(def)
	if err != nil {
		return err
	}
	if schemaCut != nil {
		return validateMemo(schemaCut, s, def, doc)
	}
	return validateWhole(s, doc)
}

// shapeRefusals are the codes that answer a message which is not the
// protocol's (as a test may send on purpose): such a message is not held
// to the schema.
var shapeRefusals = map[string]bool{"malformed": true, "bad_request": true, "unknown_verb": true,
	"no_such_seat": true, "host_only": true, "too_large": true, "bad_claim": true, "bad_result": true}

// frameCheck is what the package's recorders have seen.
var frameCheck struct {
	sync.Mutex
	frames   int      // validated
	failures []string // the first ones
	waiting  int      // client messages never answered (not validated)
}

func frameFailed(what string, frame []byte, err error) {
	frameCheck.Lock()
	defer frameCheck.Unlock()
	if len(frameCheck.failures) < 20 {
		frameCheck.failures = append(frameCheck.failures, fmt.Sprintf("%s %.600s\n  %v", what, bytes.TrimRight(frame, " "), err))
	} else if len(frameCheck.failures) == 20 {
		frameCheck.failures = append(frameCheck.failures, "…")
	}
}

// recorder validates one connection's frames against the schema.
type recorder struct {
	mu      sync.Mutex
	pending map[int64][]byte // sent, awaiting an answer, by id
}

func newRecorder() *recorder { return &recorder{pending: map[int64][]byte{}} }

// saw takes one frame: sent by the client (sent) or received.
func (r *recorder) saw(sent bool, frame []byte) {
	frame = bytes.Clone(frame)
	var head struct {
		ID   int64  `json:"id"`
		Type string `json:"type"`
		Code string `json:"code"`
	}
	_ = json.Unmarshal(frame, &head)
	r.mu.Lock()
	defer r.mu.Unlock()
	if sent {
		if head.ID == 0 {
			r.check("client_message", frame)
			return
		}
		r.pending[head.ID] = frame
		return
	}
	r.check("server_message", frame)
	if head.ID == 0 {
		return
	}
	if m, ok := r.pending[head.ID]; ok {
		delete(r.pending, head.ID)
		if !(head.Type == "error" && shapeRefusals[head.Code]) {
			r.check("client_message", m)
		}
	}
}

// check validates one frame, except under the race detector: CI runs the
// package's tests twice, once plainly (the README's go test ./..., where
// every frame is validated) and once under -race -short, where validating
// the same kinds of frames again only took CPU (about a fifth of a whole
// game's test under the detector) and proved nothing the detector looks
// for. The frames are still counted there.
func (r *recorder) check(def string, frame []byte) {
	frameCheck.Lock()
	frameCheck.frames++
	frameCheck.Unlock()
	if raceOn {
		return
	}
	if err := validate(def, frame); err != nil {
		frameFailed(def, frame, err)
	}
}

// recorders keep one recorder per client.Conn.
var recorders sync.Map // *client.Conn → *recorder

// tapConn is the Tap of every test server's client.API.
func tapConn(c *client.Conn, sent bool, frame []byte) {
	r, _ := recorders.LoadOrStore(c, newRecorder())
	r.(*recorder).saw(sent, frame)
}

// checkFrames reports, once the package's tests have run, whether every
// frame a test sent or received fitted docs/protocol.schema.json (saying
// which did not on standard error).
func checkFrames() bool {
	frameCheck.Lock()
	defer frameCheck.Unlock()
	if len(frameCheck.failures) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d frames did not fit %s (of %d checked):\n%s\n", len(frameCheck.failures), schemaFile,
			frameCheck.frames, strings.Join(frameCheck.failures, "\n"))
		return false
	}
	if testing.Verbose() && raceOn {
		fmt.Fprintf(os.Stderr, "%d frames seen, not held to %s under -race (the plain run holds them)\n", frameCheck.frames, schemaFile)
	} else if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "%d frames fit %s\n", frameCheck.frames, schemaFile)
	}
	return true
}
