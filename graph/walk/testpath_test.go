package walk

import "testing"

func TestIsTest(t *testing.T) {
	tests := map[string]bool{
		"pkg/a_test.go": true, "pkg/a.go": false, "pkg/atest.go": false,
		"py/test_cart.py": true, "py/cart_test.py": true, "conftest.py": true, "py/testing.py": false, "py/contest.py": false,
		"js/cart.test.ts": true, "js/cart.spec.js": true, "js/__tests__/cart.js": true, "js/spectrum.js": false,
		"lib/cart_spec.rb": true, "lib/cart_test.rb": true, "spec/models/cart.rb": true, "lib/cart.rb": false,
		"src/CartTest.java": true, "src/CartTests.java": true, "src/CartTest.kt": true, "src/CartTests.kt": true,
		"src/CartTest.cs": true, "src/CartTests.cs": true, "Tests/CartTests.swift": true, "src/Contest.java": false,
		"src/Latest.cs": false, "Sources/Cart.swift": false,
		"test/cart_test.exs": true, "lib/cart.ex": false, "src/CartTest.php": true,
		"rust/tests/cart.rs": true, "rust/src/cart.rs": false, "c/cart_test.c": true, "cpp/cart_test.cc": true,
		"testdata/x.txt": true, "a/Testing/x.c": true, "e2e/x.ts": true, "integration-cli/x.go": true,
		"integration-tests/x.sh": true, "contest/x.go": false, "attest/x.go": false, "x/latest/y.go": false,
		"": false, "test": false, "tests/x": true,
	}
	for p, want := range tests {
		if got := IsTest(p); got != want {
			t.Errorf("IsTest(%q) = %v, want %v", p, got, want)
		}
	}
}
