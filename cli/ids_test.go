package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// refRepo writes a small repository (no git: findRoot stops at the index
// once built) with two Charge definitions, a nested package, a long
// Python class with a docstring, a big file and a vendored folder.
func refRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"pay/retry.go": "package pay\n\n// Charge charges a card.\nfunc Charge(amount int) error {\n\terr := attempt(amount)\n\treturn err\n}\n\n" +
			"func attempt(amount int) error {\n\tif amount < 0 {\n\t\treturn nil\n\t}\n\treturn nil\n}\n",
		"pay/client.go":      "package pay\n\n// Client talks to the bank.\ntype Client struct{}\n\n// Charge charges through the client.\nfunc (c *Client) Charge(amount int) error {\n\treturn Charge(amount)\n}\n",
		"pay/ledger/book.go": "package ledger\n\n// Record writes an entry.\nfunc Record(entry string) {\n\tprintln(entry)\n}\n",
		"vendor/lib/lib.go":  "package lib\n\nfunc Vendored() {}\n",
		"README.md":          "# Pay\n\nCharges cards.\n",
	}
	var big strings.Builder
	big.WriteString("class Big:\n    \"\"\"Big holds many small methods for testing page cuts.\n\n    It is long on purpose.\n    \"\"\"\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&big, "    def m%d(self):\n        return %d\n\n", i, i)
	}
	files["py/big.py"] = big.String()
	files["huge/blob.go"] = "package huge\n\n// " + strings.Repeat("x", 4000) + "\nfunc Huge() {}\n"
	walktest.WriteTree(t, dir, files)
	// A .git folder marks the root for findRoot, as in a real checkout.
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// mustFail runs the binary, requires exit code want and returns stderr.
func mustFail(t *testing.T, dir string, want int, args ...string) string {
	t.Helper()
	out, errs, code := run(t, dir, args...)
	if code != want {
		t.Fatalf("wikitoolkit %v: exit %d, want %d\nstdout: %s\nstderr: %s", args, code, want, out, errs)
	}
	return errs
}

