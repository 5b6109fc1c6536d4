// Package htmlreport turns stored run reports into one self-contained HTML
// page that people look at instead of the JSON: a header with the host, the
// subject's version, the images and the verdict; what needs attention first;
// per category a ratio chart and per bench a strip plot of every sample, all
// SVG drawn here; and, given several reports, a trend of the subject's
// median per bench. The page has no script and asks no network for
// anything. It reads reports; it never runs a bench or talks to the engine.
package htmlreport
