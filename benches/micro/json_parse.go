// json_parse (Go sibling)
// Shape: the text {"sym": "BTCUSD", "bid": 50000, "ask": 50010, "bidsz": 12, "asksz": 8,
// "ts": 1700000000000, "seq": S} (S = HALEBENCH_SEED) is built with fmt.Sprintf before t0;
// timed: 200,000 json.Unmarshal calls of it into a fresh Quote struct, adding
// Bid + Ask + Seq to total each time.
// Fairness: encoding/json is a general-purpose, reflection-driven parser (it also validates
// the whole input first), so it is handicapped against the schema-specialised hand parsers
// of the C and Rust siblings. Sym is allocated per parse.

//go:build ignore

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"
)

const iters = 200_000

type Quote struct {
	Sym   string `json:"sym"`
	Bid   int64  `json:"bid"`
	Ask   int64  `json:"ask"`
	Bidsz int64  `json:"bidsz"`
	Asksz int64  `json:"asksz"`
	Ts    int64  `json:"ts"`
	Seq   int64  `json:"seq"`
}

func seedFromEnv() int64 {
	s := os.Getenv("HALEBENCH_SEED")
	if s == "" {
		return 0
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || v >= 1<<31 {
		fmt.Fprintf(os.Stderr, "invalid HALEBENCH_SEED: %s\n", s)
		os.Exit(2)
	}
	return v
}

func main() {
	s := seedFromEnv()
	text := []byte(fmt.Sprintf(`{"sym": "BTCUSD", "bid": 50000, "ask": 50010, "bidsz": 12, "asksz": 8, "ts": 1700000000000, "seq": %d}`, s))

	var total int64
	t0 := time.Now()
	for i := 0; i < iters; i++ {
		var q Quote
		if err := json.Unmarshal(text, &q); err != nil {
			fmt.Fprintf(os.Stderr, "parse error: %v\n", err)
			os.Exit(1)
		}
		total += q.Bid + q.Ask + q.Seq
	}
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=iters:%d,total:%d\n", iters, total)
}
