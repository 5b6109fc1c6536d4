// halebench xproc: shared-memory delivery from one process to another (Go sibling).
//
// Usage: xproc reader small|large    /    xproc producer small|large
//
// What runs: a PRODUCER process writes N fixed records into a shared-memory segment,
// and a READER process (which may run in another container that shares /dev/shm)
// consumes them. The ring has room for all N records, so nothing wraps and nothing is
// dropped.
//
//	small: N = 200000 slots of 16 bytes {px, sz}, with px = i and sz = i+1. This
//	       variant is bound by the cost of each delivery.
//	large: N = 20000 slots of 4096 bytes (512 int64s), with field k = i + k. The
//	       reader sums all 512 fields of every slot where the slot sits (no copy).
//	       Expected total: 105011200000. This variant is bound by memory traffic.
//
// Segment layout (/dev/shm/<HALEBENCH_SHM_NAME>, default "halebench_xproc"): a 64-byte
// header whose first int64 is write_seq (records committed), then the N slots. All
// values are little-endian int64s. Both sides map the file with os.OpenFile plus
// syscall.Mmap. They view it in place through unsafe.Slice over the mapped bytes;
// nothing is copied.
//
// Memory ordering: the producer writes slot i, then does
// atomic.StoreInt64(&write_seq, i+1). Go's sync/atomic offers only sequentially
// consistent operations. That is stronger than the release store the protocol asks
// for, and on amd64 it compiles to XCHG, an implicit full fence on every record,
// where the C and Rust producers use a plain MOV. This makes the Go producer slower
// per record in the small variant. The reader polls with atomic.LoadInt64 (a plain
// MOV on amd64) and reads only slots below the value it loaded.
//
// Timed region: only the reader's clock (time.Now, monotonic) is used. The clock
// starts when write_seq >= 1 is first seen and stops when all N records have been
// consumed. Creating, sizing and mapping the segment happen before `ready` and are
// not timed. The tmpfs pages are not pre-faulted (in any sibling), so the producer's
// first touch of each page and the reader's minor faults fall inside the timed region.
//
// Fairness: every sibling uses the same layout and does the same consumer work. In
// small, the reader checks (px, sz) == (i, i+1) for every record, then reads the last
// slot for the check line. In large, it sums every int64 in place. Go does not
// vectorize the sum; C and Rust do. HALEBENCH_SEED is not used: the data arrives
// from another process at run time, so nothing can fold, and the protocol fixes the
// check line.
//
// Timeout: if write_seq does not advance for HALEBENCH_XPROC_TIMEOUT_MS ms (default
// 10000), whether the reader is waiting for the first record or is mid-stream, the
// reader prints status=producer_failed, unlinks the segment and exits 3. Bad data
// still prints the check line, and the reader then exits 4. The clock is read only
// once every 4096 idle polls.
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

const (
	headerBytes      = 64
	smallN           = 200000
	largeN           = 20000
	largeFields      = 512
	largeExpectedSum = int64(105011200000)
	pollMask         = 4095
)

func segPath() string {
	n := os.Getenv("HALEBENCH_SHM_NAME")
	n = strings.TrimLeft(n, "/")
	if n == "" {
		n = "halebench_xproc"
	}
	return "/dev/shm/" + n
}

func timeout() time.Duration {
	ms := int64(10000)
	if s := os.Getenv("HALEBENCH_XPROC_TIMEOUT_MS"); s != "" {
		if v, err := strconv.ParseInt(s, 10, 64); err == nil && v > 0 {
			ms = v
		}
	}
	return time.Duration(ms) * time.Millisecond
}

func shape(large bool) (n int64, words int64) {
	if large {
		return largeN, largeFields
	}
	return smallN, 2
}

// view returns the write_seq header word and the slot area as int64s.
func view(mem []byte, n, words int64) (*int64, []int64) {
	seq := (*int64)(unsafe.Pointer(&mem[0]))
	slots := unsafe.Slice((*int64)(unsafe.Pointer(&mem[headerBytes])), n*words)
	return seq, slots
}

