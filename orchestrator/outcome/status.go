package outcome

// Status is one outcome: of a sample, a (bench, language) job, a bench or a run.
type Status string

// What a language's job on a bench can end as.
const (
	OK                   Status = "ok"
	BuildFailed          Status = "build_failed"
	RunFailed            Status = "run_failed"
	Timeout              Status = "timeout"
	OOM                  Status = "oom"
	NoElapsed            Status = "no_elapsed"
	BadOutput            Status = "bad_output"
	StatusParityMismatch Status = "parity_mismatch"
	Unavailable          Status = "unavailable"
	Skipped              Status = "skipped"
	Interrupted          Status = "interrupted"
)

// What an image's toolchain can be: available, or Unavailable or
// BuildFailed (the image builder's statuses, named here so the report and the
// renderers share one vocabulary).
const Available Status = "available"

// What the judge can add for the subject of a bench, and for the bench.
const (
	Regression          Status = "regression"
	NoBaseline          Status = "no_baseline"
	SubjectUnavailable  Status = "subject_unavailable"
	NoSubjectSource     Status = "no_subject_source"
	Inconclusive        Status = "inconclusive"         // the run cannot tell: too noisy, or a suspect that did not confirm
	Improved            Status = "improved"             // faster than the band, significantly: informational
	IncomparableMachine Status = "incomparable_machine" // the baseline was measured on another machine
	MemRegression       Status = "mem_regression"       // the memory peak grew past its band
	Emulated            Status = "emulated"             // the images' programs ran under an emulator: their times are not measurements
	NoBench             Status = "no_bench"             // the baseline names a bench the suite no longer has
	Failed              Status = "failed"               // a run whose subject failed on some bench
)

// What an xproc pair can end as, besides the job statuses.
const (
	ProducerFailed Status = "producer_failed"
	ReaderFailed   Status = "reader_failed"
	BadChecksum    Status = "bad_checksum"
)

// Failed says whether s is a job that ran (or tried to) and did not give a
// trustworthy number: a compile error, a crash, a hang, too much memory,
// unreadable output or a check that disagrees with its siblings.
func (s Status) Failed() bool {
	switch s {
	case BuildFailed, RunFailed, Timeout, OOM, NoElapsed, BadOutput, StatusParityMismatch, ProducerFailed, ReaderFailed, BadChecksum, NoBench, Unconfined:
		return true
	}
	return false
}
