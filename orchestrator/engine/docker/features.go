package docker

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// Features asks the engine, once per connection: its API version and
// cgroup version (Info), whether its embedded BuildKit answers and which
// platforms its workers run (the engine's own, and those binfmt_misc
// emulates), and whether it grants a privileged container (one container
// of an empty image, which never runs a program). Everything else the
// Docker driver does is Docker's own and always there.
func (e *Engine) Features(ctx context.Context) (engine.Features, error) {
	e.feat.Lock()
	defer e.feat.Unlock()
	if e.feat.known != nil {
		return *e.feat.known, nil
	}
	info, err := e.Info(ctx)
	if err != nil {
		return engine.Features{}, err
	}
	f := engine.Features{Driver: "docker", API: info.EngineAPI, Cgroup: info.CgroupVersion, Platforms: []string{"linux/" + normArch(info.Arch)}}
	for _, feat := range []engine.Feature{engine.FeatSharedIPC, engine.FeatArchives, engine.FeatPrograms, engine.FeatPinning, engine.FeatMemoryLimit, engine.FeatBuildCache} {
		f.With(feat, true, "")
	}
	plats, err := e.workerPlatforms(ctx)
	f.With(engine.FeatBuildKit, err == nil, errText(err))
	for _, p := range plats {
		if !slices.Contains(f.Platforms, p) {
			f.Platforms = append(f.Platforms, p)
		}
	}
	why, err := e.privilegedRefused(ctx)
	if err != nil {
		return engine.Features{}, fmt.Errorf("asking the engine at %s whether it grants a privileged container: %w", e.host, err)
	}
	f.With(engine.FeatPrivileged, why == "", why)
	e.feat.known = &f
	return f, nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// workerPlatforms are the platforms BuildKit's workers run, as os/arch
// (variants folded): the engine's own and every one an emulator is
// registered for in binfmt_misc.
func (e *Engine) workerPlatforms(ctx context.Context) ([]string, error) {
	bk, err := e.BuildKit(ctx)
	if err != nil {
		return nil, err
	}
	defer bk.Close()
	ws, err := bk.bk.ListWorkers(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing BuildKit's workers at %s: %w", e.host, err)
	}
	var out []string
	for _, w := range ws {
		for _, p := range w.Platforms {
			if s := p.OS + "/" + normArch(p.Architecture); !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// normArch is an architecture as Go and OCI name it (x86_64 is amd64).
func normArch(a string) string {
	switch a {
	case "x86_64":
		return "amd64"
	case "aarch64":
		return "arm64"
	}
	return a
}

// emptyImage is what the privileged probe starts: no file at all, so no
// program of anyone's runs with privilege.
const emptyImage = "halebench/empty:1"

// privilegedRefused starts, privileged, a container of the empty image
// whose command does not exist, and returns why the engine refused the
// privilege ("" when it granted it). The engine applies a container's
// privilege (capabilities, devices, no seccomp) before it looks for the
// command, and marks a command not found with exit code 127 (the docker
// CLI's "command not found"): so 127 means every privilege was granted,
// and any other failure is the engine refusing it, in its own words.
func (e *Engine) privilegedRefused(parent context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(parent, ProbeTimeout)
	defer cancel()
	if err := e.ensureEmpty(ctx); err != nil {
		return "", err
	}
	c, err := e.create(ctx, engine.Spec{Image: emptyImage, Cmd: []string{"/halebench-no-such-program"}, RunID: "halebench-features",
		Privilege: engine.Privilege{Mode: engine.ModePrivileged}, Labels: map[string]string{"org.halebench.role": "features"}})
	if err != nil {
		return "", err
	}
	defer c.Remove()
	startErr := c.Start(ctx)
	if startErr == nil {
		return "", fmt.Errorf("a container of the empty image %s started: it must have no program", emptyImage)
	}
	ins, err := e.cli.ContainerInspect(ctx, c.ID)
	if err != nil {
		return "", fmt.Errorf("inspecting container %s: %w", c.ID, err)
	}
	if ins.State != nil && ins.State.ExitCode == 127 {
		return "", nil
	}
	return refusal(startErr), nil
}

// refusal is the runtime's reason in an engine's start error, without the
// layers of "failed to create shim task: OCI runtime create failed: …".
func refusal(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, "unable to start container process: "); i >= 0 {
		s = s[i+len("unable to start container process: "):]
	}
	return strings.TrimSuffix(s, ": unknown")
}

// ensureEmpty imports the empty image unless the engine has it.
func (e *Engine) ensureEmpty(ctx context.Context) error {
	if _, ok, err := e.Image(ctx, emptyImage); err != nil || ok {
		return err
	}
	var empty bytes.Buffer
	if err := tar.NewWriter(&empty).Close(); err != nil {
		return err
	}
	return e.Import(ctx, &empty, emptyImage, nil)
}
