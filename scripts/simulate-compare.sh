#!/usr/bin/env bash
# simulate-compare.sh — runs one set of `coraopt simulate` commands with two binaries and
# diffs what they print: stdout (JSON with every "timing" key removed, tables as they
# are), stderr and the exit code. For a change meant to keep simulate's behaviour
# byte-identical (issue 32: a move of code between packages): build the base commit's
# binary and yours, then
#
#   scripts/simulate-compare.sh /tmp/coraopt-base ./coraopt
#
# prints one line per case and a unified diff for each that differs; exit 1 if any does.
# The cases cover the testdata workloads and one generated workload of each family that
# needs no file of ours (swf reads workload/testdata/sample.swf), several seeds
# (--replications), the bound (refused, stopped by --bound-time-limit, unproven-free),
# -o json and -o table, bad flags, exec: policies that succeed, fail mid-run, time out
# or never start, and Ctrl-C (SIGINT) while a run is in flight.
# ONLY=REGEX runs the cases whose command line matches it (grep -E) and no interrupt.
# Run it from the repository's root; it needs jq, python3 and sh. It takes a few minutes
# on a loaded 2-core machine.
set -uo pipefail
base=${1:?usage: simulate-compare.sh BASE_BINARY NEW_BINARY}
new=${2:?usage: simulate-compare.sh BASE_BINARY NEW_BINARY}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Workloads: the testdata ones and one per generated family.
wl=()
for f in internal/cli/testdata/simulate/hadoop1.json internal/cli/testdata/gen/*.json sim/testdata/*.json workload/testdata/hadoop1.json workload/testdata/containers.json workload/testdata/workflows.json; do
	[ -f "$f" ] && wl+=("$f")
done
for fam in cora rush rds woha woha-fig2 woha-3wf rtmr-1 rtmr-2 swf; do
	case $fam in
	cora | rush | rds) args=(--jobs 30 --seed 1) ;;
	woha-fig2) args=() ;;
	swf) args=(--swf workload/testdata/sample.swf --jobs 30) ;;
	*) args=(--seed 1) ;;
	esac
	if "$base" gen --family "$fam" "${args[@]}" >"$work/gen-$fam.json" 2>"$work/gen-$fam.err"; then
		wl+=("$work/gen-$fam.json")
	else
		echo "skip family $fam: $(head -c 200 "$work/gen-$fam.err")"
	fi
done

cases=() # each: a command line after "simulate", words separated by \x1f
add() { local IFS=$'\x1f'; cases+=("$*"); }
for w in "${wl[@]}"; do
	add "$w" --policies fifo,fair,edf,rrh -o json
	if [ "$w" = "$work/gen-woha.json" ]; then
		# The woha family's bound takes minutes (stall branches): its runs only.
		add "$w" --policies fifo,edf --replications 3 --seed 5 -o table
		continue
	fi
	add "$w" --policies fifo,edf --bound --slot 60 -o json
	add "$w" --policies fifo,edf --bound --slot 60 --replications 3 --seed 5 -o json
	add "$w" --policies fifo,edf --bound --slot 60 --replications 3 --seed 5 -o table
done
py=$(command -v python3)
cora="$work/gen-cora.json"
rtmr="$work/gen-rtmr-1.json"
woha="$work/gen-woha-3wf.json"
# Every registered policy that models the cora family (the WOHA, Oozie and RTMR ones
# want map/reduce workers: their own families below).
onCora=$("$base" simulate --help | sed -n '/^Policies: /,/and exec:/p' | tr -d '\n' | sed 's/^Policies: //; s/, and exec:.*//; s/ //g' |
	tr , '\n' | grep -Ev '^(woha|oozie|rtmr|dc$)' | paste -sd,)
add "$cora" --policies "$onCora" --bound --slot 60 --replications 2 -o json
add "$cora" --policies cora,rush,oracle,rds,cora-paper,rush-paper --bound --slot 60 --replications 2 --check -o table
add "$rtmr" --policies rtmr,rtmr-nofeedback,dc,rtmr-fifo --replications 2 -o table
add "$woha" --policies woha-hlf,woha-lpf,woha-mpf,oozie-fifo,oozie-fair,oozie-edf -o table
add "$cora" --policies fifo,edf --bound --slot 1e-6 -o json                        # refused
add "$cora" --policies fifo,edf --bound --slot 1e-6 --replications 2 -o table      # refused
add "$cora" --policies fifo,edf --bound --bound-time-limit 1ns -o json             # stopped
add "$cora" --policies fifo,edf --bound --bound-time-limit 1ns --replications 3 -o table
add "$cora" --policies fifo --bound --slot 100000 -o json                          # near-vacuous warning
add "$cora" --policies woha-hlf -o json                                            # unsupported: exit 2
add "$cora" --policies fifo,nosuch -o json
add "$cora" --policies fifo,fifo -o json
add "$cora" --replications 0
add "$cora" --seed 18446744073709551615 --replications 2
add "$cora" --slot 0
add "$cora" --bound-time-limit -1s
add "$cora" --gantt-tasks -1
add "$cora" --workers -1
add "$cora" --exec-timeout -1s
add /no/such/file.json
add "$cora" --policies "fifo,exec:pyfifo=$py clients/python/examples/fifo.py" --workers 1 --replications 2 --bound --slot 60 -o json
add "$cora" --policies "fifo,exec:pyedf=$py clients/python/examples/edf.py" --workers 1 -o table
add "$cora" --policies "fifo,edf,exec:bad=sh internal/cli/testdata/external/garbage.sh" --workers 1 -o json
add "$cora" --policies "fifo,exec:bad=sh internal/cli/testdata/external/garbage.sh" --workers 1 -o table
add "$cora" --policies "exec:bad=/no/such/program" -o json
add "$cora" --policies "exec:slow=sh -c 'read x; sleep 5'" --exec-timeout 300ms -o json