// TestPageRefs: page, related, note and remember --link take a page ID, a
// repository path (relative to the current folder, then the root), a
// directory, PATH#NAME, PATH:LINE or a symbol name; an ambiguous name lists
// full IDs, an unknown one suggests close names, and a path leaving the
// root is refused.
func TestPageRefs(t *testing.T) {
	dir := refRepo(t)
	mustRun(t, dir, "build", "--quiet")
	sub := filepath.Join(dir, "pay")
	pageID := func(wd string, ref string) string {
		t.Helper()
		var p struct{ ID string }
		runJSON(t, wd, &p, "page", "--json", ref)
		return p.ID
	}
	for _, c := range []struct{ wd, ref, want string }{
		{dir, "file:pay/retry.go", "file:pay/retry.go"},
		{dir, "pay/retry.go", "file:pay/retry.go"},
		{dir, "./pay/retry.go", "file:pay/retry.go"},
		{dir, "pay", "module:pay"},
		{dir, "pay/", "module:pay"},
		{dir, "pay/retry.go#attempt", "symbol:pay/retry.go#attempt"},
		{dir, "pay/retry.go:11", "symbol:pay/retry.go#attempt"},
		{dir, "attempt", "symbol:pay/retry.go#attempt"},
		{dir, "Client.Charge", "symbol:pay/client.go#Client.Charge"},
		{dir, "pay.attempt", "symbol:pay/retry.go#attempt"},
		{dir, "Big.m7", "symbol:py/big.py#Big.m7"},
		{dir, "README.md#pay", "doc:README.md#pay"},
		{dir, filepath.Join(dir, "pay", "client.go"), "file:pay/client.go"},
		{sub, "retry.go", "file:pay/retry.go"},
		{sub, "ledger", "module:pay/ledger"},
		{sub, ".", "module:pay"},
		{sub, "../README.md", "file:README.md"},
		{sub, "py/big.py", "file:py/big.py"}, // not under pay/: from the root
	} {
		if got := pageID(c.wd, c.ref); got != c.want {
			t.Errorf("page %q (in %s): %s, want %s", c.ref, c.wd, got, c.want)
		}
	}

	errs := mustFail(t, dir, 1, "page", "Charge")
	if !strings.Contains(errs, `"Charge" names 2 pages`) || !strings.Contains(errs, "symbol:pay/retry.go#Charge") ||
		!strings.Contains(errs, "symbol:pay/client.go#Client.Charge") {
		t.Errorf("ambiguous name: %s", errs)
	}
	// The exact qualified name ranks first.
	if i, j := strings.Index(errs, "symbol:pay/retry.go#Charge"), strings.Index(errs, "symbol:pay/client.go#Client.Charge"); i > j {
		t.Errorf("ambiguous candidates not ranked (exact name first): %s", errs)
	}
	errs = mustFail(t, dir, 1, "page", "atempt")
	if !strings.Contains(errs, `no page "atempt"; did you mean`) || !strings.Contains(errs, "symbol:pay/retry.go#attempt") {
		t.Errorf("unknown name: %s", errs)
	}
	for _, bad := range []string{"../etc/passwd", "pay/../../x"} {
		if errs := mustFail(t, dir, 1, "page", bad); !strings.Contains(errs, "leaves the repository") {
			t.Errorf("page %q: %s", bad, errs)
		}
	}
	if errs := mustFail(t, sub, 1, "page", "../../etc/passwd"); !strings.Contains(errs, "leaves the repository") {
		t.Errorf("page ../../etc/passwd from pay/: %s", errs)
	}
	if errs := mustFail(t, dir, 1, "page", "/etc/passwd"); !strings.Contains(errs, "absolute") {
		t.Errorf("page /etc/passwd: %s", errs)
	}

	// related: by name, with each neighbour's place, kind and signature.
	out := mustRun(t, dir, "related", "Client.Charge")
	if !strings.Contains(out, "symbol:pay/client.go#Client  [type scope]  (struct, pay/client.go:4)\n      type Client struct") {
		t.Errorf("related Client.Charge:\n%s", out)
	}
	var rel struct {
		ID        string
		Neighbors []struct {
			ID, Rel, Direction, Kind, Title, Path string
			SymKind                               string `json:"symbol_kind"`
			Line                                  int
		}
	}
	runJSON(t, sub, &rel, "related", "--json", "retry.go#Charge")
	found := false
	for _, n := range rel.Neighbors {
		if n.ID == "symbol:pay/retry.go#attempt" {
			found = n.Rel == "references" && n.Direction == "out" && n.Kind == "symbol" && n.SymKind == "func" &&
				n.Path == "pay/retry.go" && n.Line == 9 && n.Title == "func attempt(amount int) error"
		}
	}
	if rel.ID != "symbol:pay/retry.go#Charge" || !found {
		t.Errorf("related --json retry.go#Charge from pay/: %+v", rel)
	}

	// note and remember --link store the resolved ID.
	var n struct {
		PageID string `json:"page_id"`
	}
	runJSON(t, sub, &n, "note", "--json", "retry.go#attempt", "negative amounts are ignored")
	if n.PageID != "symbol:pay/retry.go#attempt" {
		t.Errorf("note stored on %q", n.PageID)
	}
	mustRun(t, dir, "remember", "--link", "Client.Charge", "the client retries once")
	var doc notesDoc
	runJSON(t, dir, &doc, "notes", "--json")
	pages := map[string]bool{}
	for _, e := range doc.Notes {
		pages[e.Page] = true
	}
	if !pages["symbol:pay/retry.go#attempt"] || !pages["symbol:pay/client.go#Client.Charge"] {
		t.Errorf("notes after note/remember by reference: %+v", doc.Notes)
	}
	mustFail(t, dir, 1, "note", "Charge", "which one?")
	mustFail(t, dir, 1, "remember", "--link", "nosuchthing", "x")
}

