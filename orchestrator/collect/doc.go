// Package collect is what ran, recorded: the boundary between what a verb's
// engine-side packages produce (engine, image and runner values, the judge's
// checks) and the report's own schema types. Each function turns one of
// theirs into the report's, field by field; run (harness), ab and xproc
// record through it. It is the only package that imports both sides, so
// orchestrator/report links neither Docker nor BuildKit, session (the setup
// path) imports no report, and a change of a wire or engine type shows up
// here as a compile error instead of silently in every report. It measures
// nothing and decides nothing.
package collect
