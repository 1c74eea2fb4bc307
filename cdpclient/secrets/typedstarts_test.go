package secrets

import "testing"

// The start of a value typed key by key is masked where it stands as the
// page saw it (a strength meter's request, a console line as each key went
// in), not inside longer words and numbers that only begin like it: a
// password "summer2024" or "Password1" typed key by key left "summer2025",
// "Summer2023", "Password2" and "Passwords" on every page read after as
// "[secret]5", "[secret]3", "[secret]2", "[secret]s".
func TestTypedStartsInsideLongerWordsStay(t *testing.T) {
	t.Parallel()
	r := New()
	r.Enter("summer2024", Entry{Typed: true})
	r.Enter("Password1", Entry{Typed: true})
	for in, want := range map[string]string{
		"Shop the summer2025 sale":      "Shop the summer2025 sale",
		"Summer2023 recap":              "Summer2023 recap",
		"Password2 is taken":            "Password2 is taken",
		"Passwords must match":          "Passwords must match",
		"Passwordless sign-in":          "Passwordless sign-in",
		"/strength?pw=summer202&x=1":    "/strength?pw=" + Mask + "&x=1",
		"checking summer202":            "checking " + Mask,
		"log checking Passwo\nlog done": "log checking " + Mask + "\nlog done",
		"you typed summer2024!":         "you typed " + Mask + "!",
		"summer2024x":                   Mask + "x",
		`{"pw":"Password1"}`:            `{"pw":"` + Mask + `"}`,
	} {
		if got := r.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
