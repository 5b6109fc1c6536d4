package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two identical benches, one given VALGRIND_OPTS in catalogue.json (which
// once counted 6,746 instructions of its twin's 40,000,037): the suite is
// refused, naming the bench and the variable; so is every other variable
// that steers how a program is loaded, run or counted. A bench's own knob
// and the Hale runtime's load.
func TestCatalogueEnvIsAllowListed(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "benches", "micro"), 0o755)
	for _, n := range []string{"loop_a.c", "loop_b.c"} {
		os.WriteFile(filepath.Join(dir, "benches", "micro", n), []byte("int main(void) { return 0; }\n"), 0o644)
	}
	write := func(env string) {
		os.WriteFile(filepath.Join(dir, "benches", "catalogue.json"), []byte(`{"benches": {"loop_b": {"env": `+env+`}}}`), 0o644)
	}
	for _, name := range []string{"VALGRIND_OPTS", "LD_PRELOAD", "LD_LIBRARY_PATH", "GLIBC_TUNABLES", "MALLOC_ARENA_MAX",
		"GODEBUG", "GOGC", "PYTHONPATH", "NODE_OPTIONS", "HALEBENCH_SEED", "lotus_x", "LOTUS_", "PATH"} {
		write(`{"` + name + `": "--toggle-collect=main"}`)
		_, err := Load(dir)
		if err == nil || !strings.Contains(err.Error(), "bench loop_b") || !strings.Contains(err.Error(), `"`+name+`"`) {
			t.Errorf("env %s: err = %v, want a refusal naming loop_b and %s", name, err, name)
		}
	}
	write(`{"BENCH_SIZE": "a\u001b[2Jb"}`)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "printable") {
		t.Errorf("a control character in a value: err = %v", err)
	}
	write(`{"LOTUS_BUS_QUEUE_CAP": "64", "BENCH_SIZE": "1000"}`)
	s, err := Load(dir)
	if err != nil {
		t.Fatalf("a bench's own knobs were refused: %v", err)
	}
	for _, b := range s.All {
		if b.Name == "loop_b" && (b.Env["LOTUS_BUS_QUEUE_CAP"] != "64" || b.Env["BENCH_SIZE"] != "1000") {
			t.Errorf("loop_b's env = %v", b.Env)
		}
	}
}
