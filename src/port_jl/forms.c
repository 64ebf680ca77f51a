/* forms.c — the API map's forms: how each kind of cuTile Python call becomes cuTile.jl
 * (load/store keywords, factories, matmuls, reductions, broadcasts, reshapes, gathers,
 * launches). The map names the form of each function; nothing here knows a name. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "port_jl/pj.h"

/* ---- forms ---------------------------------------------------------------------- */

/* The array argument's variable, to learn its rank from an index tuple. */
static void note_array_rank(pj *p, TSNode arr, int rank) {
  if (!pj_is(arr, "identifier")) return;
  char *name = pj_text(p, arr);
  pj_var *v = pj_var_get(p, name);
  if (!v) v = pj_var_put(p, name);
  v->is_array = true;
  if (rank > 0) v->array_rank = rank;
  free(name);
}

int pj_array_rank_of(pj *p, TSNode arr) {
  if (!pj_is(arr, "identifier")) return -1;
  char *name = pj_text(p, arr);
  pj_var *v = pj_var_get(p, name);
  free(name);
  return v && v->array_rank > 0 ? v->array_rank : -1;
}

/* form call / one_based: load, store, num_tiles, bid, ... */
static pj_ex form_call(pj *p, TSNode call, struct fy_node *entry, pj_args *a) {
  const char *jname = tt_pj_node_str(entry, "julia");
  bool semi = tt_pj_node_str(entry, "keywords_after_semicolon") &&
              !strcmp(tt_pj_node_str(entry, "keywords_after_semicolon"), "true");
  tt_buf pos = {0}, kw = {0}, extra = {0};
  char *slots[16] = {0};
  pj_shape shape = {.rank = -1};
  TSNode shape_node, arr_node;
  const char *arr_name = tt_pj_node_list_at(entry, "positional", 0);
  bool has_arr = arr_name && pj_arg_named(a, entry, arr_name, &arr_node);
  /* The shape first: it gives the rank that axes and orders need. */
  for (int i = 0; tt_pj_node_list_at(entry, "shape", i); i++)
    if (pj_arg_named(a, entry, tt_pj_node_list_at(entry, "shape", i), &shape_node)) pj_shape_arg(p, shape_node, &shape);
  int rank = shape.rank >= 0 ? shape.rank : has_arr ? pj_array_rank_of(p, arr_node) : -1;
  /* Every argument, in Python's order: positional ones by their names, then keywords. */
  int n_total = a->n_pos + a->n_kw;
  for (int i = 0; i < n_total; i++) {
    TSNode v;
    const char *name;
    if (i < a->n_pos) {
      v = a->pos[i];
      name = tt_pj_node_list_at(entry, "positional", i);
    } else {
      v = a->kw_val[i - a->n_pos];
      name = a->kw_name[i - a->n_pos];
    }
    char *t = NULL;
    bool as_kw = semi ? (name && (!arr_name || strcmp(name, arr_name))) : false;
    if (name && tt_pj_node_list_has(entry, "grid_axis", name)) { /* a grid axis: 1-based, never flipped */
      pj_ex e = pj_expr(p, v);
      t = pj_as_index(&e);
      pj_ex_free(&e);
    } else if (name && tt_pj_node_list_has(entry, "index", name)) {
      int r;
      t = pj_index_arg(p, v, &r);
      if (has_arr) note_array_rank(p, arr_node, r);
      if (rank < 0) rank = r;
    } else if (name && tt_pj_node_list_has(entry, "shape", name)) {
      t = shape.rank >= 0 ? pj_shape_tuple(p, &shape) : NULL;
      if (!t) t = pj_as_value(&(pj_ex){.text = pj_text(p, v)}), pj_unsupported(p, v, "a shape that is not a tuple");
    } else if (name && tt_pj_node_list_has(entry, "axis", name)) {
      long ax;
      if (!pj_int_literal(p, v, &ax)) {
        pj_flag_unsupported(p, v, "an array axis that is not an integer literal cannot be remapped");
        t = tt_xstrdup("?");
      } else {
        long j = pj_julia_axis(p, ax, rank);
        if (j < 0) pj_flag_unsupported(p, v, "the rank of this axis's array is unknown, so it cannot be flipped");
        t = tt_xasprintf("%ld", j);
      }
    } else if (name && tt_pj_node_list_has(entry, "order", name)) {
      bool ok;
      t = pj_order_arg(p, v, rank, &ok);
      if (!ok) pj_flag_unsupported(p, v, "an `order` that is not a literal permutation or \"C\"/\"F\"");
      if (!t) continue; /* the identity: left out */
    } else if (name && !semi && !tt_pj_node_list_has(entry, "positional", name) && i >= a->n_pos &&
               tt_pj_node_list_at(entry, "positional", 0)) {
      pj_flag_unsupported(p, v, "keyword `%s` of `%s` has no cuTile.jl mapping", name, jname);
      t = tt_xstrdup("?");
    } else {
      if (semi && name && !tt_pj_node_list_has(entry, "keywords", name) && (!arr_name || strcmp(name, arr_name)))
        pj_flag_unsupported(p, v, "keyword `%s` of `%s` has no cuTile.jl mapping", name, jname);
      pj_ex e = pj_expr(p, v);
      t = pj_as_value(&e);
      pj_ex_free(&e);
    }
    int slot = name && !as_kw ? tt_pj_node_list_index(entry, "positional", name) : -1;
    if (as_kw) tt_buf_printf(&kw, "%s%s=%s", kw.len ? ", " : "", name, t);
    else if (slot >= 0 && slot < 16 && !slots[slot]) slots[slot] = t, t = NULL;
    else tt_buf_printf(&extra, ", %s", t);
    free(t);
  }
  /* Positional arguments in the Julia signature's order, whatever order Python named them in. */
  for (int i = 0; i < 16; i++)
    if (slots[i]) tt_buf_printf(&pos, "%s%s", pos.len ? ", " : "", slots[i]), free(slots[i]);
  if (extra.len) tt_buf_puts(&pos, pos.len ? extra.data : extra.data + 2);
  tt_buf_free(&extra);
  char *text = tt_xasprintf("%s(%s%s%s)", jname, pos.len ? pos.data : "", kw.len ? "; " : "", kw.len ? kw.data : "");
  tt_buf_free(&pos);
  tt_buf_free(&kw);
  pj_ex e = pj_ex_new(text);
  e.atomic = true;
  const char *form = tt_pj_node_str(entry, "form");
  if (!strcmp(form, "one_based")) e.one_based = true, e.sh.rank = 0;
  if (tt_pj_node_list_at(entry, "shape", 0) && shape.rank >= 0 && !tt_pj_node_list_has(entry, "axis", "axis")) {
    e.sh = shape; /* a load's tile has the shape it asked for */
  } else {
    if (!tt_pj_node_list_at(entry, "index", 0) || tt_pj_node_list_has(entry, "axis", "axis")) {
      if (e.sh.rank < 0 && !tt_pj_node_list_at(entry, "index", 0)) e.sh.rank = 0; /* ids and counts */
    }
    pj_shape_free(&shape);
  }
  return e;
}

