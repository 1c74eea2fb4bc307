package agentloop

import "strings"

// keyFragment is the shortest run of an API key's characters that an error
// text may not repeat: providers echo a key they refuse, some whole, some in
// part ("sk-abc1…wxyz"), and the text goes to the caller, the run's record
// and its report.
const keyFragment = 8

// maskKey replaces in text every run of keyFragment or more characters that
// also occurs in key with "[api key]". A key shorter than keyFragment is
// masked only whole.
func maskKey(text, key string) string {
	if key == "" {
		return text
	}
	if len(key) < keyFragment {
		return strings.ReplaceAll(text, key, "[api key]")
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		n := commonRun(text[i:], key)
		if n >= keyFragment {
			b.WriteString("[api key]")
			i += n
			continue
		}
		b.WriteByte(text[i])
		i++
	}
	return b.String()
}

// commonRun is the length of the longest prefix of s that occurs in key.
func commonRun(s, key string) int {
	lo, hi := 0, min(len(s), len(key))
	for lo < hi { // the prefixes that occur in key are those up to some length
		mid := (lo + hi + 1) / 2
		if strings.Contains(key, s[:mid]) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
