// Package plot draws coraopt's figures with gonum/plot: the Gantt (allocation) chart of a
// schedule — one row per job, one column per slot, cells coloured by job and shaded by
// the share of capacity held, with a marker at the slot a job's utility names (its
// deadline or budget) and at its completion. Output format follows the file
// extension: SVG, PNG, PDF, EPS, JPEG or TIFF.
package plot