/* A fill value: float("inf") and friends by the fill's dtype, else `T(v)`. */
static char *fill_value(pj *p, TSNode v, const char *jt) {
  bool neg = false;
  TSNode x = v;
  if (pj_is(x, "unary_operator") && pj_text_eq(p, ts_node_child(x, 0), "-")) neg = true, x = ts_node_named_child(x, 0);
  if (pj_is(x, "call") && pj_text_eq(p, ts_node_child_by_field_name(x, "function", 8), "float")) {
    TSNode arg = ts_node_named_child(ts_node_child_by_field_name(x, "arguments", 9), 0);
    char *s = pj_text(p, arg);
    const char *kind = strstr(s, "nan") ? "nan" : strstr(s, "inf") ? "inf" : NULL;
    bool minus = strchr(s, '-') != NULL;
    free(s);
    struct fy_node *sp = tt_pj_map_entry(p->map, "float_specials", jt);
    const char *lit = kind ? tt_pj_node_str(sp, kind) : NULL;
    if (lit) return tt_xasprintf("%s%s", neg != minus ? "-" : "", lit);
  }
  pj_ex e = pj_expr(p, v);
  char *val = pj_as_value(&e);
  pj_ex_free(&e);
  char *r = tt_xasprintf("%s(%s)", jt, val);
  free(val);
  return r;
}

static pj_ex form_fill(pj *p, TSNode call, struct fy_node *entry, pj_args *a) {
  TSNode shape_n, val_n, dt_n;
  pj_shape s = {.rank = -1};
  if (!pj_arg_named(a, entry, "shape", &shape_n) || !pj_shape_arg(p, shape_n, &s))
    return pj_unsupported(p, call, "a tile factory whose shape is not a tuple");
  char *jt = pj_arg_named(a, entry, "dtype", &dt_n) ? pj_dtype(p, dt_n) : tt_xstrdup("Float32");
  const char *fixed = tt_pj_node_str(entry, "value");
  bool has_val = pj_arg_named(a, entry, "fill_value", &val_n);
  char *vt = has_val ? pj_text(p, val_n) : tt_xstrdup(fixed ? fixed : "0");
  char *d[PJ_MAX_RANK];
  pj_dims_julia(p, &s, d);
  tt_buf dims = {0};
  for (int i = 0; i < s.rank; i++) tt_buf_printf(&dims, ", %s", d[i]);
  char *text;
  if (!strcmp(vt, "0") || !strcmp(vt, "0.0")) text = tt_xasprintf("zeros(%s%s)", jt, dims.data ? dims.data : "");
  else if (!strcmp(vt, "1") || !strcmp(vt, "1.0")) text = tt_xasprintf("ones(%s%s)", jt, dims.data ? dims.data : "");
  else {
    char *fv = fill_value(p, val_n, jt);
    text = tt_xasprintf("fill(%s%s)", fv, dims.data ? dims.data : "");
    free(fv);
  }
  free(vt);
  free(jt);
  tt_buf_free(&dims);
  pj_ex e = pj_ex_new(text);
  e.atomic = true;
  e.sh = s;
  return e;
}

/* The shape of a @ b (Python order): the batch dims broadcast (a 1 takes the other
 * operand's), then a's rows and b's columns. */
