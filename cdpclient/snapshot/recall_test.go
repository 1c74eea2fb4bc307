package snapshot

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMeasureReading(t *testing.T) {
	tests := []struct {
		name, article, text string
		recall, outside     float64
	}{
		{"all words, markup ignored", "The quick brown fox jumps.", "_[:]The quick 3[:]<a>brown fox</a> jumps", 1, 0},
		{"short words do not count", "An ox is big and red", "_[:]big and red", 1, 0},
		{"half", "alpha beta gamma delta", "_[:]alpha beta", 0.5, 0},
		{"outside words", "alpha beta", "_[:]alpha beta gamma delta", 1, 0.5},
		{"form values count", "hello world", `3[:]<input value="hello world">Greeting</input>`, 1, 1.0 / 3},
		{"unspaced script across a link", "前文链接后文。", "_[:]前文 4[:]<a>链接</a> 后文", 1, 0},
		{"case and accents", "Élan Vital", "_[:]élan VITAL", 1, 0},
		{"a link named by its address", "a link here", `_[:]a 3[:]<a href=/x/y.html>link</a> here`, 1, 0},
		{"link addresses do not count", "read the docs", `_[:]read 4[:]<a href=https://x.org/manual>the docs</a>, [the docs](https://x.org/guide "Guide")`, 1, 0},
	}
	for _, tc := range tests {
		r := MeasureReading(tc.article, tc.text)
		if diff := cmp.Diff([]float64{tc.recall, tc.outside}, []float64{r.Recall, r.Outside}); diff != "" {
			t.Errorf("%s: (recall, outside) (-want +got):\n%s (missing %q)", tc.name, diff, r.Missing)
		}
	}
}
