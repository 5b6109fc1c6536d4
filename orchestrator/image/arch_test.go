package image

import (
	"strings"
	"testing"
)

func TestParsePlatform(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"", "", ""}, {"linux/arm64", "arm64", ""}, {"linux/amd64", "amd64", ""}, {"arm64", "arm64", ""},
		{"linux/arm64/v8", "", "one architecture"}, {"linux/riscv64", "", "not one halebench makes"}, {"windows/amd64", "", "one architecture"},
	} {
		got, err := ParsePlatform(c.in)
		if got != c.want || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("ParsePlatform(%q) = %q, %v; want %q, %q", c.in, got, err, c.want, c.err)
		}
	}
}

// A foreign set: tags and configs say arm64, the bootstrap asks mmdebstrap
// for it, the sampler stage is the build platform's; amd64's are as they
// always were.
func TestForeignBuilder(t *testing.T) {
	native := New(nil, nil, nil, Options{EngineArch: "x86_64"})
	arm := New(nil, nil, nil, Options{EngineArch: "x86_64", Arch: ArchARM64})
	if native.Foreign() || native.platform() != "" || archTag(native.arch()) != "" || native.native != nil {
		t.Fatalf("native: foreign %v, platform %q, tag %q", native.Foreign(), native.platform(), archTag(native.arch()))
	}
	if !arm.Foreign() || arm.platform() != "linux/arm64" || archTag(arm.arch()) != "-arm64" || arm.native == nil || arm.native.Foreign() {
		t.Fatalf("arm64: foreign %v, platform %q, tag %q", arm.Foreign(), arm.platform(), archTag(arm.arch()))
	}
	if df := bootstrapDockerfile(ArchAMD64, false); strings.Contains(df, "--arch") || strings.Contains(df, "ARCHOPTS") {
		t.Errorf("amd64's bootstrap changed:\n%s", df)
	}
	if df := bootstrapDockerfile(ArchARM64, true); !strings.Contains(df, "--arch=arm64 --skip=check/qemu ") {
		t.Errorf("arm64's bootstrap:\n%s", df)
	}
	if df := apartDockerfile(true, false); strings.Contains(df, "BUILDPLATFORM") {
		t.Errorf("a native apart build names the build platform:\n%s", df)
	}
	if df := apartDockerfile(true, true); !strings.Contains(df, "FROM --platform=$BUILDPLATFORM ${GO_TOOLCHAIN} AS sampler") {
		t.Errorf("a foreign apart build's sampler stage:\n%s", df)
	}
	if w := archWhy("amd64", ArchARM64); w == "" {
		t.Error("an amd64 image was taken for an arm64 one")
	}
}
