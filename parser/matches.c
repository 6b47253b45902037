#include <stdlib.h>

#include "matches.h"

// The rest of the tree-sitter API used here (see matches.h).

typedef struct TSQueryCapture {
  TSNode node;
  uint32_t index;
} TSQueryCapture;

typedef struct TSQueryMatch {
  uint32_t id;
  uint16_t pattern_index;
  uint16_t capture_count;
  const TSQueryCapture *captures;
} TSQueryMatch;

typedef struct TSTreeCursor {
  const void *tree;
  const void *id;
  uint32_t context[3];
} TSTreeCursor;

TSQueryCursor *ts_query_cursor_new(void);
void ts_query_cursor_delete(TSQueryCursor *self);
void ts_query_cursor_exec(TSQueryCursor *self, const TSQuery *query, TSNode node);
bool ts_query_cursor_next_match(TSQueryCursor *self, TSQueryMatch *match);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
uint16_t ts_node_symbol(TSNode self);
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);

// A record buffer larger than this many words (16 MiB) is freed before the
// next run rather than kept for reuse.
#define KEEP_WORDS (4u << 20)

wt_matches *wt_matches_new(void) {
  wt_matches *m = calloc(1, sizeof *m);
  if (m == NULL) return NULL;
  m->cursor = ts_query_cursor_new();
  if (m->cursor == NULL) {
    free(m);
    return NULL;
  }
  return m;
}

void wt_matches_delete(wt_matches *m) {
  if (m == NULL) return;
  ts_query_cursor_delete(m->cursor);
  free(m->buf);
  free(m);
}

// reset empties the record.
static void reset(wt_matches *m) {
  m->len = 0;
  if (m->cap > KEEP_WORDS) {
    free(m->buf);
    m->buf = NULL;
    m->cap = 0;
  }
}

// reserve makes room for n more words.
static bool reserve(wt_matches *m, uint32_t n) {
  if (m->cap - m->len >= n) return true;
  uint64_t cap = m->cap ? m->cap : 4096;
  while (cap - m->len < n) cap *= 2;
  if (cap > UINT32_MAX) return false;
  uint32_t *buf = realloc(m->buf, cap * sizeof *buf);
  if (buf == NULL) return false;
  m->buf = buf;
  m->cap = (uint32_t)cap;
  return true;
}

bool wt_matches_run(wt_matches *m, const TSQuery *query, TSNode node) {
  reset(m);
  ts_query_cursor_exec(m->cursor, query, node);
  TSQueryMatch match;
  while (ts_query_cursor_next_match(m->cursor, &match)) {
    if (!reserve(m, 1 + 3 * (uint32_t)match.capture_count)) return false;
    uint32_t *w = m->buf + m->len;
    *w++ = match.capture_count;
    for (uint16_t i = 0; i < match.capture_count; i++) {
      const TSQueryCapture *c = &match.captures[i];
      *w++ = c->index;
      *w++ = ts_node_start_byte(c->node);
      *w++ = ts_node_end_byte(c->node);
    }
    m->len = (uint32_t)(w - m->buf);
  }
  return true;
}

bool wt_matches_collect(wt_matches *m, TSNode node, const uint8_t *capture, uint32_t symbol_count) {
  reset(m);
  bool ok = true;
  // The tree cursor visits exactly the visible nodes, as a query does.
  TSTreeCursor c = ts_tree_cursor_new(node);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    uint16_t sym = ts_node_symbol(n);
    if (sym < symbol_count && capture[sym] != 0) {
      if (!reserve(m, 4)) {
        ok = false;
        break;
      }
      uint32_t *w = m->buf + m->len;
      w[0] = 1;
      w[1] = capture[sym] - 1;
      w[2] = ts_node_start_byte(n);
      w[3] = ts_node_end_byte(n);
      m->len += 4;
    }
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
    }
  }
done:
  ts_tree_cursor_delete(&c);
  return ok;
}
