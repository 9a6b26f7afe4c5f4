#!/bin/sh
# same-decisions.sh BASE_BIN NEW_BIN [DIR]: simulate the planners with two coraopt binaries
# on three generated workloads (cora and rush families at 100 jobs, rds at 20, seed 1) and
# compare the JSON outside the wall-clock keys (timing, solve_seconds, wall_seconds). Exit 1 on the first difference. Used to show
# that a speed-up of the planners changes no decision (issue 28).
set -eu
base=$1 new=$2 dir=${3:-$(mktemp -d)}
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
# workload, and solve on every tas and instance example (-o json; a refused file is
# compared by its message).
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
