package secrets

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
)

// A value's bytes or characters as a list of numbers (evaluate's answer of
// a Uint8Array from TextEncoder, of [...v].map(c => c.charCodeAt(0)), a
// page's codePointAt list) are masked whole; lists of ordinary numbers, and
// a list that only holds part of the value, stay.
func TestNumberListsOfAValue(t *testing.T) {
	t.Parallel()
	const s = "Zq9-horse-Bättery😀"
	list := func(nums []int, sep string) string {
		var parts []string
		for _, n := range nums {
			parts = append(parts, fmt.Sprint(n))
		}
		return strings.Join(parts, sep)
	}
	var utf8Bytes, units, points []int
	for _, b := range []byte(s) {
		utf8Bytes = append(utf8Bytes, int(b))
	}
	for _, u := range utf16.Encode([]rune(s)) {
		units = append(units, int(u))
	}
	for _, r := range s {
		points = append(points, int(r))
	}
	r := New()
	r.Enter(s, Entry{})
	for _, text := range []string{
		"[" + list(utf8Bytes, ",") + "]",
		`{"result":[` + list(units, ",") + `]}`,
		"codes: " + list(points, ", ") + ".",
		`"` + list(utf8Bytes, ",") + `"`,
	} {
		if got := r.Redact(text); strings.Contains(got, "104") || !strings.Contains(got, Mask) {
			t.Errorf("%q reads %q", text, got)
		}
	}
	for _, text := range []string{
		"[" + list(utf8Bytes[:len(utf8Bytes)-2], ",") + "]",
		"[12,34,56,78,90,1.5,2024, 11, 30]",
		"1,234,567 visitors",
	} {
		if got := r.Redact(text); got != text {
			t.Errorf("%q reads %q", text, got)
		}
	}
}
