// Package simplex is coraopt's built-in LP solver: a sparse bounded dual simplex.
package simplex
