# cdpmcp: `make run` serves it over HTTP on 127.0.0.1:$(PORT); `make test` checks everything.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

GO ?= go
PORT ?= 8931
# ARGS are more serve flags for make run, e.g. ARGS="--data-dir /tmp/jobs --read-only".
ARGS ?=
BIN := $(CURDIR)/bin
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(BIN)/staticcheck-$(STATICCHECK_VERSION)
STATICCHECK_CHECKS := inherit

# GoReleaser makes the release builds; go run caches it after the first build.
GORELEASER_VERSION := v2.15.1
GORELEASER := $(GO) run github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION)
PACKAGES := $(GO) run ./packaging/cmd/packages -dist dist -npm-tools $(BIN)/npm-tools

# The packages with goroutines of their own that drive real Chromium (cdpclient
# and its proxy and secrets, tools, liveview) run under the race detector.
# Every other package runs without it: cdpclient's pure packages (snapshot,
# reader, feedback, origins, cdppolicy) only took five times longer under it.
RACE_PKGS := ./cdpclient ./cdpclient/busy ./cdpclient/navstate ./cdpclient/tablife ./cdpclient/wakeup ./cdpclient/featureslots ./cdpclient/jsdialog ./cdpclient/worldmap ./cdpclient/reftable ./cdpclient/actionlock ./cdpclient/fetchguard ./cdpclient/browserproc ./cdpclient/cdpconn ./cdpclient/pagelog ./cdpclient/audit ./cdpclient/input ./cdpclient/egress ./cdpclient/secrets ./cdpclient/live ./cdpclient/network ./tools/... ./liveview/...
# Tests of the race packages that run without the race detector, from the
# plain queue (scripts/test/run.sh: the race lane skips them): tests with no
# goroutine of their own, one client calling in turn, whose CPU goes to the
# Go side's work on long texts (the corpus's 40 real pages through MCP, a
# page's 80 kB of a password's echoes redacted, a 10 MB evaluate answer),
# which -race makes dearer: 66.5 CPU-seconds under it, 57.8 without on a
# quiet machine (132 and 84 at a load of 45), for a plain build of tools'
# tests of about 10; the package's other tests check the same code under it.
# The redactor's equivalence test (700 texts, two matchers compared, one
# goroutine) takes 1.5 s without it and 29 under it. tools' tests of the job
# tools (files built only without -race: //go:build !race) open a job store
# on SQLite, which no other race package links: modernc.org/sqlite's race
# build alone is 48 CPU-seconds on a fresh machine (the jobs package, whose
# queue they drive, runs without -race too). tools' own test checks that
# this names every test of those files.
# PKG=REGEXP, one a word.
RACE_PLAIN := ./tools=^(TestCorpus|TestCorpusSecondHalf|TestGetContentCutKeepsSecretsWhole|TestEvaluateHugeAnswer|TestJobHandoffThroughMCP|TestJobAnswersAgree|TestJobToolsThroughMCP|TestJobAnswersCarryNoSecret|TestJobSchemasAreSeed002s|TestJobWaitAsATask|TestRecordWritesAScriptAJobReplays|TestAgentRunWritesAScriptAJobReplays|TestExtractStructuredLinksItsScreenshot|TestSubmitWhileTheStoreIsBusy)$$ \
	./cdpclient/secrets=^TestAutomatonFindsWhatNeedleByNeedleFinds$$
# The slowest of the other packages, slowest first: make test's queue of
# plain packages starts with them, so that the two lanes end about together.
TEST_FIRST ?= ./cmd/cdpmcp ./jobs ./packaging ./learned/playwright ./agentloop ./cdpclient/pagemodel ./jobs/postgres

.PHONY: deps test-deps run-deps build run test lint gofmt analyze bench peerbench fleetbench readbench soak conformance clean release-tools release-snapshot packages npm-packages

## deps: Go, and from Debian when they are missing: Chromium and its headless
## shell, ffmpeg and PostgreSQL (the fleet's tests start their own server):
## what the tests and benchmarks need (scripts/deps.sh says how it installs).
deps:
	@scripts/deps.sh "make deps" go chromium headless-shell ffmpeg postgresql

## test-deps: deps, and Node.js with npm for packaging's tests (the npm
## packages and the Claude Desktop bundle are used through npx and mcpb).
test-deps:
	@scripts/deps.sh "make test" go chromium headless-shell ffmpeg postgresql npm

GO_BUILD = $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/cdpmcp ./cmd/cdpmcp

