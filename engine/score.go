package engine

// Every ranking constant lives in this block, with the reason for its value.
// Values were set by measuring the project's evaluation (Acc@1/@5 over 120
// commit-subject questions on gin, caddy and pytest) and kept only where a
// change moved the table; TUNING.md logs what was measured, and what did
// not help.
const (
	// --- BM25F (one k1, per-field weight and length normalisation b) ---

	// bm25K1 is the term-frequency saturation. Fields are short (names,
	// signatures, distinct identifiers), so tf saturates early.
	bm25K1 = 1.2

	// Field weights: how much one occurrence in the field counts.
	wName       = 4.0 // the page's own name (symbol name, file stem, heading): the strongest word signal
	wExactName  = 6.0 // whole-identifier match of a definition ("=parseconfig"): naming code beats describing it
	wPath       = 2.0 // directories and file stem: "tree" in "perf(tree)" points at tree.go
	wTitle      = 1.0 // signature words (parameter and result types)
	wDoc        = 1.0 // doc comment / docstring / section text: prose that matches prose questions
	wIdents     = 0.6 // identifiers used in the body: broad but noisy
	wIdentExact = 0.8 // whole identifiers used in the body ("trustedCIDRs" is used in context.go)
	// A file page also carries its symbols' text, so a file that holds several
	// hits outranks a file with one stray match (BM25 over the whole file, the
	// baseline's strength), at lower weight than the file's own fields.
	wSymName       = 2.0
	wSymExact      = 3.0
	wSymText       = 0.8 // symbols' signatures and docs
	wSymIdents     = 0.5
	wSymIdentExact = 0.6
	// String literals: config keys, flag names, messages, file patterns.
	wStr    = 0.6
	wSymStr = 0.6

	// Length normalisation per field kind: names are not penalised for
	// length, prose and identifier bags are.
	bName  = 0.2
	bText  = 0.6
	bBag   = 0.9
	bPathB = 0.3

	// phraseFactor multiplies a file whose stem holds two adjacent words of
	// the question next to each other ("plugin list" → update-plugin-list.py).
	phraseFactor = 1.4

	// --- query-term weights (query.go) ---
	weightWord           = 1.0  // a prose word
	weightIdentPiece     = 0.7  // one piece of a split identifier; the whole identifier carries the rest
	weightExactCode      = 3.0  // an identifier written as code (camelCase, snake_case, `x`, x()): the user named it
	weightExactWord      = 0.35 // a plain word that may be a name ("approx"): a hint, not a claim
	weightSegWord        = 0.25 // a plain word that may be a directory or file stem
	weightCompound       = 0.5  // adjacent plain words written as one name ("json element" → =jsonelement)
	weightTraceFunc      = 3.0  // a function in a stack-trace frame
	weightPathSeg        = 2.0  // a file named in the question
	weightComponent      = 0.5  // the leading "component:" as a path segment (it mostly acts as a boost, below)
	weightComponentExact = 0.3  // ... as a name
	weightComponentWord  = 0.3  // ... as words
	qualifierShare       = 0.5  // "Server" of "Server.name", relative to the whole
	lastPartShare        = 0.8  // "name" of "Server.name"
	repeatWeight         = 0.3  // each repetition of a term adds this share of its weight
	// A long question (several lines: an issue's title, then its body):
	// the title weighs as a one-line question; in the body, each kind of
	// token weighs this share of what it would in a title.
	bodyNamedShare    = 0.6 // identifiers, backticked or called names, qualified names
	bodyProseShare    = 0.5 // prose words
	bodyCodeWordShare = 0.3 // plain words inside a code block (keywords, a log's chatter)
	maxQueryTerms     = 64  // a pasted log yields hundreds of terms; the strongest 64 decide
	maxBareRefs       = 16  // capitalised words looked up as extensionless file names ("Makefile"), at most

	// --- grouping: a file's score from its own page and its members ---
	// The members' shares were 0.6 / 0.25 / 0.1, set on commit subjects
	// alone; on all three sets (with nameFactor and helperFactor) 0.7 /
	// 0.35 / 0.2 lifts SWE-bench Acc@5 .821 → .846 (MRR .661 → .670),
	// commit subjects Acc@3 .750 → .758 and Acc@10 .908 → .917 (Acc@1
	// .600 either way) and semble .878 → .879: a file where several
	// symbols match is whole-file evidence. 0.5-0.8 / 0.3-0.4 / 0.15-0.3
	// measured within a case of it; a share of every further member's
	// score (all of them, or saturating) cost SWE-bench and commit Acc@1.
	groupFileShare = 1.0  // the file page (which already holds its symbols' text)
	groupTop1Share = 0.7  // the best-matching symbol of the file
	groupTop2Share = 0.35 // the second
	groupTop3Share = 0.2  // the third
	// A file stub lists members scoring at least this share of its best one.
	groupListShare = 0.5
	groupListMax   = 6 // ... at most this many

	// --- kind and file-class factors (multiply a group's score) ---
	testFactor   = 0.35 // test files: usually not where a change or a definition lives, but not excluded
	docFactor    = 0.5  // Markdown sections: code questions want code first
	moduleFactor = 0.3  // a directory stub costs tokens and names no file
	memoryFactor = 1.2  // authored facts are few and deliberate
	auxFactor    = 0.6  // code under doc/ or examples/: illustrates, rarely implements
	headerFactor = 0.7  // a C/C++ header whose implementation (same stem, .c/.cc/.cpp) is indexed: it declares what that defines
	// helperFactor: code under a bench, mock, fixture or test-utility
	// directory, or in a helper crate or package (*-util, *-test), unless
	// the question names it: such code calls the core and repeats its
	// names. Measured (search.go, fileSignals) with nameFactor: public
	// commit subjects MRR .813 either way, Acc@10 .892 → .900 (pytest's
	// bench/skip.py had outranked the core); SWE-bench and semble unchanged
	// (0.4 measured the same).
	helperFactor = 0.6
	// nameFactor: a file whose name (stem words; a mod.rs, lib.rs,
	// __init__.py, index or init file's directory name) is made of the
	// question's words, outside its leading component. Measured 1.2-1.7:
	// 1.2 lifts semble .866 → .877 (architecture .814 → .824, semantic
	// .868 → .883) and commit subjects Acc@1 .583 → .600 (MRR .800 →
	// .813), SWE-bench unchanged (Acc@5 .821); 1.4 and above cost SWE-bench
	// Acc@1 (.513 → .487) and commit Acc@1. Counting the leading component
	// too put every caddyfile.go above the answer to "caddyfile: ..." (the
	// component boosts already match it). The central-file rule added
	// semble .876 → .878 and lost nothing.
	nameFactor = 1.2
	// projectWordShare: a word of the path segments of at least this share
	// of the core code's pages names the project, not a file, and does not
	// count towards nameFactor (search.go, projectWords); an index of fewer
	// than projectWordMinPages such pages has none.
	projectWordShare    = 0.5
	projectWordMinPages = 20
	// dataFactor: configuration, build and CI files and plain text (YAML,
	// JSON, TOML, Makefiles, Dockerfiles, .txt): once indexed they crowded
	// code out of code questions (public eval: a workflow and .golangci.yml
	// above gin's debug.go); a question that names one still finds it.
	dataFactor = 0.5

	// --- explicit path and component signals (multiply) ---
	pathExactBoost        = 4.0  // the question names this file ("engine/rank.go", a traceback frame)
	pathBaseBoost         = 2.0  // the question names the file's base name ("rank.go") and it is not unique
	componentStemBoost    = 1.8  // leading component equals the file stem ("runner:" → runner.py)
	componentDirBoost     = 1.8  // leading component is a directory on the file's path (1.5 until issue #14's sixth pass, TUNING.md)
	componentPartialBoost = 1.25 // ... is a prefix or suffix of one ("pki" → caddypki/), or one
	// snake/kebab piece of the file stem ("types" → default_types.rs); also each
	// directory of a path component ("ignore" of "ignore/types:"). Measured on
	// held-out ripgrep (many "dir/file:" subjects): Acc@5 .650 → .725; public MRR .776 → .778.
	// Matched on every scored file's path, so partial matches count even where no
	// segment equals the component ("caddyfile:" → httpcaddyfile/serveroptions.go).

	// --- graph signals ---
	// neighbourBoost lifts the graph neighbours (references, imports,
	// contains, at file level) of the best neighbourTop groups by up to
	// this share, capped below the group they neighbour. Measured: 0.15-0.2
	// adds two Acc@5 cases (multi-file changes) and costs no Acc@1; without
	// the cap, 0.1 already cost 4 Acc@1 cases (central files crowd the top);
	// top 2-3 groups instead of 1 gained nothing more.
	neighbourBoost = 0.2
	neighbourTop   = 1
	// sharedNeighbourBoost lifts a file that is a graph neighbour of at
	// least two of the best sharedNeighbourTop groups (after the file
	// signals), capped below the weakest of the groups it neighbours: two
	// of the question's best files both reference or import it, so it is
	// likely the change's partner (a second file the question does not
	// name). Measured (TUNING.md, issue #14 sixth pass): 0.4-0.45 lift
	// commit subjects Acc@5 .842 → .858 (Acc@1 unchanged) with SWE-bench
	// Acc@5 unchanged; 0.35 and 0.5 lose a SWE-bench case. Scaled by the
	// number of groups neighboured, or applied before the file signals
	// (the name factor then lifted a capped group over the first), it
	// cost Acc@1 or SWE-bench cases.
	sharedNeighbourBoost = 0.4
	sharedNeighbourTop   = 3
	focusBoost0          = 1.0  // (1 + x) for a focus file itself
	focusBoost1          = 0.5  // ... its graph neighbours
	focusBoost2          = 0.2  // ... two steps away
	minScoreShare        = 0.02 // results below this share of the best score are noise, not "more"

	// A query word held by more than commonTermShare of the pages, and by
	// more than commonTermMinPages pages, only scores pages its rarer words
	// found (search.go, step 1). The floor keeps every ordinary repository
	// exact (moby has 29k pages); on a 50k-file monorepo (690k pages) such
	// words ("record", "store", "check") made 250k pages candidates and the
	// median question 7 ms.
	commonTermShare    = 0.1
	commonTermMinPages = 50000
	// impactQuantMax: postings store tf/(k1+tf) in 15 levels (a byte each,
	// which zstd then stores in about 4 bits). Measured on the evaluation
	// against 255 levels: public Acc@5 .833 either way (Acc@1 .575 → .583,
	// MRR .793 → .800), held-out Acc@5 .792 → .783 and MRR .739 → .746
	// (31 levels: .792, MRR .738); the moby index 4.33 → 3.98 MB.
	impactQuantMax = 15
)

// memberNameShare is the share of its weight a whole-name term keeps in a
// member-only question that describes a definition (members.go,
// memberTerms): the names such a sentence writes are its context (the
// types taken, the functions called), and at full weight their own
// definitions outranked the one described. Docstring → symbol (600
// questions, TUNING.md) Acc@1 .673 → .783 at 0.1 (0.5: .703, 0.2: .750,
// 0: .783 with Acc@5 .925 against .930).
const memberNameShare = 0.1

// memberStopShare is the weight of a member-only question's stop words
// (addStopWords), as a share of a prose word's: docstring → symbol Acc@1
// .812 (none) → .823 at 0.25, .822 at 0.5; every stop word a piece of a
// name written as code (0.25): .818; at 1: .790 (TUNING.md).
const memberStopShare = 0.25
