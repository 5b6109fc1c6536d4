package image_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// A build whose log (a compiler's, cargo's, a build.rs's) prints CI
// commands — an indented "::error::", which GitHub obeys once it strips
// the blanks, and "##vso[" mid-line, which Azure obeys anywhere — fails:
// neither the error that carries the log's tail nor the progress log
// carries one a runner would obey, and the text is still there to read.
func TestBuildLogTailIsCleaned(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	bk := enginetest.BuildKit(t, eng)
	var log bytes.Buffer
	b := image.New(eng, bk, &log, image.Options{RunID: "test-buildlog"})
	df := "ARG BASE\nFROM $BASE\n" +
		`RUN printf '    ::error file=x::planted\n\t::add-mask::y\nwarning: ##vso[task.setvariable variable=x]1 \033]0;title\007 ##[error]z\n'; exit 3` + "\n"
	err := b.SolveOnBase(ctx, df, "halebench-test/buildlog:1", "hostile build")
	if err == nil {
		t.Fatal("a build that exits 3 succeeded")
	}
	for what, text := range map[string]string{"the error": err.Error(), "the log": log.String()} {
		if cmd := termtext.CommandLine(text); cmd != "" {
			t.Errorf("%s carries the CI command %q:\n%s", what, cmd, text)
		}
		if strings.ContainsAny(text, "\x1b\x07") {
			t.Errorf("%s carries an escape: %q", what, text)
		}
	}
	if !strings.Contains(err.Error(), "::error file=x::planted") || !strings.Contains(err.Error(), "vso[task.setvariable") {
		t.Errorf("the error lost the log's text:\n%s", err)
	}
}
