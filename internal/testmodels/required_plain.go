//go:build !highs && !lpsolve

package testmodels

// Required is false in a plain build: tests that need the models skip.
const Required = false