// TestPageCutSource: a page whose source is cut says where and how to read
// on, and a docstring shown in the source is not printed again.
func TestPageCutSource(t *testing.T) {
	dir := refRepo(t)
	mustRun(t, dir, "build", "--quiet")
	out := mustRun(t, dir, "page", "Big")
	if c := strings.Count(out, "Big holds many small methods"); c != 1 {
		t.Errorf("docstring printed %d times:\n%s", c, out)
	}
	i := strings.Index(out, "… cut at line ")
	if i < 0 {
		t.Fatalf("no cut marker:\n%s", out)
	}
	var to, from, end int
	var hint string
	if _, err := fmt.Sscanf(out[i:], "… cut at line %d of %d-%d; read on: wikitoolkit read %s", &to, &from, &end, &hint); err != nil {
		t.Fatalf("cut marker %q: %v", out[i:], err)
	}
	if from != 1 || end < 180 || to > 120 || to < 90 || hint != fmt.Sprintf("py/big.py:%d-%d", to+1, end) {
		t.Errorf("cut marker: to %d, %d-%d, hint %q", to, from, end, hint)
	}
	// The cut falls on a blank line (line 119), not at line 120, which
	// starts a method: the last shown line ends one.
	body := out[:i]
	lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "return ") || to != 118 {
		t.Errorf("source cut mid-method, last line %q", last)
	}
	var p struct {
		SourceTo int `json:"source_to"`
		Doc      string
	}
	runJSON(t, dir, &p, "page", "--json", "py/big.py#Big")
	if p.SourceTo != to || !strings.Contains(p.Doc, "Big holds") {
		t.Errorf("page --json: source_to %d (want %d), doc %q", p.SourceTo, to, p.Doc)
	}
	// The hint works.
	if out := mustRun(t, dir, "read", hint); !strings.Contains(out, fmt.Sprintf("%6d", to+1)) {
		t.Errorf("read %s:\n%s", hint, out)
	}
}

// TestReadSearchFromSubfolder: read and search take paths from the current
// folder as git does, and a path leaving the root is refused.
func TestReadSearchFromSubfolder(t *testing.T) {
	dir := refRepo(t)
	mustRun(t, dir, "build", "--quiet")
	sub := filepath.Join(dir, "pay")
	var r struct {
		Path  string
		Lines []struct{ N int }
	}
	for _, ref := range []string{"retry.go:4-5", "pay/retry.go:4-5", "./retry.go:4-5"} {
		runJSON(t, sub, &r, "read", "--json", ref)
		if r.Path != "pay/retry.go" {
			t.Errorf("read %s from pay/: path %q", ref, r.Path)
		}
	}
	if out := mustRun(t, sub, "read", "ledger/book.go"); !strings.Contains(out, "func Record") {
		t.Errorf("read ledger/book.go from pay/:\n%s", out)
	}
	if out := mustRun(t, sub, "read", "../README.md"); !strings.Contains(out, "Charges cards") {
		t.Errorf("read ../README.md from pay/:\n%s", out)
	}
	for _, bad := range []string{"../../etc/passwd", "../../../../../../etc/passwd", "/etc/passwd"} {
		if _, errs, code := run(t, sub, "read", bad); code == 0 || errs == "" {
			t.Errorf("read %s from pay/: exit %d", bad, code)
		}
	}

	// search: from the root everything; from pay/ only under it, with
	// --glob relative to it; paths printed from the root.
	out := mustRun(t, dir, "search", "func ")
	for _, want := range []string{"pay/retry.go:4:", "pay/ledger/book.go:4:", "huge/blob.go:4:"} {
		if !strings.Contains(out, want) {
			t.Errorf("search from the root lacks %s:\n%s", want, out)
		}
	}
	var res struct {
		Matches []struct{ Path string }
	}
	runJSON(t, sub, &res, "search", "--json", "--glob", "ledger/*.go", "func ")
	if len(res.Matches) != 1 || res.Matches[0].Path != "pay/ledger/book.go" {
		t.Errorf("search --glob ledger/*.go from pay/: %+v", res.Matches)
	}
	runJSON(t, sub, &res, "search", "--json", "--regex", `func \w+\(`)
	for _, m := range res.Matches {
		if !strings.HasPrefix(m.Path, "pay/") {
			t.Errorf("search from pay/ found %s", m.Path)
		}
	}
	if len(res.Matches) < 3 {
		t.Errorf("search --regex from pay/: %+v", res.Matches)
	}
	// Bad patterns are bad usage.
	mustFail(t, dir, 2, "search", "--regex", "(")
	mustFail(t, dir, 2, "search", "--glob", "[", "x")
}

