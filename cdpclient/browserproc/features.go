package browserproc

import "strings"

// WebMCPFeature is the Chromium feature that gives pages
// document.modelContext (registerTool, the tools a page offers agents) and
// the DevTools protocol its WebMCP domain. Chromium 146 and newer have it
// behind this feature; Launch turns it on unless Options.DisableWebMCP.
const WebMCPFeature = "WebMCPTesting"

// withFeature adds feature to the browser's --enable-features: to the
// user's own list when args hold one (Chromium reads only the last
// --enable-features, so a second one would drop the user's), else as a flag
// of its own in front of args.
func withFeature(args []string, feature string) []string {
	out := append([]string(nil), args...)
	for i := len(out) - 1; i >= 0; i-- {
		name, value, isFlag := flagName(out[i])
		if !isFlag || name != "enable-features" {
			continue
		}
		for _, f := range strings.Split(value, ",") {
			if strings.EqualFold(strings.TrimSpace(f), feature) {
				return out
			}
		}
		if value = strings.TrimSpace(value); value != "" {
			value += ","
		}
		out[i] = "--enable-features=" + value + feature
		return out
	}
	return append([]string{"--enable-features=" + feature}, out...)
}
