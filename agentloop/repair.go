package agentloop

import (
	"encoding/json"
	"strings"
)

// matchBrace returns the index of the brace closing the one at start, skipping
// strings, or -1.
func matchBrace(s string, start int) int {
	depth, inStr, esc := 0, false, false
	for i := start; i < len(s); i++ {
		c := s[i]
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// decodeObject decodes s as an object, repairing trailing commas and comments
// when it does not decode as it is.
func decodeObject(s string) map[string]json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(s), &obj) == nil {
		return obj
	}
	if json.Unmarshal(repairJSON(s), &obj) == nil {
		return obj
	}
	return nil
}

// repairJSON drops // and /* */ comments, then commas before a closing
// bracket, outside strings.
func repairJSON(s string) []byte {
	return dropTrailingCommas(dropComments(s))
}

// scanJSON calls keep for each byte outside strings (with its index) and
// copies the bytes it keeps; strings are copied whole.
func scanJSON(s string, keep func(i int) (skipTo int)) string {
	var b strings.Builder
	inStr, esc := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inStr {
			b.WriteByte(c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
			b.WriteByte(c)
			continue
		}
		if next := keep(i); next > i {
			i = next - 1
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func dropComments(s string) string {
	return scanJSON(s, func(i int) int {
		switch {
		case strings.HasPrefix(s[i:], "//"):
			if end := strings.IndexByte(s[i:], '\n'); end >= 0 {
				return i + end
			}
			return len(s)
		case strings.HasPrefix(s[i:], "/*"):
			if end := strings.Index(s[i+2:], "*/"); end >= 0 {
				return i + 2 + end + 2
			}
			return len(s)
		}
		return i
	})
}

func dropTrailingCommas(s string) []byte {
	return []byte(scanJSON(s, func(i int) int {
		if s[i] != ',' {
			return i
		}
		j := i + 1
		for j < len(s) && strings.IndexByte(" \t\r\n", s[j]) >= 0 {
			j++
		}
		if j < len(s) && (s[j] == '}' || s[j] == ']') {
			return i + 1
		}
		return i
	}))
}
