# cdpmcp: `make run` serves it over HTTP on 127.0.0.1:$(PORT); `make test` checks everything.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

GO ?= go
PORT ?= 8931
BIN := $(CURDIR)/bin
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(BIN)/staticcheck-$(STATICCHECK_VERSION)
STATICCHECK_CHECKS := inherit

# GoReleaser makes the release builds; go run caches it after the first build.
# packaging's tests read this version from here.
GORELEASER_VERSION := v2.15.1
GORELEASER := $(GO) run github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION)
PACKAGES := $(GO) run ./packaging/cmd/packages -dist dist -npm-tools $(BIN)/npm-tools

# cdpclient, tools and liveview drive real Chromium concurrently: they run under
# the race detector. Every other package runs without it.
RACE_PKGS := ./cdpclient/... ./tools/... ./liveview/...

.PHONY: deps build run test lint bench readbench conformance clean release-tools release-snapshot packages npm-packages

## deps: check for Go; install Chromium and ffmpeg from Debian if they are missing.
deps:
	@command -v $(GO) >/dev/null || { echo "make deps: Go is not installed; get Go 1.26 or newer (https://go.dev/dl/)" >&2; exit 1; }
	@if ! command -v chromium >/dev/null; then \
		echo "make deps: chromium is missing; installing it with apt-get" >&2; \
		if [ "$$(id -u)" = 0 ]; then SUDO=; \
		elif command -v sudo >/dev/null; then SUDO=sudo; \
		else echo "make deps: need root or sudo to run 'apt-get install -y chromium'; install Chromium yourself or pass --browser-path to cdpmcp" >&2; exit 1; fi; \
		$$SUDO apt-get update; \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
		command -v chromium >/dev/null || { echo "make deps: chromium is still not on PATH after apt-get install" >&2; exit 1; }; \
	fi
	@if ! command -v ffmpeg >/dev/null; then \
		echo "make deps: ffmpeg (for job videos) is missing; installing it with apt-get" >&2; \
		if [ "$$(id -u)" = 0 ]; then SUDO=; \
		elif command -v sudo >/dev/null; then SUDO=sudo; \
		else echo "make deps: need root or sudo to run 'apt-get install -y ffmpeg'; install ffmpeg yourself (jobs then record no video)" >&2; exit 1; fi; \
		$$SUDO apt-get update; \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ffmpeg; \
		command -v ffmpeg >/dev/null || { echo "make deps: ffmpeg is still not on PATH after apt-get install" >&2; exit 1; }; \
	fi

## build: bin/cdpmcp, versioned from git describe.
build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/cdpmcp ./cmd/cdpmcp

## run: serve MCP over streamable HTTP with a headless browser; jobs are kept in
## the default --data-dir ($$XDG_STATE_HOME/cdpmcp or ~/.local/state/cdpmcp).
run: deps build
	@echo "cdpmcp $(VERSION): serving MCP at http://127.0.0.1:$(PORT)/mcp (Ctrl-C stops it)" >&2
	@echo "  Claude Code:  claude mcp add --transport http cdpmcp http://127.0.0.1:$(PORT)/mcp" >&2
	@echo "  other clients: a streamable-HTTP server at http://127.0.0.1:$(PORT)/mcp (see README.md)" >&2
	$(BIN)/cdpmcp serve --http 127.0.0.1:$(PORT) --headless --caps jobs

## test: formatting, vet, staticcheck, then all tests (RACE_PKGS with -race).
## packaging's tests build this machine's release binary with GoReleaser and
## install its npm packages and MCP bundle (seconds with a warm build cache; a
## cold one compiles every package again for the release flags, hence their
## own timeout); the six-platform matrix is release-snapshot's.
test: deps lint release-tools
	$(GO) test -count=1 -timeout 5m $$($(GO) list ./... | grep -v -E '/(cdpclient|tools|liveview|packaging)(/|$$)')
	$(GO) test -race -count=1 -timeout 8m $(RACE_PKGS)
	$(GO) test -count=1 -timeout 15m ./packaging/...

lint: $(STATICCHECK)
	@unformatted="$$(gofmt -l .)"; if [ -n "$$unformatted" ]; then echo "gofmt -w these files:" >&2; echo "$$unformatted" >&2; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) -checks '$(STATICCHECK_CHECKS)' ./...

$(STATICCHECK):
	@mkdir -p $(BIN)/.staticcheck
	GOBIN=$(BIN)/.staticcheck $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	mv $(BIN)/.staticcheck/staticcheck $@

## bench: the Go benchmarks: initialize, idle RSS, tools/list size, tool medians,
## snapshot time and tokens (bench pages and the 40-page corpus), feedback cost.
bench: deps
	$(GO) test -run '^$$' -bench . -benchtime 2s -timeout 10m ./cmd/cdpmcp ./tools
	$(GO) test -run '^$$' -bench 'Snapshot|Feedback' -benchtime 20x -timeout 10m ./cdpclient

## readbench: the reading benchmark: for each of the 40 corpus pages, how much of
## the article the default snapshot carries (recall), its tokens and time, with
## medians and sums (results/readbench/table.md). With gpt-tokenizer reachable by
## node (NODE_PATH=.../node_modules) it also counts real o200k tokens.
readbench: deps
	@mkdir -p results/readbench
	CDPMCP_READBENCH_DIR=$(CURDIR)/results/readbench $(GO) test -run '^$$' -bench '^BenchmarkReading$$' -benchtime 10x -timeout 10m ./cdpclient
	@cat results/readbench/table.md
	@if node -e "require.resolve('gpt-tokenizer')" 2>/dev/null; then node scripts/readbench/o200k.mjs results/readbench | tail -2; \
	else echo "make readbench: gpt-tokenizer not found; set NODE_PATH to count o200k tokens" >&2; fi

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
