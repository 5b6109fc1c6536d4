package imagestore

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// A job without the key rewrites an entry to point at a blob of its own
// (its identity left as the image's, its signature dropped); a keyed job
// then stores the same image: it must not sign what it never verified.
// The entry it leaves names the image's own layers, or is not signed.
func TestStoreDoesNotSignAnUnverifiedEntry(t *testing.T) {
	k := []byte(strings.Repeat("k", MinKeyLen))
	c, eng, _ := filledWith(t, k)
	forged := bytes.Repeat([]byte("planted layer "), 500)
	if err := os.WriteFile(blobPath(c, "sha256:"+sum(forged)), forged, FileMode); err != nil {
		t.Fatal(err)
	}
	editEntry(t, c, key, func(e *Entry) {
		e.Blobs[0] = Blob{Digest: "sha256:" + sum(forged), Size: int64(len(forged))}
		e.HMAC = ""
	})
	eng.imgs[ref] = tc
	if err := c.Store(context.Background(), key, ref, tc.id()); err != nil {
		t.Fatal(err)
	}
	e, err := c.readEntry(key)
	if err != nil || e == nil {
		t.Fatalf("no entry after the store: %v", err)
	}
	if e.signedWith(k) && e.Blobs[0].Digest != "sha256:"+sum(lower) {
		t.Fatalf("the keyed job signed the planted blob %s as the image's layer", e.Blobs[0].Digest)
	}
	if !e.signedWith(k) {
		t.Fatal("the image stored by a keyed job is not signed")
	}
}