static pj_shape matmul_shape(const pj_ex *a, const pj_ex *b) {
  pj_shape r = {.rank = -1};
  if (a->sh.rank < 2 || b->sh.rank < 2 || a->sh.rank != b->sh.rank) return r;
  r = pj_shape_copy(&a->sh);
  for (int i = 0; i < r.rank - 2; i++)
    if (!strcmp(r.dims[i], "1")) free(r.dims[i]), r.dims[i] = tt_xstrdup(b->sh.dims[i]);
  free(r.dims[r.rank - 1]);
  r.dims[r.rank - 1] = tt_xstrdup(b->sh.dims[b->sh.rank - 1]);
  return r;
}

/* Under logical, does any operand carry a leading batch dim other than 1? Then the
 * batch dims move behind the matrix dims for the product (cuTile.jl's batches trail)
 * and back after it; with batches of 1 only, they are reshaped away (the simpler
 * Julia a person writes). */
static bool leading_batch(const pj *p, pj_ex **xs, int n) {
  if (p->layout != TT_PJ_LOGICAL) return false;
  for (int k = 0; k < n; k++)
    for (int i = 0; xs[k] && i < xs[k]->sh.rank - 2; i++)
      if (strcmp(xs[k]->sh.dims[i], "1")) return true;
  return false;
}

/* permutedims(v, perm) for a rank-r tile whose r-2 leading batch dims go behind its
 * two matrix dims (to_trail) or come back in front of them (!to_trail). 1-based. */
static char *batch_permuted(const char *v, int r, bool to_trail) {
  char buf[PJ_MAX_RANK][16], *d[PJ_MAX_RANK];
  int nb = r - 2;
  for (int i = 0; i < r; i++) {
    int src = to_trail ? (i < 2 ? nb + i + 1 : i - 1) : (i < nb ? i + 3 : i - nb + 1);
    snprintf(buf[i], sizeof buf[i], "%d", src);
    d[i] = buf[i];
  }
  char *perm = pj_tuple_text(d, r);
  char *t = tt_xasprintf("permutedims(%s, %s)", v, perm);
  free(perm);
  return t;
}

/* Under logical, a leading batch dim of 1 is dropped around the matmul; with a batch
 * that is not 1 (`batched`), the operand's batch dims move to the back. Operands of
 * different ranks have no such form. */
static char *unbatched(pj *p, TSNode n, pj_ex *e, bool batched, int rank) {
  char *v = pj_as_value(e);
  if (p->layout != TT_PJ_LOGICAL || e->sh.rank <= 2) return v;
  if (batched) {
    if (e->sh.rank != rank) {
      pj_flag_unsupported(p, n, "a batched matmul whose operands differ in rank under --layout logical (give them the same batch dims, or use --layout flipped)");
      return v;
    }
    char *r = batch_permuted(v, rank, true);
    free(v);
    return r;
  }
  char *r = tt_xasprintf("reshape(%s, (%s, %s))", v, e->sh.dims[e->sh.rank - 2], e->sh.dims[e->sh.rank - 1]);
  free(v);
  return r;
}

/* The product back in Python's shape: batch dims in front again (`batched`), or the
 * dropped batch dims of 1 reshaped back. */
static pj_ex rebatch(pj *p, pj_ex e, bool batched) {
  if (p->layout != TT_PJ_LOGICAL || e.sh.rank <= 2) return e;
  char *r;
  if (batched) {
    r = batch_permuted(e.text, e.sh.rank, false);
  } else {
    char *t = pj_shape_tuple(p, &e.sh);
    r = tt_xasprintf("reshape(%s, %s)", e.text, t);
    free(t);
  }
  free(e.text);
  e.text = r;
  e.atomic = true;
  return e;
}

static int max_rank(pj_ex **xs, int n) {
  int r = 0;
  for (int i = 0; i < n; i++)
    if (xs[i] && xs[i]->sh.rank > r) r = xs[i]->sh.rank;
  return r;
}

pj_ex pj_form_mma(pj *p, TSNode call, const char *jname, pj_ex *a, pj_ex *b, pj_ex *acc) {
  pj_ex *ops[3] = {a, b, acc};
  bool batched = leading_batch(p, ops, 3);
  int rank = max_rank(ops, 3);
  char *ta = unbatched(p, call, a, batched, rank), *tb = unbatched(p, call, b, batched, rank);
  pj_ex e;
  if (acc) {
    char *tc = unbatched(p, call, acc, batched, rank);
    bool flip = p->layout == TT_PJ_FLIPPED;
    e = pj_ex_new(tt_xasprintf("%s(%s, %s, %s)", jname, flip ? tb : ta, flip ? ta : tb, tc));
    e.atomic = true;
    free(tc);
    e.sh = acc->sh.rank >= 0 ? pj_shape_copy(&acc->sh) : matmul_shape(a, b);
  } else {
    char *pa = pj_paren(&(pj_ex){.text = ta, .atomic = a->atomic || batched}),
         *pb = pj_paren(&(pj_ex){.text = tb, .atomic = b->atomic || batched});
    bool flip = p->layout == TT_PJ_FLIPPED;
    e = pj_ex_new(tt_xasprintf("%s * %s", flip ? pb : pa, flip ? pa : pb));
    free(pa);
    free(pb);
    e.sh = matmul_shape(a, b);
  }
  free(ta);
  free(tb);
  return rebatch(p, e, batched);
}

