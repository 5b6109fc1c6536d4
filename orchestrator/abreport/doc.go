// Package abreport is the result of `halebench ab` (schema halebench-ab/1):
// each bench's paired comparison of sides A and B, the evidence a run
// report carries — the host and the privilege granted or refused, each
// side's images with their digests and provenance and its subject build —
// in the report package's types, and its renderers (Grid, Markdown, JSON,
// HTML). It links no engine; running the rounds is package ab's.
package abreport
