package plan

import (
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"testing"
)

// The longest-first greedy on a case worked by hand: 8 and 7 open the two
// shards, 6 joins the lighter (7), 5 the lighter (8), 4 goes to shard 1 on
// the tie 13 = 13.
func TestSplitByHand(t *testing.T) {
	p := Split(2, Costs{Of: map[string]int64{"a": 8, "b": 7, "c": 6, "d": 5, "e": 4}, By: "test"})
	want := [][]string{{"a", "d", "e"}, {"b", "c"}}
	if !reflect.DeepEqual(p.Parts, want) || !reflect.DeepEqual(p.Loads, []int64{17, 13}) {
		t.Fatalf("parts %v loads %v; want %v, loads [17 13]", p.Parts, p.Loads, want)
	}
	if !p.Has(1, "d") || p.Has(2, "d") || !p.Has(2, "c") {
		t.Fatalf("Has disagrees with parts %v", p.Parts)
	}
}

// Equal costs are dealt by name in turn: with no record, cells alike.
func TestSplitTiesByName(t *testing.T) {
	p := Split(3, Costs{Of: map[string]int64{"e": 1, "a": 1, "d": 1, "b": 1, "c": 1, "f": 0}})
	want := [][]string{{"a", "d"}, {"b", "e"}, {"c", "f"}}
	if !reflect.DeepEqual(p.Parts, want) {
		t.Fatalf("parts %v; want %v", p.Parts, want)
	}
}

func randomCosts(r *rand.Rand, n int) map[string]int64 {
	m := map[string]int64{}
	for i := 0; i < n; i++ {
		m[fmt.Sprintf("b%03d", r.Intn(10*n))] = 1 + r.Int63n(1_000_000)
	}
	return m
}

// Whatever order the costs were gathered in, every shard computes the
// same partition; every bench is in exactly one part; and the slowest
// shard is within LPT's bound: the mean load plus one bench.
func TestSplitDeterministicCompleteBalanced(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for trial := 0; trial < 200; trial++ {
		costs := randomCosts(r, 1+r.Intn(40))
		n := 1 + r.Intn(6)
		ref := Split(n, Costs{Of: costs})
		shuffled := map[string]int64{}
		keys := make([]string, 0, len(costs))
		for k := range costs {
			keys = append(keys, k)
		}
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		for _, k := range keys {
			shuffled[k] = costs[k]
		}
		again := Split(n, Costs{Of: shuffled})
		if !reflect.DeepEqual(ref, again) {
			t.Fatalf("trial %d: two splits of the same costs differ:\n%v\n%v", trial, ref.Parts, again.Parts)
		}
		var all []string
		var total, biggest int64
		for _, part := range ref.Parts {
			all = append(all, part...)
		}
		for _, v := range costs {
			total += v
			biggest = max(biggest, v)
		}
		sort.Strings(all)
		if !reflect.DeepEqual(all, ref.Benches) || len(all) != len(costs) {
			t.Fatalf("trial %d: parts %v do not hold every bench once (%d benches)", trial, ref.Parts, len(costs))
		}
		for k, load := range ref.Loads {
			if load > total/int64(n)+biggest {
				t.Fatalf("trial %d: shard %d carries %d, over the mean %d plus the largest bench %d", trial, k+1, load, total/int64(n), biggest)
			}
		}
	}
}

// The digest names the partition: equal parts, equal digests; another N
// or another split, another digest.
func TestSplitDigest(t *testing.T) {
	c := Costs{Of: map[string]int64{"a": 5, "b": 3, "c": 2, "d": 1}}
	p2, p3 := Split(2, c), Split(3, c)
	if p2.Digest == p3.Digest {
		t.Fatal("2 and 3 shards have one digest")
	}
	if q := Split(2, Costs{Of: c.Of, By: "something else"}); q.Digest != p2.Digest {
		t.Fatal("the same parts from another source should have the same digest")
	}
	other := Split(2, Costs{Of: map[string]int64{"a": 1, "b": 1, "c": 1, "d": 1}})
	if reflect.DeepEqual(other.Parts, p2.Parts) || other.Digest == p2.Digest {
		t.Fatalf("another split %v has digest %s, %v has %s", other.Parts, other.Digest, p2.Parts, p2.Digest)
	}
}
