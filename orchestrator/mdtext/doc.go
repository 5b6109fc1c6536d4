// Package mdtext makes text that a bench, a build, a compiler or git wrote
// safe to put in Markdown (a step summary, release notes, a table cell): it
// shows as the text it is, never as an image, a link, an autolink, raw HTML
// or a new table cell or row. It cleans with termtext first, so the result
// is also safe on a terminal and in a CI log. It escapes nothing for any
// other format.
package mdtext
