package image_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/images"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/subject"
)

// The target dir's cache mount, as images/hale/Dockerfile declares it (its
// ARG and RUN lines taken as they are, around a stand-in build.sh that
// lists the dir and plants a file in it, as a hostile build.rs would): what
// a build of a ref plants is not seen by a release build, nor by the next
// build of a ref (the dir is emptied first); a release build's own files
// stay for the next release build.
func TestHaleCacheMountIsolates(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	var log bytes.Buffer
	b := image.New(eng, enginetest.BuildKit(t, eng), &log, image.Options{RunID: "test-hale-cache"})
	base, err := b.Base(ctx)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	df, _ := images.FS.ReadFile("hale/Dockerfile")
	nonce := fmt.Sprint(time.Now().UnixNano())
	release := map[string]string{"HALE_TARGET_CACHE": subject.CacheRelease + "test-" + nonce, "HALE_TARGET_FRESH": "0"}
	ref := map[string]string{"HALE_TARGET_CACHE": subject.CacheRef + "-test-" + nonce, "HALE_TARGET_FRESH": "1"}
	build := func(args map[string]string, plant string) string {
		t.Helper()
		mount := string(subject.TargetDockerfile(df, args))
		start := strings.Index(mount, "ARG HALE_TARGET_FRESH")
		end := strings.Index(mount, "sh /halebench/build.sh")
		if start < 0 || end < start || !strings.Contains(mount[start:end], "id="+args["HALE_TARGET_CACHE"]+",") {
			t.Fatalf("images/hale/Dockerfile has no target dir mount of id %s before build.sh", args["HALE_TARGET_CACHE"])
		}
		dir, out := t.TempDir(), t.TempDir()
		for name, data := range map[string]string{
			"Dockerfile": "ARG BASE\nFROM ${BASE} AS builder\nARG PLANT\nCOPY build.sh /halebench/build.sh\n" + mount[start:end+len("sh /halebench/build.sh")] + "\nFROM scratch\nCOPY --from=builder /halebench/out/ /\n",
			"build.sh":   "set -eu\nmkdir -p /halebench/out\nls -A /src/target > /halebench/out/seen\necho planted > \"/src/target/planted-$PLANT\"\n",
		} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		a := map[string]string{"BASE": base.Ref, "PLANT": plant}
		for k, v := range args {
			a[k] = v
		}
		if err := image.SolveLocal(ctx, b, dir, a, out); err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		seen, err := os.ReadFile(filepath.Join(out, "seen"))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(strings.Fields(string(seen)), " ")
	}
	steps := []struct {
		name  string
		args  map[string]string
		plant string
		want  string
	}{
		{"a hostile ref", ref, "hostile", ""},
		{"a release after it", release, "release", ""},
		{"another ref", ref, "other", ""},
		{"the next release", release, "next", "planted-release"},
	}
	for _, s := range steps {
		if got := build(s.args, s.plant); got != s.want {
			t.Fatalf("%s saw %q in its target dir, want %q", s.name, got, s.want)
		}
	}
}
