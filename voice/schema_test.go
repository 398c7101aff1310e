package voice_test

import (
	"bytes"
	"os"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The voice frames of these tests, both ways, are held to
// docs/protocol.schema.json.
var (
	schemaOnce sync.Once
	schemas    map[string]*jsonschema.Schema
	schemaErr  error
)

// checkSchema validates a frame against the schema's def (voice_message,
// client_message).
func checkSchema(t *testing.T, def string, frame []byte) {
	t.Helper()
	schemaOnce.Do(func() {
		f, err := os.Open("../docs/protocol.schema.json")
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
		c := jsonschema.NewCompiler()
		if schemaErr = c.AddResource("protocol.schema.json", doc); schemaErr != nil {
			return
		}
		schemas = map[string]*jsonschema.Schema{}
		for _, n := range []string{"voice_message", "client_message"} {
			if schemas[n], schemaErr = c.Compile("protocol.schema.json#/$defs/" + n); schemaErr != nil {
				return
			}
		}
	})
	if schemaErr != nil {
		t.Fatal(schemaErr)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(frame))
	if err != nil {
		t.Errorf("%s: %v", frame, err)
		return
	}
	if err := schemas[def].Validate(v); err != nil {
		t.Errorf("a %s off the schema: %s: %v", def, frame, err)
	}
}
