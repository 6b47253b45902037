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
} wt_matches;

// wt_matches_new returns NULL when out of memory.
wt_matches *wt_matches_new(void);
void wt_matches_delete(wt_matches *m);
// wt_matches_run runs query over node and records all its matches in m,
// replacing the previous record. It returns false when out of memory.
bool wt_matches_run(wt_matches *m, const TSQuery *query, TSNode node);
// wt_matches_collect records in m, in pre-order, every visible node under
// node (included) whose symbol s has capture[s] != 0, as a match of one
// capture with index capture[s]-1. Symbols >= symbol_count are skipped. It
// returns false when out of memory.
bool wt_matches_collect(wt_matches *m, TSNode node, const uint8_t *capture, uint32_t symbol_count);

#endif
