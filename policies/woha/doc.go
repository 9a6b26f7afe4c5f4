// Package woha implements the algorithmic core of WOHA (woha.txt).
package woha