/* ct.mma_scaled(x, x_scale, y, y_scale, acc) -> muladd_scaled(x, x_scale, y, y_scale,
 * acc); flipped swaps the operands with their scales, as mma swaps a and b (a scale
 * tile has its operand's layout). The result has acc's shape. */
static pj_ex form_mma_scaled(pj *p, TSNode call, const char *jname, pj_args *a) {
  TSNode accn;
  if (a->n_pos < 4 || !pj_arg_at(a, 4, "acc", &accn)) return pj_unsupported(p, call, "mma_scaled without its five operands");
  pj_ex xs[5];
  char *t[5];
  for (int i = 0; i < 5; i++) xs[i] = pj_expr(p, i < 4 ? a->pos[i] : accn);
  pj_ex *ops[5] = {&xs[0], &xs[1], &xs[2], &xs[3], &xs[4]};
  bool batched = leading_batch(p, ops, 5);
  int rank = max_rank(ops, 5);
  for (int i = 0; i < 5; i++) t[i] = unbatched(p, call, &xs[i], batched, rank);
  bool flip = p->layout == TT_PJ_FLIPPED;
  pj_ex e = pj_ex_new(tt_xasprintf("%s(%s, %s, %s, %s, %s)", jname, t[flip ? 2 : 0], t[flip ? 3 : 1], t[flip ? 0 : 2],
                                   t[flip ? 1 : 3], t[4]));
  e.atomic = true;
  e.sh = pj_shape_copy(&xs[4].sh);
  for (int i = 0; i < 5; i++) free(t[i]), pj_ex_free(&xs[i]);
  return rebatch(p, e, batched);
}

static pj_ex form_reduce(pj *p, TSNode call, const char *jname, pj_args *a, bool scan) {
  TSNode xn, axn, kdn;
  if (!pj_arg_at(a, 0, "x", &xn)) return pj_unsupported(p, call, "a reduction without its tile");
  pj_ex x = pj_expr(p, xn);
  char *xv = pj_as_value(&x);
  bool keep = scan || (pj_arg_at(a, 2, "keepdims", &kdn) && pj_text_eq(p, kdn, "True"));
  pj_ex e;
  if (!pj_arg_at(a, 1, "axis", &axn) || pj_text_eq(p, axn, "None")) {
    e = pj_ex_scalar(tt_xasprintf("%s(%s; dims=:)", jname, xv));
    if (keep) pj_flag_unsupported(p, call, "a full reduction with keepdims=True");
  } else {
    TSNode items[PJ_MAX_RANK];
    int k = pj_tuple_items(axn, items, PJ_MAX_RANK);
    char buf[PJ_MAX_RANK][24], *d[PJ_MAX_RANK];
    bool drop[PJ_MAX_RANK] = {0};
    for (int i = 0; i < k; i++) {
      long ax, j = -1;
      if (!pj_int_literal(p, items[i], &ax)) pj_flag_unsupported(p, items[i], "a reduction axis that is not an integer literal");
      else if ((j = pj_julia_axis(p, ax, x.sh.rank)) < 0)
        pj_flag_unsupported(p, items[i], "the rank of the reduced tile is unknown, so its axis cannot be flipped");
      else if (x.sh.rank > 0 && ax + (ax < 0 ? x.sh.rank : 0) < PJ_MAX_RANK)
        drop[ax + (ax < 0 ? x.sh.rank : 0)] = true;
      snprintf(buf[i], sizeof buf[i], "%ld", j);
      d[i] = buf[i];
    }
    char *dims = k == 1 && !pj_is(axn, "tuple") ? tt_xstrdup(d[0]) : pj_tuple_text(d, k);
    char *r = tt_xasprintf("%s(%s; dims=%s)", jname, xv, dims);
    e = pj_ex_new(keep ? r : tt_xasprintf("dropdims(%s; dims=%s)", r, dims));
    if (!keep) free(r);
    free(dims);
    if (x.sh.rank >= 0) {
      e.sh.rank = 0;
      for (int i = 0; i < x.sh.rank; i++) {
        if (drop[i] && !keep) continue;
        e.sh.dims[e.sh.rank++] = tt_xstrdup(drop[i] && !scan ? "1" : x.sh.dims[i]);
      }
      e.sh.tile0 = e.sh.rank == 0; /* every axis dropped: a 0-d tile */
    }
  }
  e.atomic = true;
  free(xv);
  pj_ex_free(&x);
  return e;
}

