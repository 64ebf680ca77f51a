/* shape.c — the translator's small pieces: expression values, tuples, shapes in both
 * layouts, axes, orders, and a call's arguments by position or keyword. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "port_jl/pj.h"

/* ---- values and shapes -------------------------------------------------------------- */

pj_ex pj_ex_new(char *text) {
  pj_ex e = {.text = text, .sh = {.rank = -1}};
  return e;
}

pj_ex pj_ex_scalar(char *text) {
  pj_ex e = pj_ex_new(text);
  e.sh.rank = 0;
  return e;
}

char *pj_paren(const pj_ex *e) {
  return e->atomic ? tt_xstrdup(e->text) : tt_xasprintf("(%s)", e->text);
}

char *pj_as_value(pj_ex *e) {
  if (e->one_based) return tt_xasprintf("(%s - 1)", e->text);
  return tt_xstrdup(e->text);
}

char *pj_as_index(pj_ex *e) {
  if (e->one_based) return tt_xstrdup(e->text);
  if (e->is_int) return tt_xasprintf("%ld", e->ival + 1);
  char *v = pj_paren(e);
  char *r = tt_xasprintf("%s + 1", v);
  free(v);
  return r;
}

/* A Julia tuple of `n` texts: "(a,)" for one. */
char *pj_tuple_text(char **items, int n) {
  tt_buf b = {0};
  tt_buf_putc(&b, '(');
  for (int i = 0; i < n; i++) tt_buf_printf(&b, "%s%s", i ? ", " : "", items[i]);
  tt_buf_puts(&b, n == 1 ? ",)" : ")");
  return tt_buf_steal(&b);
}

/* Shape dims in Julia order for the layout: reversed under flipped. `from` copies. */
void pj_dims_julia(const pj *p, const pj_shape *s, char **out) {
  for (int i = 0; i < s->rank; i++) out[i] = s->dims[p->layout == TT_PJ_FLIPPED ? s->rank - 1 - i : i];
}

char *pj_shape_tuple(const pj *p, const pj_shape *s) {
  char *d[PJ_MAX_RANK];
  pj_dims_julia(p, s, d);
  return pj_tuple_text(d, s->rank);
}

/* Python axis `a` of a rank-`n` tile as a Julia dims value; -1 when it cannot say. */
long pj_julia_axis(const pj *p, long a, int n) {
  if (a < 0) {
    if (n < 0) return -1;
    a += n;
  }
  if (p->layout == TT_PJ_LOGICAL) return a + 1;
  return n < 0 ? -1 : n - a;
}

/* Right-aligned (NumPy) broadcast of two Python shapes. */
pj_shape pj_broadcast_shape(const pj_shape *a, const pj_shape *b) {
  pj_shape r = {.rank = -1};
  if (a->rank < 0 || b->rank < 0) return r;
  r.rank = a->rank > b->rank ? a->rank : b->rank;
  for (int i = 0; i < r.rank; i++) {
    int ia = a->rank - r.rank + i, ib = b->rank - r.rank + i;
    const char *da = ia >= 0 ? a->dims[ia] : NULL, *db = ib >= 0 ? b->dims[ib] : NULL;
    const char *d = !da ? db : !db ? da : strcmp(da, "1") == 0 ? db : da;
    r.dims[i] = tt_xstrdup(d);
  }
  r.tile0 = r.rank == 0 && (a->tile0 || b->tile0);
  return r;
}

/* Under the logical layout Julia aligns broadcasts left and Python right: a lower-rank
 * tile is reshaped with leading 1s first. Flipped needs nothing (reversed dims make
 * right alignment left alignment). Returns e's operand text (owned). */
char *pj_aligned_operand(const pj *p, pj_ex *e, int rank) {
  char *v = pj_as_value(e);
  if (p->layout != TT_PJ_LOGICAL || e->sh.rank <= 0 || e->sh.rank >= rank || rank > PJ_MAX_RANK) return v;
  char *d[PJ_MAX_RANK];
  int pad = rank - e->sh.rank;
  for (int i = 0; i < rank; i++) d[i] = i < pad ? "1" : e->sh.dims[i - pad];
  char *t = pj_tuple_text(d, rank);
  char *r = tt_xasprintf("reshape(%s, %s)", v, t);
  free(t);
  free(v);
  return r;
}

/* ---- arguments ------------------------------------------------------------------ */


void pj_args_collect(pj *p, TSNode arglist, pj_args *a) {
  memset(a, 0, sizeof *a);
  uint32_t n = ts_node_named_child_count(arglist);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(arglist, i);
    if (pj_is(c, "comment")) continue;
    if (pj_is(c, "keyword_argument")) {
      if (a->n_kw < 16) {
        a->kw_name[a->n_kw] = pj_text(p, ts_node_child_by_field_name(c, "name", 4));
        a->kw_val[a->n_kw++] = ts_node_child_by_field_name(c, "value", 5);
      }
    } else if (pj_is(c, "list_splat") || pj_is(c, "dictionary_splat")) {
      pj_flag_unsupported(p, c, "argument unpacking (`*args`, `**kwargs`) has no cuTile.jl mapping");
    } else if (a->n_pos < 16) {
      a->pos[a->n_pos++] = c;
    }
  }
}

void pj_args_free(pj_args *a) {
  for (int i = 0; i < a->n_kw; i++) free(a->kw_name[i]);
}

