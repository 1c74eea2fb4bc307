package secrettest

import (
	"encoding/base64"
	"fmt"
	"mime/quotedprintable"
	"strings"
	"unicode/utf16"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// utf16le is s as UTF-16, little endian (btoa of a JavaScript string's
// char codes, .NET's Encoding.Unicode).
func utf16le(s string) string {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

// quotedPrintable is MIME's quoted-printable, soft line breaks every 8
// characters (an e-mail's body).
func quotedPrintable(s string) string {
	var b strings.Builder
	w := quotedprintable.NewWriter(&b)
	_, _ = w.Write([]byte(s))
	_ = w.Close()
	out := b.String()
	var folded strings.Builder
	for i, n := 0, 0; i < len(out); i++ {
		folded.WriteByte(out[i])
		if n++; n >= 8 && out[i] != '=' && (i+1 >= len(out) || out[i+1] != '=') && (i < 1 || out[i-1] != '=') {
			folded.WriteString("=\r\n")
			n = 0
		}
	}
	return folded.String()
}

// cssEscapes writes every character as a CSS escape (\68 \75 …).
func cssEscapes(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\%x `, r)
	}
	return b.String()
}

// octalEscapes writes every byte as an octal escape (\150\165…).
func octalEscapes(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		fmt.Fprintf(&b, `\%03o`, c)
	}
	return b.String()
}

// zeroWidth puts a zero-width space between every two characters.
func zeroWidth(s string) string { return strings.Join(strings.Split(s, ""), "\u200b") }

// fullwidth writes ASCII letters, digits and marks in their fullwidth forms.
func fullwidth(s string) string {
	return strings.Map(func(r rune) rune {
		if r > ' ' && r < 0x7f {
			return r + 0xfee0
		}
		if r == ' ' {
			return 0x3000
		}
		return r
	}, s)
}
