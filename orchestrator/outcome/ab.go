package outcome

// What `halebench ab` says of a bench: B against A, from paired rounds.
const (
	Slower     Status = "slower"     // B is slower than A past the threshold, the whole interval above 1
	Faster     Status = "faster"     // B is faster than A past the threshold, the whole interval below 1
	Same       Status = "same"       // the interval lies inside the threshold's band
	Unresolved Status = "unresolved" // the rounds ran out before the interval settled
	Missing    Status = "missing"    // one side has no number: the bench is absent there or failed
)
