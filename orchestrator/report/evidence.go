package report

import (
	"strings"

	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// The report's own record of the engine, the images and the samplers. Their
// JSON is the schema's: the packages that make these values (engine,
// image, runner) keep their own types, converted into these in one
// place (orchestrator/collect), so a change on their side cannot
// silently change a report, and reading a report links none of them.

// HostInfo is what the engine said of its host.
type HostInfo struct {
	// Driver is the engine driver that measured ("docker"; a test build's
	// in-memory fake says "fake"), so a document names what measured it.
	Driver        string `json:"driver,omitempty"`
	EngineVersion string `json:"engine_version"`
	EngineAPI     string `json:"engine_api"`
	EngineHost    string `json:"engine_host"`
	EngineContext string `json:"engine_context,omitempty"` // the docker context that named it
	OS            string `json:"os"`
	Kernel        string `json:"kernel"`
	Arch          string `json:"arch"`
	CPUModel      string `json:"cpu_model"`
	LogicalCPUs   int    `json:"logical_cpus"`
	MemoryBytes   int64  `json:"memory_bytes"`
	CgroupVersion string `json:"cgroup_version"`
	CgroupDriver  string `json:"cgroup_driver"`
	StorageDriver string `json:"storage_driver"`
	Hostname      string `json:"hostname"`
}

// Privilege is what the sampler containers were started with.
type Privilege struct {
	Mode    string   `json:"mode"` // privileged, all-caps, sys-admin, unprivileged
	CapDrop []string `json:"cap_drop,omitempty"`
}

func (p Privilege) String() string {
	if len(p.CapDrop) > 0 {
		return p.Mode + " minus " + strings.Join(p.CapDrop, ",")
	}
	return p.Mode
}

// Attempt is a privilege the engine refused, and why.
type Attempt struct {
	Privilege Privilege `json:"privilege"`
	Error     string    `json:"error,omitempty"`
}

// Privileges is what a process was granted, as the sampler read it.
type Privileges struct {
	UID             string `json:"uid"`
	GID             string `json:"gid"`
	CapEff          string `json:"cap_eff"`
	CapPrm          string `json:"cap_prm"`
	CapBnd          string `json:"cap_bnd"`
	CapAmb          string `json:"cap_amb"`
	NoNewPrivs      string `json:"no_new_privs"`
	Seccomp         string `json:"seccomp"`
	SpecStoreBypass string `json:"spec_store_bypass,omitempty"`
	PID1FDs         string `json:"pid1_fds,omitempty"`
	Filter          string `json:"filter,omitempty"`
}

// Sample is one run of a bench program, as the sampler measured it.
type Sample struct {
	Warmup     bool           `json:"warmup,omitempty"`
	Status     outcome.Status `json:"status"`
	Detail     string         `json:"detail,omitempty"`
	Check      string         `json:"check,omitempty"`
	ExitCode   int            `json:"exit_code"`
	Signal     string         `json:"signal,omitempty"`
	StderrTail string         `json:"stderr_tail,omitempty"`
	// Figures are what the sampler measured of it, by the wire's names
	// (elapsed_ns, wall_ns, maxrss_kb, mem_peak_kb, ...): in the JSON each
	// is a key of the sample itself, as the schema had them before
	// figures were named.
	Figures map[string]int64 `json:"-"`
}

// Sampler is one sampler container the run started, and what starting it
// cost.
type Sampler struct {
	Lang        string `json:"lang"`
	CPUs        string `json:"cpus"`
	ContainerID string `json:"container_id"`
	StartNs     int64  `json:"start_ns"`
}

// Base is the base image every toolchain image builds on.
type Base struct {
	Ref          string  `json:"reference"`
	ID           string  `json:"id"`
	Origin       string  `json:"origin"` // how it was made: mmdebstrap, or given by the user
	RootfsSHA256 string  `json:"rootfs_sha256,omitempty"`
	Inputs       *Inputs `json:"inputs,omitempty"`
	// Provenance is where the image came from and what vouches for it.
	Provenance *Provenance `json:"provenance,omitempty"`
}

// Provenance is where an image came from (built by this run, found on the
// engine, restored from a cache folder, given by the user), what vouches
// for it (build, engine, hmac: a cache entry signed with
// HALEBENCH_CACHE_KEY, user, none), and whether it was trusted to run
// privileged; a run with one image not trusted runs unprivileged.
type Provenance struct {
	Origin  string `json:"origin"`
	Checked string `json:"checked"`
	Trusted bool   `json:"trusted"`
	Why     string `json:"why,omitempty"`
}

// Toolchain is a language's toolchain image, or why there is none.
type Toolchain struct {
	Status     outcome.Status `json:"status"` // available, unavailable, build_failed
	Reason     string         `json:"reason,omitempty"`
	Ref        string         `json:"reference,omitempty"`
	ID         string         `json:"id,omitempty"`
	Digest     string         `json:"digest,omitempty"`
	Base       string         `json:"base,omitempty"`
	Version    string         `json:"version,omitempty"`
	BuildFlags string         `json:"build_flags,omitempty"`
	Executed   int            `json:"steps_executed"`
	Cached     int            `json:"steps_cached"`
	Inputs     *Inputs        `json:"inputs,omitempty"`
	Hale       *HaleBuild     `json:"hale_build,omitempty"`
	Warnings   []string       `json:"warnings,omitempty"`
	Provenance *Provenance    `json:"provenance,omitempty"`
}

// BenchImage is a language's image of compiled bench programs.
type BenchImage struct {
	Ref      string  `json:"reference"`
	ID       string  `json:"id"`
	Digest   string  `json:"digest,omitempty"`
	Executed int     `json:"steps_executed"`
	Cached   int     `json:"steps_cached"`
	Inputs   *Inputs `json:"inputs,omitempty"`
	// Trusted are the sha256 digests, by path in the image, of the files
	// the privileged sampler runs or loads (itself, the clock gate): built
	// apart from the benches and checked by the sampler before anything
	// privileged.
	Trusted map[string]string `json:"trusted,omitempty"`
	// Provenance is where the image came from and what vouches for it.
	Provenance *Provenance `json:"provenance,omitempty"`
}

// Inputs are what an image was built from, to rebuild and compare it.
type Inputs struct {
	Builder          string            `json:"builder"`
	SourceDateEpoch  int64             `json:"source_date_epoch"`
	DockerfileSHA256 string            `json:"dockerfile_sha256,omitempty"`
	BuildArgs        map[string]string `json:"build_args,omitempty"`
	BaseDigest       string            `json:"base_digest,omitempty"`
	Files            map[string]string `json:"files,omitempty"`
	Packages         []string          `json:"packages,omitempty"`
}

// HaleBuild is how hale-cli was built, when halebench built it.
type HaleBuild struct {
	Src              string   `json:"src,omitempty"`
	Git              string   `json:"git,omitempty"`
	Ref              string   `json:"ref,omitempty"`
	Commit           string   `json:"commit,omitempty"`
	Vendor           string   `json:"vendor,omitempty"`
	VendorCrates     []string `json:"vendor_crates,omitempty"`
	WorkspaceVersion string   `json:"workspace_version,omitempty"`
	Way              string   `json:"way,omitempty"`
	CargoLockSHA256  string   `json:"cargo_lock_sha256,omitempty"`
	Rustc            string   `json:"rustc,omitempty"`
	Cargo            string   `json:"cargo,omitempty"`
	CargoSeconds     int      `json:"cargo_seconds,omitempty"`
	ReleaseCheck     string   `json:"release_check,omitempty"`
}

// Check is one gated quantity's verdict: time or memory.
type Check struct {
	Status   outcome.Status `json:"status"`
	Median   int64          `json:"median"`
	Baseline int64          `json:"baseline"`
	Ratio    float64        `json:"ratio"`
	Band     float64        `json:"band"`
	BandFrom string         `json:"band_from"`
	Noise    float64        `json:"noise"`
	P        *float64       `json:"p,omitempty"`
	Why      string         `json:"why,omitempty"`
}
