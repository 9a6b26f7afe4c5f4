#!/usr/bin/env bash
# swf-synth.sh — a synthetic Standard Workload Format trace of N job lines on stdout, for
# measuring `coraopt gen --family swf` on a large input without committing one
# (10^6 lines make 59 MB). Deterministic: line i depends on i alone. Every job is usable
# (runtime 60–359 s, 1–16 processors of a 128-processor machine, a preceding job every
# 50 lines), as in the workload package's BenchmarkReadSWF.
#
#   scripts/swf-synth.sh 1000000 > /tmp/big.swf
#   /usr/bin/time -v coraopt gen --family swf --swf /tmp/big.swf --jobs 0 > /tmp/big.json
set -euo pipefail
n=${1:?usage: swf-synth.sh N}
awk -v n="$n" 'BEGIN {
	print "; MaxProcs: 128"
	for (i = 1; i <= n; i++) {
		p = 1 + i % 16
		prev = (i % 50 == 0 && i > 1) ? i - 1 : -1
		printf "%d %d %d %d %d -1 -1 %d 600 -1 1 %d 1 1 1 -1 %d -1\n", i, i * 13, i % 7, 60 + i % 300, p, p, i % 50, prev
	}
}'
