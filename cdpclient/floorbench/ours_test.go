package main

import "testing"

// Targets are found in a snapshot as the bench's adapter finds them: by
// role and exact name first, then a name that holds the one asked for.
func TestFindRef(t *testing.T) {
	const snap = `_[:]Sign in to continue
3[:]<a href=/help>Sign in help</a>
4[:]<input type=text placeholder=Username></input>
5[:]<input type=password>Password</input>
6[:]<button>Sign in</button>
7[:]<input type=submit value="Sign in now"></input>`
	for _, tc := range []struct {
		role, name string
		want       int
	}{
		{"textbox", "Username", 4},
		{"textbox", "Password", 5},
		{"button", "Sign in", 6},
		{"button", "now", 7},
		{"link", "help", 3},
		{"checkbox", "Sign in help", 3}, // no checkbox: any element whose name holds it
	} {
		if got, ok := findRef(snap, tc.role, tc.name); !ok || got != tc.want {
			t.Errorf("%s %q: ref %d, %v; want %d", tc.role, tc.name, got, ok, tc.want)
		}
	}
	if ref, ok := findRef(snap, "button", "Register"); ok {
		t.Errorf("a name that is nowhere: ref %d", ref)
	}
}
