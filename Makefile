# agt — build, install, release, test, demo, bench.
GO      ?= go
BIN     := bin
CMDS    := $(notdir $(wildcard cmd/agt-*))
FILTERS := $(addprefix ./cmd/,$(CMDS))
SHARED  ?= ../shared

# VERSION: the tag or commit the tree is at (git describe), written into
# the binaries; outside a git checkout the binaries read their build
# information instead (see version.go).
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null)
LDFLAGS := -s -w $(if $(VERSION),-X github.com/agt-project/agt.Version=$(VERSION))
# every binary made here (build, install, dist) is stripped (-s -w), holds
# no path of the machine it was built on (-trimpath) and has its version
BUILDFLAGS := -trimpath -ldflags "$(LDFLAGS)"

.PHONY: all build install install-docs man completions dist test check long race stub arm64 lint demo bench gobench fuzz vet fmt clean

all: build

build:
	@mkdir -p $(BIN)
	$(GO) build $(BUILDFLAGS) -o $(BIN)/ $(FILTERS)

# install: the four filters, by go install, into $GOBIN (else $GOPATH/bin,
# as go install does); with PREFIX, into PREFIX/bin, the man pages into
# PREFIX/share/man/man1 and the completion scripts where bash-completion,
# zsh and fish look for them under PREFIX.
PREFIX ?=
install:
	$(if $(PREFIX),GOBIN=$(abspath $(PREFIX))/bin) $(GO) install $(BUILDFLAGS) $(FILTERS)
	$(if $(PREFIX),$(MAKE) man completions && $(MAKE) install-docs)

install-docs:
	mkdir -p $(PREFIX)/share/man/man1 $(PREFIX)/share/bash-completion/completions \
		$(PREFIX)/share/zsh/site-functions $(PREFIX)/share/fish/vendor_completions.d
	cp man/*.1 $(PREFIX)/share/man/man1/
	cp completions/bash/* $(PREFIX)/share/bash-completion/completions/
	cp completions/zsh/* $(PREFIX)/share/zsh/site-functions/
	cp completions/fish/* $(PREFIX)/share/fish/vendor_completions.d/

# man: man/agt-*.1, made from each filter's flags (its hidden --man);
# completions: completions/{bash,zsh,fish}/, made by --completion SHELL.
man: build
	@mkdir -p man
	@for c in $(CMDS); do $(BIN)/$$c --man > man/$$c.1 || exit 1; done
	@echo "man pages in man/: $(CMDS:%=%.1)"

SHELLS := bash zsh fish
completions: build
	@for sh in $(SHELLS); do mkdir -p completions/$$sh; for c in $(CMDS); do \
		case $$sh in bash) f=$$c;; zsh) f=_$$c;; fish) f=$$c.fish;; esac; \
		$(BIN)/$$c --completion $$sh > completions/$$sh/$$f || exit 1; done; done
	@echo "completion scripts in completions/: $(SHELLS)"

# dist: static binaries (CGO_ENABLED=0) for each of DIST_TARGETS, one
# dist/agt-VERSION-OS-ARCH.tar.gz each (a .zip for Windows, its filters
# named .exe; the filters, man pages, completion scripts, the examples the
# README's recipes use, LICENSE, README), and dist/SHA256SUMS.
DIST_TARGETS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64
DIST_VERSION := $(or $(VERSION),devel)
EXAMPLES     := $(filter-out %_test.go,$(wildcard examples/*))
dist: man completions
	rm -rf dist && mkdir -p dist
	@set -e; for t in $(DIST_TARGETS); do os=$${t%/*}; arch=$${t#*/}; \
		name=agt-$(DIST_VERSION)-$$os-$$arch; d=dist/$$name; mkdir -p $$d; \
		echo "== $$name"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build $(BUILDFLAGS) -o $$d/ $(FILTERS); \
		cp -R LICENSE README.md docs man completions $$d/; \
		mkdir -p $$d/examples && cp $(EXAMPLES) $$d/examples/; \
		if [ $$os = windows ]; then (cd dist && zip -qrX $$name.zip $$name); \
		else tar -C dist -czf $$d.tar.gz $$name; fi; rm -rf $$d; done
	cd dist && a=$$(ls *.tar.gz *.zip 2>/dev/null); if command -v sha256sum >/dev/null; then sha256sum $$a; else shasum -a 256 $$a; fi > SHA256SUMS
	@cat dist/SHA256SUMS

vet:
	$(GO) vet ./...

