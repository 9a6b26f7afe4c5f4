#!/bin/sh
# same-decisions.sh BASE_BIN NEW_BIN [DIR]: simulate the planners with two coraopt binaries
# on three generated workloads (cora and rush families at 100 jobs, rds at 20, seed 1) and
# compare the JSON outside the "timing" keys. Exit 1 on the first difference. Used to show
# that a speed-up of the planners changes no decision (issue 28).
set -eu
base=$1 new=$2 dir=${3:-$(mktemp -d)}
pols=${POLICIES:-cora,rush,oracle,cora-paper,rush-paper}
"$base" gen --family cora --jobs 100 --seed 1 >"$dir/w-cora.json"
"$base" gen --family rush --jobs 100 --seed 1 >"$dir/w-rush.json"
"$base" gen --family rds --jobs 20 --seed 1 >"$dir/w-rds.json"
strip='walk(if type == "object" then del(.timing) else . end)'
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
exit $rc
