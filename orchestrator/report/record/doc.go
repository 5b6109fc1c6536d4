// Package record is the boundary between what a run's engine-side packages
// produce (engine, imagebuild, runner values) and the report's own schema
// types: each function turns one of theirs into the report's. It is the
// only package that imports both sides, so orchestrator/report links
// neither Docker nor BuildKit, and a change of a wire or engine type shows
// up here as a compile error instead of silently in every report.
package record
