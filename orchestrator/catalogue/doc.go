// Package catalogue discovers a suite's benches: the source files under
// benches/{micro,app,guards}, one file per language named <bench>.<ext>, and
// benches/catalogue.json, which places each bench in a grid category and says
// how many CPUs it needs and which siblings are not comparable.
//
// It reads files and builds nothing.
package catalogue
