package secrets

import (
	"bytes"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
)

// decodeBase64 decodes a run in the standard or URL alphabet, padded or not,
// ignoring a last incomplete group, into buf; nil when it is neither.
func decodeBase64(buf, run []byte) []byte {
	s := bytes.TrimRight(run, "=")
	if len(s)%4 == 1 {
		s = s[:len(s)-1]
	}
	enc := base64.RawStdEncoding
	if bytes.ContainsAny(s, "-_") {
		enc = base64.RawURLEncoding
	}
	out := grow(buf, enc.DecodedLen(len(s)))
	n, err := enc.Decode(out, s)
	if err != nil {
		return nil
	}
	return out[:n]
}

// decodeHex decodes a run of hex digits into buf, a last odd digit left.
func decodeHex(buf, run []byte) []byte {
	run = bytes.TrimRight(run, "=")
	run = run[:len(run)&^1]
	out := grow(buf, len(run)/2)
	if _, err := hex.Decode(out, run); err != nil {
		return nil
	}
	return out
}

// base32Tail is the longest whole tail of a group of len%8 characters.
var base32Tail = [8]int{0, 0, 2, 2, 4, 5, 5, 7}

// decodeBase32 decodes a run in RFC 4648's alphabet (capitals), padded or
// not, ignoring a last incomplete group, into buf.
func decodeBase32(buf, run []byte) []byte {
	s := bytes.TrimRight(run, "=")
	s = s[:len(s)/8*8+base32Tail[len(s)%8]]
	enc := base32.StdEncoding.WithPadding(base32.NoPadding)
	out := grow(buf, enc.DecodedLen(len(s)))
	n, err := enc.Decode(out, s)
	if err != nil {
		return nil
	}
	return out[:n]
}

// grow is buf with room for n bytes, its length n.
func grow(buf []byte, n int) []byte {
	if cap(buf) < n {
		return make([]byte, n, max(n, 64))
	}
	return buf[:n]
}
