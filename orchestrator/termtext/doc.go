// Package termtext makes text that a bench wrote (its stderr, its check
// line, a compiler's message) safe to put on a terminal or in a CI log:
// no escape sequences, no control characters, no line a CI runner would
// take as a command. It is not an escaper for any other format. Its
// Printer is the one writer of a process's stderr, every line cleaned and
// the live progress line kept below them.
//
// mdtext.go makes text that a bench, a build, a compiler or git wrote
// safe to put in Markdown (a step summary, release notes, a table cell): it
// shows as the text it is, never as an image, a link, an autolink, raw HTML
// or a new table cell or row. It cleans with termtext first, so the result
// is also safe on a terminal and in a CI log. It escapes nothing for any
// other format.
//
// Size and SizeFlag write a byte count for people (1.5 GiB; 4g as a size
// flag takes it): every size halebench prints to a person goes through
// them, while JSON keeps the bytes.
package termtext