## build: bin/cdpmcp, versioned from git describe.
build:
	@scripts/deps.sh "make build" go
	$(GO_BUILD)

# What bin/cdpmcp is built from: make run builds it again only when one of
# them is newer, so a binary already built runs without Go.
BUILD_INPUTS := $(shell find . \( -name .git -o -name bin -o -name dist -o -name results -o -name node_modules \) -prune -o -type f ! -name '*_test.go' ! -name '*.md' -print)

$(BIN)/cdpmcp: $(BUILD_INPUTS)
	@scripts/deps.sh "make run" go
	$(GO_BUILD)

## run: serve MCP over streamable HTTP with a headless browser; jobs are kept in
## the default --data-dir ($$XDG_STATE_HOME/cdpmcp or ~/.local/state/cdpmcp).
## It needs a browser only, installed from Debian when missing (root or sudo);
## without the headless shell or ffmpeg it says what they would add and runs.
## cdpmcp itself says where it serves, once it listens (a busy port is one line).
run: run-deps $(BIN)/cdpmcp
	@$(BIN)/cdpmcp serve --http 127.0.0.1:$(PORT) --headless --caps jobs $(ARGS)

run-deps:
	@scripts/deps.sh "make run" browser --optional headless-shell ffmpeg

## test: formatting first, then every package's tests (RACE_PKGS with -race,
## the others from a queue, TEST_FIRST first; scripts/test/run.sh) with go vet
## and staticcheck (make analyze) beside them at the lowest CPU priority: the
## tests alone do not keep two cores busy, and on a fresh machine building and
## running the two took three minutes before the first test. Every package
## runs even after a failure, the end names the packages that failed and
## whether the analysis did, and fails if the run left a process or a
## temporary file behind.
test: test-deps gofmt
	TEST_ANALYZE='$(MAKE) --no-print-directory analyze' TEST_FIRST="$(TEST_FIRST)" RACE_PLAIN='$(RACE_PLAIN)' scripts/test/run.sh $(RACE_PKGS)

## lint: formatting, go vet and staticcheck.
lint: gofmt analyze

gofmt:
	@unformatted="$$(gofmt -l .)"; if [ -n "$$unformatted" ]; then echo "gofmt -w these files:" >&2; echo "$$unformatted" >&2; exit 1; fi

## analyze: go vet and staticcheck (built into bin/ the first time).
analyze: $(STATICCHECK)
	$(GO) vet ./...
	$(STATICCHECK) -checks '$(STATICCHECK_CHECKS)' ./...

$(STATICCHECK):
	@mkdir -p $(BIN)/.staticcheck
	GOBIN=$(BIN)/.staticcheck $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	mv $(BIN)/.staticcheck/staticcheck $@

## bench: the Go benchmarks, reported, never asserted: initialize, idle RSS,
## tools/list size, tool medians, job submit and status (cmd/cdpmcp, tools);
## snapshot time and tokens (bench pages and the 40-page corpus), feedback
## cost, the 100-page auditLinks crawl (cdpclient/audit); cdpmcp's own time an
## agent step and from a model's answer to the next request (agentloop); the
## live view's first frame, click to frame, frames per second and idle CPU
## (liveview); 200 jobs' throughput, dispatch delay, memory and CPU a job on
## SQLite and on PostgreSQL, the job store's calls (jobs); then peerbench. The
## fleet's (claim latency, jobs/min with 1-3 workers) are in fleetbench.
bench: deps
	$(GO) test -run '^$$' -bench . -skip FleetThroughput -benchtime 2s -timeout 20m ./cmd/cdpmcp ./tools
	$(GO) test -run '^$$' -bench 'Snapshot|Feedback' -benchtime 20x -timeout 20m ./cdpclient ./cdpclient/pagemodel
	$(GO) test -run '^$$' -bench 'AuditLinks' -benchtime 3x -timeout 20m ./cdpclient/audit
	$(GO) test -run '^$$' -bench . -benchtime 3x -timeout 20m ./agentloop ./liveview
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 20m ./jobs
	$(GO) test -run '^$$' -bench . -benchtime 2s -timeout 20m ./jobs/sqlite
	$(MAKE) --no-print-directory peerbench

