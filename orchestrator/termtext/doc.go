// Package termtext makes text that a bench wrote (its stderr, its check
// line, a compiler's message) safe to put on a terminal or in a CI log:
// no escape sequences, no control characters, no line a CI runner would
// take as a command. It is not an escaper for any other format. Its
// Printer is the one writer of a process's stderr, every line cleaned and
// the live progress line kept below them.
package termtext
