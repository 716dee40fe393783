# agt — build, test, demo, bench.
GO      ?= go
BIN     := bin
CMDS    := $(notdir $(wildcard cmd/agt-*))
SHARED  ?= ../shared

.PHONY: all build test demo bench vet fmt clean

all: build

build:
	@mkdir -p $(BIN)
	$(GO) build -o $(BIN)/ ./cmd/...

vet:
	$(GO) vet ./...

test: vet
	$(GO) test -count=1 ./...

demo: build
	@echo '== a Claude Code session' >&2
	$(BIN)/agt-parse testdata/demo/claude-session.jsonl | head -n 8
	@echo '== a Codex rollout' >&2
	$(BIN)/agt-parse testdata/demo/codex-rollout.jsonl | head -n 8

bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf $(BIN)
