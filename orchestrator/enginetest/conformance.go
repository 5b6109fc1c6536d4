package enginetest

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/image"
)

// Conformance is the driver contract (docs/driver.md) run against the
// driver open gives: what every driver must do (images, containers and
// their labels, names made once, runs removed, attached streams, VOLUMEs
// refused, the privilege probe), and for each feature its Features says
// it has, that it does it; for each it says it lacks, that the method
// refuses naming the feature, or, where nothing can refuse (a cpuset on an
// engine that runs no program), that the log says so. The Docker driver
// (engine/docker) and the fake (this package) run it.
//
// It needs no base image: where the driver runs programs, the suite's one
// program (testdata/conformance) is built static and imported as the only
// file of a test image, with /bin/true beside it for the privilege probe.
// Everything it makes carries a run id of its own and is removed at its end.
func Conformance(t *testing.T, open func(t *testing.T) engine.Driver) {
	d := open(t)
	ctx := context.Background()
	asked := time.Now()
	f, err := d.Features(ctx)
	if err != nil {
		t.Fatalf("Features: %v", err)
	}
	t.Logf("%s driver, asked in %s: %s", f.Driver, time.Since(asked).Round(time.Millisecond), f)
	c := &conf{d: d, f: f, run: fmt.Sprintf("conformance-%d-%04x", os.Getpid(), rand.Intn(1<<16))}
	c.img = c.importProbe(t, "probe")
	t.Cleanup(func() {
		d.RemoveRun(context.Background(), c.run)
		d.RemoveImage(context.Background(), c.img)
	})
	for _, s := range []struct {
		name string
		test func(*testing.T)
	}{
		{"Features", c.features}, {"Images", c.images}, {"Life", c.life}, {"NameOnce", c.nameOnce},
		{"Removal", c.removal}, {"Attach", c.attach}, {"ExitAndStderr", c.exitAndStderr}, {"Command", c.command},
		{"Pinning", c.pinning}, {"MemoryLimit", c.memoryLimit}, {"SharedIPC", c.sharedIPC}, {"Volume", c.volume},
		{"Privilege", c.privilege}, {"Build", c.build}, {"Archives", c.archives}, {"BuildCache", c.buildCache},
	} {
		t.Run(s.name, s.test)
	}
	NoLeftovers(t, d, c.run)
}

// conf is one driver under the suite.
type conf struct {
	d   engine.Driver
	f   engine.Features
	run string // the run id of every container the suite makes
	img string // the suite's image: its program, or empty
}

// lacks says whether the driver lacks feat, and logs so: the suite then
// checks only what the driver still owes without it.
func (c *conf) lacks(t *testing.T, feat engine.Feature) bool {
	t.Helper()
	if c.f.Has[feat] {
		return false
	}
	t.Logf("the %s driver has no %s (%s): not checked", c.f.Driver, feat, c.f.Missing[feat])
	return true
}

// importProbe imports the suite's image as conformance/NAME:RUN: the
// suite's program where the driver runs programs, else nothing.
func (c *conf) importProbe(t *testing.T, name string) string {
	t.Helper()
	var files map[string][]byte
	if c.f.Has[engine.FeatPrograms] {
		files = map[string][]byte{"conformance": buildProbe(t, c.f.Platforms[0])}
	}
	ref := "halebench-conformance/" + name + ":" + c.run
	if err := c.d.Import(context.Background(), rootfs(t, files), ref, []string{"ENV PATH=/bin"}); err != nil {
		t.Fatalf("Import %s: %v", ref, err)
	}
	return ref
}

// buildProbe compiles testdata/conformance, static, for platform.
func buildProbe(t *testing.T, platform string) []byte {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("building the conformance program needs the go command: %v", err)
	}
	out := filepath.Join(t.TempDir(), "conformance")
	cmd := exec.Command(goBin, "build", "-trimpath", "-o", out, "./orchestrator/enginetest/testdata/conformance")
	cmd.Dir = root
	_, arch, _ := strings.Cut(platform, "/")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+arch)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the conformance program: %v\n%s", err, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rootfs is a root filesystem tar of files (executable, at the root) and
// /bin/true, a link to /conformance.
func rootfs(t *testing.T, files map[string][]byte) io.Reader {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	mod := time.Unix(0, 0)
	for name, b := range files {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(b)), ModTime: mod, Typeflag: tar.TypeReg})
		tw.Write(b)
	}
	if len(files) > 0 {
		tw.WriteHeader(&tar.Header{Name: "bin/", Mode: 0o755, ModTime: mod, Typeflag: tar.TypeDir})
		tw.WriteHeader(&tar.Header{Name: "bin/true", Linkname: "/conformance", ModTime: mod, Typeflag: tar.TypeSymlink})
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return &buf
}

