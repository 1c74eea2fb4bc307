package tokens

import "testing"

func TestCount(t *testing.T) {
	// Counted with gpt-tokenizer's o200k_base in Node.
	if got := Count(`{"act":"navigate","ok":true,"code":0,"delta":{"url":"/aclu/source.html"}}`); got != 23 {
		t.Errorf("Count = %d, want 23", got)
	}
}
