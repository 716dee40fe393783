package provider_test

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
)

// registryFree are the folders whose code takes what it knows of providers
// from the registry (their Agent, Tools, Claim…) and names none: a new
// provider is one folder and one registry row.
var registryFree = []string{"stage", "export", "transcript", "provider/canon"}

// notProviders are string literals of registryFree that equal a provider's
// name but do not name a provider, by file.
var notProviders = map[string][]string{
	// model families by the start of a model's name, and LiteLLM's vendor
	// keys: names of models and vendors that providers share
	"export/otlp/otlp.go": {"claude", "codex", "gemini", "qwen"},
	// a folder of a project a real command read
	"provider/canon/shell_test.go": {"pi/skills/meta/pi-skill-creator/SKILL.md"},
}

// TestNamesOnlyInRegistry: no provider's name is written in the code of
// stage/, export/, transcript/ or provider/canon, their tests included
// (testdata and golden files apart): what they need of a provider is a
// fact it declares, and a test takes a provider from the registry, a stub
// it registers, or lives in the provider's folder when it is about that
// provider's data.
func TestNamesOnlyInRegistry(t *testing.T) {
	root := providertest.RepoRoot(t)
	names := provider.Names()
	if slices.Contains(names, providertest.Stub) {
		t.Errorf("the tests' stub provider %s is registered", providertest.Stub)
	}
	for _, dir := range registryFree {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return fs.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			fset := token.NewFileSet()
			var s scanner.Scanner
			s.Init(fset.AddFile(rel, -1, len(src)), src, nil, 0)
			for {
				pos, tok, lit := s.Scan()
				if tok == token.EOF {
					break
				}
				if tok != token.STRING {
					continue
				}
				v, err := strconv.Unquote(lit)
				if err != nil {
					continue
				}
				for _, n := range names {
					if (v == n || strings.HasPrefix(v, n+"/")) && !slices.Contains(notProviders[rel], v) {
						t.Errorf("%s: provider %s named (%s): make it a fact the provider declares", fset.Position(pos), n, lit)
					}
				}
			}
			return nil
		})
	}
}
