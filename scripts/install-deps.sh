#!/usr/bin/env bash
# install-deps.sh — installs the C libraries behind coraopt's cgo backends.
#
#   lp_solve 5.5  Debian package liblpsolve55-dev (+ libsuitesparse-dev for colamd).
#   HiGHS 1.10.0  built from Debian trixie's source package into a cache prefix,
#                 because Debian 12 does not package it.
#   Slurm, munge  Debian packages slurmctld slurmd slurm-client munge, for the tagged sweep
#                 test (scripts/slurm-local.sh starts them by hand; no systemd is used and
#                 the packages' own services are not started).
#
# Idempotent: a second run checks and exits in seconds. The mirror is taken from this
# machine's own apt configuration; the system's apt lists are never touched (a private
# sources list, list directory and cache are used for the trixie source index).
#
# Environment:
#   CORAOPT_CACHE   cache root (default ${XDG_CACHE_HOME:-$HOME/.cache}/coraopt)
#   HIGHS_PREFIX    HiGHS install prefix (default $CORAOPT_CACHE/highs-1.10.0)
set -euo pipefail

HIGHS_VERSION=1.10.0
HIGHS_TARBALL="highs_${HIGHS_VERSION}+ds.orig.tar.xz"
HIGHS_SHA256=5964fc1ca4f0b23dd45987bbed1838f2e570e96aa624635ac63d277152b6c94a
CORAOPT_CACHE=${CORAOPT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/coraopt}
HIGHS_PREFIX=${HIGHS_PREFIX:-$CORAOPT_CACHE/highs-$HIGHS_VERSION}

log() { printf 'install-deps: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

SUDO=
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || die "not root and no sudo: cannot install Debian packages"
  SUDO=sudo
fi

apt_updated=0
apt_install() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ $apt_updated -eq 0 ]; then
    log "apt-get update"
    $SUDO apt-get update -qq >&2
    apt_updated=1
  fi
  log "installing ${missing[*]}"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# ---------------------------------------------------------------- lp_solve
apt_install liblpsolve55-dev libsuitesparse-dev gcc libc6-dev pkg-config

# The static liblpsolve55.a needs colamd from SuiteSparse; prove the link works once.
lp_stamp="$CORAOPT_CACHE/lpsolve-link.ok"
if [ ! -f "$lp_stamp" ]; then
  mkdir -p "$CORAOPT_CACHE"
  t=$(mktemp -d)
  cat >"$t/t.c" <<'C'
#include <lpsolve/lp_lib.h>
int main(void) { lprec *lp = make_lp(0, 1); if (!lp) return 1; delete_lp(lp); return 0; }
C
  gcc -o "$t/t" "$t/t.c" -llpsolve55 -lcolamd -ldl -lm || die "cannot link against lp_solve (liblpsolve55-dev, libsuitesparse-dev)"
  "$t/t" || die "lp_solve test program failed"
  rm -rf "$t"
  touch "$lp_stamp"
  log "lp_solve: ok"
fi

# ---------------------------------------------------------------- Slurm
# policy-rc.d may refuse to start the packages' services on a machine without an init
# system; that is fine: scripts/slurm-local.sh runs the daemons itself.
apt_install slurmctld slurmd slurm-client munge

# ---------------------------------------------------------------- HiGHS
highs_ok() {
  PKG_CONFIG_PATH="$HIGHS_PREFIX/lib/pkgconfig" pkg-config --exists highs 2>/dev/null &&
    [ "$(PKG_CONFIG_PATH="$HIGHS_PREFIX/lib/pkgconfig" pkg-config --modversion highs)" = "$HIGHS_VERSION" ] &&
    [ -d "$HIGHS_PREFIX/share/highs/check/instances" ]
}

