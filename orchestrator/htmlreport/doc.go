// Package htmlreport turns stored run reports into one self-contained HTML
// page that people look at instead of the JSON: a header with the host, the
// subject's version, the images and the verdict; what needs attention first;
// per category a ratio chart and per bench a strip plot of every sample, all
// SVG drawn here; and, given several reports, a trend of the subject's
// median per bench. The page has no script and asks no network for
// anything. It reads reports; it never runs a bench or talks to the engine.
//
// The former package compare sets two stored run reports side by side, bench by
// bench, as benchstat does for Go benchmarks: the old and new medians of
// one language, the change, a two-sided Mann–Whitney p-value over the
// stored samples, and whether the change is significant. It reads reports
// only: no engine, no baselines.
package htmlreport