run() { # binary outdir case
	local bin=$1 out=$2 IFS=$'\x1f'
	local -a args=($3)
	"$bin" simulate "${args[@]}" >"$out.stdout" 2>"$out.stderr"
	echo $? >"$out.code"
}
# Ctrl-C: SIGINT after 2 s, while a program that never answers holds the third run
# (fifo and edf, one worker, have finished by then; the next seed has not started).
interrupt() { # binary outdir format
	local bin=$1 out=$2
	timeout --preserve-status -s INT 2 "$bin" simulate "$cora" --policies "fifo,edf,exec:mute=sh -c 'read x; sleep 30'" --workers 1 --replications 2 --bound -o "$3" >"$out.stdout" 2>"$out.stderr"
	echo $? >"$out.code"
}

normalize() { # file: JSON without timing keys, or the text as it is
	if jq -e . "$1" >/dev/null 2>&1; then
		jq -S 'walk(if type == "object" then del(.timing) else . end)' "$1"
	else
		cat "$1"
	fi
}

fail=0
compare() { # name dirA dirB
	local d=0
	for part in stdout stderr code; do
		if ! diff -u <(normalize "$2.$part") <(normalize "$3.$part") >"$work/diff" 2>&1; then
			d=1
			echo "--- $1: $part differs"
			head -40 "$work/diff"
		fi
	done
	if [ $d = 0 ]; then
		echo "same  (exit $(cat "$2.code"), $(wc -c <"$2.stdout") B out, $(wc -c <"$2.stderr") B err)  $1"
	else
		fail=1
	fi
}

# The failing program comes last among --policies and seeds: a run after it would
# race with the cancellation it causes (started or not), in either binary.
i=0 n=0
sep=$'\x1f'
for c in "${cases[@]}"; do
	i=$((i + 1))
	if [ -n "${ONLY:-}" ] && ! grep -qE -- "$ONLY" <<<"${c//$sep/ }"; then
		continue
	fi
	n=$((n + 1))
	run "$base" "$work/a$i" "$c"
	run "$new" "$work/b$i" "$c"
	compare "simulate ${c//$sep/ }" "$work/a$i" "$work/b$i"
done
for f in json table; do
	[ -n "${ONLY:-}" ] && break
	interrupt "$base" "$work/int-a-$f" $f
	interrupt "$new" "$work/int-b-$f" $f
	compare "simulate gen-cora.json --policies fifo,edf,exec:mute=… -o $f, SIGINT after 2 s" "$work/int-a-$f" "$work/int-b-$f"
done
# sweep shares the policy form and the pool with simulate: one small sweep file (a
# generator, a file, parameters, an exec: policy with a timeout, the bound, --check),
# its records (without timing, in cell order) and its merge compared as above.
if [ -z "${ONLY:-}" ]; then
	cp internal/cli/testdata/simulate/hadoop1.json "$work/h1.json"
	cat >"$work/sw.json" <<-EOF
	{"name": "compare", "workloads": [{"family": "cora", "jobs": 12, "seed": 2}, "h1.json"],
	 "policies": ["fifo", {"name": "rush", "delta": 0.7}, {"name": "pyedf", "exec": "$py $PWD/clients/python/examples/edf.py", "timeout": 2.5}],
	 "replications": 2, "seed": 3, "bound": true, "slot": 60, "check": true}
	EOF
	for side in a:"$base" b:"$new"; do
		bin=${side#*:} out="$work/sw-${side%%:*}"
		"$bin" sweep run "$work/sw.json" --workers 2 >"$out.jsonl" 2>"$out.err"
		sed -E 's/; [0-9.]+ s, [0-9.]+ cells\/s/; (wall clock)/' "$out.err" >"$out.stderr"
		echo $? >"$out.code"
		jq -c 'del(.timing)' "$out.jsonl" >"$out.stdout"
		"$bin" sweep merge "$out.jsonl" --sweep "$work/sw.json" --no-timing -o json >"$out-merged.stdout" 2>"$out-merged.stderr"
		echo $? >"$out-merged.code"
	done
	compare "sweep run sw.json" "$work/sw-a" "$work/sw-b"
	compare "sweep merge" "$work/sw-a-merged" "$work/sw-b-merged"
fi
[ -n "${ONLY:-}" ] && echo -n "$n of $i cases: " || echo -n "$n cases, 2 interrupts, sweep run and merge: "
echo "$([ $fail = 0 ] && echo all the same || echo SOME DIFFER)"
exit $fail