## peerbench: the team's bench (MCPBENCH_DIR, ../shared/bench, its npm install
## done) of the six scenarios through cdpmcp, playwright-mcp and
## chrome-devtools-mcp (PEERS) in BENCH_CHROMIUM, then the floor: the same
## steps over raw CDP (cdpclient/floorbench), each step's median beside
## theirs, with ours ÷ floor and the fastest peer ÷ ours
## (results/peerbench/floor.md). Ours is measured again there, a repetition
## of it and one of the floor in turn, so that its ratio to the floor does
## not take in the machine's drift between runs.
MCPBENCH_DIR ?= ../shared/bench
BENCH_CHROMIUM ?= /usr/bin/chromium
PEERS ?= ours,playwright,chrome-devtools
peerbench: build
	@test -f $(MCPBENCH_DIR)/mcpbench.mjs || { echo "make peerbench: no $(MCPBENCH_DIR)/mcpbench.mjs: set MCPBENCH_DIR to the team's bench harness (with npm install done there)" >&2; exit 1; }
	@mkdir -p results/peerbench
	CDPMCP_BIN=$(BIN)/cdpmcp node $(MCPBENCH_DIR)/mcpbench.mjs --servers $(PEERS) --chromium $(BENCH_CHROMIUM) --out results/peerbench/mcpbench.json --md results/peerbench/mcpbench.md
	$(GO) run ./cdpclient/floorbench -site $(MCPBENCH_DIR)/site -chromium $(BENCH_CHROMIUM) -ours $(BIN)/cdpmcp -mcpbench results/peerbench/mcpbench.json -md results/peerbench/floor.md

## readbench: the reading benchmark: for each of the 40 corpus pages, how much of
## the article the default snapshot carries (recall), its tokens and time, with
## medians and sums (results/readbench/table.md). With gpt-tokenizer reachable by
## node (NODE_PATH=.../node_modules) it also counts real o200k tokens.
readbench: deps
	@mkdir -p results/readbench
	CDPMCP_READBENCH_DIR=$(CURDIR)/results/readbench $(GO) test -run '^$$' -bench '^BenchmarkReading$$' -benchtime 10x -timeout 10m ./cdpclient/content
	@cat results/readbench/table.md
	@if node -e "require.resolve('gpt-tokenizer')" 2>/dev/null; then node scripts/readbench/o200k.mjs results/readbench | tail -2; \
	else echo "make readbench: gpt-tokenizer not found; set NODE_PATH to count o200k tokens" >&2; fi

## soak: minutes of load on one `serve --http`: SOAK_SESSIONS (8) sessions
## calling without a pause for SOAK_DURATION (3m), each replaced after 40
## calls, then 200 more opened and closed; reports calls per second, memory,
## threads, open files, the browser's processes, contexts and tabs before,
## during and after (results/soak/report.md), and fails if a call failed or
## something did not come back to where it was. Not part of make test.
SOAK_DURATION ?= 3m
SOAK_SESSIONS ?= 8
soak: deps build
	$(GO) run ./scripts/soak -bin $(BIN)/cdpmcp -duration $(SOAK_DURATION) -sessions $(SOAK_SESSIONS) -out results/soak

## fleetbench: the job queue's numbers: claim latency (commit to a free worker's
## claim) on SQLite and PostgreSQL, jobs/min through 1, 2 and 3 worker processes
## on one PostgreSQL queue, and 200 extract jobs on one host with each store.
fleetbench: deps
	$(GO) test -run '^$$' -bench ClaimLatency -benchtime 500x ./jobs/sqlite ./jobs/postgres
	$(GO) test -run '^$$' -bench FleetThroughput -benchtime 1x -timeout 20m ./cmd/cdpmcp
	$(GO) test -run '^$$' -bench '^BenchmarkThroughput$$' -benchtime 1x -timeout 20m ./jobs

## conformance: the MCP conformance suite against the HTTP transport (needs npm).
conformance: build
	scripts/conformance/run.sh $(BIN)/cdpmcp

## release-tools: build GoReleaser once (go run keeps it in the build cache).
release-tools:
	@command -v npm >/dev/null || { echo "make: npm is missing; install Node.js 18 or newer (apt-get install -y nodejs npm)" >&2; exit 1; }
	$(GORELEASER) --version >/dev/null

## release-snapshot: the release as a tag would make it, versioned as a snapshot
## of HEAD: binaries for linux, macOS and Windows on amd64 and arm64, their
## archives and checksums.txt in dist/, then the packages (see packages).
release-snapshot: release-tools
	$(GORELEASER) release --snapshot --clean
	$(PACKAGES)

## packages: from the builds in dist/: the npm packages (dist/npm/*.tgz), the
## MCP bundles (dist/*.mcpb) and dist/server.json.
packages:
	$(PACKAGES)

## npm-packages: only the npm packages, from the builds in dist/.
npm-packages:
	$(PACKAGES) npm

clean:
	rm -rf $(BIN) results dist