/* Elementwise `f.(args...)` or an infix `a .op b`, with the logical layout's aligning. */
pj_ex pj_broadcast_of(pj *p, const char *jname, pj_ex *xs, int n) {
  pj_shape sh = {.rank = 0};
  for (int i = 0; i < n; i++) {
    pj_shape nsh = pj_broadcast_shape(&sh, &xs[i].sh);
    pj_shape_free(&sh);
    sh = nsh;
  }
  int rank = sh.rank;
  char *t[8];
  for (int i = 0; i < n && i < 8; i++) t[i] = pj_aligned_operand(p, &xs[i], rank);
  bool infix = n == 2 && strchr("+-*/^<>=!&|", jname[0]) != NULL;
  tt_buf b = {0};
  if (infix) {
    pj_ex l = {.text = t[0], .atomic = xs[0].atomic || strcmp(t[0], xs[0].text)};
    pj_ex r = {.text = t[1], .atomic = xs[1].atomic || strcmp(t[1], xs[1].text)};
    char *pl = pj_paren(&l), *pr = pj_paren(&r);
    tt_buf_printf(&b, "%s .%s %s", pl, jname, pr);
    free(pl);
    free(pr);
  } else {
    tt_buf_printf(&b, "%s.(", jname);
    for (int i = 0; i < n; i++) tt_buf_printf(&b, "%s%s", i ? ", " : "", t[i]);
    tt_buf_putc(&b, ')');
  }
  for (int i = 0; i < n && i < 8; i++) free(t[i]);
  pj_ex e = pj_ex_new(tt_buf_steal(&b));
  e.atomic = !infix;
  e.sh = sh;
  return e;
}

static pj_ex form_convert(pj *p, TSNode call, pj_ex *x, TSNode dtype) {
  char *jt = pj_dtype(p, dtype);
  char *xv = pj_as_value(x);
  pj_ex e = pj_ex_new(tt_xasprintf("convert(ct.Tile{%s}, %s)", jt, xv));
  e.atomic = true;
  e.sh = pj_shape_copy(&x->sh);
  free(jt);
  free(xv);
  return e;
}

/* x reshaped to Python shape s (taken). */
static pj_ex reshape_to(pj *p, TSNode call, const char *jname, pj_ex *x, pj_shape s) {
  for (int i = 0; i < s.rank; i++)
    if (!strcmp(s.dims[i], "-1")) return pj_shape_free(&s), pj_unsupported(p, call, "cuTile.jl's reshape takes no -1 dim");
  char *xv = pj_as_value(x);
  char *st = pj_shape_tuple(p, &s);
  /* Row-major and column-major reshapes agree when only 1s come and go. */
  bool same = true;
  if (p->layout == TT_PJ_LOGICAL) {
    if (x->sh.rank < 0) same = false;
    int i = 0, j = 0;
    while (same) {
      while (i < x->sh.rank && !strcmp(x->sh.dims[i], "1")) i++;
      while (j < s.rank && !strcmp(s.dims[j], "1")) j++;
      if (i == x->sh.rank || j == s.rank) {
        same = i == x->sh.rank && j == s.rank;
        break;
      }
      same = !strcmp(x->sh.dims[i++], s.dims[j++]);
    }
  }
  pj_ex e;
  if (same) {
    e = pj_ex_new(tt_xasprintf("%s(%s, %s)", jname, xv, st));
  } else if (x->sh.rank > 0) {
    /* Python's row-major reshape = reverse the dims, reshape column-major to the
     * reversed shape, reverse back. */
    char *rx[PJ_MAX_RANK], *rs[PJ_MAX_RANK], bx[PJ_MAX_RANK][16], bs[PJ_MAX_RANK][16];
    for (int i = 0; i < x->sh.rank; i++) snprintf(bx[i], 16, "%d", x->sh.rank - i), rx[i] = bx[i];
    for (int i = 0; i < s.rank; i++) snprintf(bs[i], 16, "%d", s.rank - i), rs[i] = bs[i];
    char *px = pj_tuple_text(rx, x->sh.rank), *ps = pj_tuple_text(rs, s.rank);
    char *rev[PJ_MAX_RANK];
    for (int i = 0; i < s.rank; i++) rev[i] = s.dims[s.rank - 1 - i];
    char *rst = pj_tuple_text(rev, s.rank);
    e = pj_ex_new(tt_xasprintf("permutedims(%s(permutedims(%s, %s), %s), %s)", jname, xv, px, rst, ps));
    free(px), free(ps), free(rst);
  } else {
    e = pj_unsupported(p, call, "a reshape of a tile of unknown shape under --layout logical (row-major and column-major reshapes differ)");
  }
  e.atomic = true;
  free(xv);
  free(st);
  pj_shape_free(&e.sh);
  e.sh = s;
  e.sh.tile0 = s.rank == 0; /* reshape(x, ()) is a 0-d tile, not a number */
  return e;
}

static pj_ex form_reshape(pj *p, TSNode call, const char *jname, pj_ex *x, pj_args *a, int first) {
  pj_shape s = {.rank = -1};
  if (a->n_pos == first + 1) {
    if (!pj_shape_arg(p, a->pos[first], &s)) return pj_unsupported(p, call, "a reshape whose shape is not a tuple");
  } else {
    s.rank = 0;
    for (int i = first; i < a->n_pos && s.rank < PJ_MAX_RANK; i++) {
      pj_ex d = pj_expr(p, a->pos[i]);
      s.dims[s.rank++] = pj_as_value(&d);
      pj_ex_free(&d);
    }
  }
  return reshape_to(p, call, jname, x, s);
}

