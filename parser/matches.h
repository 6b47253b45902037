// matches.c runs a tree-sitter query in C and records every match in one
// flat array, so that extraction crosses cgo once per file rather than
// several times per match and capture.
//
// The declarations below mirror lib/include/tree_sitter/api.h of the
// tree-sitter runtime bundled in github.com/smacker/go-tree-sitter
// (tree-sitter 0.22.5, ABI 14); the functions are linked from that package.

#ifndef WIKITOOLKIT_MATCHES_H_
#define WIKITOOLKIT_MATCHES_H_

#include <stdbool.h>
#include <stdint.h>

typedef struct TSTree TSTree;
typedef struct TSQuery TSQuery;
typedef struct TSQueryCursor TSQueryCursor;

typedef struct TSNode {
  uint32_t context[4];
  const void *id;
  const TSTree *tree;
} TSNode;

// wt_matches is a query cursor and the record of the matches found by its
// last run: for each match, its capture count, then for each capture its
// capture index, start byte and end byte.
typedef struct wt_matches {
  TSQueryCursor *cursor;
  uint32_t *buf;
  uint32_t len, cap;
  struct wt_scratch *scratch; // wt_matches_exec's, allocated on first use
} wt_matches;

// A wt_program is a query compiled for wt_matches_exec (see
// parser/program.go): a tree of steps per pattern, and for each grammar
// symbol the patterns whose root step matches it.
enum { WT_IMMEDIATE = 1, WT_LAST = 2 };

typedef struct wt_step {
  uint32_t sym_off;    // symbols this step matches: pool[sym_off, +sym_count)
  uint32_t child_off;  // child steps: steps[child_off, +child_count)
  uint32_t neg_off;    // fields the node must not have: pool[neg_off, +neg_count)
  uint16_t sym_count;  // 0 for a wildcard
  uint16_t child_count;
  uint16_t neg_count;
  uint16_t field;      // the field the node must be under, 0 for any
  uint16_t capture;    // capture index, 0xffff for none
  uint8_t any;         // 1: (_) any named node; 2: _ any node (never ERROR)
  uint8_t flags;       // WT_IMMEDIATE: a . anchor before; WT_LAST: after
} wt_step;

typedef struct wt_program {
  const wt_step *steps;
  const uint16_t *pool;
  const uint32_t *root_off; // symbol_count+1 offsets into roots
  const uint16_t *roots;    // root step indexes per symbol
  uint32_t symbol_count;
} wt_program;

// wt_matches_new returns NULL when out of memory.
wt_matches *wt_matches_new(void);
void wt_matches_delete(wt_matches *m);
// wt_matches_run runs query over node and records all its matches in m,
// replacing the previous record. It returns false when out of memory.
bool wt_matches_run(wt_matches *m, const TSQuery *query, TSNode node);
// wt_matches_exec records in m every match of program p over the tree
// under node, as wt_matches_run does for a query (in another order). It
// returns false when out of memory or when a pattern nests too deeply.
// internal walks the tree's own data rather than through a tree cursor
// (see matches.c; it falls back to the cursor where it cannot).
bool wt_matches_exec(wt_matches *m, const wt_program *p, TSNode node, bool internal);
// wt_walk_internal_ok reports whether wt_matches_exec can walk node's
// tree's own data (its language's ABI is one it knows).
bool wt_walk_internal_ok(TSNode node);
// wt_matches_collect records in m, in pre-order, every visible node under
// node (included) whose symbol s has capture[s] != 0, as a match of one
// capture with index capture[s]-1. Symbols >= symbol_count are skipped. It
// returns false when out of memory. internal is as for wt_matches_exec.
bool wt_matches_collect(wt_matches *m, TSNode node, const uint8_t *capture, uint32_t symbol_count, bool internal);

#endif
