// Package modelcache locates the solver test models (Netlib LPs, small MIPs and QPs)
// that scripts/install-deps.sh unpacks from HiGHS's source tarball into the cache.
// coraopt does not commit these files. It imports nothing of coraopt's, so the model
// readers' tests (through internal/testmodels) and the binary (through
// solvers/netlib/models, for `coraopt bench --suite netlib`) can both use it.
package modelcache

import (
	"fmt"
	"os"
	"path/filepath"
)

// EnvDir names the environment variable that overrides the directory (the Makefile sets it).
const EnvDir = "CORAOPT_HIGHS_INSTANCES"

// Dir returns the directory holding the models, or an error saying how to get them:
// $CORAOPT_HIGHS_INSTANCES, else highs-1.10.0/share/highs/check/instances under
// $CORAOPT_CACHE or the user cache's coraopt directory.
func Dir() (string, error) {
	dir := os.Getenv(EnvDir)
	if dir == "" {
		cache, err := cacheRoot()
		if err != nil {
			return "", fmt.Errorf("testmodels: %w", err)
		}
		dir = filepath.Join(cache, "highs-1.10.0", "share", "highs", "check", "instances")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("testmodels: %s not found; run `make deps` (scripts/install-deps.sh)", dir)
	}
	return dir, nil
}

// EnvNetlibDir names the environment variable that overrides NetlibDir.
const EnvNetlibDir = "CORAOPT_NETLIB_DIR"

// NetlibDir returns the directory holding the whole Netlib LP collection (the 91
// gzipped MPS files that solvers/netlib/models.FullCollection lists with their
// checksums), or an error saying how to provide it: $CORAOPT_NETLIB_DIR, else netlib
// under $CORAOPT_CACHE or the user cache's coraopt directory. coraopt does not commit
// these files and the machines that run the suite have no network, so the directory is
// filled by hand from a public copy of the collection.
func NetlibDir() (string, error) {
	dir := os.Getenv(EnvNetlibDir)
	if dir == "" {
		cache, err := cacheRoot()
		if err != nil {
			return "", fmt.Errorf("netlib collection: %w", err)
		}
		dir = filepath.Join(cache, "netlib")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("netlib collection: %s not found; put the Netlib LP collection's .mps.gz files there (or set %s)", dir, EnvNetlibDir)
	}
	return dir, nil
}

// cacheRoot is $CORAOPT_CACHE, else the user cache's coraopt directory.
func cacheRoot() (string, error) {
	if cache := os.Getenv("CORAOPT_CACHE"); cache != "" {
		return cache, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory: %w", err)
	}
	return filepath.Join(base, "coraopt"), nil
}