/* x with a 1 inserted at Python axis `ax` (expand_dims, x[:, None]). */
pj_ex pj_insert_unit_dims(pj *p, TSNode call, const char *jname, pj_ex *x, const bool *unit, int rank) {
  if (x->sh.rank < 0) return pj_unsupported(p, call, "inserting a dim into a tile of unknown shape");
  pj_shape s = {.rank = 0};
  for (int i = 0, j = 0; i < rank && s.rank < PJ_MAX_RANK; i++)
    s.dims[s.rank++] = tt_xstrdup(unit[i] ? "1" : j < x->sh.rank ? x->sh.dims[j++] : "?");
  return reshape_to(p, call, jname, x, s);
}

static pj_ex form_expand_dims(pj *p, TSNode call, const char *jname, pj_ex *x, pj_args *a) {
  TSNode axn;
  long ax;
  if (!pj_arg_at(a, 1, "axis", &axn) || !pj_int_literal(p, axn, &ax) || x->sh.rank < 0)
    return pj_unsupported(p, call, "expand_dims needs a literal axis and a tile of known shape");
  int rank = x->sh.rank + 1;
  if (ax < 0) ax += rank;
  bool unit[PJ_MAX_RANK] = {0};
  if (ax < 0 || ax >= rank || rank > PJ_MAX_RANK) return pj_unsupported(p, call, "expand_dims axis out of range");
  unit[ax] = true;
  return pj_insert_unit_dims(p, call, jname, x, unit, rank);
}

static pj_ex form_arange(pj *p, TSNode call, struct fy_node *entry, pj_args *a) {
  TSNode n, dt;
  if (!pj_arg_at(a, 0, "size", &n)) return pj_unsupported(p, call, "arange without a size");
  pj_ex e = pj_expr(p, n);
  char *v = pj_as_value(&e);
  char *jt = pj_arg_at(a, 1, "dtype", &dt) ? pj_dtype(p, dt) : NULL;
  /* Python's arange starts at 0, cuTile.jl's at 1: start=0 keeps Python's values. */
  pj_ex r = pj_ex_new(tt_xasprintf("%s((%s,); %s%s%s%s=0)", tt_pj_node_str(entry, "julia"), v, jt ? "dtype=" : "",
                                jt ? jt : "", jt ? ", " : "", tt_pj_node_str(entry, "start_keyword")));
  r.atomic = true;
  r.sh.rank = 1;
  r.sh.dims[0] = v;
  free(jt);
  pj_ex_free(&e);
  return r;
}

static pj_ex form_permute(pj *p, TSNode call, const char *jname, pj_ex *x, TSNode perm) {
  bool ok;
  int rank = x->sh.rank;
  TSNode items[PJ_MAX_RANK];
  int k = pj_tuple_items(perm, items, PJ_MAX_RANK);
  char *t = pj_order_arg(p, perm, k, &ok);
  if (!ok || !t) return pj_unsupported(p, call, "a permutation that is not a literal tuple");
  char *xv = pj_as_value(x);
  pj_ex e = pj_ex_new(tt_xasprintf("%s(%s, %s)", jname, xv, t));
  e.atomic = true;
  if (rank == k) {
    e.sh.rank = k;
    for (int i = 0; i < k; i++) {
      long v;
      pj_int_literal(p, items[i], &v);
      e.sh.dims[i] = tt_xstrdup(v >= 0 && v < rank ? x->sh.dims[v] : "?");
    }
  }
  free(xv);
  free(t);
  return e;
}

static pj_ex form_launch(pj *p, TSNode call, const char *jname, pj_args *a) {
  if (a->n_pos != 4) return pj_unsupported(p, call, "a ct.launch that is not (stream, grid, kernel, args)");
  pj_ex grid = pj_expr(p, a->pos[1]);
  char *kname = pj_text(p, a->pos[2]);
  const pj_kernel *k = NULL;
  for (size_t i = 0; i < p->n_kernels; i++)
    if (!strcmp(p->kernels[i].name, kname)) k = &p->kernels[i];
  TSNode items[16];
  int n = pj_tuple_items(a->pos[3], items, 16);
  tt_buf b = {0};
  tt_buf_printf(&b, "%s(%s, %s", jname, kname, grid.text);
  const char *wrap = tt_pj_map_top(p->map, "launch_constant");
  if (!k) pj_finding(p, a->pos[2], "warning", "kernel `%s` is not defined in this file: its ct.Constant parameters cannot be wrapped in %s", kname, wrap);
  for (int i = 0; i < n; i++) {
    pj_ex e = pj_expr(p, items[i]);
    char *v = pj_as_value(&e);
    bool c = k && (size_t)i < k->n_params && k->is_const[i];
    if (c) tt_buf_printf(&b, ", %s(%s)", wrap, v);
    else tt_buf_printf(&b, ", %s", v);
    free(v);
    pj_ex_free(&e);
  }
  if (k && (size_t)n != k->n_params) pj_finding(p, call, "warning", "ct.launch passes %d arguments to `%s`, which takes %zu", n, kname, k->n_params);
  tt_buf_putc(&b, ')');
  free(kname);
  pj_ex_free(&grid);
  pj_ex e = pj_ex_new(tt_buf_steal(&b));
  e.atomic = true;
  return e;
}

