package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Feature names one thing an engine may or may not do that a caller
// branches on. A driver says which it has (Driver.Features); a caller that
// needs one asks (Features.Need), and where it is missing refuses with an
// error naming it and what to do, instead of meeting the engine's own
// error halfway through a run.
type Feature string

// The features callers ask about.
const (
	// FeatPrivileged: a container may run privileged, the strongest of
	// Candidates (without it ProbePrivilege takes less).
	FeatPrivileged Feature = "privileged"
	// FeatSharedIPC: Spec.ShareShm and Spec.ShmOf put two containers on
	// one /dev/shm (xproc's reader/producer pairs).
	FeatSharedIPC Feature = "shared-ipc"
	// FeatBuildKit: Builder answers, so Dockerfile builds can run.
	FeatBuildKit Feature = "buildkit"
	// FeatArchives: Save and Load speak the docker-save archive (image
	// normalisation, the cache folder, bundles).
	FeatArchives Feature = "image-archives"
	// FeatPrograms: a container runs its Cmd (a driver without it runs
	// only the sampler's protocol: the in-memory fake).
	FeatPrograms Feature = "programs"
	// FeatPinning: Spec.CPUs confines a container to that cpuset.
	FeatPinning Feature = "cpu-pinning"
	// FeatMemoryLimit: Spec.Memory is enforced, with no swap beyond it.
	FeatMemoryLimit Feature = "memory-limit"
	// FeatBuildCache: BuildCacheUsage and PruneBuildCache see the
	// builder's cache.
	FeatBuildCache Feature = "build-cache"
)

// AllFeatures are the features, in the order they are shown.
var AllFeatures = []Feature{FeatPrivileged, FeatSharedIPC, FeatBuildKit, FeatArchives, FeatPrograms, FeatPinning, FeatMemoryLimit, FeatBuildCache}

// todo says what to do where a feature is missing.
var todo = map[Feature]string{
	FeatPrivileged:  "run with --unprivileged to take the most the engine grants, or on a host whose engine grants --privileged (docs/security.md)",
	FeatSharedIPC:   "use an engine that can share an IPC namespace between two containers (the docker driver)",
	FeatBuildKit:    "use an engine with BuildKit (Docker 18.09 or newer, not disabled by the daemon's features.buildkit), or give every image already built",
	FeatArchives:    "use an engine that saves and loads docker-save archives (the docker driver), or leave out the option that needs them",
	FeatPrograms:    "use an engine that runs containers' programs (the docker driver)",
	FeatPinning:     "use an engine that pins a container to a cpuset (the docker driver)",
	FeatMemoryLimit: "use an engine that enforces a container's memory limit (the docker driver)",
	FeatBuildCache:  "use an engine whose builder's cache can be measured and pruned (the docker driver), or prune with --no-cache=false",
}

// Features is what one engine can do, as its driver found out (cheaply:
// a ping, the engine's info, the builder's workers, one container that
// does not run). A driver answers the same for as long as it is connected.
type Features struct {
	Driver string `json:"driver"` // the driver's registered name
	API    string `json:"api"`    // the engine's API version, as spoken
	// Cgroup is the cgroup version containers get ("v1", "v2"): where a
	// per-sample memory peak is read (memory.max_usage_in_bytes or
	// memory.peak).
	Cgroup string `json:"cgroup"`
	// Platforms are those the engine's containers and builds run, its own
	// first, then those it runs under an emulator ("linux/arm64" through
	// QEMU in binfmt_misc).
	Platforms []string `json:"platforms"`
	// Has holds the features the engine has; Missing says, for a feature
	// it lacks, why (what the engine said), where the driver knows.
	Has     map[Feature]bool   `json:"has"`
	Missing map[Feature]string `json:"missing,omitempty"`
}

// With records whether the engine has f and, when it has not, why.
func (f *Features) With(feat Feature, has bool, why string) {
	if f.Has == nil {
		f.Has = map[Feature]bool{}
	}
	f.Has[feat] = has
	if !has && why != "" {
		if f.Missing == nil {
			f.Missing = map[Feature]string{}
		}
		f.Missing[feat] = why
	} else {
		delete(f.Missing, feat)
	}
}

// Need is nil when the engine has every feature in want; otherwise a
// *MissingFeatureError for the first it lacks, saying that purpose needs it.
func (f Features) Need(purpose string, want ...Feature) error {
	for _, w := range want {
		if !f.Has[w] {
			return &MissingFeatureError{Driver: f.Driver, Feature: w, Purpose: purpose, Why: f.Missing[w]}
		}
	}
	return nil
}

// Runs says whether the engine runs platform ("linux/arm64"), natively or
// under an emulator.
func (f Features) Runs(platform string) bool { return slices.Contains(f.Platforms, platform) }

// NeedPlatform is nil when the engine runs platform; otherwise an error
// naming the platforms it runs and how to add an emulator for it.
func (f Features) NeedPlatform(purpose, platform string) error {
	if f.Runs(platform) {
		return nil
	}
	return fmt.Errorf("%s needs the engine (%s driver) to run %s, and it runs %s: register an emulator for it in the engine host's binfmt_misc (Debian's qemu-user-static does), then run again",
		purpose, f.Driver, platform, orNone(f.Platforms))
}

// String lists the features had, then those missing: "buildkit, … (no privileged)".
func (f Features) String() string {
	var has, lacks []string
	for _, feat := range AllFeatures {
		if f.Has[feat] {
			has = append(has, string(feat))
		} else {
			lacks = append(lacks, string(feat))
		}
	}
	s := strings.Join(has, ", ")
	if len(lacks) > 0 {
		s += " (no " + strings.Join(lacks, ", ") + ")"
	}
	return s
}

func orNone(ss []string) string {
	if len(ss) == 0 {
		return "none it could name"
	}
	s := slices.Clone(ss)
	sort.Strings(s[1:])
	return strings.Join(s, ", ")
}

// MissingFeatureError says an engine lacks a feature something needs.
type MissingFeatureError struct {
	Driver  string
	Feature Feature
	Purpose string // what needs it ("xproc's pairs"); "" when a driver's method refused
	Why     string // what the engine said, if anything
}

func (e *MissingFeatureError) Error() string {
	s := fmt.Sprintf("the engine (%s driver) has no %s", e.Driver, e.Feature)
	if e.Purpose != "" {
		s = e.Purpose + " needs " + string(e.Feature) + ", and " + s
	}
	if e.Why != "" {
		s += " (" + e.Why + ")"
	}
	if do := todo[e.Feature]; do != "" {
		s += ": " + do
	}
	return s
}

// Unsupported is the error a driver's method returns for what a feature it
// lacks would do (the fake's Save): errors.As finds a *MissingFeatureError.
func Unsupported(driver string, feat Feature, why string) error {
	return &MissingFeatureError{Driver: driver, Feature: feat, Why: why}
}
