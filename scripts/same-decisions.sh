#!/bin/sh
# same-decisions.sh BASE_BIN NEW_BIN [DIR]: run two coraopt binaries (say, built before
# and after a speed-up) on the same inputs and compare their JSON outside the wall-clock
# keys (timing, solve_seconds, wall_seconds): the online planners simulated on generated
# workloads (cora and rush families at 100 jobs, rds at 20, seed 1), the offline bound on
# the cora one, and solve on every testdata/tas and testdata/instances file. Prints one
# line per comparison; exits 1 if any differs (the outputs stay in DIR to diff). Used to
# show that a speed-up of the planners changed no decision (issue 28).
set -eu
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
base=$(abs "$1") new=$(abs "$2") dir=$(abs "${3:-$(mktemp -d)}")
mkdir -p "$dir"
cd "$(dirname "$0")/.."
pols=${POLICIES:-cora,rush,oracle,cora-paper,rush-paper}
"$base" gen --family cora --jobs 100 --seed 1 >"$dir/w-cora.json"
"$base" gen --family rush --jobs 100 --seed 1 >"$dir/w-rush.json"
"$base" gen --family rds --jobs 20 --seed 1 >"$dir/w-rds.json"
strip='walk(if type == "object" then del(.timing, .solve_seconds, .wall_seconds) else . end)'
rc=0
for w in cora rush rds; do
	for side in base new; do
		eval bin=\$$side
		"$bin" simulate "$dir/w-$w.json" --seed 1 --policies "$pols" -o json | jq -S "$strip" >"$dir/$w.$side.json"
	done
	if cmp -s "$dir/$w.base.json" "$dir/$w.new.json"; then
		echo "$w: identical ($(wc -c <"$dir/$w.new.json") bytes outside timing)"
	else
		echo "$w: DIFFERENT (diff $dir/$w.base.json $dir/$w.new.json)"
		rc=1
	fi
done
# The shared engines: the offline bound (onion peeling with its schedule) on the cora
# workload, and solve on every tas and instance example (a refused file is compared by
# its message).
for side in base new; do
	eval bin=\$$side
	"$bin" simulate "$dir/w-cora.json" --seed 1 --policies edf --bound -o json | jq -S "$strip" >"$dir/bound.$side.json"
	for f in testdata/tas/*.json testdata/instances/*.json; do
		echo "== $f"
		"$bin" solve "$f" -o json 2>&1 | jq -S "$strip" 2>/dev/null || true
	done >"$dir/solve.$side.json"
done
for x in bound solve; do
	if cmp -s "$dir/$x.base.json" "$dir/$x.new.json"; then
		echo "$x: identical ($(wc -c <"$dir/$x.new.json") bytes outside timing)"
	else
		echo "$x: DIFFERENT (diff $dir/$x.base.json $dir/$x.new.json)"
		rc=1
	fi
done
exit $rc
