/* pj.h — the translator's state, shared by its statement pass (port_jl.c) and its
 * expression pass (expr.c). Internal to src/port_jl. */
#ifndef TT_PJ_INTERNAL_H
#define TT_PJ_INTERNAL_H

#include <tree_sitter/api.h>

#include "port_jl/map.h"
#include "port_jl/port_jl.h"
#include "util/util.h"

#define PJ_MAX_RANK 8

/* A tile's shape in PYTHON order (the translator converts at emission); rank -1 is
 * unknown, 0 a scalar. dims[i] are Julia expression texts (owned). */
typedef struct pj_shape {
  int rank;
  char *dims[PJ_MAX_RANK];
} pj_shape;

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
  bool device;          /* inside device code: float literals are Float32 */
  /* The first unsupported construct of the statement being translated. */
  bool unsupported;
  TSNode unsupported_node;
  char *unsupported_msg;
} pj;

/* Node text, malloc'd. */
char *pj_text(const pj *p, TSNode n);
bool pj_is(TSNode n, const char *type);
bool pj_text_eq(const pj *p, TSNode n, const char *s);

/* Marks the current statement unsupported (the first reason wins); returns an
 * expression holding a placeholder so callers can go on. */
pj_ex pj_unsupported(pj *p, TSNode n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void pj_finding(pj *p, TSNode n, const char *severity, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

pj_var *pj_var_get(pj *p, const char *name);
pj_var *pj_var_put(pj *p, const char *name);
bool pj_is_const_alias(const pj *p, const char *name);

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

#endif
