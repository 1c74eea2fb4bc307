// Package tokens counts o200k tokens exactly (the tokenizer of GPT-4o and
// later), for tests and benchmarks that hold answers to token budgets. The
// server itself estimates (cdpclient/snapshot.Estimate): this package is only
// linked into tests.
package tokens

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

var (
	once sync.Once
	enc  tokenizer.Codec
)

// Count returns the number of o200k tokens of s.
func Count(s string) int {
	once.Do(func() {
		var err error
		if enc, err = tokenizer.Get(tokenizer.O200kBase); err != nil {
			panic(err) // the encoding is embedded in the library
		}
	})
	ids, _, _ := enc.Encode(s)
	return len(ids)
}
