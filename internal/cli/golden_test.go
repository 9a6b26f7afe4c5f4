package cli

import "flag"

// update rewrites golden files: go test ./internal/cli -run TestX -update.
// Every command's golden test uses this one flag.
var update = flag.Bool("update", false, "rewrite golden files in testdata")
