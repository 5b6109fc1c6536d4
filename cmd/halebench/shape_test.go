package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCodeShape holds the orchestrator's code to the sizes docs/layout.md
// promises: in halebench's
// own Go (cmd, orchestrator, images; not the bench programs) no non-test
// function over 60 lines and no non-test file over 500.
func TestCodeShape(t *testing.T) {
	pkgs := map[string]bool{}
	fset := token.NewFileSet()
	for _, root := range []string{"../../cmd", "../../orchestrator", "../../images"} {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") {
				return nil
			}
			if strings.HasPrefix(p, "../../orchestrator/") {
				pkgs[filepath.Dir(p)] = true
			}
			if strings.HasSuffix(p, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				return err
			}
			if n := fset.Position(f.End()).Line; n > 500 {
				t.Errorf("%s: %d lines (at most 500)", p, n)
			}
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > 60 {
					t.Errorf("%s: func %s is %d lines (at most 60)", p, fd.Name.Name, n)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(pkgs) < 10 {
		t.Fatalf("found only %d packages under orchestrator/: is the walk wrong?", len(pkgs))
	}
}

// gonePackages are packages the tree once had and no longer has, named in
// words no other sense of which halebench uses; a comment naming one, or a
// message qualifying a name with one (lifecycle.Open), describes code that
// is not there. The ordinary words among the old names (merge, shard,
// status, ...) are left out: they are read too often in their plain sense.
var gonePackages = []string{"abreport", "atomicfile", "cireport", "debroot", "enginefake",
	"gitrepotest", "halebuild", "htmlreport", "imagearchive", "imagebuild", "imagecache",
	"lifecycle", "mdtext", "repro", "xprocreport"}

// TestWordsAreTrue holds halebench's own Go to naming only packages that
// exist: no comment describes a package as former, names a gone package as a word
// (a file named after one, as atomicfile.go, is fine) or as `package X`,
// and no string qualifies a name with a gone package. Strings that are
// recorded values (an image tag, a tool's name in a report) may still hold
// the old word: changing them would change digests.
func TestWordsAreTrue(t *testing.T) {
	// the phrase in two pieces, so this file does not hold it whole
	formerPackage := "former" + " package"
	word := regexp.MustCompile(`\b(` + strings.Join(gonePackages, "|") + `)\b(\.go)?`)
	qualified := regexp.MustCompile(`\b(` + strings.Join(gonePackages, "|") + `)\.[A-Z]`)
	fset := token.NewFileSet()
	files := 0
	for _, root := range []string{"../../cmd", "../../orchestrator", "../../images"} {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
				return err
			}
			f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
			if err != nil {
				return err
			}
			files++
			for _, cg := range f.Comments {
				text := cg.Text()
				if strings.Contains(text, formerPackage) {
					t.Errorf("%s: a comment describes a %q", fset.Position(cg.Pos()), formerPackage)
				}
				for _, m := range word.FindAllStringSubmatch(text, -1) {
					if m[2] == "" && p != "../../cmd/halebench/shape_test.go" {
						t.Errorf("%s: a comment names the gone package %s", fset.Position(cg.Pos()), m[1])
					}
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if m := qualified.FindString(lit.Value); m != "" {
						t.Errorf("%s: a string qualifies a name with a gone package: %s", fset.Position(lit.Pos()), m)
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 100 {
		t.Fatalf("read only %d Go files: is the walk wrong?", files)
	}
}

// roomsTable reads docs/layout.md's "Rooms" table: each room and the rooms
// its row allows it to import.
func roomsTable(t *testing.T) map[string]map[string]bool {
	t.Helper()
	doc, err := os.ReadFile("../../docs/layout.md")
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]map[string]bool{}
	_, table, ok := strings.Cut(string(doc), "\n## Rooms and what each may import\n")
	if !ok {
		t.Fatal("docs/layout.md has no section \"Rooms and what each may import\"")
	}
	row := regexp.MustCompile("^\\| `([a-z/]+)/` \\|[^|]+\\| (.*) \\|$")
	name := regexp.MustCompile("`([a-z/]+)/`")
	for _, l := range strings.Split(table, "\n") {
		if strings.HasPrefix(l, "## ") {
			break
		}
		m := row.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		may := map[string]bool{}
		for _, n := range name.FindAllStringSubmatch(m[2], -1) {
			may[n[1]] = true
		}
		allowed[m[1]] = may
	}
	if len(allowed) < 10 {
		t.Fatalf("read %d rows of the rooms table: is its form changed?", len(allowed))
	}
	return allowed
}

// TestRoomsImportWhatLayoutSays holds each package under orchestrator/ to
// its row of docs/layout.md's "Rooms" table: the package is listed, and
// every package of halebench's own it imports (outside its tests) is one
// its row allows. A new import across rooms is a design change: it is made
// in the table first, where a reviewer reads it, or this fails.
func TestRoomsImportWhatLayoutSays(t *testing.T) {
	allowed := roomsTable(t)
	const mod = "github.com/hale-lang/halebench/orchestrator/"
	fset := token.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir("../../orchestrator", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		pkg := strings.TrimPrefix(filepath.ToSlash(filepath.Dir(p)), "../../orchestrator/")
		seen[pkg] = true
		may, listed := allowed[pkg]
		if !listed {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			path := strings.Trim(im.Path.Value, `"`)
			if dep, ok := strings.CutPrefix(path, mod); ok && !may[dep] {
				t.Errorf("%s imports orchestrator/%s, which its row in docs/layout.md's rooms table does not allow", p, dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range seen {
		if _, ok := allowed[pkg]; !ok {
			t.Errorf("orchestrator/%s has no row in docs/layout.md's rooms table: say its one noun and what it may import", pkg)
		}
	}
	for pkg := range allowed {
		if !seen[pkg] {
			t.Errorf("docs/layout.md's rooms table names orchestrator/%s, which does not exist", pkg)
		}
	}
}

// TestRoomsKeepTheirResponsibility holds the table itself to issue 41's
// rooms, so that no edit of a row lets one back: the statuses' room imports
// nothing of halebench's; image, runner, plan and session (what builds,
// samples and sets up) import neither the judge nor the report; report and
// render, which only render, import no room that measures.
func TestRoomsKeepTheirResponsibility(t *testing.T) {
	allowed := roomsTable(t)
	measuring := []string{"engine", "engine/docker", "image", "runner", "session", "harness", "ab", "xproc", "plan", "collect", "subject", "imagestore", "enginetest"}
	never := map[string][]string{
		"image": {"judge", "report"}, "runner": {"judge", "report"}, "plan": {"judge", "report"}, "session": {"judge", "report"},
		"report": measuring, "render": measuring,
	}
	for room, rooms := range never {
		may, ok := allowed[room]
		if !ok {
			t.Errorf("docs/layout.md's rooms table has no row for %s/", room)
		}
		for _, r := range rooms {
			if may[r] {
				t.Errorf("docs/layout.md lets %s/ import %s/, which issue 41 keeps out of its room: move what needs it instead", room, r)
			}
		}
	}
	if len(allowed["outcome"]) != 0 {
		t.Errorf("docs/layout.md lets outcome/ (the statuses) import %v: it imports nothing of halebench's", allowed["outcome"])
	}
}
