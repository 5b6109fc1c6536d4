package ab

import (
	"context"
	"sync"
	"time"

	"github.com/hale-lang/halebench/orchestrator/collect"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/session"
	"github.com/hale-lang/halebench/orchestrator/stamp"
)

// sideEvidence is what a side ran, as a run report records its images:
// each image's digest and provenance, and the subject's build.
func sideEvidence(name, what, subject string, imgs *session.Images) report.Side {
	sd := report.Side{Name: name, What: what, Images: map[string]report.Toolchain{}, BenchImages: map[string]report.BenchImage{}}
	if imgs == nil {
		return sd
	}
	if imgs.Base != nil {
		sd.Base = collect.Base(*imgs.Base)
	}
	for l, tc := range imgs.Toolchains {
		sd.Images[l] = collect.Toolchain(tc)
	}
	for l, bi := range imgs.Benches {
		sd.BenchImages[l] = collect.BenchImage(bi)
	}
	sd.SubjectBuild = sd.Images[subject].Hale
	return sd
}

// evidence fills the result's run id, host and privilege (what the
// samplers were granted and what the engine refused) and each side's
// images.
func evidence(res *Result, s *session.Session, sp *session.Sampling, host *report.Host, p *Plan, a, b built) {
	res.Kind, res.Schema, res.GeneratedAt, res.RunID, res.Subject = report.ABKind, report.ABSchema, time.Now().UTC().Format(time.RFC3339Nano), s.RunID, p.Subject
	res.Halebench = stamp.This()
	priv, refused := sp.Privilege()
	host.HostInfo = collect.HostInfo(s.Host)
	host.Privilege, host.PrivilegeRefusals = collect.Privilege(priv), collect.Attempts(refused)
	res.Host = *host
	res.Shard, res.SourcesDigest = p.Partition, p.SourcesDigest
	res.Sides = []report.Side{
		sideEvidence("A", p.A.What, p.Subject, a.all),
		sideEvidence("B", p.B.What, p.Subject, b.all),
	}
}

// noting is a Sampler that keeps in host what the first sampler to answer
// said it and its benches were granted (collect.NoteSampler).
type noting struct {
	plan.Sampler
	mu   sync.Mutex
	host *report.Host
}

func (n *noting) Sample(ctx context.Context, w runner.Where, j runner.Job) runner.Outcome {
	out := n.Sampler.Sample(ctx, w, j)
	n.mu.Lock()
	collect.NoteSampler(n.host, out.Env)
	n.mu.Unlock()
	return out
}
