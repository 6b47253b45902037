// Package benchmarks holds the end-to-end benchmarks of wikitoolkit: parse
// only (the physical floor), full and incremental builds, and queries,
// over a synthetic monorepo (package synth) or a real repository named by
// WIKITOOLKIT_BENCH_REPO. See README.md.
package benchmarks
