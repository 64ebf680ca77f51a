/* pj.h — the translator's state, shared by its statement pass (port_jl.c) and its
 * expression pass (expr.c). Internal to src/port_jl. */
#ifndef TT_PJ_INTERNAL_H
#define TT_PJ_INTERNAL_H

#include <tree_sitter/api.h>

#include "port_jl/map.h"
#include "port_jl/port_jl.h"
#include "util/strmap.h"
#include "util/util.h"

#define PJ_MAX_RANK 8

/* A tile's shape in PYTHON order (the translator converts at emission); rank -1 is
 * unknown, 0 a scalar. dims[i] are Julia expression texts (owned). */
typedef struct pj_shape {
  int rank;
  char *dims[PJ_MAX_RANK];
  bool tile0; /* rank 0 but a 0-d tile (ct.sum(x, axis=0) of a 1-d x), not a number:
                 cuTile.jl defines no `+` of a tile and a number, so operators broadcast */
} pj_shape;

/* A number (a scalar), not a tile: operators on two numbers stay undotted. */
static inline bool pj_shape_is_number(const pj_shape *s) { return s->rank == 0 && !s->tile0; }

/* A translated expression. */
typedef struct pj_ex {
  char *text;     /* Julia text (owned) */
  pj_shape sh;
  bool one_based; /* a 1-based id (ct.bid, a range(n) loop variable): Python's value + 1 */
  bool is_int;    /* an integer literal; ival holds it */
  long ival;
  bool atomic;    /* needs no parentheses as an operand */
} pj_ex;

typedef struct pj_var {
  char *name;
  pj_shape sh;
  bool one_based;
  int array_rank; /* >0 for arrays whose rank a load or store showed */
  bool is_array;
} pj_var;

typedef struct pj_kernel {
  char *name;
  bool *is_const; /* per parameter */
  size_t n_params;
} pj_kernel;

typedef struct pj {
  const tt_pj_map *map;
  const tt_source *src;
  tt_pj_layout layout;
  tt_buf out;
  int indent;
  tt_pj_finding *findings;
  size_t n_findings, cap_findings;
  pj_var *vars; /* of the function being translated (or the module) */
  size_t n_vars, cap_vars;
  pj_kernel *kernels;
  size_t n_kernels, cap_kernels;
  char **const_aliases; /* module-level names bound to ct.Constant[...] */
  size_t n_aliases, cap_aliases;
  /* Module-level names bound to a number (`INV_LOG_2 = 1.0 / math.log(2)`): a function's
   * `x * INV_LOG_2` is a number, and `max(m_i, ...)` with m_i = tile + INV_LOG_2 a tile. */
  char **module_numbers;
  size_t n_module_numbers, cap_module_numbers;
  /* Locals and parameters of the function being translated renamed because they would
   * shadow a Julia function its translation calls (`cumsum = ct.cumsum(x)` would make
   * `cumsum` a local in all of the Julia function): Python name -> Julia name. */
  tt_strmap renames;
  bool device;          /* inside device code: float literals are Float32 */
  bool imported;        /* the Julia import of the module is written */
  /* The first unsupported construct of the statement being translated. */
  bool unsupported;
  TSNode unsupported_node;
  char *unsupported_msg;
} pj;

/* Node text, malloc'd. */
char *pj_text(const pj *p, TSNode n);
/* The Julia spelling of Python name `name` (takes it; returns it or its rename in the
 * current function, malloc'd). */
char *pj_renamed(const pj *p, char *name);
bool pj_is(TSNode n, const char *type);
bool pj_text_eq(const pj *p, TSNode n, const char *s);

/* Marks the current statement unsupported (the first reason wins); returns an
 * expression holding a placeholder so callers can go on. */
pj_ex pj_unsupported(pj *p, TSNode n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same where no expression is wanted (nothing to free). */
void pj_flag_unsupported(pj *p, TSNode n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void pj_finding(pj *p, TSNode n, const char *severity, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

pj_var *pj_var_get(pj *p, const char *name);
pj_var *pj_var_put(pj *p, const char *name);
bool pj_is_const_alias(const pj *p, const char *name);
/* A module-level name bound to a number (none of the current function's locals). */
bool pj_is_module_number(const pj *p, const char *name);

void pj_ex_free(pj_ex *e);
void pj_shape_free(pj_shape *s);
pj_shape pj_shape_copy(const pj_shape *s);

/* The expression pass. */
pj_ex pj_expr(pj *p, TSNode n);
/* e's text as a Python-valued Julia expression (a 1-based id gets `- 1`). Owned. */
char *pj_as_value(pj_ex *e);
/* e's text as a 1-based index (Python's 0-based value + 1). Owned. */
char *pj_as_index(pj_ex *e);
/* A Python dtype expression (ct.float32, A.dtype, a variable) as a Julia type. Owned. */
char *pj_dtype(pj *p, TSNode n);
/* A Python annotation of a kernel parameter as a Julia type; *is_const set for
 * ct.Constant[...] (and aliases of it). NULL when there is no mapping. */
char *pj_annotation(pj *p, TSNode type, bool *is_const);


/* ---- shape.c and forms.c (internal) ----
 * Every `char *` and pj_ex returned is owned by the caller. Shapes are in Python
 * order; pj_shape_tuple / pj_dims_julia write them in the layout's Julia order.
 * pj_julia_axis maps Python axis a of a rank-n tile to Julia's dims (-1: unknown).
 * pj_aligned_operand reshapes a lower-rank operand with leading 1s (logical layout:
 * Julia broadcasts left-aligned, Python right-aligned). pj_args holds a call's
 * arguments; its nodes are borrowed from the tree, its keyword names owned. */
typedef struct pj_args {
  TSNode pos[16];
  int n_pos;
  TSNode kw_val[16];
  char *kw_name[16];
  int n_kw;
} pj_args;
pj_ex pj_ex_new(char *text);
pj_ex pj_ex_scalar(char *text);
char *pj_paren(const pj_ex *e);
char *pj_tuple_text(char **items, int n);
void pj_dims_julia(const pj *p, const pj_shape *s, char **out);
char *pj_shape_tuple(const pj *p, const pj_shape *s);
long pj_julia_axis(const pj *p, long a, int n);
pj_shape pj_broadcast_shape(const pj_shape *a, const pj_shape *b);
char *pj_aligned_operand(const pj *p, pj_ex *e, int rank);
void pj_args_collect(pj *p, TSNode arglist, pj_args *a);
void pj_args_free(pj_args *a);
bool pj_arg_named(pj_args *a, struct fy_node *entry, const char *name, TSNode *out);
bool pj_arg_at(pj_args *a, int i, const char *name, TSNode *out);
int pj_tuple_items(TSNode n, TSNode *items, int max);
bool pj_int_literal(pj *p, TSNode n, long *v);
bool pj_shape_arg(pj *p, TSNode n, pj_shape *s);
char *pj_index_arg(pj *p, TSNode n, int *rank);
char *pj_order_arg(pj *p, TSNode n, int rank, bool *ok);
int pj_array_rank_of(pj *p, TSNode arr);
pj_ex pj_form_mma(pj *p, TSNode call, const char *jname, pj_ex *a, pj_ex *b, pj_ex *acc);
pj_ex pj_broadcast_of(pj *p, const char *jname, pj_ex *xs, int n);
pj_ex pj_insert_unit_dims(pj *p, TSNode call, const char *jname, pj_ex *x, const bool *unit, int rank);
pj_ex pj_api_call(pj *p, TSNode call, const char *name, TSNode *self);

#endif