func runReader(large bool) int {
	n, words := shape(large)
	total := headerBytes + int(n*words*8)
	tmo := timeout()
	path := segPath()

	os.Remove(path) // remove a stale segment, if any
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		fmt.Fprintln(os.Stderr, "xproc reader:", err)
		return 2
	}
	f.Chmod(0o666) // umask may be narrower; the producer may be another uid
	if err := f.Truncate(int64(total)); err != nil {
		fmt.Fprintln(os.Stderr, "xproc reader: ftruncate:", err)
		f.Close()
		os.Remove(path)
		return 2
	}
	mem, err := syscall.Mmap(int(f.Fd()), 0, total, syscall.PROT_READ, syscall.MAP_SHARED)
	f.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, "xproc reader: mmap:", err)
		os.Remove(path)
		return 2
	}
	seq, slots := view(mem, n, words)

	os.Stdout.WriteString("ready\n") // os.Stdout is unbuffered: this reaches the pipe now

	var seen, mark, bad, sum int64
	var idle uint32
	started := false
	var t0 time.Time
	tProgress := time.Now()

	for seen < n {
		w := atomic.LoadInt64(seq)
		if w > seen {
			if !started {
				t0 = time.Now()
				started = true
			}
			if w > n {
				w = n
			}
			if large {
				var s int64
				for _, v := range slots[seen*words : w*words] {
					s += v
				}
				sum += s
			} else {
				for i := seen; i < w; i++ {
					if slots[2*i] != i || slots[2*i+1] != i+1 {
						bad++
					}
				}
			}
			seen = w
			continue
		}
		idle++
		if idle&pollMask == 0 {
			t := time.Now()
			if seen != mark {
				mark = seen
				tProgress = t
			} else if t.Sub(tProgress) > tmo {
				syscall.Munmap(mem)
				os.Remove(path)
				os.Stdout.WriteString("status=producer_failed\n")
				fmt.Fprintf(os.Stderr, "xproc reader: no progress for %v at %d/%d records\n", tmo, seen, n)
				return 3
			}
		}
	}
	elapsed := time.Since(t0).Nanoseconds()

	var ok bool
	var check string
	if large {
		ok = sum == largeExpectedSum
		check = fmt.Sprintf("check=n:%d,sum:%d", seen, sum)
	} else {
		lastPx, lastSz := slots[2*(n-1)], slots[2*(n-1)+1]
		ok = bad == 0 && lastPx == n-1 && lastSz == n
		check = fmt.Sprintf("check=n:%d,last_px:%d,last_sz:%d", seen, lastPx, lastSz)
		if bad != 0 {
			fmt.Fprintf(os.Stderr, "xproc reader: %d records held wrong values\n", bad)
		}
	}
	syscall.Munmap(mem)
	os.Remove(path)
	os.Stdout.WriteString(fmt.Sprintf("elapsed_ns=%d\n%s\n", elapsed, check))
	if !ok {
		return 4
	}
	return 0
}

// openSegment waits for the reader's segment: it must exist, have the full size, and
// still have write_seq == 0. A leftover from an earlier run fails that last test.
func openSegment(path string, total int, tmo time.Duration) ([]byte, error) {
	deadline := time.Now().Add(tmo)
	for {
		if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
			if st, err := f.Stat(); err == nil && st.Size() == int64(total) {
				mem, err := syscall.Mmap(int(f.Fd()), 0, total, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
				if err == nil {
					if atomic.LoadInt64((*int64)(unsafe.Pointer(&mem[0]))) == 0 {
						f.Close()
						return mem, nil
					}
					syscall.Munmap(mem)
				}
			}
			f.Close()
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("segment %s (%d bytes) not ready within %v", path, total, tmo)
		}
		time.Sleep(time.Millisecond)
	}
}

func runProducer(large bool) int {
	n, words := shape(large)
	total := headerBytes + int(n*words*8)
	mem, err := openSegment(segPath(), total, timeout())
	if err != nil {
		fmt.Fprintln(os.Stderr, "xproc producer:", err)
		return 3
	}
	seq, slots := view(mem, n, words)
	if large {
		for i := int64(0); i < n; i++ {
			rec := slots[i*largeFields : (i+1)*largeFields]
			for k := range rec {
				rec[k] = i + int64(k)
			}
			atomic.StoreInt64(seq, i+1)
		}
	} else {
		for i := int64(0); i < n; i++ {
			slots[2*i] = i
			slots[2*i+1] = i + 1
			atomic.StoreInt64(seq, i+1)
		}
	}
	syscall.Munmap(mem)
	fmt.Printf("produced=%d\n", n)
	return 0
}

func main() {
	usage := func() {
		fmt.Fprintf(os.Stderr, "usage: %s reader|producer small|large\n", os.Args[0])
		os.Exit(2)
	}
	if len(os.Args) != 3 || (os.Args[2] != "small" && os.Args[2] != "large") {
		usage()
	}
	large := os.Args[2] == "large"
	switch os.Args[1] {
	case "reader":
		os.Exit(runReader(large))
	case "producer":
		os.Exit(runProducer(large))
	default:
		usage()
	}
}
