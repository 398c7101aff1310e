package wire

import (
	"reflect"
	"sort"
	"testing"

	"pgregory.net/rapid"
)

// fieldCoverage records which exported fields of the wire's structs have
// held a value other than their zero in the values a random-value
// generator drew, so that a field added to a struct but not to the
// generator of the encoder's tests fails them (the encoder would otherwise
// be held to encoding/json for every field but the new one).
type fieldCoverage struct {
	all, seen map[string]bool
}

// newFieldCoverage lists every field path below root (a struct type):
// "Events[].Kind", "View.Night.Shots". A struct with no exported fields
// (Rules) is one field.
func newFieldCoverage(root reflect.Type) *fieldCoverage {
	c := &fieldCoverage{all: map[string]bool{}, seen: map[string]bool{}}
	var walk func(t reflect.Type, path string)
	walk = func(t reflect.Type, path string) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct {
			walk(t.Elem(), path+"[]")
			return
		}
		if t.Kind() != reflect.Struct {
			return
		}
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			p := f.Name
			if path != "" {
				p = path + "." + f.Name
			}
			c.all[p] = true
			walk(f.Type, p)
		}
	}
	walk(root, "")
	return c
}

// add marks the fields of v (a pointer to a value of the root type) that
// hold a value.
func (c *fieldCoverage) add(v any) {
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return
			}
			v = v.Elem()
		}
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Struct {
			for i := range v.Len() {
				walk(v.Index(i), path+"[]")
			}
			return
		}
		if v.Kind() != reflect.Struct {
			return
		}
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			p := f.Name
			if path != "" {
				p = path + "." + f.Name
			}
			if !v.Field(i).IsZero() {
				c.seen[p] = true
			}
			walk(v.Field(i), p)
		}
	}
	walk(reflect.ValueOf(v), "")
}

// missing lists the fields no value drawn ever set, sorted.
func (c *fieldCoverage) missing() []string {
	var out []string
	for p := range c.all {
		if !c.seen[p] {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// checkCovering runs the property prop (whose generator adds every value
// it draws to cov) as rapid.Check does, then again while some field has
// not been drawn yet, up to 30 rounds: rapid draws nested optional parts
// rarely, so one round may miss a field by chance, but a field the
// generator never sets stays missing and fails the test.
func checkCovering(t *testing.T, cov *fieldCoverage, prop func(*rapid.T)) {
	t.Helper()
	rapid.Check(t, prop)
	for round := 1; round < 30 && len(cov.missing()) > 0 && !t.Failed(); round++ {
		rapid.Check(t, prop)
	}
	if missing := cov.missing(); len(missing) > 0 {
		t.Errorf("the generator never sets %v: add each to it, so that the encoder is held to encoding/json for it too", missing)
	}
}