// TestTypoCommand: a mistyped command suggests the nearest one (exit 2).
func TestTypoCommand(t *testing.T) {
	dir := t.TempDir()
	for typo, want := range map[string]string{"buidl": "build", "serch": "search", "qurey": "query", "relate": "related"} {
		if errs := mustFail(t, dir, 2, typo); !strings.Contains(errs, fmt.Sprintf("did you mean %q", want)) {
			t.Errorf("%s: %s", typo, errs)
		}
	}
	if errs := mustFail(t, dir, 2, "frobnicate"); strings.Contains(errs, "did you mean") {
		t.Errorf("frobnicate: %s", errs)
	}
}

// TestBuildFlags: --json, --full, --max-file-bytes, --exclude-dirs and bad
// flags.
func TestBuildFlags(t *testing.T) {
	dir := refRepo(t)
	var b struct {
		Mode        string `json:"mode"`
		FilesParsed int    `json:"files_parsed"`
		Unchanged   int    `json:"files_unchanged"`
		Skipped     []struct{ Path, Reason string }
	}
	runJSON(t, dir, &b, "build", "--json", "--max-file-bytes", "2000")
	skipped := map[string]bool{}
	for _, s := range b.Skipped {
		skipped[s.Path] = true
	}
	if !skipped["huge/blob.go"] || b.FilesParsed == 0 {
		t.Errorf("build --max-file-bytes 2000: %+v", b)
	}
	mustFail(t, dir, 1, "page", "huge/blob.go")
	mustFail(t, dir, 1, "page", "Vendored") // vendor/ is excluded by default
	runJSON(t, dir, &b, "build", "--json", "--exclude-dirs", "ledger")
	if b.Mode != "incremental" {
		t.Errorf("second build mode %q", b.Mode)
	}
	if id := func() string {
		var p struct{ ID string }
		runJSON(t, dir, &p, "page", "--json", "Vendored")
		return p.ID
	}(); id != "symbol:vendor/lib/lib.go#Vendored" {
		t.Errorf("vendor/ indexed once not excluded: %s", id)
	}
	mustFail(t, dir, 1, "page", "Record")
	runJSON(t, dir, &b, "build", "--json", "--full", "--exclude-dirs", "ledger")
	if b.Mode != "full" || b.Unchanged != 0 {
		t.Errorf("build --full: %+v", b)
	}
	mustFail(t, dir, 2, "build", "--max-file-bytes", "lots")
	mustFail(t, dir, 2, "build", "--nosuchflag")
	mustFail(t, dir, 2, "build", "a", "b")
	if out := mustRun(t, dir, "build", "--quiet"); out != "" {
		t.Errorf("build --quiet printed %q", out)
	}
}

