//go:build linux

package main

// One file as the loader sees it: its bytes, its segments laid out as
// they are mapped, and what its dynamic segment asks for. Everything is
// read from the program headers, as the kernel and ld.so read it, never
// from section headers (which a file may leave out or forge).

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
)

// magicAt is where a client-request sequence is (at -1: nowhere).
type magicAt struct {
	path     string
	at       int64
	arch     string
	inMemory bool // at is an address of the mapped segments, not a file offset
}

// fileScan is what one file holds that the loader acts on.
type fileScan struct {
	found   magicAt
	program bool     // an executable (ET_EXEC or a PIE): ld.so maps it only as the main program
	interp  string   // PT_INTERP
	needed  []string // DT_NEEDED, DT_AUXILIARY, DT_FILTER
	paths   []string // DT_RUNPATH and DT_RPATH, unexpanded
	shebang string   // a script's #! interpreter
}

// pageSizes are the page sizes segments are laid out at: amd64's, and the
// largest aarch64 kernels use (a larger page maps more of the file).
var pageSizes = []uint64{4 << 10, 64 << 10}

// scanFile reads the regular file at path (no link followed, opened
// without blocking, at most scanCap bytes): the client-request sequence
// in its bytes, else in its segments as mapped, and what it needs.
func scanFile(path string) (fileScan, error) {
	sc := fileScan{found: magicAt{path: path, at: -1}}
	f, size, err := openRegular(path)
	if err != nil {
		return sc, fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	if size > scanCap {
		return sc, fmt.Errorf("%s is %d bytes, more than the %d the scan reads", path, size, int64(scanCap))
	}
	if sc.found.at, sc.found.arch, err = findMagic(io.LimitReader(f, scanCap)); err != nil {
		return sc, err
	}
	head := make([]byte, 256)
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	if bytes.HasPrefix(head, []byte("#!")) {
		line, _, _ := bytes.Cut(head[2:], []byte("\n"))
		if fields := bytes.Fields(line); len(fields) > 0 {
			sc.shebang = string(fields[0])
		}
		return sc, nil
	}
	if !bytes.HasPrefix(head, []byte(elf.ELFMAG)) {
		return sc, nil
	}
	return scanELF(f, size, sc)
}

// scanELF fills sc from the ELF file f: its segments as mapped, its
// interpreter, its dynamic segment. A file the loader would read but this
// cannot is an error.
func scanELF(f *os.File, size int64, sc fileScan) (fileScan, error) {
	ef, err := elf.NewFile(f)
	if err != nil {
		return sc, fmt.Errorf("%s is an ELF file that cannot be read: %v", f.Name(), err)
	}
	for _, page := range pageSizes {
		if sc.found.at >= 0 || !mappableAt(ef.Progs, page) {
			continue // no kernel of this page size loads it
		}
		at, arch, err := segmentMagic(f, size, ef.Progs, page)
		if err != nil {
			return sc, fmt.Errorf("%s: %v", f.Name(), err)
		}
		if at >= 0 {
			sc.found = magicAt{path: f.Name(), at: at, arch: arch, inMemory: true}
		}
	}
	for _, p := range ef.Progs {
		if p.Type == elf.PT_INTERP {
			b := make([]byte, min(p.Filesz, 4096))
			if _, err := p.ReadAt(b, 0); err != nil {
				return sc, fmt.Errorf("%s: its PT_INTERP cannot be read: %v", f.Name(), err)
			}
			sc.interp = string(bytes.TrimRight(b, "\x00"))
		}
	}
	dyn, err := readDynamic(ef)
	if err != nil {
		return sc, fmt.Errorf("%s: %v", f.Name(), err)
	}
	sc.needed = append(append(dyn.strs[elf.DT_NEEDED], dyn.strs[elf.DT_AUXILIARY]...), dyn.strs[elf.DT_FILTER]...)
	sc.paths = append(dyn.strs[elf.DT_RUNPATH], dyn.strs[elf.DT_RPATH]...)
	sc.program = ef.Type == elf.ET_EXEC || dyn.flags1&uint64(elf.DF_1_PIE) != 0
	return sc, nil
}

// mappableAt says whether every PT_LOAD of a file can be mapped at page
// size page: at the same offset into a page in memory and in the file
// (the kernel's and ld.so's mmap need it; p_align is not relied on).
func mappableAt(progs []*elf.Prog, page uint64) bool {
	for _, p := range progs {
		if p.Type == elf.PT_LOAD && p.Vaddr%page != p.Off%page {
			return false
		}
	}
	return true
}

// segmentMagic looks for the sequence in the PT_LOAD segments of a file as
// they lie in memory at page size page: each segment's whole pages from
// the file (what mmap maps), later segments over earlier ones, adjacent
// ones joined. at is an address (-1: none).
func segmentMagic(f io.ReaderAt, size int64, progs []*elf.Prog, page uint64) (int64, string, error) {
	type seg struct{ start, end, fileOff, fileLen uint64 }
	var segs []seg
	var total uint64
	for _, p := range progs {
		if p.Type != elf.PT_LOAD || p.Memsz == 0 {
			continue
		}
		lead := p.Vaddr % page
		if p.Off < lead {
			return -1, "", fmt.Errorf("a PT_LOAD at offset %#x cannot be mapped at %#x", p.Off, p.Vaddr)
		}
		s := seg{start: p.Vaddr - lead, fileOff: p.Off - lead}
		s.end = (p.Vaddr + p.Memsz + page - 1) / page * page
		s.fileLen = min((lead+p.Filesz+page-1)/page*page, s.end-s.start)
		if s.end < s.start || s.end-s.start > scanCap {
			return -1, "", fmt.Errorf("a PT_LOAD of %#x bytes at %#x is more than the scan lays out", p.Memsz, p.Vaddr)
		}
		total += s.end - s.start
		segs = append(segs, s)
	}
	if total > scanCap {
		return -1, "", fmt.Errorf("its segments span %d bytes, more than the scan lays out", total)
	}
	// Runs of segments that touch or overlap in memory.
	order := make([]int, len(segs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return segs[order[a]].start < segs[order[b]].start })
	for i := 0; i < len(order); {
		lo, hi, j := segs[order[i]].start, segs[order[i]].end, i+1
		for j < len(order) && segs[order[j]].start <= hi {
			hi = max(hi, segs[order[j]].end)
			j++
		}
		mem := make([]byte, hi-lo)
		for _, s := range segs { // in header order: a later mapping replaces an earlier one
			if s.start < lo || s.start >= hi {
				continue
			}
			clear(mem[s.start-lo : s.end-lo])
			n := min(s.fileLen, uint64(max(size-int64(s.fileOff), 0)))
			if _, err := f.ReadAt(mem[s.start-lo:s.start-lo+n], int64(s.fileOff)); err != nil && !errors.Is(err, io.EOF) {
				return -1, "", err
			}
		}
		if at, arch, err := findMagic(bytes.NewReader(mem)); err != nil || at >= 0 {
			return int64(lo) + at, arch, err
		}
		i = j
	}
	return -1, "", nil
}

// dynamic is what a dynamic segment says: its strings by tag, and
// DT_FLAGS_1.
type dynamic struct {
	strs   map[elf.DynTag][]string
	flags1 uint64
}

// readDynamic reads the PT_DYNAMIC segment as ld.so does: tag and value
// pairs to DT_NULL, strings at DT_STRTAB (an address, found through the
// PT_LOAD segments). A string the loader would use but that cannot be
// read is an error.
func readDynamic(ef *elf.File) (dynamic, error) {
	d := dynamic{strs: map[elf.DynTag][]string{}}
	var raw []byte
	for _, p := range ef.Progs {
		if p.Type == elf.PT_DYNAMIC {
			raw = make([]byte, min(p.Filesz, 1<<20))
			if _, err := p.ReadAt(raw, 0); err != nil {
				return d, fmt.Errorf("its PT_DYNAMIC cannot be read: %v", err)
			}
		}
	}
	if raw == nil {
		return d, nil
	}
	strtab, strsz, offs := dynEntries(ef, raw, &d)
	if len(offs) == 0 {
		return d, nil
	}
	tab, err := stringTable(ef, strtab, strsz)
	if err != nil {
		return d, err
	}
	for _, o := range offs {
		if o.off >= uint64(len(tab)) {
			return d, fmt.Errorf("its dynamic entry %s names string %d, beyond its string table", o.tag, o.off)
		}
		s, _, _ := bytes.Cut(tab[o.off:], []byte{0})
		d.strs[o.tag] = append(d.strs[o.tag], string(s))
	}
	return d, nil
}

// dynRef is a dynamic entry naming a string: its tag and the string's
// offset in the string table.
type dynRef struct {
	tag elf.DynTag
	off uint64
}

// dynEntries reads the tag and value pairs of raw to DT_NULL: where the
// string table is, its size, the entries naming strings ld.so uses, and
// DT_FLAGS_1 into d.
func dynEntries(ef *elf.File, raw []byte, d *dynamic) (strtab, strsz uint64, refs []dynRef) {
	word := 8
	if ef.Class == elf.ELFCLASS32 {
		word = 4
	}
	read := func(b []byte) uint64 {
		if word == 4 {
			return uint64(ef.ByteOrder.Uint32(b))
		}
		return ef.ByteOrder.Uint64(b)
	}
	for i := 0; i+2*word <= len(raw); i += 2 * word {
		tag, val := elf.DynTag(read(raw[i:])), read(raw[i+word:])
		switch tag {
		case elf.DT_NULL:
			return strtab, strsz, refs
		case elf.DT_STRTAB:
			strtab = val
		case elf.DT_STRSZ:
			strsz = val
		case elf.DT_FLAGS_1:
			d.flags1 = val
		case elf.DT_NEEDED, elf.DT_AUXILIARY, elf.DT_FILTER, elf.DT_RUNPATH, elf.DT_RPATH:
			refs = append(refs, dynRef{tag, val})
		}
	}
	return strtab, strsz, refs
}

// stringTable reads size bytes at address addr of the file's PT_LOAD
// segments.
func stringTable(ef *elf.File, addr, size uint64) ([]byte, error) {
	if size > 64<<20 {
		return nil, fmt.Errorf("its string table is %d bytes, more than the scan reads", size)
	}
	for _, p := range ef.Progs {
		if p.Type == elf.PT_LOAD && addr >= p.Vaddr && addr-p.Vaddr < p.Filesz {
			n := min(size, p.Filesz-(addr-p.Vaddr))
			b := make([]byte, n)
			if _, err := p.ReadAt(b, int64(addr-p.Vaddr)); err != nil && !errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("its string table cannot be read: %v", err)
			}
			return b, nil
		}
	}
	return nil, fmt.Errorf("its string table (address %#x) lies in no loaded segment", addr)
}