// features: every feature answered, the same twice, the cgroup Info's,
// the engine's own platform first, and Need naming what is missing.
func (c *conf) features(t *testing.T) {
	ctx := context.Background()
	info, err := c.d.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f := c.f
	if f.Driver == "" || f.API == "" || (f.Cgroup != "v1" && f.Cgroup != "v2") || f.Cgroup != info.CgroupVersion {
		t.Errorf("features %+v: want a driver name, an API version and the cgroup version Info says (%s)", f, info.CgroupVersion)
	}
	if own := "linux/" + image.NormArch(info.Arch); len(f.Platforms) == 0 || f.Platforms[0] != own || !f.Runs(own) {
		t.Errorf("platforms %v: want the engine's own, %s, first", f.Platforms, own)
	}
	for _, feat := range engine.AllFeatures {
		if _, answered := f.Has[feat]; !answered {
			t.Errorf("Features does not say whether the engine has %s", feat)
		}
		err := f.Need("the suite", feat)
		var missing *engine.MissingFeatureError
		if f.Has[feat] != (err == nil) || (err != nil && (!errors.As(err, &missing) || missing.Feature != feat || !strings.Contains(err.Error(), string(feat)))) {
			t.Errorf("Need(%s) with has=%v: %v", feat, f.Has[feat], err)
		}
	}
	for feat := range f.Missing {
		if f.Has[feat] {
			t.Errorf("%s is had and missing at once", feat)
		}
	}
	again, err := c.d.Features(ctx)
	if err != nil || again.String() != f.String() || strings.Join(again.Platforms, ",") != strings.Join(f.Platforms, ",") {
		t.Errorf("Features asked again: %v (%v), first %v", again, err, f)
	}
}

// images: found by reference with its ID, tagged, listed, untagged; a
// missing one is not found, not an error.
func (c *conf) images(t *testing.T) {
	ctx := context.Background()
	im, ok, err := c.d.Image(ctx, c.img)
	if err != nil || !ok || !strings.HasPrefix(im.ID, "sha256:") {
		t.Fatalf("Image(%s) = %+v, %v, %v: want it found, with its sha256 ID", c.img, im, ok, err)
	}
	if _, ok, err := c.d.Image(ctx, "halebench-conformance/none:"+c.run); ok || err != nil {
		t.Fatalf("a missing image: found %v, err %v; want not found and no error", ok, err)
	}
	before, err := c.d.ImageMadeAt(ctx, c.img)
	if err != nil {
		t.Fatal(err)
	}
	other := "halebench-conformance/tagged:" + c.run
	if err := c.d.Tag(ctx, c.img, other); err != nil {
		t.Fatal(err)
	}
	if err := c.d.Tag(ctx, "halebench-conformance/none:"+c.run, other+"-x"); err == nil {
		t.Error("tagging a missing image: no error")
	}
	tagged, ok, err := c.d.Image(ctx, other)
	if err != nil || !ok || tagged.ID != im.ID {
		t.Fatalf("the tag %s: %+v %v %v, want ID %s", other, tagged, ok, err, im.ID)
	}
	if after, err := c.d.ImageMadeAt(ctx, other); err != nil || after.Before(before) {
		t.Errorf("made at %v after a tag, %v before (%v): a tag counts as the latest making", after, before, err)
	}
	stored, err := c.d.StoredImages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(stored, func(s engine.StoredImage) bool { return s.ID == im.ID })
	if i < 0 || !slices.Contains(stored[i].Tags, other) || !slices.Contains(stored[i].Tags, c.img) {
		t.Errorf("StoredImages: %s with tags %s and %s not listed", im.ID, c.img, other)
	}
	// A container made from the image, never started, counts as its use
	// (prune keeps such an image).
	c.create(t, engine.Spec{Cmd: probe("exit", "0")})
	if stored, err = c.d.StoredImages(ctx); err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(stored, func(s engine.StoredImage) bool { return s.ID == im.ID }); i < 0 || stored[i].Containers < 1 {
		t.Errorf("StoredImages: %s with a container made from it lists %+v; want Containers at least 1", c.img, stored)
	}
	if err := c.d.RemoveImage(ctx, other); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := c.d.Image(ctx, other); ok {
		t.Error("a removed tag is still found")
	}
	if _, ok, _ := c.d.Image(ctx, c.img); !ok {
		t.Error("removing one tag removed the image its other tag names")
	}
	if err := c.d.RemoveImage(ctx, other); err != nil {
		t.Errorf("removing a reference that names nothing: %v, want no error", err)
	}
}
