#!/usr/bin/env bash
# Regenerates the generated part of docs/performance.md (between its perfdoc markers): the
# Go benchmarks of the performance targets (docs/design.md; make bench) and four coraopt
# bench runs, rendered by internal/bench/perfdoc.
#
#   bash internal/bench/performance.sh [OUTDIR]
#
# OUTDIR (default: a temporary directory) keeps the raw outputs. The machine should be as
# idle as possible: the script records the load average before each step and puts it in
# the document. COUNT (default 5) is the Go benchmarks' -count; REPEAT (default 5) the
# coraopt bench --repeat.
set -euo pipefail
cd "$(dirname "$0")/../.."

out=${1:-$(mktemp -d)}
mkdir -p "$out" docs
count=${COUNT:-5}
repeat=${REPEAT:-5}
date=${DATE:-$(date +%Y-%m-%d)}
benchre='^Benchmark(OnionPeel|WCDE|SolveFinal|RDSShapedQP|RHC|NetlibVsHiGHS|VsGonum|Simulate|AssignTask|AdmissionDecision|Decision)'
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "outputs in $out" >&2
make build >&2
loads=()

loads+=("go benchmarks: $(load)")
GOFLAGS=-count=$count make bench BENCH="$benchre" | tee "$out/gobench.txt" >&2

netlib_cmd="coraopt bench --suite netlib --solvers simplex,highs,lpsolve --repeat $repeat --warmup 1 -o json"
loads+=("netlib: $(load)")
./bin/${netlib_cmd} >"$out/netlib.json" || [ $? -eq 1 ]

form_cmd="coraopt bench --suite formulations --solvers simplex,highs,lpsolve,qp --repeat $repeat --warmup 1 -o json"
loads+=("formulations: $(load)")
./bin/${form_cmd} >"$out/formulations.json" || [ $? -eq 1 ]

scal_cmd="coraopt bench --suite fastpaths --scaling --repeat $repeat --warmup 1 -o json"
loads+=("scaling: $(load)")
./bin/${scal_cmd} >"$out/scaling.json" || [ $? -eq 1 ]

fast_cmd="coraopt bench --suite fastpaths --repeat $repeat --warmup 1 -o json"
loads+=("fastpaths: $(load)")
./bin/${fast_cmd} >"$out/fastpaths.json" || [ $? -eq 1 ]

cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)
go run ./internal/bench/perfdoc -gobench "$out/gobench.txt" -count "$count" -date "$date" \
	-machine "$(nproc) cores (${cpu:-unknown CPU}), $(go env GOOS)/$(go env GOARCH), $(go version | cut -d' ' -f3)" \
	-load "The machine was shared with other work; load average (1/5/15 min) before each step — $(printf '%s; ' "${loads[@]}" | sed 's/; $//')." \
	-run "coraopt bench: Netlib LPs=$out/netlib.json=$netlib_cmd" \
	-run "coraopt bench: scheduling formulations=$out/formulations.json=$form_cmd" \
	-run "coraopt bench: fast paths=$out/fastpaths.json=$fast_cmd" \
	-run "coraopt bench: scaling=$out/scaling.json=$scal_cmd" \
	-cmd "make deps" \
	-cmd "bash internal/bench/performance.sh   # all of the below, then internal/bench/perfdoc" \
	-cmd "GOFLAGS=-count=$count make bench BENCH='$benchre'" \
	-cmd "$netlib_cmd" -cmd "$form_cmd" -cmd "$fast_cmd" -cmd "$scal_cmd" \
	-doc docs/performance.md
echo "wrote docs/performance.md" >&2
