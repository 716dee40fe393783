# agt — build, test, demo, bench.
GO      ?= go
BIN     := bin
CMDS    := $(notdir $(wildcard cmd/agt-*))
SHARED  ?= ../shared

.PHONY: all build test race demo bench gobench fuzz vet fmt clean

all: build

build:
	@mkdir -p $(BIN)
	$(GO) build -o $(BIN)/ ./cmd/...

vet:
	$(GO) vet ./...

test: vet
	$(GO) test -count=1 ./...
	$(MAKE) race

# race: the packages that run goroutines, under the race detector; -short
# samples the corpus-wide property tests and leaves out the largest inputs.
RACE_PKGS := ./stage/ ./provider/ ./transcript/ ./cmd/internal/cli/ ./cmd/agt-transcript/

race:
	$(GO) test -race -short -count=1 $(RACE_PKGS)

DEMO_CLAUDE := testdata/claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl
DEMO_CODEX  := testdata/codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl

demo: build
	@echo '== agt-parse: a real Claude Code session, first events'
	@$(BIN)/agt-parse $(DEMO_CLAUDE) | head -n 4
	@echo '== agt-parse: a real Codex rollout, first events'
	@$(BIN)/agt-parse $(DEMO_CODEX) | head -n 4
	@echo '== agt-streamlog: both sessions, one line per message and tool call (canonical tool names)'
	@$(BIN)/agt-streamlog $(DEMO_CLAUDE) $(DEMO_CODEX)
	@echo '== agt-transcript: one line per session (shown through jq when installed)'
	@$(BIN)/agt-transcript $(DEMO_CLAUDE) $(DEMO_CODEX) | if command -v jq >/dev/null; then \
		jq -c '{provider, model, messages: (.messages|length), tool_calls: .counts.tool_calls, tokens: .usage.total, cost_usd}'; \
	else cut -c1-300; fi

# bench: the table of MB/s and peak RSS of every filter beside cat, jq and
# ccusage on generated trees (BENCH_MIB of Claude Code logs, half as much
# Codex); gobench: the Go benchmarks.
BENCH_MIB ?= 200
BENCH_RUNS ?= 3

bench:
	$(GO) run ./cmd/internal/benchtable -mib $(BENCH_MIB) -runs $(BENCH_RUNS) -shared $(SHARED)

gobench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./...

# fuzz targets, each run for FUZZTIME; findings are added to testdata/fuzz
# as regression cases that `make test` runs.
FUZZTIME ?= 1m
FUZZ     := provider:FuzzClaude provider:FuzzCodex provider:FuzzGemini provider:FuzzCopilot \
            provider:FuzzPi provider:FuzzOpenCode provider:FuzzACP provider:FuzzDetect \
            provider:FuzzNormalize provider/canon:FuzzNormalize transcript:FuzzTranscript \
            cmd/internal/cli:FuzzEvents .:FuzzPrintable

fuzz:
	@set -e; for t in $(FUZZ); do pkg=$${t%%:*}; fn=$${t#*:}; \
		echo "== $$fn ($$pkg), $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./$$pkg; done

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf $(BIN)
