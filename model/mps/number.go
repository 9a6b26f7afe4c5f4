package mps

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// parseNumber reads a numeric field. It accepts what strconv.ParseFloat accepts (including
// "inf" and "infinity" in any case), Fortran exponents ("1.5D+03"), and values beyond the
// float64 range (read as ±Inf, or 0 below it). NaN is an error. -0 is read as 0.
func parseNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		if i := strings.IndexAny(s, "dD"); i >= 0 {
			v, err = strconv.ParseFloat(s[:i]+"e"+s[i+1:], 64)
		}
	}
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if math.IsNaN(v) {
		return 0, fmt.Errorf("value %q is NaN", s)
	}
	if v == 0 {
		v = 0 // no negative zeros
	}
	return v, nil
}

// exactPrec is enough bits to hold exactly the difference of any two float64 values, and
// the decimal strings Write produces for RANGES.
const exactPrec = 2300

// maxExactLen bounds the length of a RANGES value read with exact arithmetic; longer
// strings (never written by Write) fall back to float64 arithmetic so that a hostile
// file cannot make the reader do quadratic work.
const maxExactLen = 1100

// offsetByRange returns base + sign·|R|, where R is the decimal text of a RANGES entry
// and r its float64 value, rounded once to float64. Doing the sum exactly, on the text
// rather than on r, is what lets Write give a ranged row [lo, hi] a range value whose
// sum with the kept bound reproduces the other bound bit for bit (see rangeText); on
// ordinary files it differs from float64 arithmetic (what HiGHS does) at most in the
// last bit.
func offsetByRange(base float64, text string, r float64, sign int) float64 {
	r = math.Abs(r)
	if math.IsInf(r, 0) {
		return float64(sign) * r
	}
	if r == 0 {
		return base
	}
	x, ok := exactValue(text)
	if !ok {
		return base + float64(sign)*r
	}
	x.Abs(x)
	sum := new(big.Float).SetPrec(2 * exactPrec).SetFloat64(base)
	if sign > 0 {
		sum.Add(sum, x)
	} else {
		sum.Sub(sum, x)
	}
	v, _ := sum.Float64()
	return v
}

// exactValue parses a decimal number at exactPrec bits.
func exactValue(text string) (*big.Float, bool) {
	if len(text) > maxExactLen {
		return nil, false
	}
	if i := strings.IndexAny(text, "dD"); i >= 0 {
		text = text[:i] + "e" + text[i+1:]
	}
	x, _, err := big.ParseFloat(text, 0, exactPrec, big.ToNearestEven)
	if err != nil || x.IsInf() {
		return nil, false
	}
	return x, true
}

// formatNumber writes v so that strconv.ParseFloat reads back the same float64.
func formatNumber(v float64) string {
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// rangeText returns the RANGES value R for a row read back as keep + sign·|R| (see
// offsetByRange), such that the reader reproduces want exactly. The shortest float64
// form of |want − keep| almost always does; when it does not (the two bounds differ
// by many orders of magnitude, so their difference is not a float64), the exact
// difference is written with as many digits as it needs.
func rangeText(keep, want float64, sign int) (string, bool) {
	if s, ok := shortRangeText(keep, want, sign); ok {
		return s, true
	}
	return exactRangeText(keep, want, sign)
}

// shortRangeText is rangeText's first try: the float64 |want − keep| in shortest form.
func shortRangeText(keep, want float64, sign int) (string, bool) {
	d := math.Abs(want - keep)
	s := formatNumber(d)
	return s, offsetByRange(keep, s, d, sign) == want
}

// exactRangeText writes the exact difference with as few digits as reproduce want.
func exactRangeText(keep, want float64, sign int) (string, bool) {
	s := formatNumber(math.Abs(want - keep))
	exact := new(big.Float).SetPrec(exactPrec).SetFloat64(want)
	exact.Sub(exact, new(big.Float).SetFloat64(keep))
	exact.Abs(exact)
	for prec := uint(64); prec <= exactPrec; prec += 64 {
		t := new(big.Float).SetPrec(prec).SetMode(big.ToNearestEven).Set(exact).Text('g', -1)
		if v, err := parseNumber(t); err == nil && offsetByRange(keep, t, v, sign) == want {
			return t, true
		}
	}
	return s, false
}