// TestExactMatchSignal: an identifier found nowhere is said so, in text
// and in query --json; a known one is an exact match; prose has no signal.
func TestExactMatchSignal(t *testing.T) {
	dir := refRepo(t)
	mustRun(t, dir, "build", "--quiet")
	query := func(q string) map[string]json.RawMessage {
		var doc map[string]json.RawMessage
		runJSON(t, dir, &doc, "query", "--json", q)
		return doc
	}
	doc := query("zebra_unicorn_charge")
	if string(doc["exact_match"]) != "false" || !strings.Contains(string(doc["unmatched"]), "zebra_unicorn_charge") ||
		!strings.Contains(string(doc["note"]), "nothing in the index is named") {
		t.Errorf("unknown identifier: %v", doc)
	}
	if string(doc["results"]) == "[]" {
		t.Errorf("no partial matches for zebra_unicorn_charge (charge is a word of Charge)")
	}
	out := mustRun(t, dir, "query", "zebra_unicorn_charge")
	if !strings.HasPrefix(out, `(nothing in the index is named "zebra_unicorn_charge" exactly; these are partial matches)`) {
		t.Errorf("text answer:\n%s", out)
	}
	for _, q := range []string{"Client.Charge", "attempt()", "the `Record` function"} {
		if doc := query(q); string(doc["exact_match"]) != "true" || doc["note"] != nil {
			t.Errorf("%s: exact_match %s note %s", q, doc["exact_match"], doc["note"])
		}
	}
	if doc := query("where are cards charged"); doc["exact_match"] != nil {
		t.Errorf("prose question got exact_match %s", doc["exact_match"])
	}
	if doc := query("Client.zebraCharge"); string(doc["exact_match"]) != "false" {
		t.Errorf("Client.zebraCharge: %v", doc)
	}
}

// TestNotesListing: notes shows a moved note on its new page and lists
// memories linked to no page; memory export/import round-trips them.
func TestNotesListing(t *testing.T) {
	dir := refRepo(t)
	mustRun(t, dir, "build", "--quiet")
	mustRun(t, dir, "note", "symbol:pay/retry.go#attempt", "negative amounts are ignored")
	mustRun(t, dir, "remember", "--title", "staging", "The staging database is reset every night.")
	// Move attempt to a file of its own.
	retry := filepath.Join(dir, "pay", "retry.go")
	src, _ := os.ReadFile(retry)
	i := strings.Index(string(src), "func attempt")
	os.WriteFile(retry, src[:i], 0o644)
	os.WriteFile(filepath.Join(dir, "pay", "attempt.go"), append([]byte("package pay\n\n"), src[i:]...), 0o644)
	mustRun(t, dir, "build", "--quiet")

	out := mustRun(t, dir, "notes")
	if !strings.Contains(out, "symbol:pay/attempt.go#attempt  note") || strings.Count(out, "symbol:pay/retry.go#attempt") != 1 ||
		!strings.Contains(out, "moved from symbol:pay/retry.go#attempt") {
		t.Errorf("moved note (new ID first, old one once in 'moved from'):\n%s", out)
	}
	if !strings.Contains(out, "memory:staging (no linked page)  memory") || !strings.Contains(out, "staging database is reset") {
		t.Errorf("unlinked memory missing:\n%s", out)
	}
	var doc struct {
		Notes []struct{ Kind, ID, Page, ShownOn, State string } `json:"notes"`
	}
	runJSON(t, dir, &doc, "notes", "--json")
	var moved, mem bool
	for _, n := range doc.Notes {
		moved = moved || n.Kind == "note" && n.State == "moved" && n.Page == "symbol:pay/retry.go#attempt"
		mem = mem || n.Kind == "memory" && n.ID == "memory:staging" && n.Page == ""
	}
	if !moved || !mem {
		t.Errorf("notes --json: %+v", doc.Notes)
	}
	// Export, then import into a fresh index of a copy of the tree.
	exp := filepath.Join(t.TempDir(), "export")
	var ej struct{ Memories, Notes int }
	runJSON(t, dir, &ej, "memory", "export", exp, "--json")
	if ej.Memories != 1 || ej.Notes != 1 {
		t.Errorf("memory export: %v", ej)
	}
	other := refRepo(t)
	mustRun(t, other, "build", "--quiet")
	var ij map[string]any
	runJSON(t, other, &ij, "memory", "import", exp, "--json")
	out = mustRun(t, other, "notes")
	if !strings.Contains(out, "negative amounts are ignored") || !strings.Contains(out, "staging database is reset") {
		t.Errorf("notes after import (%v):\n%s", ij, out)
	}
	mustFail(t, other, 1, "memory", "import", filepath.Join(t.TempDir(), "nothing-here"))
	mustFail(t, other, 2, "memory", "shuffle")
}
