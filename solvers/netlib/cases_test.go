package netlib

import (
	"testing"
)

func TestCheckNames(t *testing.T) {
	if err := checkNames(Config{MayStop: map[string]string{"afiro": "slow"}, Exclude: map[string]string{"gas11": "why"}}); err != nil {
		t.Fatal(err)
	}
	if err := checkNames(Config{MayStop: map[string]string{"nosuch": "x"}}); err == nil {
		t.Fatal("unknown case accepted")
	}
	if err := checkNames(Config{Exclude: map[string]string{"afiro": " "}}); err == nil {
		t.Fatal("empty reason accepted")
	}
}
