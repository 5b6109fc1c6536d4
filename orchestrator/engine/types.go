package engine

import (
	"errors"
	"io"
	"time"
)

// Labels every halebench container carries.
const (
	LabelApp = "org.halebench"
	LabelRun = "org.halebench.run"
)

// HostInfo is what decides whether two runs are comparable.
type HostInfo struct {
	// Driver is the engine driver the verb dialled (its Features.Driver:
	// "docker"; the in-memory fake of a test build says "fake"), set by
	// the session, so a document names what measured it.
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

// Spec is one run container. Every field maps to one engine setting; the
// defaults are the sandbox: network none, read-only root, tmpfs scratch.
type Spec struct {
	Image     string
	Cmd       []string
	Env       []string
	Name      string
	RunID     string // the halebench run that owns the container
	Labels    map[string]string
	CPUs      string // cpuset, e.g. "1" or "0-1"
	Privilege Privilege
	Memory    int64 // bytes; 0 for no limit
	PidsLimit int64
	ShmSize   int64 // the size of /dev/shm in bytes (0: the engine's default)
	Writable  bool  // a writable root (the default is read-only)
	Stdin     bool  // keep stdin open for one attached client (see Attach)
	// ShareShm lets other containers use this one's /dev/shm (ShmOf);
	// ShmOf is the ID of the container whose /dev/shm this one uses
	// instead of its own. The Docker driver does both with IPC namespaces.
	ShareShm bool
	ShmOf    string
}

// Image is a local image as the engine knows it.
type Image struct {
	Ref    string
	ID     string // the image's config digest, sha256:…
	Labels map[string]string
	Layers []string // the diff IDs of its root filesystem, bottom first
	// RepoDigests are the repo@sha256:… it was pulled by (none when built
	// or loaded here).
	RepoDigests []string
	// Arch is the architecture its config names (amd64, arm64; "": unknown).
	Arch string
}

// StoredImage is one image of the engine's store, with what pruning needs
// to know about it.
type StoredImage struct {
	ID         string
	Tags       []string
	Labels     map[string]string
	Created    time.Time
	Size       int64 // the image with every layer it uses
	SharedSize int64 // of Size, the layers other images use too; -1 unknown
	Containers int64 // containers using it; -1 unknown
}

// Build is one Dockerfile build, in halebench's terms: the driver turns it
// into whatever its builder speaks (here a BuildKit dockerfile.v0 solve).
type Build struct {
	Context    string // the build context's folder
	Dockerfile string // the folder holding the file named Dockerfile
	// Args are the build arguments. Two kinds of key are not: "label:K"
	// sets the image label K, and "force-network-mode" the RUN steps'
	// network ("none").
	Args map[string]string
	// NoCache runs every step again, for this build only: the shared
	// build cache is left as it is.
	NoCache bool
	// Exactly one of Image and Dir: the result goes into the engine's
	// image store as the reference Image, or its files into the folder Dir
	// on this host.
	Image string
	Dir   string
	What  string    // names the build in progress lines and errors
	Log   io.Writer // each step that ran, as it completes (nil: none)
	// Platform is the image's platform ("linux/arm64"; "": the engine's
	// own): its RUN steps run under the host's emulator where it differs.
	Platform string
}

// Built is the outcome of one build.
type Built struct {
	Digest   string // the exported image's digest ("" for a Dir build)
	Executed int    // Dockerfile steps that ran (not taken from the cache)
	Cached   int    // Dockerfile steps taken from the cache
	Log      string // the tail of the build's own output, cleaned by termtext
}

// IsNotFound reports whether err says an object does not exist: a driver
// returns such errors as NotFound(err), or as any error with a NotFound
// method.
func IsNotFound(err error) bool {
	var nf interface{ NotFound() }
	return errors.As(err, &nf)
}

// NotFound marks err as saying an object does not exist (IsNotFound).
func NotFound(err error) error { return notFound{err} }

type notFound struct{ err error }

func (e notFound) Error() string { return e.err.Error() }
func (e notFound) Unwrap() error { return e.err }
func (e notFound) NotFound()     {}
