package image

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// dataTar opens the data.tar member of a .deb (an ar archive), undoing its
// compression; close frees the decompressor.
func dataTar(r io.Reader) (tr io.Reader, close func(), err error) {
	br := bufio.NewReader(r)
	magic := make([]byte, 8)
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != "!<arch>\n" {
		return nil, nil, fmt.Errorf("not a .deb (ar) archive")
	}
	for {
		hdr := make([]byte, 60)
		if _, err := io.ReadFull(br, hdr); err != nil {
			return nil, nil, fmt.Errorf("no data.tar member in the .deb")
		}
		name := strings.TrimSuffix(strings.TrimSpace(string(hdr[:16])), "/")
		size, err := strconv.ParseInt(strings.TrimSpace(string(hdr[48:58])), 10, 64)
		if err != nil || size < 0 {
			return nil, nil, fmt.Errorf(".deb member %q has a bad size", name)
		}
		if strings.HasPrefix(name, "data.tar") {
			return decompress(name, io.LimitReader(br, size))
		}
		if _, err := io.CopyN(io.Discard, br, size+size%2); err != nil {
			return nil, nil, fmt.Errorf(".deb member %q: %w", name, err)
		}
	}
}

func decompress(name string, r io.Reader) (io.Reader, func(), error) {
	switch {
	case name == "data.tar":
		return r, func() {}, nil
	case strings.HasSuffix(name, ".xz"):
		xr, err := xz.NewReader(r)
		return xr, func() {}, err
	case strings.HasSuffix(name, ".gz"):
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, nil, err
		}
		return zr, func() { zr.Close() }, nil
	case strings.HasSuffix(name, ".zst"):
		zr, err := zstd.NewReader(r)
		if err != nil {
			return nil, nil, err
		}
		return zr, zr.Close, nil
	}
	return nil, nil, fmt.Errorf(".deb member %s: compression not known here", name)
}
