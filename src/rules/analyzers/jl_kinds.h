/* jl_kinds.h — what a Julia expression is known to be (a scalar, a tile or array, or
 * unknown), from evidence named in a rule file's options; shared by the Julia
 * analyzers (julia-scalar-args, julia-launch-args). Knows no rule and no API by name.
 *
 * Evidence of a scalar: literals; names in `scalar_names` (Inf, pi) and module-level
 * constants bound to scalars, unless a local; parameters whose type annotation matches
 * `scalar_types`; names of `where` clauses; calls of `scalar_calls`; calls of
 * `elementwise_calls`, arithmetic, comparisons, parentheses and ternaries whose operands
 * are all scalars; loop variables over a range. Evidence of a tile (or array):
 * parameters matching `tile_types`, calls of `tile_calls`, calls of `reduction_calls`
 * with the keyword `reduction_keyword`, and the same operations with a tile operand, and
 * broadcasts `f.(x)` of a tile. Anything else is unknown. A local's kind is the join
 * (scalar < unknown < tile) of its assignments in its function, found in two passes in
 * source order (a kind only rises; a use before the first assignment is unknown in the
 * first pass). Each function (either form) is a scope; code outside functions is one
 * more, whose scalars (module constants) are scalars in every function that does not
 * bind the name itself. Cost: linear in the file (expressions deeper than 64 are unknown). */
#ifndef TT_JL_KINDS_H
#define TT_JL_KINDS_H

#include <libfyaml.h>
#include <stdbool.h>
#include <tree_sitter/api.h>

#include "util/regex.h"
#include "util/strmap.h"

typedef enum { TT_JLK_SCALAR, TT_JLK_UNKNOWN, TT_JLK_TILE } tt_jlk_kind;
/* "scalar", "unknown", "tile" (static strings) */
extern const char *const tt_jlk_kind_label[3];

typedef struct tt_jlk_config {
  tt_strmap scalar_calls, elementwise_calls, tile_calls, reduction_calls;
  tt_strmap scalar_names; /* global names that are numbers (Inf32, pi), unless bound locally */
  char *reduction_keyword;
  pcre2_code *scalar_types, *tile_types;
} tt_jlk_config;

/* Checks that `opts` holds no key but the analyzer's own (`own`, NULL-terminated) and
 * the ones tt_jlk_config_read reads; as tt_opts_check_keys. */
int tt_jlk_check_keys(struct fy_node *opts, const char *const *own, char **err, struct fy_node **at);
/* Reads the evidence options (`scalar_types` and `tile_types` required). On error -1,
 * *err (malloc'd) names the key and *at is the node at fault. */
int tt_jlk_config_read(struct fy_node *opts, tt_jlk_config *c, char **err, struct fy_node **at);
void tt_jlk_config_free(tt_jlk_config *c);

/* One scope (a function, or the code outside functions) with its locals' kinds. */
typedef struct tt_jlk_scope {
  const tt_jlk_config *c;
  const char *text; /* the file's text, borrowed */
  TSNode root;
  tt_strmap vars;   /* name -> "s", "u" or "t" */
  /* The code outside functions, for a function's scope (NULL for that one itself): a
   * name that is not a local here is a scalar when the module binds it to one
   * (`const INV_LOG_2 = 1 / log(2)`). */
  const struct tt_jlk_scope *outer;
} tt_jlk_scope;

/* Calls visit(scope, node, ud) for every node of every scope of the tree at `root`, in
 * source order, once the scope's locals are known. */
typedef void (*tt_jlk_visit)(const tt_jlk_scope *s, TSNode n, void *ud);
void tt_jlk_each_scope(const tt_jlk_config *c, const char *text, TSNode root, tt_jlk_visit visit, void *ud);

tt_jlk_kind tt_jlk_expr_kind(const tt_jlk_scope *s, TSNode n);
/* The kind a parameter annotation `ty` gives (unknown when it matches neither regex). */
tt_jlk_kind tt_jlk_type_kind(const tt_jlk_config *c, const char *text, TSNode ty);
/* A function definition: `function f(...) ... end`, or the short form `f(x) = ...`. */
bool tt_jlk_is_definition(TSNode n);
/* The call node `f(params)` of a definition's signature, through `where` and return
 * types; its where-clause node, or a null node, in *where. */
TSNode tt_jlk_signature_call(TSNode def, TSNode *where);
bool tt_jlk_is(TSNode n, const char *type);
const char *tt_jlk_text(const char *text, TSNode n, size_t *len);

#endif
