# coraopt — build, test and benchmark.
#
#   make build   the coraopt binary with every backend (./bin/coraopt)
#   make test    install the C libraries and Slurm (scripts/install-deps.sh), then run every
#                test, cgo backends included, and the sweep test on a local Slurm (tag slurm)
#   make papers  the full studies behind the papers' figures, tables and findings (every
#                seed, every workload size), after make test; .ci/run runs both. They are the
#                tests named TestPapers* in files built only with the tag papers
#                (`//go:build papers`), so plain `go test ./...` and make test run the
#                everyday variants (fewer seeds, smaller workloads, the same assertions) and
#                this target runs exactly the papers tests: see docs/testing.md
#   make pwa     issue 29's acceptance on real Parallel Workloads Archive traces (tag pwa):
#                the SWF files in $CORAOPT_PWA_TRACE or ../shared/traces, which developers
#                may not commit; not part of make test until such a trace is in shared/
#   make deps    only install the C libraries (idempotent; seconds when already done)
#   make bench   Go benchmarks for the performance targets (see docs/performance.md)
#   make lint    gofmt and go vet, with and without the cgo tags
#   make race    every test of the plain build under the race detector: the pure-Go
#                solvers, formulations, lexmax, sched, the cli; not the cgo backends
#                (highs, lpsolve), which need TAGS and whose C code the detector cannot see
#
# The C libraries live in a cache prefix; the exports below let `go build -tags highs`
# and the resulting binary find HiGHS without any setup by the user.

SHELL := bash
CACHE        ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/coraopt
HIGHS_PREFIX ?= $(CACHE)/highs-1.10.0
TAGS         ?= highs,lpsolve
GO           ?= go
BENCHTIME    ?= 1s
BENCH        ?= .

export CORAOPT_CACHE := $(CACHE)
export HIGHS_PREFIX
export PKG_CONFIG_PATH := $(HIGHS_PREFIX)/lib/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))
export CGO_LDFLAGS := -Wl,-rpath,$(HIGHS_PREFIX)/lib $(CGO_LDFLAGS)
export CORAOPT_HIGHS_INSTANCES := $(HIGHS_PREFIX)/share/highs/check/instances

# The packages with papers tests (internal/archtest's TestFullStudiesAreTagged, part of
# make test, checks that their TestPapers* tests are exactly the tests of those files).
PAPERS_PKGS := $(sort $(patsubst %/,%,$(dir $(shell grep -rlE --include='*_test.go' '^//go:build (.* )?papers( .*)?$$' .))))

.PHONY: all build test papers pwa deps bench lint race clean

all: build

deps:
	bash scripts/install-deps.sh

build: deps
	$(GO) build -tags $(TAGS) -o bin/coraopt ./cmd/coraopt

test: deps
	$(GO) vet -tags $(TAGS) ./...
	$(GO) test -tags $(TAGS) -count=1 -timeout 30m ./...
	$(GO) test -tags simplexcheck -count=1 -timeout 30m ./solvers/simplex ./solvers/mip
	$(GO) test -tags slurm -count=1 -timeout 30m -run Slurm -v ./internal/cli

papers: deps
	$(GO) test -tags papers,$(TAGS) -count=1 -timeout 60m -run '^TestPapers' $(PAPERS_PKGS)

pwa:
	$(GO) test -tags pwa -count=1 -timeout 30m -run '^TestPWATrace$$' -v ./internal/cli

bench: deps
	$(GO) test -tags $(TAGS) -run '^$$' -bench '$(BENCH)' -benchtime $(BENCHTIME) -timeout 60m ./...

race:
	$(GO) test -race -count=1 -timeout 60m ./...

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags $(TAGS) ./...
	$(GO) vet -tags papers,$(TAGS) ./...
	$(GO) vet -tags slurm ./internal/cli
	$(GO) vet -tags pwa ./internal/cli
	$(GO) vet -tags simplexcheck ./solvers/simplex

clean:
	rm -rf bin
