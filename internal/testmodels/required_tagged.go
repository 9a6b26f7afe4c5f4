//go:build highs || lpsolve

package testmodels

// Required is true in builds with a cgo backend tag: `make test` must have the models.
const Required = true
