#!/usr/bin/env bash
# slurm-local.sh — a single-node Slurm on localhost for tests, from Debian's packages
# (munge, slurmctld, slurmd, slurm-client; Debian 12 ships Slurm 22.05). No systemd: the
# daemons run from a state directory of their own, with their own munge key and socket,
# their own ports, and are stopped by the PIDs they wrote.
#
#   scripts/slurm-local.sh start DIR   configure and start munged, slurmctld and slurmd with
#                                      everything under DIR (created; must be empty or absent),
#                                      wait until the node takes jobs, then print the line
#                                      `export SLURM_CONF=DIR/slurm.conf` on stdout
#   scripts/slurm-local.sh stop DIR    stop the three daemons by their PID files (idempotent)
#   scripts/slurm-local.sh run -- CMD  start in a temporary directory, run CMD with SLURM_CONF
#                                      set, stop, remove the directory; exits with CMD's status
#
# Installs nothing: scripts/install-deps.sh does (make test runs it). The jobs run as the
# user who started the daemons (root in CI), so the node is configured with that user as
# SlurmUser and SlurmdUser.
#
# Environment:
#   SLURM_LOCAL_CPUS   CPUs the node offers (default: nproc)
#   SLURM_LOCAL_WAIT   how many half-second polls to wait for the node (default 240)
set -euo pipefail