static pj_ex form_gather(pj *p, TSNode call, const char *jname, pj_args *a) {
  if (a->n_pos < 2) return pj_unsupported(p, call, "a gather/scatter without array and indices");
  pj_ex arr = pj_expr(p, a->pos[0]);
  TSNode items[PJ_MAX_RANK];
  bool tuple = pj_is(a->pos[1], "tuple");
  int k = pj_tuple_items(a->pos[1], items, PJ_MAX_RANK);
  char *t[PJ_MAX_RANK];
  pj_shape sh = {.rank = -1};
  const char *scalar_tile = tt_pj_map_top(p->map, "scalar_tile");
  sh.rank = 0;
  for (int i = 0; i < k; i++) {
    pj_ex e = pj_expr(p, items[i]);
    /* Element ids count from 1. cuTile.jl's gather takes a tile per axis: a scalar
     * index among tiles becomes a 0-d tile. */
    char *v;
    if (e.sh.rank == 0) {
      char *ix = pj_as_index(&e);
      v = k > 1 ? tt_xasprintf("%s(%s)", scalar_tile, ix) : tt_xstrdup(ix);
      free(ix);
    } else {
      char *pe = pj_paren(&e);
      v = tt_xasprintf("%s .+ 1", pe);
      free(pe);
    }
    t[p->layout == TT_PJ_FLIPPED ? k - 1 - i : i] = v;
    pj_shape nsh = pj_broadcast_shape(&sh, &e.sh);
    pj_shape_free(&sh);
    sh = nsh;
    pj_ex_free(&e);
  }
  tt_buf b = {0};
  tt_buf_printf(&b, "%s(%s, ", jname, arr.text);
  if (tuple) {
    char *tt = pj_tuple_text(t, k);
    tt_buf_puts(&b, tt);
    free(tt);
  } else {
    tt_buf_puts(&b, t[0]);
  }
  for (int i = 2; i < a->n_pos; i++) { /* scatter's tile, an atomic's values: Python's values */
    pj_ex e = pj_expr(p, a->pos[i]);
    char *v = pj_as_value(&e);
    tt_buf_printf(&b, ", %s", v);
    free(v);
    pj_ex_free(&e);
  }
  for (int i = 0; i < a->n_kw; i++) {
    pj_ex e = pj_expr(p, a->kw_val[i]);
    tt_buf_printf(&b, "%s%s=%s", i ? ", " : "; ", a->kw_name[i], e.text);
    pj_ex_free(&e);
  }
  tt_buf_putc(&b, ')');
  for (int i = 0; i < k; i++) free(t[i]);
  pj_ex_free(&arr);
  pj_ex e = pj_ex_new(tt_buf_steal(&b));
  e.atomic = true;
  e.sh = sh;
  return e;
}

/* ct.cat((a, b), axis) -> cat(a, b; dims=d) */
static pj_ex form_cat(pj *p, TSNode call, const char *jname, pj_args *a) {
  TSNode items[8], axn;
  long ax;
  if (a->n_pos < 1 || !pj_arg_at(a, 1, "axis", &axn) || !pj_int_literal(p, axn, &ax))
    return pj_unsupported(p, call, "cat needs a tuple of tiles and a literal axis");
  int k = pj_tuple_items(a->pos[0], items, 8);
  pj_ex xs[8];
  for (int i = 0; i < k; i++) xs[i] = pj_expr(p, items[i]);
  int rank = xs[0].sh.rank;
  long j = pj_julia_axis(p, ax, rank);
  pj_ex e;
  if (j < 0) {
    e = pj_unsupported(p, call, "the rank of the concatenated tiles is unknown, so the axis cannot be flipped");
  } else {
    tt_buf b = {0};
    tt_buf_printf(&b, "%s(", jname);
    for (int i = 0; i < k; i++) tt_buf_printf(&b, "%s%s", i ? ", " : "", xs[i].text);
    tt_buf_printf(&b, "; dims=%ld)", j);
    e = pj_ex_new(tt_buf_steal(&b));
    e.atomic = true;
    if (rank > 0) {
      long pa = ax < 0 ? ax + rank : ax;
      e.sh = pj_shape_copy(&xs[0].sh);
      tt_buf d = {0};
      for (int i = 0; i < k; i++) tt_buf_printf(&d, "%s%s", i ? " + " : "", xs[i].sh.rank == rank ? xs[i].sh.dims[pa] : "?");
      free(e.sh.dims[pa]);
      e.sh.dims[pa] = tt_buf_steal(&d);
    }
  }
  for (int i = 0; i < k; i++) pj_ex_free(&xs[i]);
  return e;
}

