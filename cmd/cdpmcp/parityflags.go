package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/state"
	"github.com/cdpmcp/cdpmcp/tools"
	"github.com/urfave/cli/v2"
)

// parityFlags are the flags of issue 15: capability groups and a config file.
func parityFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "caps", EnvVars: env("CAPS"), Usage: "offer these capability groups besides the core tools (comma-separated: " +
			strings.Join(tools.Caps(), ", ") + "; all for every one, slim for a smaller core)"},
		&cli.StringFlag{Name: "downloads-dir", EnvVars: env("DOWNLOADS_DIR"), Usage: "save downloads in `DIR` (each HTTP session in a subfolder), kept on exit (default: a folder per session inside the browser profile, removed with it)"},
		&cli.StringFlag{Name: "storage-state", EnvVars: env("STORAGE_STATE"), Usage: "start every session signed in: load cookies and localStorage from `FILE` (saved by the storageState tool, or Playwright's format)"},
		&cli.StringFlag{Name: "config", EnvVars: env("CONFIG"), Usage: "read flags from `FILE`, a JSON object of flag names and values, e.g. {\"headless\": true, \"caps\": \"vision,storage\"}; the command line and environment win"},
	}
}

// parityConfigFrom reads the capability groups into cfg; the config file has
// been applied by then (applyConfigFile).
func parityConfigFrom(c *cli.Context, cfg *config) error {
	cfg.tools.Caps = []string{} // not nil: nil would offer every group
	if c.String("caps") != "" {
		cfg.tools.Caps = splitList(c.String("caps"))
	}
	if err := tools.CheckCaps(cfg.tools.Caps); err != nil {
		return fmt.Errorf("--caps: %w", err)
	}
	if c.IsSet("data-dir") && !slices.Contains(cfg.tools.Caps, tools.CapJobs) {
		// Naming where jobs live is asking for them.
		cfg.tools.Caps = append(cfg.tools.Caps, tools.CapJobs)
	}
	if path := c.String("storage-state"); path != "" {
		st, err := state.ReadFile(path)
		if err != nil {
			return fmt.Errorf("--storage-state: %w", err)
		}
		cfg.browser.SetupContext = state.Loader(st)
	}
	if dir := c.String("downloads-dir"); dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return fmt.Errorf("--downloads-dir: %w", err)
		}
		cfg.browser.DownloadsDir = abs
	}
	return nil
}

// applyConfigFile sets, from the JSON object in the --config file, every flag
// of the command that neither the command line nor the environment set. A
// value is a string, number or boolean, or an array for a repeatable flag (or
// a comma-separated list).
func applyConfigFile(c *cli.Context) error {
	path := c.String("config")
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("--config: %w", err)
	}
	var values map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&values); err != nil {
		return fmt.Errorf("--config %s: not a JSON object of flags: %w", path, err)
	}
	known := map[string]cli.Flag{}
	for _, f := range c.Command.Flags {
		for _, n := range f.Names() {
			known[n] = f
		}
	}
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		name := strings.TrimLeft(key, "-")
		f, ok := known[name]
		if !ok || name == "config" {
			if name != "config" && anyCommandHas(c.App, name) {
				continue // a flag of another command (serve's --http for call)
			}
			return fmt.Errorf("--config %s: %q is not a flag of %s (flags: %s)", path, key, c.Command.Name, strings.Join(flagNames(c.Command.Flags), ", "))
		}
		if c.IsSet(name) {
			continue // the command line or the environment said otherwise
		}
		vals, err := configValues(values[key])
		if err != nil {
			return fmt.Errorf("--config %s: %s: %w", path, key, err)
		}
		if _, isSlice := f.(*cli.StringSliceFlag); !isSlice {
			vals = []string{strings.Join(vals, ",")}
		}
		for _, v := range vals {
			if err := c.Set(name, v); err != nil {
				return fmt.Errorf("--config %s: %s: %w", path, key, err)
			}
		}
	}
	return nil
}

// configValues turns one JSON value into flag values.
func configValues(raw json.RawMessage) ([]string, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case string:
		return []string{x}, nil
	case bool:
		return []string{strconv.FormatBool(x)}, nil
	case json.Number:
		return []string{x.String()}, nil
	case []any:
		var out []string
		for _, e := range x {
			s, err := configValues(mustJSON(e))
			if err != nil {
				return nil, err
			}
			out = append(out, s...)
		}
		return out, nil
	}
	return nil, fmt.Errorf("give a string, number, boolean or array, not %s", raw)
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// anyCommandHas reports whether some command of the app has the flag name, so
// one config file serves serve, call and tools alike.
func anyCommandHas(app *cli.App, name string) bool {
	for _, cmd := range app.Commands {
		for _, f := range cmd.Flags {
			if slices.Contains(f.Names(), name) {
				return true
			}
		}
	}
	return false
}

func flagNames(flags []cli.Flag) []string {
	var out []string
	for _, f := range flags {
		if n := f.Names()[0]; n != "config" && n != "help" {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}