log() { printf 'slurm-local: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

need() {
  local miss=()
  for c in munged mungekey slurmctld slurmd sinfo sbatch scontrol; do
    command -v "$c" >/dev/null 2>&1 || [ -x "/usr/sbin/$c" ] || miss+=("$c")
  done
  [ ${#miss[@]} -eq 0 ] || die "missing ${miss[*]}: run scripts/install-deps.sh (Debian packages munge slurmctld slurmd slurm-client)"
}

sbin() { if command -v "$1" >/dev/null 2>&1; then command -v "$1"; else echo "/usr/sbin/$1"; fi; }

# free_port prints a TCP port on 127.0.0.1 that nothing listens on, from a range away
# from Slurm's defaults (6817/6818), so a system Slurm on the same machine is left alone.
free_port() {
  local p tries=0
  while [ $tries -lt 200 ]; do
    p=$((20000 + RANDOM % 20000))
    tries=$((tries + 1))
    [ "$p" = "${1:-}" ] && continue
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  return 1
}

# stop_pidfile kills the daemon whose PID is in $1 (if it still runs) and waits for it.
stop_pidfile() {
  local f=$1 pid i
  [ -f "$f" ] || return 0
  pid=$(cat "$f" 2>/dev/null || true)
  [ -n "$pid" ] || return 0
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 1 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

cmd_stop() {
  local dir=$1
  [ -d "$dir" ] || return 0
  # Jobs still running would leave their slurmstepd behind: cancel them first.
  if [ -f "$dir/slurm.conf" ] && [ -f "$dir/slurmctld.pid" ] && kill -0 "$(cat "$dir/slurmctld.pid")" 2>/dev/null; then
    SLURM_CONF="$dir/slurm.conf" scancel --user="$(id -un)" 2>/dev/null || true
    local i
    for i in $(seq 1 50); do
      [ -z "$(SLURM_CONF="$dir/slurm.conf" squeue -h 2>/dev/null)" ] && break
      sleep 0.1
    done
  fi
  stop_pidfile "$dir/slurmd.pid"
  stop_pidfile "$dir/slurmctld.pid"
  stop_pidfile "$dir/munge/munged.pid"
  log "stopped the daemons of $dir"
}

cmd_start() {
  local dir=$1
  need
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  [ -z "$(ls -A "$dir")" ] || die "$dir is not empty"
  chmod 0700 "$dir"
  local t0=$SECONDS
  local user host cpus ctlport dport polls
  user=$(id -un)
  host=$(hostname -s)
  cpus=${SLURM_LOCAL_CPUS:-$(nproc)}
  polls=${SLURM_LOCAL_WAIT:-240}
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool/$host" "$dir/log"
  chmod 0700 "$dir/munge"

  # munge: a key of our own, a socket of our own.
  "$(sbin mungekey)" --create --keyfile="$dir/munge/munge.key" >/dev/null 2>&1 ||
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 0400 "$dir/munge/munge.key"
  "$(sbin munged)" --force --socket="$dir/munge/munge.socket.2" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed" ||
    die "munged did not start (log: $dir/log/munged.log)"

  write_conf() {
    cat >"$dir/slurm.conf" <<EOF
# Written by scripts/slurm-local.sh: a one-node cluster for tests.
ClusterName=coraopt-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctlport
SlurmdPort=$dport
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket.2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=3600
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    # Slurm 22.05's slurmd loads a cgroup plugin even with proctrack/linuxproc and
    # task/none; autodetect picks v1 or v2, and on v2 without systemd it must not ask
    # systemd for a scope.
    printf 'CgroupPlugin=autodetect\nIgnoreSystemd=yes\n' >"$dir/cgroup.conf"
  }
  export SLURM_CONF="$dir/slurm.conf"
  # A port found free can be taken before the daemon binds it: try again with others.
  local attempt
  for attempt in 1 2 3; do
    ctlport=$(free_port) || die "no free port for slurmctld"
    dport=$(free_port "$ctlport") || die "no free port for slurmd"
    write_conf
    if start_daemons "$dir" "$host" "$polls"; then
      log "up in $((SECONDS - t0)) s: node $host ($cpus CPUs), slurmctld port $ctlport, slurmd port $dport, state in $dir"
      echo "export SLURM_CONF=$dir/slurm.conf"
      return 0
    fi
    log "attempt $attempt failed; last lines of the logs:"
    tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" "$dir/log/munged.log" >&2 || true
    stop_pidfile "$dir/slurmd.pid"
    stop_pidfile "$dir/slurmctld.pid"
    for f in slurmctld slurmd; do [ -f "$dir/log/$f.log" ] && mv "$dir/log/$f.log" "$dir/log/$f.attempt-$attempt.log"; done
    rm -rf "$dir/state" "$dir/spool"
    mkdir -p "$dir/state" "$dir/spool/$host"
  done
  cmd_stop "$dir"
  die "Slurm did not come up (logs in $dir/log)"
}

# start_daemons starts slurmctld and slurmd and waits until the node takes jobs; it
# fails early when either daemon has died.
start_daemons() {
  local dir=$1 host=$2 polls=$3 i f pid state=""
  "$(sbin slurmctld)" -f "$SLURM_CONF" -i || return 1
  "$(sbin slurmd)" -f "$SLURM_CONF" -N "$host" || return 1
  for i in $(seq 1 "$polls"); do
    state=$(sinfo -h -N -n "$host" -o '%T' 2>/dev/null || true)
    case "$state" in
      idle|mixed|allocated) return 0 ;;
    esac
    if [ "$i" -gt 4 ]; then
      for f in slurmctld slurmd; do
        pid=$(cat "$dir/$f.pid" 2>/dev/null || true)
        if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
          log "$f is not running"
          return 1
        fi
      done
    fi
    sleep 0.5
  done
  log "node state '${state:-none}' after $polls polls"
  return 1
}

RUN_DIR=
cmd_run() {
  local rc=0
  RUN_DIR=$(mktemp -d "${TMPDIR:-/tmp}/slurm-local.XXXXXX")
  # A global, not a local: the EXIT trap runs after this function has returned.
  trap 'cmd_stop "$RUN_DIR"; rm -rf "$RUN_DIR"' EXIT
  cmd_start "$RUN_DIR" >/dev/null
  SLURM_CONF="$RUN_DIR/slurm.conf" "$@" || rc=$?
  return $rc
}

case "${1:-}" in
  start) [ $# -eq 2 ] || die "usage: $0 start DIR"; cmd_start "$2" ;;
  stop)  [ $# -eq 2 ] || die "usage: $0 stop DIR"; cmd_stop "$2" ;;
  run)   shift; [ "${1:-}" = "--" ] && shift; [ $# -ge 1 ] || die "usage: $0 run -- CMD…"; cmd_run "$@" ;;
  *)     die "usage: $0 start DIR | stop DIR | run -- CMD…" ;;
esac
