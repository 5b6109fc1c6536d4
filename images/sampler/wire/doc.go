// Package wire is the language the sampler and the runner speak: the job
// the runner writes on the sampler's stdin, one JSON line each, and the
// result line the sampler answers with. Both sides import it, so a field
// cannot exist on one side only. It also holds the one reader of a bench's
// own stdout (ParseOutput: its elapsed_ns= and check= lines), which the
// sampler applies to every sample; nothing else parses a bench's output.
//
// It imports the standard library only: the sampler is compiled inside a
// bench image, from the sources images.SamplerFiles lists, where no module
// proxy answers. It holds no logic beyond reading and writing those lines
// and that output.
package wire
