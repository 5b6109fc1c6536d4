package imagestore_test

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/imagestore"
)

// key is the test image's key in the folder.
var key = strings.Repeat("6", 64)

// A folder stored by root (this test, as halebench runs in its container)
// is restored by a user who is not root and owns nothing in it (uid 65534,
// as a CI runner's cache step is another user): that user reads the entry
// and every blob, checked, and assembles the docker-archive stream, which
// the engine loads as the image with its digest and layers.
func TestRestoreAsNobody(t *testing.T) {
	if env := os.Getenv("HALEBENCH_TEST_ASSEMBLE"); env != "" {
		assembleAsChild(env)
		return
	}
	eng := enginetest.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ref := fmt.Sprintf("halebench-test/cache-nobody:%d", os.Getpid())
	if err := eng.Import(ctx, bytes.NewReader(rootfs(t)), ref, []string{"CMD [\"/hello\"]"}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.RemoveImage(context.Background(), ref) })
	img, ok, err := eng.Image(ctx, ref)
	if err != nil || !ok {
		t.Fatalf("the imported image: %v %v", ok, err)
	}
	base, err := os.MkdirTemp("", "halebench-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "cache")
	var log bytes.Buffer
	if err := imagestore.Prepare(dir); err != nil {
		t.Fatal(err)
	}
	if err := imagestore.New(dir, eng, &log, nil).Store(ctx, key, ref, img.ID); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if err := eng.RemoveImage(ctx, ref); err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- eng.Load(ctx, pr) }()
	who := assembleAsNobody(t, base, dir, ref, pw)
	pw.Close()
	if err := <-done; err != nil {
		t.Fatalf("loading what %s assembled: %v", who, err)
	}
	got, ok, err := eng.Image(ctx, ref)
	if err != nil || !ok || got.ID != img.ID || !slices.Equal(got.Layers, img.Layers) {
		t.Fatalf("restored by %s: %+v %v %v, want %s with layers %v", who, got, ok, err, img.ID, img.Layers)
	}
}

// rootfs is a root filesystem of one file.
func rootfs(t *testing.T) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	body := []byte("restored by nobody\n")
	tw.WriteHeader(&tar.Header{Name: "hello", Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(body)), ModTime: time.Unix(0, 0)})
	tw.Write(body)
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// assembleAsNobody runs this test binary's TestRestoreAsNobody as uid 65534
// (this process's own user when it is not root) to assemble ref from dir
// into w, and says who did.
func assembleAsNobody(t *testing.T, base, dir, ref string, w *io.PipeWriter) string {
	t.Helper()
	env := "HALEBENCH_TEST_ASSEMBLE=" + strings.Join([]string{dir, key, ref}, "\n")
	if os.Geteuid() != 0 { // not root already: read the folder as this user
		c := imagestore.New(dir, nil, io.Discard, nil)
		if err := c.Assemble(w, key, ref); err != nil {
			t.Fatalf("assembling as uid %d: %v", os.Geteuid(), err)
		}
		return fmt.Sprintf("uid %d", os.Geteuid())
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "imagecache.test")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestRestoreAsNobody$")
	cmd.Dir = base
	cmd.Env = append(os.Environ(), env)
	cmd.Stdout = w
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	if err := cmd.Run(); err != nil {
		t.Fatalf("assembling as uid 65534: %v\n%s", err, stderr.String())
	}
	return "uid 65534"
}

// assembleAsChild is the child's part: the stream on stdout, then exit
// before the test framework writes anything there.
func assembleAsChild(env string) {
	parts := strings.Split(env, "\n")
	if len(parts) != 3 || os.Geteuid() == 0 {
		fmt.Fprintf(os.Stderr, "HALEBENCH_TEST_ASSEMBLE=%q as uid %d: want dir, key and ref, not as root\n", env, os.Geteuid())
		os.Exit(3)
	}
	if err := imagestore.New(parts[0], nil, os.Stderr, nil).Assemble(os.Stdout, parts[1], parts[2]); err != nil {
		fmt.Fprintf(os.Stderr, "assembling as uid %d: %v\n", os.Geteuid(), err)
		os.Exit(3)
	}
	os.Exit(0)
}