# mirror_uri prints the first Debian (non-security) archive URI configured for apt.
mirror_uri() {
  local f uri
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # deb822: stanzas with URIs:/Suites:; take a URI whose stanza does not name a -security suite.
    uri=$(awk '
      BEGIN { RS=""; FS="\n" }
      {
        u=""; s=""
        for (i=1; i<=NF; i++) {
          if ($i ~ /^URIs:/)   { u=$i; sub(/^URIs:[ \t]*/, "", u); split(u, a, /[ \t]+/); u=a[1] }
          if ($i ~ /^Suites:/) { s=$i }
        }
        if (u != "" && s !~ /security/ && u !~ /security/) { print u; exit }
      }' "$f")
    [ -n "$uri" ] && { echo "$uri"; return 0; }
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    uri=$(awk '$1=="deb" || $1=="deb-src" {
             for (i=2; i<=NF; i++) if ($i ~ /^[a-z+]+:\/\//) { if ($(i+1) !~ /security/ && $i !~ /security/) { print $i; exit } ; break } }' "$f")
    [ -n "$uri" ] && { echo "$uri"; return 0; }
  done
  return 1
}

if highs_ok; then
  log "HiGHS $HIGHS_VERSION: ok ($HIGHS_PREFIX)"
  exit 0
fi

apt_install cmake ninja-build g++ xz-utils ca-certificates

src="$CORAOPT_CACHE/src"
mkdir -p "$src"
tarball="$src/$HIGHS_TARBALL"
if [ ! -f "$tarball" ] || ! echo "$HIGHS_SHA256  $tarball" | sha256sum -c --status; then
  uri=$(mirror_uri) || die "no Debian mirror found in /etc/apt/sources.list{,.d}"
  log "fetching $HIGHS_TARBALL via trixie source index from the configured mirror"
  apt_dir=$(mktemp -d)
  trap 'rm -rf "$apt_dir"' EXIT
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  echo "deb-src [signed-by=$keyring] $uri trixie main" >"$apt_dir/sources.list"
  aptopts=(-o "APT::Sandbox::User=$(id -un)" -o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=$apt_dir/none"
           -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o "Debug::NoLocking=1")
  apt-get "${aptopts[@]}" update -qq >&2 || die "apt-get update of the private trixie source index failed"
  line=$(apt-get "${aptopts[@]}" source --print-uris "highs=${HIGHS_VERSION}+ds-1" 2>/dev/null | grep -F "'$HIGHS_TARBALL" || true)
  [ -n "$line" ] || line=$(apt-get "${aptopts[@]}" source --print-uris highs 2>/dev/null | grep -F "$HIGHS_TARBALL" || true)
  [ -n "$line" ] || die "trixie source index has no $HIGHS_TARBALL"
  url=$(echo "$line" | awk '{print $1}' | tr -d "'")
  /usr/lib/apt/apt-helper download-file "$url" "$tarball.part" "SHA256:$HIGHS_SHA256" >&2 ||
    die "download of $url failed"
  mv "$tarball.part" "$tarball"
fi
echo "$HIGHS_SHA256  $tarball" | sha256sum -c --status || die "sha256 mismatch for $tarball"

build="$src/highs-build"
rm -rf "$build" "$src/highs-src"
mkdir -p "$src/highs-src" "$build"
tar -xJf "$tarball" -C "$src/highs-src" --strip-components=1
log "building HiGHS $HIGHS_VERSION (a few minutes on 2 cores)"
cmake -S "$src/highs-src" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$HIGHS_PREFIX" \
  -DBUILD_SHARED_LIBS=ON -DBUILD_TESTING=OFF -DFAST_BUILD=ON -DBUILD_EXAMPLES=OFF \
  -DCMAKE_INSTALL_RPATH="$HIGHS_PREFIX/lib" >"$src/highs-cmake.log" 2>&1 ||
  { tail -40 "$src/highs-cmake.log" >&2; die "cmake configure of HiGHS failed (log: $src/highs-cmake.log)"; }
cmake --build "$build" -j "$(nproc)" >"$src/highs-build.log" 2>&1 ||
  { tail -40 "$src/highs-build.log" >&2; die "HiGHS build failed (log: $src/highs-build.log)"; }
cmake --install "$build" >>"$src/highs-build.log" 2>&1 || die "HiGHS install failed"
# Keep the test models (Netlib LPs, MIPs, QPs) beside the library for coraopt's tests.
mkdir -p "$HIGHS_PREFIX/share/highs/check"
rm -rf "$HIGHS_PREFIX/share/highs/check/instances"
cp -r "$src/highs-src/check/instances" "$HIGHS_PREFIX/share/highs/check/instances"
rm -rf "$build" "$src/highs-src"
highs_ok || die "HiGHS installed but pkg-config cannot find highs $HIGHS_VERSION in $HIGHS_PREFIX"
log "HiGHS $HIGHS_VERSION: installed in $HIGHS_PREFIX"
