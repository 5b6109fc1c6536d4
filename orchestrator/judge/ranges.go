package judge

import "fmt"

// DefaultAlpha is the significance level a regression needs unless told.
const DefaultAlpha = 0.01

// CheckAlpha refuses a significance level no gate can use: at 0 (or
// below) no test ever fires, so the time gate passes everything; at 0.5
// or above a one-sided test "finds" a shift in noise about half the time
// (and a two-sided one shows every change), which is no test. NaN is
// refused too (every comparison with it is false). flag names the option
// in the message.
func CheckAlpha(flag string, alpha float64) error {
	if !(alpha > 0 && alpha < 0.5) {
		return fmt.Errorf("%s=%v: want a significance level above 0 and below 0.5 (default %v; 0 would gate nothing)", flag, alpha, DefaultAlpha)
	}
	return nil
}

// CheckBand refuses a band's half-width (a fraction: 0.02 is 2 %) that
// makes a verdict meaningless: 0 or less can never call a change "same",
// 1 or more (a band past 2× either way) can never call one anything else;
// NaN compares false with every bound.
func CheckBand(flag string, t float64) error {
	if !(t > 0 && t < 1) {
		return fmt.Errorf("%s=%v: want a fraction above 0 and below 1 (0.02 is 2 %%)", flag, t)
	}
	return nil
}
