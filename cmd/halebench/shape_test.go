package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodeShape holds the orchestrator's code to the sizes docs/layout.md
// promises: at most 22 packages under orchestrator/, and in halebench's
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
	if len(pkgs) > 22 {
		t.Errorf("%d packages under orchestrator/ (at most 22): merge one into the noun it belongs to", len(pkgs))
	}
}
