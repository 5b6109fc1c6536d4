package wire

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// A result the sampler writes is read back whole by the runner, and only
// with the job's nonce.
func TestResultRoundTrip(t *testing.T) {
	peak := int64(2048)
	priv := &Privileges{UID: "65534", GID: "65534", CapEff: "0", NoNewPrivs: "1", Seccomp: "2", PID1FDs: "denied"}
	in := Result{ID: "7", Nonce: "n0nce", Spent: true, Status: StatusOK, Detail: "d", BuildError: "e",
		Env: Env{Affinity: "1", CgroupVersion: "v1", MemPeakSource: "s", ContainerPrivileges: priv, BenchPrivileges: priv,
			ConfinementErrors: []string{"x"}},
		Samples: []Sample{{Warmup: true, Status: StatusOK, Check: "c", Figures: Figures{ElapsedNs: 9, MaxRSSKB: 1, MemPeakKB: peak,
			WallNs: 10}, ExitCode: 1, Signal: "SIGSEGV", StderrTail: "t"}}}
	line := EncodeResult(in)
	if !bytes.HasPrefix(line, []byte(ResultPrefix)) || bytes.Count(line, []byte("\n")) != 1 || line[len(line)-1] != '\n' {
		t.Fatalf("a result is one prefixed line: %q", line)
	}
	got, err := ParseResultLine(string(bytes.TrimSuffix(line, []byte("\n"))), "n0nce")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, in) {
		t.Fatalf("read back\n%+v\nwant\n%+v", got, in)
	}
	if _, err := ParseResultLine(string(line[:len(line)-1]), "other"); err == nil {
		t.Fatal("a result without the job's nonce was believed")
	}
	if _, err := ParseResultLine(ResultPrefix+`{"nonce":"n0nce"}`, "n0nce"); err == nil {
		t.Fatal("a result without a status was believed")
	}
}

func TestJobRoundTrip(t *testing.T) {
	in := Job{ID: "1", Nonce: "n", Iters: 5, Warmup: 1, TimeoutNs: 3e9, Seed: "42", MemLimit: 1 << 30, OutCap: 1 << 20,
		BuildFailed: "/bench/bin/x.build_failed", Env: []string{"A=1"}, Argv: []string{"/bench/bin/x"}, Ready: true, Room: RoomOwner}
	line := EncodeJob(in)
	if bytes.Count(line, []byte("\n")) != 1 || line[len(line)-1] != '\n' {
		t.Fatalf("a job is one line: %q", line)
	}
	var got Job
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil || !reflect.DeepEqual(got, in) {
		t.Fatalf("read back %+v (%v), want %+v", got, err, in)
	}
}

// A ready line is read back only with the job's nonce and names its job;
// nothing else passes for one.
func TestReadyLine(t *testing.T) {
	line := EncodeReady("3", "n0nce")
	if !bytes.HasPrefix(line, []byte(ReadyPrefix)) || bytes.Count(line, []byte("\n")) != 1 || line[len(line)-1] != '\n' {
		t.Fatalf("a ready line is one prefixed line: %q", line)
	}
	text := string(line[:len(line)-1])
	if !IsReadyLine(text) || IsReadyLine(string(EncodeResult(Result{Status: StatusOK}))) {
		t.Fatal("a ready line and a result line are told apart by their prefix")
	}
	got, err := ParseReadyLine(text, "n0nce")
	if err != nil || got != (Ready{ID: "3", Nonce: "n0nce"}) {
		t.Fatalf("read back %+v (%v)", got, err)
	}
	for _, bad := range []struct{ line, nonce string }{
		{text, "other"},
		{ReadyPrefix + `{"nonce":"n0nce"}`, "n0nce"},
		{ReadyPrefix + `{"id":"3","nonce":"n0nce","status":"ok"}`, "n0nce"},
		{ReadyPrefix + `ready`, "n0nce"},
		{"ready", "n0nce"},
	} {
		if r, err := ParseReadyLine(bad.line, bad.nonce); err == nil {
			t.Errorf("%q with nonce %q was believed: %+v", bad.line, bad.nonce, r)
		}
	}
}