# lint: staticcheck, a pinned version run through go run (fetched into the
# module cache on first use); zero findings. Then gocognit, pinned the
# same way: no function of the pipeline's heart (stage/, the provider
# package's own files, cmd/internal/cli) above cognitive complexity 30;
# test code is not held to it (its length is in its cases).
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
GOCOGNIT    ?= github.com/uudashr/gocognit/cmd/gocognit@v1.3.0
COGNIT_SRC  := $(filter-out %_test.go,$(wildcard stage/*.go provider/*.go cmd/internal/cli/*.go))

lint:
	$(GO) run $(STATICCHECK) ./...
	$(GO) run $(GOCOGNIT) -over 30 $(COGNIT_SRC)

# test: the newcomer's test command: go vet and every package's tests
# with -short (the corpus-wide property tests sampled, the long bad-input
# cases and the largest inputs left out). The corpus tests need the shared
# folder (SHARED, or AGT_CORPUS for the corpus alone): without it they
# skip, and one line says so.
# check: what CI adds (.ci/run runs both): staticcheck, the long tests
# (the whole corpus, the long cases) and the race detector.
CORPUS := $(or $(AGT_CORPUS),$(SHARED)/corpus)

test: vet
	@test -f $(CORPUS)/PROVENANCE.tsv || echo "make test: no corpus at $(CORPUS): the corpus tests are skipped (see README, 'The shared folder')"
	$(GO) test -short -count=1 ./...

check: lint long race stub arm64

# stub: the stub-provider test (docs/adding-a-provider.md): the template
# provider registered by one row (provider/stub.go, build tag agtstub) and
# every test run with it, as with any other provider
stub:
	$(GO) test -short -count=1 -tags agtstub ./...

# arm64: the root package's tests built for arm64 and run under qemu-user,
# where sonic decodes with its non-JIT decoder alone (decoder_arm64.go);
# skipped with one line where qemu-aarch64-static is not installed
arm64:
	@if command -v qemu-aarch64-static >/dev/null; then \
		GOARCH=arm64 $(GO) test -count=1 -exec qemu-aarch64-static . ; \
	else echo "qemu-aarch64-static is not installed: the arm64 tests are skipped"; fi

# long: the packages whose tests -short cuts (the whole corpus, the long
# cases), without it; the others ran whole in make test, the fuzz seeds of
# every target with them.
LONG_PKGS = $(sort $(dir $(shell grep -rl --include='*_test.go' 'testing.Short()' .)))
long:
	$(GO) test -count=1 $(LONG_PKGS)

# race: the packages that run goroutines, under the race detector; -short
# samples the corpus-wide property tests and leaves out the largest inputs.
RACE_PKGS := ./stage/ ./provider/ ./transcript/ ./cmd/internal/cli/ ./cmd/agt-transcript/

race:
	$(GO) test -race -short -count=1 $(RACE_PKGS)

DEMO_CLAUDE := testdata/claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl
DEMO_CODEX  := testdata/codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl

# demo: what agt makes of two bundled real sessions, as a person reads
# it (the summary stream log, then one line per transcript), and where
# to go next; raw events are one flag away (agt-streamlog --mode raw).
demo: build
	@echo '== agt-streamlog: a real Codex rollout, one readable line per message and tool call (canonical tool names)'
	@$(BIN)/agt-streamlog $(DEMO_CODEX)
	@echo
	@echo '== agt-transcript: one agt.transcript/1 line per session, a Claude Code session and the Codex rollout (a few fields of each)'
	@$(BIN)/agt-transcript $(DEMO_CLAUDE) $(DEMO_CODEX) | if command -v jq >/dev/null; then \
		jq -c '{provider, model, messages: (.messages|length), tool_calls: .counts.tool_calls, tokens: .usage.total, cost_usd, outcome: .outcome.status}'; \
	else cut -c1-160; fi
	@echo
	@echo '== next'
	@echo '  $(BIN)/agt-streamlog ~/.claude/projects/     your own Claude Code sessions (other agents: docs/inputs.md)'
	@echo '  $(BIN)/agt-transcript --discover -o out/     every agent'"'"'s sessions on this machine, one file each'
	@echo '  $(BIN)/agt-parse FILE | head -n 3            the agt.event/1 lines underneath (docs/fields.md)'
	@echo '  make install                              the filters on your PATH (docs/install.md)'
	@echo '  README.md                                 a guide per job: shell pipes, eval harnesses, batch conversion, watching a run'

# bench: the table of MB/s and peak RSS of every filter beside cat, jq and
# ccusage on generated trees (BENCH_MIB of Claude Code logs, half as much
# Codex); BENCH_BASE=REV times the fused rows of that revision beside;
# gobench: the Go benchmarks.
BENCH_MIB ?= 200
BENCH_RUNS ?= 3

bench:
	$(GO) run ./tools/benchtable -mib $(BENCH_MIB) -runs $(BENCH_RUNS) -shared $(SHARED) $(if $(BENCH_BASE),-base $(BENCH_BASE))

gobench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./...

# fuzz targets, each run for FUZZTIME; findings are added to testdata/fuzz
# as regression cases that `make test` runs.
FUZZTIME ?= 1m
FUZZ     := provider:FuzzParse provider:FuzzDetect provider:FuzzNormalize provider/canon:FuzzNormalize transcript:FuzzTranscript \
            cmd/internal/cli:FuzzEvents .:FuzzPrintable

fuzz:
	@set -e; for t in $(FUZZ); do pkg=$${t%%:*}; fn=$${t#*:}; \
		echo "== $$fn ($$pkg), $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./$$pkg; done

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf $(BIN) dist man completions
