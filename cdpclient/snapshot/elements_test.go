package snapshot

import (
	"regexp"
	"slices"
	"testing"
)

// elementPattern is what elements implements by hand.
var elementPattern = regexp.MustCompile(`\d+\[:\]<[a-z][\w-]*[^>]*>.*?</[a-z][\w-]*>`)

// FuzzElements: the scanner finds exactly what the pattern finds.
func FuzzElements(f *testing.F) {
	for _, s := range []string{
		`12[:]<button>Save</button>`,
		`_[:]Read the <x> 3[:]<a href=/x>docs</a> and 4[:]<a>more</a> today`,
		`1[:]<>x</a> 2[:]<b a="1">y</b-2>`,
		`[:]<a>no digits</a> 7[:]<a>ok</a>`,
		`5[:]<a>open 6[:]<b>inner</b> tail</a>`,
		`9[:]<input type=text></input> 10[:]<select>a,b</select`,
		`x1[:]<a>y</A> 2[:]<a>z</a_1>`,
		"\xff3[:]<a>\u00e9</a>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		got, want := elements(l), elementPattern.FindAllString(l, -1)
		if !slices.Equal(got, want) {
			t.Fatalf("elements(%q) = %q, want %q", l, got, want)
		}
	})
}