/* The argument called `name` in the entry's `positional` list, or keyword `name`. */
bool pj_arg_named(pj_args *a, struct fy_node *entry, const char *name, TSNode *out) {
  int i = tt_pj_node_list_index(entry, "positional", name);
  if (i >= 0 && i < a->n_pos) {
    *out = a->pos[i];
    return true;
  }
  for (int k = 0; k < a->n_kw; k++)
    if (!strcmp(a->kw_name[k], name)) {
      *out = a->kw_val[k];
      return true;
    }
  return false;
}

/* The argument at position `i` or keyword `name`. */
bool pj_arg_at(pj_args *a, int i, const char *name, TSNode *out) {
  if (i < a->n_pos) {
    *out = a->pos[i];
    return true;
  }
  for (int k = 0; k < a->n_kw && name; k++)
    if (!strcmp(a->kw_name[k], name)) {
      *out = a->kw_val[k];
      return true;
    }
  return false;
}

/* Elements of a Python tuple node (or the node itself when it is not a tuple). */
int pj_tuple_items(TSNode n, TSNode *items, int max) {
  while (pj_is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1) n = ts_node_named_child(n, 0);
  if (!pj_is(n, "tuple") && !pj_is(n, "list")) {
    items[0] = n;
    return 1;
  }
  int k = 0;
  uint32_t c = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < c && k < max; i++) {
    TSNode x = ts_node_named_child(n, i);
    if (!pj_is(x, "comment")) items[k++] = x;
  }
  return k;
}

bool pj_int_literal(pj *p, TSNode n, long *v) {
  bool neg = false;
  if (pj_is(n, "unary_operator")) {
    TSNode op = ts_node_child(n, 0);
    if (!pj_text_eq(p, op, "-")) return false;
    neg = true;
    n = ts_node_named_child(n, 0);
  }
  if (!pj_is(n, "integer")) return false;
  char *t = pj_text(p, n);
  char *end;
  long x = strtol(t, &end, 0);
  bool ok = *end == '\0';
  free(t);
  *v = neg ? -x : x;
  return ok;
}

/* A shape argument: the Python dims (as Julia value texts) into *s. */
bool pj_shape_arg(pj *p, TSNode n, pj_shape *s) {
  TSNode items[PJ_MAX_RANK];
  bool tuple = pj_is(n, "tuple") || pj_is(n, "parenthesized_expression");
  int k = pj_tuple_items(n, items, PJ_MAX_RANK);
  if (!tuple) return false;
  s->rank = k;
  for (int i = 0; i < k; i++) {
    pj_ex e = pj_expr(p, items[i]);
    s->dims[i] = pj_as_value(&e);
    pj_ex_free(&e);
  }
  return true;
}

/* An index argument (tile counts, 0-based in Python): the Julia tuple or scalar. */
char *pj_index_arg(pj *p, TSNode n, int *rank) {
  TSNode items[PJ_MAX_RANK];
  bool tuple = pj_is(n, "tuple");
  int k = pj_tuple_items(n, items, PJ_MAX_RANK);
  char *t[PJ_MAX_RANK];
  for (int i = 0; i < k; i++) {
    pj_ex e = pj_expr(p, items[i]);
    t[p->layout == TT_PJ_FLIPPED ? k - 1 - i : i] = pj_as_index(&e);
    pj_ex_free(&e);
  }
  *rank = k;
  char *r = tuple || k != 1 ? pj_tuple_text(t, k) : tt_xstrdup(t[0]);
  for (int i = 0; i < k; i++) free(t[i]);
  return r;
}

/* An `order` argument: a 0-based permutation of a rank-n tile -> cuTile.jl's. NULL
 * means "leave it out" (the identity). */
char *pj_order_arg(pj *p, TSNode n, int rank, bool *ok) {
  *ok = true;
  if (pj_is(n, "string")) {
    char *s = pj_text(p, n);
    bool c = strstr(s, "C") != NULL, f = strstr(s, "F") != NULL;
    free(s);
    if (!c && !f) return *ok = false, NULL;
    bool identity = c == (p->layout == TT_PJ_LOGICAL);
    if (identity || rank < 1) return NULL;
    char *d[PJ_MAX_RANK];
    char buf[PJ_MAX_RANK][16];
    for (int i = 0; i < rank; i++) snprintf(buf[i], sizeof buf[i], "%d", rank - i), d[i] = buf[i];
    return pj_tuple_text(d, rank);
  }
  TSNode items[PJ_MAX_RANK];
  int k = pj_tuple_items(n, items, PJ_MAX_RANK);
  long py[PJ_MAX_RANK];
  for (int i = 0; i < k; i++)
    if (!pj_int_literal(p, items[i], &py[i])) return *ok = false, NULL;
  char buf[PJ_MAX_RANK][24], *d[PJ_MAX_RANK];
  for (int i = 0; i < k; i++) {
    /* logical: jl[i] = py[i] + 1; flipped: jl[k-1-i] = k - py[i] (SEMANTICS.md §3) */
    int pos = p->layout == TT_PJ_FLIPPED ? k - 1 - i : i;
    long v = p->layout == TT_PJ_FLIPPED ? k - py[i] : py[i] + 1;
    snprintf(buf[pos], sizeof buf[pos], "%ld", v);
  }
  for (int i = 0; i < k; i++) d[i] = buf[i];
  return pj_tuple_text(d, k);
}

