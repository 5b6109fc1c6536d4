package docker

import (
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// halebench's /dev/shm sharing, as Docker's IPC modes: a container that
// shares its /dev/shm is "shareable", one that uses another's joins that
// container's namespace, and one that does neither gets its own ("").
func TestSpecShm(t *testing.T) {
	for _, c := range []struct {
		s    engine.Spec
		want string
	}{
		{engine.Spec{}, ""},
		{engine.Spec{ShareShm: true, ShmSize: 1 << 28}, "shareable"},
		{engine.Spec{ShmOf: "abc123"}, "container:abc123"},
	} {
		_, hc := configs(c.s)
		if string(hc.IpcMode) != c.want || hc.ShmSize != c.s.ShmSize {
			t.Errorf("%+v: IpcMode %q ShmSize %d, want %q %d", c.s, hc.IpcMode, hc.ShmSize, c.want, c.s.ShmSize)
		}
	}
}
