package featureslots

import "testing"

// A key's value is made once, on first use; other keys have their own.
func TestGetMakesOnce(t *testing.T) {
	type keyA struct{}
	type keyB struct{}
	var s Slots
	made := 0
	mk := func() any { made++; return &made }
	a := s.Get(keyA{}, mk)
	if s.Get(keyA{}, mk) != a || made != 1 {
		t.Errorf("keyA made %d times", made)
	}
	if b := s.Get(keyB{}, func() any { return "b" }); b != "b" {
		t.Errorf("keyB = %v", b)
	}
}
