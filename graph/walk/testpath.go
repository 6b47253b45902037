package walk

import "strings"

// IsTest reports whether the repo-relative slash path p is a test file (or,
// for a directory's path followed by "/x", a test directory) by the common
// conventions of its language:
//   - Go *_test.go; Python test_*.py, *_test.py, conftest.py;
//   - JavaScript and TypeScript *.test.* and *.spec.*;
//   - Ruby *_spec.rb, *_test.rb; Elixir *_test.exs; PHP *Test.php;
//   - Java, Kotlin, C# and Swift *Test.java, *Tests.java, *Test.kt,
//     *Tests.kt, *Test.cs, *Tests.cs, *Tests.swift; C and C++ *_test.c,
//     *_test.cc, *_test.cpp;
//   - any file below a folder named test, tests, testing, testdata,
//     __tests__, e2e, spec, integration-cli or integration-tests (any case):
//     Rust's tests/, Ruby's spec/, Go's testdata/, moby's integration-cli/.
//
// The builder flags the pages of such files as tests (graph.Page.Test) and
// the ranking weighs them down; this is the one place the conventions live.
func IsTest(p string) bool {
	if p == "" {
		return false
	}
	dir, base := "", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, base = p[:i], p[i+1:]
	}
	lower := strings.ToLower(base)
	switch {
	case strings.HasSuffix(base, "_test.go"),
		strings.HasPrefix(lower, "test_") && strings.HasSuffix(lower, ".py"),
		strings.HasSuffix(lower, "_test.py"), lower == "conftest.py",
		strings.Contains(lower, ".test."), strings.Contains(lower, ".spec."),
		strings.HasSuffix(lower, "_spec.rb"), strings.HasSuffix(lower, "_test.rb"),
		strings.HasSuffix(lower, "_test.exs"),
		strings.HasSuffix(base, "Test.php"),
		strings.HasSuffix(base, "Test.java"), strings.HasSuffix(base, "Tests.java"),
		strings.HasSuffix(base, "Test.kt"), strings.HasSuffix(base, "Tests.kt"),
		strings.HasSuffix(base, "Test.cs"), strings.HasSuffix(base, "Tests.cs"),
		strings.HasSuffix(base, "Tests.swift"),
		strings.HasSuffix(lower, "_test.c"), strings.HasSuffix(lower, "_test.cc"), strings.HasSuffix(lower, "_test.cpp"):
		return true
	}
	for seg := range strings.SplitSeq(dir, "/") {
		switch strings.ToLower(seg) {
		case "test", "tests", "testing", "testdata", "__tests__", "e2e", "spec", "integration-cli", "integration-tests":
			return true
		}
	}
	return false
}