/* A call of the API map's `name`, with `self` as the receiver of a method call. */
pj_ex pj_api_call(pj *p, TSNode call, const char *name, TSNode *self) {
  struct fy_node *entry = tt_pj_map_entry(p->map, "functions", name);
  const char *form = tt_pj_node_str(entry, "form");
  if (!form) return pj_unsupported(p, call, "`ct.%s` has no cuTile.jl mapping", name);
  const char *jname = tt_pj_node_str(entry, "julia");
  pj_args a;
  pj_args_collect(p, ts_node_child_by_field_name(call, "arguments", 9), &a);
  if (self) { /* x.m(args) is ct.m(x, args) */
    memmove(&a.pos[1], &a.pos[0], sizeof a.pos[0] * (a.n_pos < 15 ? a.n_pos : 15));
    a.pos[0] = *self;
    if (a.n_pos < 16) a.n_pos++;
  }
  pj_ex e;
  if (!strcmp(form, "call") || !strcmp(form, "one_based")) {
    e = form_call(p, call, entry, &a);
  } else if (!strcmp(form, "fill")) {
    e = form_fill(p, call, entry, &a);
  } else if (!strcmp(form, "mma") || !strcmp(form, "matmul")) {
    TSNode accn;
    if (a.n_pos < 2) {
      e = pj_unsupported(p, call, "a matmul without two operands");
    } else {
      pj_ex x = pj_expr(p, a.pos[0]), y = pj_expr(p, a.pos[1]);
      bool has_acc = !strcmp(form, "mma") && pj_arg_at(&a, 2, "acc", &accn);
      pj_ex acc = has_acc ? pj_expr(p, accn) : pj_ex_new(NULL);
      e = pj_form_mma(p, call, jname, &x, &y, has_acc ? &acc : NULL);
      pj_ex_free(&x), pj_ex_free(&y), pj_ex_free(&acc);
    }
  } else if (!strcmp(form, "mma_scaled")) {
    e = form_mma_scaled(p, call, jname, &a);
  } else if (!strcmp(form, "reduce") || !strcmp(form, "scan")) {
    e = form_reduce(p, call, jname, &a, !strcmp(form, "scan"));
  } else if (!strcmp(form, "cat")) {
    e = form_cat(p, call, jname, &a);
  } else if (!strcmp(form, "arange")) {
    e = form_arange(p, call, entry, &a);
  } else if (!strcmp(form, "expand_dims")) {
    if (a.n_pos < 1) {
      e = pj_unsupported(p, call, "expand_dims without its tile");
    } else {
      pj_ex x = pj_expr(p, a.pos[0]);
      e = form_expand_dims(p, call, jname, &x, &a);
      pj_ex_free(&x);
    }
  } else if (!strcmp(form, "broadcast") || !strcmp(form, "where")) {
    pj_ex xs[8];
    int n = a.n_pos < 8 ? a.n_pos : 8;
    for (int i = 0; i < n; i++) xs[i] = pj_expr(p, a.pos[i]);
    for (int i = 0; i < a.n_kw; i++) {
      struct fy_node *root = fy_document_root(fy_node_document(tt_pj_map_section(p->map, "module")));
      if (tt_pj_node_list_has(root, "dropped_keywords", a.kw_name[i]))
        pj_finding(p, a.kw_val[i], "warning", "`%s=` of `ct.%s` has no cuTile.jl form; dropped (a GPU precision hint)", a.kw_name[i], name);
      else
        pj_flag_unsupported(p, call, "keyword `%s` of elementwise `ct.%s`", a.kw_name[i], name);
    }
    e = pj_broadcast_of(p, jname, xs, n);
    for (int i = 0; i < n; i++) pj_ex_free(&xs[i]);
  } else if (!strcmp(form, "convert")) {
    TSNode dt;
    if (a.n_pos < 1 || !pj_arg_at(&a, 1, "dtype", &dt)) {
      e = pj_unsupported(p, call, "astype without a dtype");
    } else {
      pj_ex x = pj_expr(p, a.pos[0]);
      e = form_convert(p, call, &x, dt);
      pj_ex_free(&x);
    }
  } else if (!strcmp(form, "reshape") || !strcmp(form, "permute") || !strcmp(form, "transpose")) {
    if (a.n_pos < 1) {
      e = pj_unsupported(p, call, "`%s` without its tile", name);
    } else {
      pj_ex x = pj_expr(p, a.pos[0]);
      if (!strcmp(form, "reshape")) {
        e = form_reshape(p, call, jname, &x, &a, 1);
      } else if (!strcmp(form, "permute") && a.n_pos == 2) {
        e = form_permute(p, call, jname, &x, a.pos[1]);
      } else if (!strcmp(form, "transpose") && a.n_pos == 1 && x.sh.rank != 1 && x.sh.rank <= 2) {
        char *xv = pj_as_value(&x);
        e = pj_ex_new(tt_xasprintf("%s(%s)", jname, xv));
        e.atomic = true;
        free(xv);
        if (x.sh.rank == 2) {
          e.sh.rank = 2;
          e.sh.dims[0] = tt_xstrdup(x.sh.dims[1]);
          e.sh.dims[1] = tt_xstrdup(x.sh.dims[0]);
        }
      } else {
        e = pj_unsupported(p, call, "`%s` with these arguments has no cuTile.jl mapping (transpose is 2-D)", name);
      }
      pj_ex_free(&x);
    }
  } else if (!strcmp(form, "gather")) {
    e = form_gather(p, call, jname, &a);
  } else if (!strcmp(form, "launch")) {
    e = form_launch(p, call, jname, &a);
  } else {
    e = pj_unsupported(p, call, "form `%s` of `%s` is unknown to this translator", form, name);
  }
  pj_args_free(&a);
  return e;
}

