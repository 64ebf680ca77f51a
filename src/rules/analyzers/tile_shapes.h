/* tile_shapes.h — the julia-tile-shapes analyzer's shape inference, shared by its
 * checks (tile_shapes.c) and its inference (tile_shapes_infer.c). Internal to
 * src/rules/analyzers. Shapes are dims as texts borrowed from the file (or the literal
 * "1"); nothing here allocates but the context's tables, which tile_shapes.c frees. */
#ifndef TT_TILE_SHAPES_H
#define TT_TILE_SHAPES_H

#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "rules/analyzer.h"
#include "rules/analyzers/jl_kinds.h"
#include "util/strmap.h"

typedef enum {
  C_MULADD, C_ARRAY_TILES, C_CAT, C_REDUCE_UNIT, C_BROADCAST, C_UNDOTTED, C_INDEX_DIMS, C_ACC_PRECISION, C_REDUCE_ALL,
  C_ARRAY_RANK, C_RANK_UNUSED
} tsh_check;

typedef struct tsh_opts {
  tsh_check check;
  tt_strmap shape_calls, store_calls, new_calls, reshape_calls, keep_calls, transpose_calls, permute_calls,
      muladd_calls, reduction_calls, dropdims_calls, cat_calls, operators, same_shape_operators, matmul_operators;
  char *dims_keyword, *order_keyword, *index_keyword;
  tt_strmap low_precision_types;
  tt_strmap array_types; /* array-rank(-unused): the parameter types `X{T, N}` whose N is a rank */
  tt_jlk_config kinds;
} tsh_opts;


enum { MAX_RANK = 4, MAX_DEPTH = 32 };

/* A dim is a text (a node's, or the literal "1"); t NULL: a dim of unknown size. */
typedef struct tsh_dim {
  const char *t;
  size_t n;
} tsh_dim;

/* rank 0: no shape known (a scalar, or not inferred). */
typedef struct tsh_shape {
  int rank;
  tsh_dim d[MAX_RANK];
} tsh_shape;

static const tsh_dim tsh_one = {"1", 1};

static inline bool tsh_dim_known(tsh_dim a) { return a.t != NULL; }

static inline bool tsh_dim_is_one(tsh_dim a) { return a.n == 1 && a.t[0] == '1'; }

/* Text equality ignoring blanks (`TM*2` is `TM * 2`). */
static inline bool tsh_dim_eq(tsh_dim a, tsh_dim b) {
  size_t i = 0, j = 0;
  for (;;) {
    while (i < a.n && (a.t[i] == ' ' || a.t[i] == '\t')) i++;
    while (j < b.n && (b.t[j] == ' ' || b.t[j] == '\t')) j++;
    if (i == a.n || j == b.n) return i == a.n && j == b.n;
    if (a.t[i++] != b.t[j++]) return false;
  }
}

/* Both known and different. */
static inline bool tsh_dim_differs(tsh_dim a, tsh_dim b) { return tsh_dim_known(a) && tsh_dim_known(b) && !tsh_dim_eq(a, b); }

typedef struct tsh_ctx {
  const tsh_opts *o;
  const char *text;
  TSNode scope;     /* the function whose locals `vars` holds (null: none) */
  bool in_function;
  /* local -> index into known, or "-" when its assignments disagree; a "-" local's shape
   * at a use is then its reaching assignment's (tile_shapes_infer.c: flow_shape) */
  tt_strmap vars;
  tsh_shape *known;
  size_t n, cap;
  tt_strmap low;    /* locals assigned a new tile of a `low_precision_types` eltype -> "" */
  struct asg { /* every assignment of a local, in source order, with its value's shape */
    TSNode node, name;
    tsh_shape sh;
  } *asgs;
  size_t n_asgs, cap_asgs;
  struct use { /* each index variable's tile dims so far: the var, its dim, the call */
    TSNode var, at;
    tsh_dim d;
  } *uses;
  size_t n_uses, cap_uses;
  struct seen { /* each array's tile shapes so far: the shape, the call, the array */
    tsh_shape sh;
    TSNode at, arr;
  } *seen;
  size_t n_seen, cap_seen;
  tt_analyzer_emit emit;
  void *ud;
} tsh_ctx;


/* ---- inference (tile_shapes_infer.c) ----
 * Shapes come back by value; a rank of 0 is "not known". `depth` bounds the recursion
 * (MAX_DEPTH). Nodes are the file's (c->text). */
bool tsh_shape_same(const tsh_shape *a, const tsh_shape *b);
/* "(TM, TK)" written into buf (cap bytes); returns buf. */
const char *tsh_shape_text(const tsh_shape *s, char *buf, size_t cap);
tsh_dim tsh_node_dim(const tsh_ctx *c, TSNode n);
/* `callee`'s text is in the option set `set`. */
bool tsh_in_set(const tsh_ctx *c, const tt_strmap *set, TSNode callee);
/* A tuple `(a, b)` of at most MAX_RANK items as a shape. */
tsh_shape tsh_tuple_shape(const tsh_ctx *c, TSNode t);
/* Argument lists: the i-th positional argument (0-based; null past the end), their
 * count, the value of keyword `kw`, and the argument a `shape_calls` value names
 * (digits: a 1-based position; else a keyword). */
TSNode tsh_positional(TSNode args, int i);
int tsh_n_positional(TSNode args);
TSNode tsh_keyword(const tsh_ctx *c, TSNode args, const char *kw);
TSNode tsh_named_arg(const tsh_ctx *c, TSNode args, const char *where);
/* An integer literal's value, or -1. */
long tsh_int_lit(const tsh_ctx *c, TSNode n);
/* Julia's left-aligned broadcast; *clash: the first dim of two names, neither 1 (-1: none). */
tsh_shape tsh_broadcast(const tsh_shape *a, const tsh_shape *b, int *clash);
bool tsh_dotted_operator(const tsh_ctx *c, TSNode op);
tsh_shape tsh_expr_shape(tsh_ctx *c, const tt_jlk_scope *s, TSNode n, int depth);
/* A `new_calls` call whose eltype (first argument) is one of `low_precision_types`. */
bool tsh_low_precision_new(const tsh_ctx *c, TSNode n);
/* Records what assignment `n` says about a local (c->vars, c->low, c->asgs); other
 * nodes: nothing. */
void tsh_learn(tsh_ctx *c, const tt_jlk_scope *s, TSNode n);
/* Recomputes each recorded assignment's shape once all are known (uses before a later
 * assignment, loop-carried values). */
void tsh_relearn(tsh_ctx *c, const tt_jlk_scope *s);
/* a and b are not on one straight path: one lies under an `if` or ternary that does not
 * hold the other (a kernel may take an array in either layout under a constant). */
bool tsh_apart(TSNode a, TSNode b);

#endif
