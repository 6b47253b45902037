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
void ts_tree_cursor_reset(TSTreeCursor *self, TSNode node);
uint16_t ts_tree_cursor_current_field_id(const TSTreeCursor *self);
bool ts_node_is_named(TSNode self);
uint32_t ts_node_named_child_count(TSNode self);
TSNode ts_node_child_by_field_id(TSNode self, uint16_t field_id);

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

static void scratch_delete(struct wt_scratch *x);

void wt_matches_delete(wt_matches *m) {
  if (m == NULL) return;
  scratch_delete(m->scratch);
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

// collect_one records n if its symbol has a capture.
static bool collect_one(wt_matches *m, TSNode n, uint16_t sym, const uint8_t *capture, uint32_t symbol_count) {
  if (sym >= symbol_count || capture[sym] == 0) return true;
  if (!reserve(m, 4)) return false;
  uint32_t *w = m->buf + m->len;
  w[0] = 1;
  w[1] = capture[sym] - 1;
  w[2] = ts_node_start_byte(n);
  w[3] = ts_node_end_byte(n);
  m->len += 4;
  return true;
}

static bool collect_cursor(wt_matches *m, TSNode node, const uint8_t *capture, uint32_t symbol_count) {
  bool ok = true;
  // The tree cursor visits exactly the visible nodes, as a query does.
  TSTreeCursor c = ts_tree_cursor_new(node);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    uint16_t sym = ts_node_symbol(n);
    if (!collect_one(m, n, sym, capture, symbol_count)) {
      ok = false;
      break;
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

// ---- wt_matches_exec: a tree walker for compiled programs ----

#define SYM_ERROR ((uint16_t)0xffff)
#define MAX_DEPTH 16 // pattern nesting; program.go rejects deeper patterns

// A kid is a visible child of a node being matched.
typedef struct kid {
  TSNode node;
  uint16_t sym, field;
  uint8_t named;
} kid;

// Growable arrays, used as stacks.
typedef struct u32s {
  uint32_t *a;
  uint32_t len, cap;
} u32s;

typedef struct kids {
  kid *a;
  uint32_t len, cap;
} kids;

// Mirrors of tree-sitter internals, for walk_internal (see there).

typedef struct {
  uint32_t row, column;
} ts_point_;

typedef struct {
  uint32_t bytes;
  ts_point_ extent;
} ts_length_;

typedef struct {
  bool is_inline : 1;
  bool visible : 1;
  bool named : 1;
  bool extra : 1;
  bool has_changes : 1;
  bool is_missing : 1;
  bool is_keyword : 1;
  uint8_t symbol;
  uint16_t parse_state;
  uint8_t padding_columns;
  uint8_t padding_rows : 4;
  uint8_t lookahead_bytes : 4;
  uint8_t padding_bytes;
  uint8_t size_bytes;
} ts_inline_;

typedef struct {
  volatile uint32_t ref_count;
  ts_length_ padding;
  ts_length_ size;
  uint32_t lookahead_bytes;
  uint32_t error_cost;
  uint32_t child_count;
  uint16_t symbol;
  uint16_t parse_state;
  bool visible : 1;
  bool named : 1;
  bool extra : 1;
  bool fragile_left : 1;
  bool fragile_right : 1;
  bool has_changes : 1;
  bool has_external_tokens : 1;
  bool has_external_scanner_state_change : 1;
  bool depends_on_column : 1;
  bool is_missing : 1;
  bool is_keyword : 1;
  union {
    struct {
      uint32_t visible_child_count;
      uint32_t named_child_count;
      uint32_t visible_descendant_count;
      int32_t dynamic_precedence;
      uint16_t repeat_depth;
      uint16_t production_id;
      struct {
        uint16_t symbol;
        uint16_t parse_state;
      } first_leaf;
    };
    struct {
      union {
        char *long_data;
        char short_data[24];
      };
      uint32_t length;
    } external_scanner_state;
    int32_t lookahead_char;
  };
} ts_heap_;

typedef union {
  ts_inline_ data;
  const ts_heap_ *ptr;
} ts_subtree_;

typedef struct {
  uint32_t version;
  uint32_t symbol_count;
  uint32_t alias_count;
  uint32_t token_count;
  uint32_t external_token_count;
  uint32_t state_count;
  uint32_t large_state_count;
  uint32_t production_id_count;
  uint32_t field_count;
  uint16_t max_alias_sequence_length;
  const uint16_t *parse_table;
  const uint16_t *small_parse_table;
  const uint32_t *small_parse_table_map;
  const void *parse_actions;
  const char *const *symbol_names;
  const char *const *field_names;
  const void *field_map_slices;
  const void *field_map_entries;
  const void *symbol_metadata;
  const uint16_t *public_symbol_map;
  const uint16_t *alias_map;
  const uint16_t *alias_sequences;
} ts_language_;

typedef struct {
  ts_subtree_ root;
  const ts_language_ *language;
} ts_tree_;

// A frame is a node whose kids (listed on x->kids) are being walked, and
// the next of them.
typedef struct {
  uint32_t k0, count, next; // the node's kids are x->kids[k0, k0+count)
} frame_;

typedef struct {
  frame_ *a;
  uint32_t len, cap;
} frames_;

static inline ts_length_ st_padding(ts_subtree_ t) {
  if (t.data.is_inline) return (ts_length_){t.data.padding_bytes, {t.data.padding_rows, t.data.padding_columns}};
  return t.ptr->padding;
}

static inline ts_length_ st_size(ts_subtree_ t) {
  if (t.data.is_inline) return (ts_length_){t.data.size_bytes, {0, t.data.size_bytes}};
  return t.ptr->size;
}

static inline ts_length_ len_add(ts_length_ a, ts_length_ b) {
  ts_length_ r = {a.bytes + b.bytes, a.extent};
  if (b.extent.row > 0) {
    r.extent.row += b.extent.row;
    r.extent.column = b.extent.column;
  } else {
    r.extent.column += b.extent.column;
  }
  return r;
}

static inline uint32_t st_child_count(ts_subtree_ t) { return t.data.is_inline ? 0 : t.ptr->child_count; }
static inline bool st_visible(ts_subtree_ t) { return t.data.is_inline ? t.data.visible : t.ptr->visible; }
static inline bool st_extra(ts_subtree_ t) { return t.data.is_inline ? t.data.extra : t.ptr->extra; }
static inline uint16_t st_symbol(ts_subtree_ t) { return t.data.is_inline ? t.data.symbol : t.ptr->symbol; }
static inline const ts_subtree_ *st_children(ts_subtree_ t) { return (const ts_subtree_ *)t.ptr - t.ptr->child_count; }

struct wt_scratch {
  kids kids;  // children of the nodes being matched, a frame per level
  u32s alts;  // alternatives: [n, n × (capture, start, end)] records
  u32s memo;  // per (child step, kid): (offset in alts, alternative count)
  u32s caps;  // captures of the sequence being enumerated (triples)
  TSTreeCursor cursors[MAX_DEPTH];
  uint32_t ncursors;
  frames_ frames; // walk_internal's stack
  bool internal;   // list kids from the tree's own data (walk_internal)
  bool oom;
};

static void scratch_delete(struct wt_scratch *x) {
  if (x == NULL) return;
  for (uint32_t i = 0; i < x->ncursors; i++) ts_tree_cursor_delete(&x->cursors[i]);
  free(x->kids.a);
  free(x->alts.a);
  free(x->memo.a);
  free(x->caps.a);
  free(x->frames.a);
  free(x);
}

static bool grow(void **a, uint32_t *cap, uint32_t len, uint32_t n, size_t size) {
  if (*cap - len >= n) return true;
  uint64_t c = *cap ? *cap : 256;
  while (c - len < n) c *= 2;
  if (c > UINT32_MAX) return false;
  void *b = realloc(*a, c * size);
  if (b == NULL) return false;
  *a = b;
  *cap = (uint32_t)c;
  return true;
}

#define RESERVE(x, arr, n) \
  (grow((void **)&(arr).a, &(arr).cap, (arr).len, (n), sizeof *(arr).a) || ((x)->oom = true, false))

static bool type_ok(const wt_program *p, const wt_step *s, uint16_t sym, bool named) {
  if (sym == SYM_ERROR) {
    if (s->any) return false;
  } else if (s->any == 1) {
    return named;
  } else if (s->any == 2) {
    return true;
  }
  const uint16_t *syms = p->pool + s->sym_off;
  for (uint16_t i = 0; i < s->sym_count; i++) {
    if (syms[i] == sym) return true;
  }
  return false;
}

typedef struct {
  uint16_t index, length;
} ts_field_slice_;

typedef struct {
  uint16_t field_id;
  uint8_t child_index;
  bool inherited;
} ts_field_entry_;

typedef struct {
  bool visible, named, supertype;
} ts_symbol_meta_;

static inline bool st_named(ts_subtree_ t) { return t.data.is_inline ? t.data.named : t.ptr->named; }

// own_field is the field of the child at structural index i of parent, as
// ts_tree_cursor_current_field_id finds it at one level.
static uint16_t own_field(const ts_language_ *lang, const ts_heap_ *parent, uint32_t i) {
  if (lang->field_count == 0) return 0;
  ts_field_slice_ sl = ((const ts_field_slice_ *)lang->field_map_slices)[parent->production_id];
  const ts_field_entry_ *e = (const ts_field_entry_ *)lang->field_map_entries + sl.index;
  for (uint16_t k = 0; k < sl.length; k++) {
    if (!e[k].inherited && e[k].child_index == i) return e[k].field_id;
  }
  return 0;
}

// kids_internal appends to x->kids the visible children of the node whose
// subtree is t (starting at start), looking through hidden children, whose
// own field (field) their children take when they have none: what a tree
// cursor's goto_first_child, goto_next_sibling and current_field_id give.
// Without fields, every kid's field is 0: the walk needs none at a node
// where no pattern starts.
static bool kids_internal(struct wt_scratch *x, const TSTree *tree, ts_subtree_ t, ts_length_ start, uint16_t field,
                          bool fields, uint32_t *m, int64_t *last_named) {
  const ts_language_ *lang = ((const ts_tree_ *)tree)->language;
  const ts_heap_ *h = t.ptr;
  const ts_subtree_ *ch = st_children(t);
  const uint16_t *aliases = h->production_id ? &lang->alias_sequences[(uint32_t)h->production_id * lang->max_alias_sequence_length] : NULL;
  ts_length_ pos = start;
  uint32_t structural = 0;
  for (uint32_t i = 0; i < h->child_count; i++) {
    ts_subtree_ c = ch[i];
    ts_length_ at = pos;
    pos = len_add(pos, st_size(c));
    if (i + 1 < h->child_count) pos = len_add(pos, st_padding(ch[i + 1]));
    uint16_t alias = 0, f = 0;
    if (!st_extra(c)) {
      if (aliases) alias = aliases[structural];
      if (fields) {
        f = own_field(lang, h, structural);
        if (f == 0) f = field;
      }
      structural++;
    }
    if (st_visible(c) || alias != 0) {
      if (!RESERVE(x, x->kids, 1)) return false;
      kid *k = &x->kids.a[x->kids.len++];
      k->node = (TSNode){{at.bytes, at.extent.row, at.extent.column, alias}, &ch[i], tree};
      uint16_t sym = alias ? alias : st_symbol(c);
      k->sym = sym != SYM_ERROR && sym < lang->symbol_count ? lang->public_symbol_map[sym] : sym;
      k->field = f;
      k->named = alias ? ((const ts_symbol_meta_ *)lang->symbol_metadata)[alias].named : st_named(c);
      if (k->named) *last_named = *m;
      (*m)++;
    } else if (st_child_count(c) > 0 && c.ptr->visible_child_count > 0) {
      if (!kids_internal(x, tree, c, at, f, fields, m, last_named)) return false;
    }
  }
  return true;
}

static uint32_t node_alts(struct wt_scratch *x, const wt_program *p, TSNode n, const wt_step *s, uint32_t depth,
                          uint32_t *off);

// seq enumerates the ways the child steps j... of s match the kids
// k0[from...], pushing each complete sequence's captures (after the
// node's own, already on caps) as one alternative.
static void seq(struct wt_scratch *x, const wt_program *p, const wt_step *s, uint32_t k0, uint32_t m,
                uint32_t mo, int64_t last_named, uint32_t j, uint32_t from, uint32_t *count) {
  if (x->oom) return;
  if (j == s->child_count) {
    uint32_t n = x->caps.len / 3;
    if (!RESERVE(x, x->alts, 1 + x->caps.len)) return;
    x->alts.a[x->alts.len++] = n;
    for (uint32_t i = 0; i < x->caps.len; i++) x->alts.a[x->alts.len++] = x->caps.a[i];
    (*count)++;
    return;
  }
  const wt_step *c = &p->steps[s->child_off + j];
  for (uint32_t q = from; q < m; q++) {
    uint32_t off = x->memo.a[mo + 2 * (j * m + q)], cnt = x->memo.a[mo + 2 * (j * m + q) + 1];
    if (cnt > 0 && (!(c->flags & WT_LAST) || (int64_t)q >= last_named)) {
      for (uint32_t a = 0; a < cnt; a++) {
        uint32_t n = x->alts.a[off];
        uint32_t save = x->caps.len;
        if (!RESERVE(x, x->caps, 3 * n)) return;
        for (uint32_t i = 0; i < 3 * n; i++) x->caps.a[x->caps.len++] = x->alts.a[off + 1 + i];
        seq(x, p, s, k0, m, mo, last_named, j + 1, q + 1, count);
        x->caps.len = save;
        off += 1 + 3 * n;
      }
    }
    if ((c->flags & WT_IMMEDIATE) && x->kids.a[k0 + q].named) break;
  }
}

static uint32_t match_kids(struct wt_scratch *x, const wt_program *p, TSNode n, const wt_step *s, uint32_t depth,
                           uint32_t k0, uint32_t m, int64_t last_named, uint32_t *off);

// leaf_alts does node_alts' part that needs no kids: it returns 0 when a
// negated field rules n out, 1 (and the record at *off) for a step
// without children, and -1 when the step's children are to be matched.
static int leaf_alts(struct wt_scratch *x, const wt_program *p, TSNode n, const wt_step *s, uint32_t *off) {
  for (uint16_t i = 0; i < s->neg_count; i++) {
    if (ts_node_child_by_field_id(n, p->pool[s->neg_off + i]).id != NULL) return 0;
  }
  if (s->child_count > 0) return -1;
  if (!RESERVE(x, x->alts, 4)) return 0;
  *off = x->alts.len;
  if (s->capture == 0xffff) {
    x->alts.a[x->alts.len++] = 0;
  } else {
    uint32_t *w = x->alts.a + x->alts.len;
    w[0] = 1;
    w[1] = s->capture;
    w[2] = ts_node_start_byte(n);
    w[3] = ts_node_end_byte(n);
    x->alts.len += 4;
  }
  return 1;
}

// node_alts appends to x->alts every way node n (whose type and field the
// caller checked) matches step s, as contiguous records starting at *off
// (after any records of n's descendants), and returns how many.
static uint32_t node_alts(struct wt_scratch *x, const wt_program *p, TSNode n, const wt_step *s, uint32_t depth,
                             uint32_t *off) {
  int leaf = leaf_alts(x, p, n, s, off);
  if (leaf >= 0) return (uint32_t)leaf;
  if (depth >= MAX_DEPTH) {
    x->oom = true;
    return 0;
  }
  // The kids of n.
  uint32_t k0 = x->kids.len, m = 0;
  int64_t last_named = -1;
  ts_subtree_ t = *(const ts_subtree_ *)n.id;
  if (x->internal) {
    if (st_child_count(t) > 0 && t.ptr->visible_child_count > 0 &&
        !kids_internal(x, n.tree, t, (ts_length_){n.context[0], {n.context[1], n.context[2]}}, 0, true, &m, &last_named)) {
      return 0;
    }
    goto listed;
  }
  if (depth >= x->ncursors) {
    x->cursors[depth] = ts_tree_cursor_new(n);
    x->ncursors = depth + 1;
  } else {
    ts_tree_cursor_reset(&x->cursors[depth], n);
  }
  TSTreeCursor *cur = &x->cursors[depth];
  if (ts_tree_cursor_goto_first_child(cur)) {
    do {
      if (!RESERVE(x, x->kids, 1)) return 0;
      kid *k = &x->kids.a[x->kids.len++];
      k->node = ts_tree_cursor_current_node(cur);
      k->sym = ts_node_symbol(k->node);
      k->field = ts_tree_cursor_current_field_id(cur);
      k->named = ts_node_is_named(k->node);
      if (k->named) last_named = m;
      m++;
    } while (ts_tree_cursor_goto_next_sibling(cur));
  }
listed:;
  uint32_t count = match_kids(x, p, n, s, depth, k0, m, last_named, off);
  x->kids.len = k0;
  return count;
}

// match_kids is node_alts after the kids of n are listed, at
// x->kids[k0, k0+m).
static uint32_t match_kids(struct wt_scratch *x, const wt_program *p, TSNode n, const wt_step *s, uint32_t depth,
                           uint32_t k0, uint32_t m, int64_t last_named, uint32_t *off) {
  // Every child step against every kid, first, so that the alternatives
  // of n come out contiguous after those of its descendants.
  uint32_t cells = (uint32_t)s->child_count * m;
  if (!RESERVE(x, x->memo, 2 * cells)) return 0;
  uint32_t mo = x->memo.len;
  x->memo.len += 2 * cells;
  bool any = true;
  for (uint16_t j = 0; j < s->child_count && any; j++) {
    const wt_step *c = &p->steps[s->child_off + j];
    bool found = false;
    for (uint32_t q = 0; q < m; q++) {
      kid k = x->kids.a[k0 + q];
      uint32_t o = 0, cnt = 0;
      if ((c->field == 0 || k.field == c->field) && type_ok(p, c, k.sym, k.named)) {
        cnt = node_alts(x, p, k.node, c, depth + 1, &o);
        if (x->oom) return 0;
      }
      x->memo.a[mo + 2 * (j * m + q)] = o;
      x->memo.a[mo + 2 * (j * m + q) + 1] = cnt;
      found |= cnt > 0;
    }
    any = found;
  }
  uint32_t count = 0;
  *off = x->alts.len;
  if (any) {
    x->caps.len = 0;
    if (s->capture != 0xffff) {
      if (!RESERVE(x, x->caps, 3)) return 0;
      x->caps.a[0] = s->capture;
      x->caps.a[1] = ts_node_start_byte(n);
      x->caps.a[2] = ts_node_end_byte(n);
      x->caps.len = 3;
    }
    seq(x, p, s, k0, m, mo, last_named, 0, 0, &count);
  }
  x->memo.len = mo;
  return x->oom ? 0 : count;
}

// ---- The walk over tree-sitter's own tree ----
//
// walk_cursor's time goes to the public cursor API, which rebuilds each
// node's position, alias and visibility through several calls per node:
// on moby that walk alone cost a sixth of tree-sitter's parse. walk_internal
// visits the same nodes in the same order, reading the tree the way
// tree_cursor.c does. The ts_*_ types (above struct wt_scratch) mirror
// tree-sitter 0.22.5's lib/src/subtree.h, length.h and tree.h (MIT
// licence; the runtime github.com/smacker/go-tree-sitter bundles and
// go.mod pins) and the language layout of lib/include/tree_sitter/parser.h
// (ABI 13 and 14).
// walk_internal_ok falls back to the cursor for any other ABI or a
// big-endian build, and TestProgramAgrees compares both walks with
// tree-sitter's query cursor.

_Static_assert(sizeof(ts_subtree_) == sizeof(void *), "Subtree is a pointer or 8 inline bytes");
_Static_assert(sizeof(ts_inline_) == 8, "SubtreeInlineData is 8 bytes");

uint32_t ts_language_version(const void *language);


static bool walk_internal_ok(TSNode node);
bool wt_walk_internal_ok(TSNode node) { return walk_internal_ok(node); }

static bool walk_internal_ok(TSNode node) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (node.tree == NULL || node.id == NULL) return false;
  const ts_tree_ *t = (const ts_tree_ *)node.tree;
  uint32_t v = ts_language_version(t->language);
  return v == 13 || v == 14;
#else
  (void)node;
  return false;
#endif
}

static bool visit(wt_matches *m, const wt_program *p, struct wt_scratch *x, TSNode n, uint16_t sym);
static bool keep_alts(wt_matches *m, struct wt_scratch *x, uint32_t off, uint32_t cnt);

// walk_node matches the patterns rooted at n (of public symbol sym) and,
// when the walk is to go into n, leaves n's kids on x->kids with a frame
// for them. The kids are listed once for both the patterns' first level
// of children and the walk, and only the nodes that start a pattern or
// have named children are visited. On moby's Go that is 7% less time
// on a tree in cache but only 2% on one just parsed (0.287 s → 0.281 s
// of a build's CPU, runs alternated in one process): the walk's time
// goes to loading the tree's subtrees, and prefetching the kids' did not
// pay either.
static bool walk_node(wt_matches *m, const wt_program *p, struct wt_scratch *x, TSNode n, uint16_t sym) {
  bool roots = sym < p->symbol_count && p->root_off[sym] < p->root_off[sym + 1];
  ts_subtree_ t = *(const ts_subtree_ *)n.id;
  bool heap = st_child_count(t) > 0;
  // As walk_cursor: not into nodes whose children are all anonymous.
  bool into = heap && t.ptr->named_child_count > 0;
  if (!roots && !into) return true;
  uint32_t k0 = x->kids.len, km = 0;
  int64_t last_named = -1;
  if (heap && t.ptr->visible_child_count > 0 &&
      !kids_internal(x, n.tree, t, (ts_length_){n.context[0], {n.context[1], n.context[2]}}, 0, roots, &km,
                     &last_named)) {
    return false;
  }
  if (roots) {
    for (uint32_t r = p->root_off[sym]; r < p->root_off[sym + 1]; r++) {
      const wt_step *s = &p->steps[p->roots[r]];
      x->alts.len = 0;
      x->memo.len = 0;
      uint32_t off = 0;
      int leaf = leaf_alts(x, p, n, s, &off);
      uint32_t cnt = leaf >= 0 ? (uint32_t)leaf : match_kids(x, p, n, s, 0, k0, km, last_named, &off);
      if (x->oom || !keep_alts(m, x, off, cnt)) return false;
    }
  }
  if (!into || km == 0) {
    x->kids.len = k0;
    return true;
  }
  if (!grow((void **)&x->frames.a, &x->frames.cap, x->frames.len, 1, sizeof *x->frames.a)) {
    x->oom = true;
    return false;
  }
  x->frames.a[x->frames.len++] = (frame_){k0, km, 0};
  return true;
}

static bool walk_internal(wt_matches *m, const wt_program *p, struct wt_scratch *x, TSNode node) {
  x->kids.len = 0;
  x->frames.len = 0;
  if (!walk_node(m, p, x, node, ts_node_symbol(node))) return false;
  while (x->frames.len > 0) {
    frame_ *f = &x->frames.a[x->frames.len - 1];
    if (f->next == f->count) {
      x->kids.len = f->k0;
      x->frames.len--;
      continue;
    }
    kid k = x->kids.a[f->k0 + f->next++];
    if (!walk_node(m, p, x, k.node, k.sym)) return false;
  }
  return true;
}

// visit records the matches of the patterns rooted at node n (of public
// symbol sym) in m. It returns false when out of memory.
static bool visit(wt_matches *m, const wt_program *p, struct wt_scratch *x, TSNode n, uint16_t sym) {
  if (sym >= p->symbol_count) return true;
  for (uint32_t r = p->root_off[sym]; r < p->root_off[sym + 1]; r++) {
    const wt_step *s = &p->steps[p->roots[r]];
    x->alts.len = 0;
    x->kids.len = 0;
    x->memo.len = 0;
    uint32_t off = 0;
    uint32_t cnt = node_alts(x, p, n, s, 0, &off);
    if (x->oom || !keep_alts(m, x, off, cnt)) return false;
  }
  return true;
}

// keep_alts copies the cnt alternatives at x->alts[off] to m, each once:
// tree-sitter drops a state whose captures equal another's at the same
// step of the same pattern. It returns false when out of memory.
static bool keep_alts(wt_matches *m, struct wt_scratch *x, uint32_t off, uint32_t cnt) {
  uint32_t first = m->len;
  for (uint32_t a = 0; a < cnt; a++) {
    uint32_t len = 1 + 3 * x->alts.a[off];
    bool dup = false;
    for (uint32_t w = first; w < m->len && !dup; w += 1 + 3 * m->buf[w]) {
      uint32_t k = x->alts.a[off];
      dup = m->buf[w] == k;
      for (uint32_t i = 1; dup && i <= 3 * k; i++) dup = m->buf[w + i] == x->alts.a[off + i];
    }
    if (!dup) {
      if (!reserve(m, len)) return false;
      for (uint32_t i = 0; i < len; i++) m->buf[m->len++] = x->alts.a[off + i];
    }
    off += len;
  }
  return true;
}

// walk_cursor visits every node under node with the public tree cursor.
static bool walk_cursor(wt_matches *m, const wt_program *p, struct wt_scratch *x, TSNode node) {
  bool ok = true;
  TSTreeCursor c = ts_tree_cursor_new(node);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (!visit(m, p, x, n, ts_node_symbol(n))) {
      ok = false;
      break;
    }
    // Patterns start at named nodes only: a node whose children are all
    // anonymous (punctuation, keywords) is not descended into.
    if (ts_node_named_child_count(n) > 0 && ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
    }
  }
done:
  ts_tree_cursor_delete(&c);
  return ok;
}

bool wt_matches_exec(wt_matches *m, const wt_program *p, TSNode node, bool internal) {
  reset(m);
  if (m->scratch == NULL) {
    m->scratch = calloc(1, sizeof *m->scratch);
    if (m->scratch == NULL) return false;
  }
  struct wt_scratch *x = m->scratch;
  x->oom = false;
  x->internal = internal && walk_internal_ok(node);
  if (x->internal) return walk_internal(m, p, x, node);
  return walk_cursor(m, p, x, node);
}


// collect_internal is collect_cursor walking the tree's own data, as
// walk_internal does: every visible node in pre-order, the kids of each
// listed by kids_internal (on moby's Markdown, 0.052 s → 0.034 s of a
// build's CPU, runs alternated in one process).
static bool collect_internal(wt_matches *m, struct wt_scratch *x, TSNode node, const uint8_t *capture,
                             uint32_t symbol_count) {
  x->kids.len = 0;
  x->frames.len = 0;
  TSNode n = node;
  if (!collect_one(m, n, ts_node_symbol(n), capture, symbol_count)) return false;
  for (;;) {
    ts_subtree_ t = *(const ts_subtree_ *)n.id;
    if (st_child_count(t) > 0 && t.ptr->visible_child_count > 0) {
      uint32_t k0 = x->kids.len, km = 0;
      int64_t last_named = -1;
      if (!kids_internal(x, n.tree, t, (ts_length_){n.context[0], {n.context[1], n.context[2]}}, 0, false, &km,
                         &last_named)) {
        return false;
      }
      if (km > 0) {
        if (!grow((void **)&x->frames.a, &x->frames.cap, x->frames.len, 1, sizeof *x->frames.a)) return false;
        x->frames.a[x->frames.len++] = (frame_){k0, km, 0};
      }
    }
    // The next node: the next kid of the innermost frame with one left.
    for (;;) {
      if (x->frames.len == 0) return true;
      frame_ *f = &x->frames.a[x->frames.len - 1];
      if (f->next < f->count) break;
      x->kids.len = f->k0;
      x->frames.len--;
    }
    frame_ *f = &x->frames.a[x->frames.len - 1];
    kid k = x->kids.a[f->k0 + f->next++];
    n = k.node;
    if (!collect_one(m, n, k.sym, capture, symbol_count)) return false;
  }
}

bool wt_matches_collect(wt_matches *m, TSNode node, const uint8_t *capture, uint32_t symbol_count, bool internal) {
  reset(m);
  if (!internal || !walk_internal_ok(node)) return collect_cursor(m, node, capture, symbol_count);
  if (m->scratch == NULL) {
    m->scratch = calloc(1, sizeof *m->scratch);
    if (m->scratch == NULL) return false;
  }
  struct wt_scratch *x = m->scratch;
  x->oom = false;
  return collect_internal(m, x, node, capture, symbol_count);
}
