package playwright_test

import (
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/npmci"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/learned"
	"github.com/cdpmcp/cdpmcp/learned/playwright"
)

// Playwright's test runner, pinned, installed into bin/npm-playwright the
// first time (as packaging installs the mcpb CLI into bin/npm-tools).
var (
	//go:embed testdata/runner/package.json
	runnerPackage []byte
	//go:embed testdata/runner/package-lock.json
	runnerLock []byte
)

// exported is the Playwright test of the order script a session learned on
// the learn site (learned/testdata/order.json, as a recording wrote it).
func exported(t *testing.T) string {
	t.Helper()
	s, err := learned.Read(filepath.Join("..", "testdata", "order.json"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := playwright.Export(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The test finds elements by role and name or by label, reads its params
// (the secret one without a value) from the environment, moves with
// START_URL and checks where each step led.
func TestExportText(t *testing.T) {
	t.Parallel()
	text := exported(t)
	for _, want := range []string{
		"import { test, expect } from '@playwright/test';",
		`const START = process.env.START_URL ?? "http://127.0.0.1:8931/learn/site/signin";`,
		`password: process.env.PARAM_PASSWORD ?? '', // secret`,
		`full_name: process.env.PARAM_FULL_NAME ?? "Ada Lovelace",`,
		`if (!params.password) throw new Error(`,
		`await page.goto(START);`,
		`await page.getByLabel("Password", { exact: true }).pressSequentially(params.password);`,
		`await page.getByRole("button", { name: "Sign in", exact: true }).click();`,
		`await expect(page).toHaveURL(new RegExp(esc(new URL("order", START).pathname`,
		`await expect(page).toHaveTitle(/New order · Acme/i);`,
		`await page.getByLabel(/^Delivery/).selectOption([params.delivery]);`,
		`await page.getByLabel("Gift wrap", { exact: true }).check();`,
		`await expect(page.getByText(/Order received/i).first()).toBeVisible();`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the test lacks %s\n%s", want, text)
		}
	}
	if strings.Contains(text, "#f-go") || strings.Contains(text, "#f-email") {
		t.Errorf("the test finds elements by CSS where a role or label names them:\n%s", text)
	}
}

// Playwright's own runner runs the exported test green on the site it was
// learned on and on its redesign (other ids, classes and layout), placing
// the order; on the site whose button was renamed it fails at that button.
// One run of the runner (one node, one browser) takes the three sites: a
// copy of the test for each, which sets the environment the test reads
// (START_URL, PARAM_FULL_NAME) before it reads it.
func TestExportRunsGreenInPlaywright(t *testing.T) {
	t.Parallel()
	ctx := testbound.Context(t)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	runner := filepath.Join(root, "bin", "npm-playwright")
	if err := npmci.Install(ctx, runner, runnerPackage, runnerLock, filepath.Join("node_modules", "@playwright", "test", "cli.js"), "Playwright's test runner"); err != nil {
		t.Fatal(err)
	}
	site, err := fixtures.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(runner, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
		"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	// Chromium's headless shell, as Playwright's own headless runs use
	// (its chromium-headless-shell): half the CPU of a headless full Chromium.
	browser := "/usr/bin/chromium"
	if shell, ok := browserproc.FindHeadlessShell(); ok {
		browser = shell
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	write("playwright.config.js", fmt.Sprintf(`module.exports = {
  testDir: '.', outputDir: 'results', reporter: 'line', workers: 1, retries: 0,
  timeout: %d, expect: { timeout: %d },
  use: { headless: true, actionTimeout: %d, launchOptions: { executablePath: %q, args: [%s] } },
};
`, testbound.Scale(20_000_000_000).Milliseconds(), testbound.Scale(5_000_000_000).Milliseconds(), testbound.Scale(5_000_000_000).Milliseconds(), browser, strings.Join(quoted, ", ")))
	variants := []string{"site", "moved", "renamed"}
	for i, v := range variants {
		// Named so that the runner takes them in this order: the failing
		// one last, so that no browser is started again after it.
		write(fmt.Sprintf("%d-%s.spec.ts", i+1, v), fmt.Sprintf("process.env.START_URL = %q;\nprocess.env.PARAM_FULL_NAME = %q;\n",
			site.URL("/learn/"+v+"/signin"), "Playwright "+v)+exported(t))
	}
	cmd := exec.CommandContext(ctx, "node", filepath.Join(runner, "node_modules", "@playwright", "test", "cli.js"), "test", "--config", "playwright.config.js")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PARAM_PASSWORD="+fixtures.LearnPassword, "CI=1", "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1", "NO_COLOR=1",
		// Its transform cache goes with the test's folder, not into TMPDIR.
		"PLAYWRIGHT_TRANSFORM_CACHE_DIR="+filepath.Join(dir, "cache"))
	b, err := cmd.CombinedOutput()
	out := string(b)
	if err == nil || !strings.Contains(out, "2 passed") || !strings.Contains(out, "1 failed") {
		t.Fatalf("playwright test: %v (want 2 passed, 1 failed)\n%s", err, out)
	}
	for _, v := range variants[:2] {
		found := false
		for _, o := range site.LearnOrders() {
			found = found || (o.Variant == v && o.Name == "Playwright "+v && o.Shipping == "express" && o.Gift)
		}
		if !found {
			t.Errorf("%s: the test placed no order: %+v", v, site.LearnOrders())
		}
	}
	// The one that failed is the renamed site's, at the Sign in button.
	failed := regexp.MustCompile(`(?m)^\s+1\) (\S+\.spec\.ts):`).FindStringSubmatch(out)
	if failed == nil || failed[1] != "3-renamed.spec.ts" || !strings.Contains(out, `getByRole('button', { name: 'Sign in', exact: true })`) {
		t.Errorf("renamed: the test did not fail at the Sign in button:\n%s", out)
	}
}
