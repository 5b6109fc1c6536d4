package report

import (
	"sort"

	"github.com/hale-lang/halebench/orchestrator/suite"
)

// Unit names what a shard of xproc holds: one language's pair (all its
// rows: Hale's two readers stay together) in one variant, "small/go".
func Unit(variant, lang string) string { return variant + "/" + lang }

// LangOf is the language whose row of variant is keyed row (the toolchain
// table's xproc rows), "" when no language has that row.
func LangOf(variant, row string) string {
	lang, _ := locate(variant, row)
	return lang
}

// RowOrder is a row's place in an unsharded xproc's table of variant: by
// language in the toolchain table's order, then the language's rows in
// order; a row no language has comes after every other.
func RowOrder(variant, row string) int {
	_, i := locate(variant, row)
	return i
}

// locate is the language of row in variant and its place in the table.
func locate(variant, row string) (lang string, order int) {
	for _, l := range suite.All {
		for _, r := range l.XProcRows(variant) {
			if r.Key == row {
				return l.Name, order
			}
			order++
		}
	}
	return "", order
}

// RatioRows are the rows a ratio is taken against (Ratios): the seed
// subject's (Hale's per-record reader, ratio_vs_hale) and the subject's
// (ratio_vs_subject), each keyed by its language's name, sorted. A shard
// of xproc measures them as references beside its own pairs, so that its
// ratios compare pairs measured on one machine.
func RatioRows(subject string) []string {
	rows := []string{suite.Seed().Name}
	if subject != "" && subject != rows[0] {
		rows = append(rows, subject)
	}
	sort.Strings(rows)
	return rows
}

// Merged says whether the report is a merge of an xproc's shards
// (halebench merge): its rows are each named by the shard that measured
// them.
func (r *XprocReport) Merged() bool { return r.Shard != nil && r.Shard.Index == 0 }
