#!/bin/sh
# A policy program that answers hello, then replies garbage to the first round: the
# run must stop with exit 1, naming round 1, its time and the problem.
read hello
echo '{"type":"ready","protocol":1}'
read round
echo 'not json' >&2
echo '{"type":"decision","round":1,"assign":[{"job":0,"pool":0,"count":"two"}]}'
read next
