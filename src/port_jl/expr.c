/* expr.c — cuTile Python expressions -> cuTile.jl expressions, with shape inference.
 *
 * Every expression comes back with its Julia text and what the translator knows about
 * it: its tile shape (in Python order; the layout is applied where shapes, indices and
 * axes are written), and whether it is a 1-based id. Python's ids are 0-based; a
 * translated `ct.bid` and a `range(n)` loop variable are 1-based, so an id used as an
 * index is written as is, and used as a number is written `(id - 1)`: both keep
 * Python's values. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "port_jl/pj.h"

/* ---- expressions ---------------------------------------------------------------- */

static const char *alias(const pj *p) { return tt_pj_map_str(p->map, "module", "alias"); }

/* `ct.name` -> name, else NULL (borrowed from a static buffer of the caller). */
static bool ct_attr(pj *p, TSNode n, char *name, size_t cap) {
  if (!pj_is(n, "attribute")) return false;
  TSNode obj = ts_node_child_by_field_name(n, "object", 6);
  if (!pj_is(obj, "identifier") || !pj_text_eq(p, obj, alias(p))) return false;
  char *s = pj_text(p, ts_node_child_by_field_name(n, "attribute", 9));
  snprintf(name, cap, "%s", s);
  free(s);
  return true;
}

/* A Python float literal in device code is weakly typed: Float32 in Julia. */
static char *float_literal(pj *p, const char *t) {
  if (!p->device) return tt_xstrdup(t);
  double v = strtod(t, NULL);
  char buf[64];
  snprintf(buf, sizeof buf, "%.9g", v);
  char *e = strchr(buf, 'e');
  if (e) {
    *e = '\0';
    return tt_xasprintf("%s%sf%s", buf, strchr(buf, '.') ? "" : ".0", e + 1);
  }
  return tt_xasprintf("%s%sf0", buf, strchr(buf, '.') ? "" : ".0");
}

/* True when `name` is one of the map's host modules (torch, numpy, ...). */
static bool host_module(pj *p, TSNode n) {
  if (!pj_is(n, "identifier")) return false;
  char *s = pj_text(p, n);
  bool h = tt_pj_node_list_has(fy_document_root(fy_node_document(tt_pj_map_section(p->map, "module"))), "host_modules", s);
  free(s);
  return h;
}

char *pj_dtype(pj *p, TSNode n) {
  char name[128];
  if (pj_is(n, "attribute") && host_module(p, ts_node_child_by_field_name(n, "object", 6))) {
    /* np.int32, torch.float16: the same dtype names. */
    char *a = pj_text(p, ts_node_child_by_field_name(n, "attribute", 9));
    const char *j = tt_pj_map_str(p->map, "dtypes", a);
    if (!j) pj_flag_unsupported(p, n, "dtype `%s` has no cuTile.jl mapping", a);
    free(a);
    return tt_xstrdup(j ? j : "?");
  }
  if (ct_attr(p, n, name, sizeof name)) {
    const char *j = tt_pj_map_str(p->map, "dtypes", name);
    if (j) return tt_xstrdup(j);
    pj_flag_unsupported(p, n, "dtype `ct.%s` has no cuTile.jl mapping", name);
    return tt_xstrdup("?");
  }
  pj_ex e = pj_expr(p, n);
  return e.text;
}

char *pj_annotation(pj *p, TSNode type, bool *is_const) {
  *is_const = false;
  TSNode t = type;
  if (pj_is(t, "type") && ts_node_named_child_count(t) == 1) t = ts_node_named_child(t, 0);
  char *text = pj_text(p, t);
  char *r = NULL;
  const char *ctype = tt_pj_map_top(p->map, "constant_type");
  if (pj_is(t, "identifier") && pj_is_const_alias(p, text)) {
    *is_const = true;
    r = tt_xstrdup("Int");
  } else if (pj_is(t, "identifier") && tt_pj_map_str(p->map, "scalar_types", text)) {
    r = tt_xstrdup(tt_pj_map_str(p->map, "scalar_types", text));
  } else if ((pj_is(t, "subscript") || pj_is(t, "generic_type")) && ctype && strstr(text, ctype)) {
    *is_const = true;
    char *open = strchr(text, '['), *close = strrchr(text, ']');
    if (open && close && close > open) {
      char *inner = tt_xstrndup(open + 1, (size_t)(close - open - 1));
      const char *s = tt_pj_map_str(p->map, "scalar_types", inner);
      r = s ? tt_xstrdup(s) : NULL;
      free(inner);
    }
  }
  free(text);
  return r;
}

/* `math.log` and friends: the Base name, or NULL. */
static const char *math_name(pj *p, TSNode attr) {
  struct fy_node *m = tt_pj_map_section(p->map, "math");
  TSNode obj = ts_node_child_by_field_name(attr, "object", 6);
  if (!m || !pj_is(obj, "identifier")) return NULL;
  char *o = pj_text(p, obj);
  bool ok = tt_pj_node_list_has(m, "modules", o);
  free(o);
  if (!ok) return NULL;
  char *a = pj_text(p, ts_node_child_by_field_name(attr, "attribute", 9));
  struct fy_node *names = fy_node_mapping_lookup_by_string(m, "names", FY_NT);
  const char *j = tt_pj_node_str(names, a);
  free(a);
  return j;
}

static pj_ex attribute(pj *p, TSNode n) {
  char name[128];
  const char *mj = math_name(p, n);
  if (mj) {
    /* Float constants in device code are Float32, like the literals. */
    const char *f32 = !p->device ? NULL : !strcmp(mj, "Inf") ? "Inf32" : !strcmp(mj, "NaN") ? "NaN32" : NULL;
    pj_ex e = pj_ex_scalar(tt_xstrdup(f32 ? f32 : mj));
    e.atomic = true;
    return e;
  }
  TSNode obj = ts_node_child_by_field_name(n, "object", 6);
  char *attr = pj_text(p, ts_node_child_by_field_name(n, "attribute", 9));
  pj_ex e;
  if (ct_attr(p, n, name, sizeof name)) {
    const char *dt = tt_pj_map_str(p->map, "dtypes", name);
    e = dt ? pj_ex_new(tt_xstrdup(dt)) : pj_unsupported(p, n, "`ct.%s` has no cuTile.jl mapping", name);
  } else if (ct_attr(p, obj, name, sizeof name) && tt_pj_map_entry(p->map, "enums", name)) {
    /* ct.PaddingMode.ZERO, ct.MemoryScope.DEVICE: the map's enums name the Julia enum
     * and the section of its members. */
    struct fy_node *en = tt_pj_map_entry(p->map, "enums", name);
    const char *jenum = tt_pj_node_str(en, "julia"), *members = tt_pj_node_str(en, "members");
    const char *m = members ? tt_pj_map_str(p->map, members, attr) : NULL;
    e = jenum && m ? pj_ex_new(tt_xasprintf("%s.%s.%s", alias(p), jenum, m))
                   : pj_unsupported(p, n, "`ct.%s.%s` has no cuTile.jl mapping", name, attr);
  } else if (tt_pj_map_str(p->map, "attributes", attr) && !ct_attr(p, obj, name, sizeof name)) {
    pj_ex o = pj_expr(p, obj);
    e = pj_ex_new(tt_xasprintf("%s(%s)", tt_pj_map_str(p->map, "attributes", attr), o.text));
    pj_ex_free(&o);
  } else {
    e = pj_unsupported(p, n, "attribute `.%s` has no cuTile.jl mapping", attr);
  }
  free(attr);
  e.atomic = true;
  if (e.sh.rank < 0 && !p->unsupported) e.sh.rank = 0; /* dtypes, enum members, eltype/size */
  return e;
}

/* `A.shape[i]` -> size(A, i') (the array's rank decides i' under flipped). */
static pj_ex subscript(pj *p, TSNode n) {
  TSNode val = ts_node_child_by_field_name(n, "value", 5), sub = ts_node_child_by_field_name(n, "subscript", 9);
  long i;
  if (pj_is(val, "attribute") && pj_int_literal(p, sub, &i)) {
    char *attr = pj_text(p, ts_node_child_by_field_name(val, "attribute", 9));
    const char *m = tt_pj_map_str(p->map, "attributes", attr);
    bool is_shape = m && !strcmp(attr, "shape");
    free(attr);
    if (is_shape) {
      TSNode arr = ts_node_child_by_field_name(val, "object", 6);
      long j = pj_julia_axis(p, i, pj_array_rank_of(p, arr));
      if (j < 0) return pj_unsupported(p, n, "the array's rank is unknown, so its shape index cannot be flipped");
      char *a = pj_text(p, arr);
      pj_ex e = pj_ex_scalar(tt_xasprintf("%s(%s, %ld)", m, a, j));
      e.atomic = true;
      free(a);
      return e;
    }
  }
  /* x[:, None]: NumPy's dim insertion, a reshape with 1s. */
  int k = 0;
  uint32_t c = ts_node_named_child_count(n);
  bool unit[PJ_MAX_RANK] = {0}, only = c > 1;
  for (uint32_t q = 1; q < c && k < PJ_MAX_RANK; q++) {
    TSNode x = ts_node_named_child(n, q);
    if (pj_is(x, "comment")) continue;
    if (pj_is(x, "none")) unit[k] = true;
    else if (!pj_is(x, "slice") || ts_node_named_child_count(x) != 0) only = false;
    k++;
  }
  if (only && k > 0) {
    pj_ex x = pj_expr(p, val);
    int slices = 0;
    for (int q = 0; q < k; q++) slices += !unit[q];
    const char *rs = tt_pj_node_str(tt_pj_map_entry(p->map, "functions", "reshape"), "julia");
    pj_ex e = x.sh.rank == slices ? pj_insert_unit_dims(p, n, rs, &x, unit, k)
                                  : pj_unsupported(p, n, "dim insertion x[..., None] on a tile of unknown shape");
    pj_ex_free(&x);
    return e;
  }
  return pj_unsupported(p, n, "subscripts of tiles or arrays have no cuTile.jl mapping here");
}

static pj_ex binary(pj *p, TSNode n, TSNode l, TSNode r, const char *op) {
  if (!strcmp(op, "@")) {
    pj_ex a = pj_expr(p, l), b = pj_expr(p, r);
    pj_ex e = pj_form_mma(p, n, "", &a, &b, NULL);
    pj_ex_free(&a), pj_ex_free(&b);
    return e;
  }
  pj_ex xs[2] = {pj_expr(p, l), pj_expr(p, r)};
  bool scalar = (pj_shape_is_number(&xs[0].sh) && pj_shape_is_number(&xs[1].sh)) || !strcmp(op, "and") || !strcmp(op, "or");
  pj_ex e;
  if (scalar) {
    const char *jop = tt_pj_map_str(p->map, "scalar_operators", op);
    if (!jop) jop = op;
    char *a = pj_as_value(&xs[0]), *b = pj_as_value(&xs[1]);
    /* pj_as_value parenthesizes an id's `- 1` itself. */
    pj_ex pa = {.text = a, .atomic = xs[0].atomic}, pb = {.text = b, .atomic = xs[1].atomic};
    char *ta = pj_paren(&pa), *tb = pj_paren(&pb);
    if (isalpha((unsigned char)jop[0])) e = pj_ex_scalar(tt_xasprintf("%s(%s, %s)", jop, a, b)), e.atomic = true;
    else e = pj_ex_scalar(tt_xasprintf("%s %s %s", ta, jop, tb));
    free(a), free(b), free(ta), free(tb);
  } else {
    const char *jop = tt_pj_map_str(p->map, "operators", op);
    if (!jop) {
      e = pj_unsupported(p, n, "operator `%s` between tiles has no cuTile.jl mapping", op);
    } else if (jop[0] == '.') {
      e = pj_broadcast_of(p, jop + 1, xs, 2);
    } else {
      e = pj_broadcast_of(p, jop, xs, 2); /* a function name: fld.(a, b) */
    }
  }
  pj_ex_free(&xs[0]), pj_ex_free(&xs[1]);
  return e;
}

/* A call of a bare name: a helper function of this file, or a Python builtin. The map's
 * `builtins` (max, min, abs) are elementwise on tiles in cuTile Python
 * (`max(m_i, ct.max(qk, axis=-1) * scale)` in flash attention): with an argument known
 * to be a tile the call takes the entry's form (`max.(...)`; Julia's bare `max` of two
 * tiles is not elementwise); with numbers only it stays as written and is a number.
 * Any other name (a helper, `int`) is kept by name, its result's shape unknown. */
static pj_ex named_call(pj *p, TSNode n, const char *f) {
  struct fy_node *bi = pj_var_get(p, f) ? NULL : tt_pj_map_entry(p->map, "builtins", f);
  const char *bform = tt_pj_node_str(bi, "form"), *bname = tt_pj_node_str(bi, "julia");
  pj_args a;
  pj_args_collect(p, ts_node_child_by_field_name(n, "arguments", 9), &a);
  int k = a.n_pos < 8 ? a.n_pos : 8;
  pj_ex xs[8];
  bool tile = false, numbers = k > 0 && a.n_pos <= 8;
  for (int i = 0; i < k; i++) {
    xs[i] = pj_expr(p, a.pos[i]);
    tile |= xs[i].sh.rank > 0 || xs[i].sh.tile0;
    numbers &= pj_shape_is_number(&xs[i].sh);
  }
  pj_ex e;
  if (bi && bform && bname && !strcmp(bform, "broadcast") && tile && a.n_kw == 0 && a.n_pos <= 8) {
    e = pj_broadcast_of(p, bname, xs, k);
  } else {
    tt_buf b = {0};
    tt_buf_printf(&b, "%s(", f);
    for (int i = 0; i < a.n_pos; i++) {
      pj_ex x = i < k ? xs[i] : pj_expr(p, a.pos[i]);
      char *v = pj_as_value(&x);
      tt_buf_printf(&b, "%s%s", i ? ", " : "", v);
      free(v);
      if (i >= k) pj_ex_free(&x);
    }
    for (int i = 0; i < a.n_kw; i++) {
      pj_ex x = pj_expr(p, a.kw_val[i]);
      tt_buf_printf(&b, "%s%s=%s", i ? ", " : "; ", a.kw_name[i], x.text);
      pj_ex_free(&x);
    }
    tt_buf_putc(&b, ')');
    e = bi && numbers && a.n_kw == 0 ? pj_ex_scalar(tt_buf_steal(&b)) : pj_ex_new(tt_buf_steal(&b));
    e.atomic = true;
  }
  for (int i = 0; i < k; i++) pj_ex_free(&xs[i]);
  pj_args_free(&a);
  return e;
}

static pj_ex call_expr(pj *p, TSNode n) {
  TSNode fn = ts_node_child_by_field_name(n, "function", 8);
  char name[128];
  if (ct_attr(p, fn, name, sizeof name)) return pj_api_call(p, n, name, NULL);
  if (pj_is(fn, "attribute") && math_name(p, fn)) {
    pj_args a;
    pj_args_collect(p, ts_node_child_by_field_name(n, "arguments", 9), &a);
    pj_ex xs[8];
    int k = a.n_pos < 8 ? a.n_pos : 8;
    for (int i = 0; i < k; i++) xs[i] = pj_expr(p, a.pos[i]);
    bool tile = false;
    for (int i = 0; i < k; i++) tile |= !pj_shape_is_number(&xs[i].sh);
    pj_ex e;
    if (tile) {
      e = pj_broadcast_of(p, math_name(p, fn), xs, k);
    } else {
      tt_buf b = {0};
      tt_buf_printf(&b, "%s(", math_name(p, fn));
      for (int i = 0; i < k; i++) {
        char *v = pj_as_value(&xs[i]);
        tt_buf_printf(&b, "%s%s", i ? ", " : "", v);
        free(v);
      }
      tt_buf_putc(&b, ')');
      e = pj_ex_scalar(tt_buf_steal(&b));
      e.atomic = true;
    }
    for (int i = 0; i < k; i++) pj_ex_free(&xs[i]);
    pj_args_free(&a);
    return e;
  }
  if (pj_is(fn, "attribute")) {
    TSNode obj = ts_node_child_by_field_name(fn, "object", 6);
    char *m = pj_text(p, ts_node_child_by_field_name(fn, "attribute", 9));
    const char *fname = tt_pj_map_str(p->map, "methods", m);
    bool host = host_module(p, pj_is(obj, "attribute") ? ts_node_child_by_field_name(obj, "object", 6) : obj);
    pj_ex e = fname && !host ? pj_api_call(p, n, fname, &obj) : pj_unsupported(p, n, "`%s` has no cuTile.jl mapping", m);
    free(m);
    return e;
  }
  if (pj_is(fn, "identifier")) {
    char *f = pj_text(p, fn);
    pj_ex e;
    if (!strcmp(f, "float")) {
      TSNode arg = ts_node_named_child(ts_node_child_by_field_name(n, "arguments", 9), 0);
      char *s = pj_text(p, arg);
      bool inf = strstr(s, "inf") != NULL, nan = strstr(s, "nan") != NULL;
      e = inf || nan ? pj_ex_scalar(tt_xasprintf("%s%s", strchr(s, '-') ? "-" : "", p->device ? (inf ? "Inf32" : "NaN32") : (inf ? "Inf" : "NaN")))
                     : pj_unsupported(p, n, "float(...) of a non-literal");
      free(s);
    } else {
      e = named_call(p, n, f);
    }
    free(f);
    return e;
  }
  return pj_unsupported(p, n, "this call has no cuTile.jl mapping");
}

pj_ex pj_expr(pj *p, TSNode n) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "identifier")) {
    char *s = pj_text(p, n);
    pj_var *v = pj_var_get(p, s);
    pj_ex e = pj_ex_new(pj_renamed(p, s)); /* v stays valid: the name is looked up first */
    e.atomic = true;
    if (v) e.sh = pj_shape_copy(&v->sh), e.one_based = v->one_based;
    else if (pj_is_module_number(p, e.text)) e.sh.rank = 0;
    return e;
  }
  if (!strcmp(t, "integer")) {
    pj_ex e = pj_ex_scalar(pj_text(p, n));
    e.atomic = true;
    e.is_int = pj_int_literal(p, n, &e.ival);
    return e;
  }
  if (!strcmp(t, "float")) {
    char *s = pj_text(p, n);
    pj_ex e = pj_ex_scalar(float_literal(p, s));
    free(s);
    e.atomic = true;
    return e;
  }
  if (!strcmp(t, "true") || !strcmp(t, "false")) {
    pj_ex e = pj_ex_scalar(tt_xstrdup(t[0] == 't' ? "true" : "false"));
    e.atomic = true;
    return e;
  }
  if (!strcmp(t, "none")) return pj_ex_scalar(tt_xstrdup("nothing"));
  if (!strcmp(t, "string")) {
    char *s = pj_text(p, n);
    if (s[0] == '\'') s[0] = '"', s[strlen(s) - 1] = '"';
    pj_ex e = pj_ex_scalar(s);
    e.atomic = true;
    return e;
  }
  if (!strcmp(t, "attribute")) return attribute(p, n);
  if (!strcmp(t, "subscript")) return subscript(p, n);
  if (!strcmp(t, "call")) return call_expr(p, n);
  if (!strcmp(t, "parenthesized_expression")) {
    pj_ex e = pj_expr(p, ts_node_named_child(n, 0));
    if (!e.atomic) {
      char *w = tt_xasprintf("(%s)", e.text);
      free(e.text);
      e.text = w;
      e.atomic = true;
    }
    return e;
  }
  if (!strcmp(t, "binary_operator") || !strcmp(t, "comparison_operator") || !strcmp(t, "boolean_operator")) {
    TSNode l = ts_node_named_child(n, 0), r = ts_node_named_child(n, 1);
    if (ts_node_named_child_count(n) != 2) return pj_unsupported(p, n, "a chained comparison");
    TSNode op = ts_node_child_by_field_name(n, "operator", 8);
    if (ts_node_is_null(op)) op = ts_node_child(n, 1);
    char *o = pj_text(p, op);
    pj_ex e = binary(p, n, l, r, o);
    free(o);
    return e;
  }
  if (!strcmp(t, "not_operator")) {
    pj_ex x = pj_expr(p, ts_node_named_child(n, 0));
    char *v = pj_paren(&x);
    pj_ex e = pj_ex_new(tt_xasprintf("%s%s", pj_shape_is_number(&x.sh) ? "!" : ".!", v));
    e.sh = pj_shape_copy(&x.sh);
    free(v);
    pj_ex_free(&x);
    return e;
  }
  if (!strcmp(t, "unary_operator")) {
    char *o = pj_text(p, ts_node_child(n, 0));
    pj_ex x = pj_expr(p, ts_node_named_child(n, 0));
    char *v = pj_as_value(&x);
    pj_ex px = {.text = v, .atomic = x.atomic};
    char *pv = pj_paren(&px);
    pj_ex e = pj_ex_new(tt_xasprintf("%s%s", !strcmp(o, "~") ? (pj_shape_is_number(&x.sh) ? "~" : ".~") : o, pv));
    e.sh = pj_shape_copy(&x.sh);
    e.is_int = x.is_int && !strcmp(o, "-");
    e.ival = -x.ival;
    e.atomic = e.is_int;
    free(o), free(v), free(pv);
    pj_ex_free(&x);
    return e;
  }
  if (!strcmp(t, "conditional_expression")) {
    pj_ex a = pj_expr(p, ts_node_named_child(n, 0)), c = pj_expr(p, ts_node_named_child(n, 1)),
          b = pj_expr(p, ts_node_named_child(n, 2));
    char *av = pj_as_value(&a), *bv = pj_as_value(&b), *cv = pj_as_value(&c);
    pj_ex e = pj_ex_new(tt_xasprintf("(%s ? %s : %s)", cv, av, bv));
    e.atomic = true;
    e.sh = a.sh.rank == b.sh.rank ? pj_shape_copy(&a.sh) : (pj_shape){.rank = -1};
    free(av), free(bv), free(cv);
    pj_ex_free(&a), pj_ex_free(&b), pj_ex_free(&c);
    return e;
  }
  if (!strcmp(t, "tuple") || !strcmp(t, "expression_list")) {
    TSNode items[16];
    int k = pj_tuple_items(n, items, 16);
    if (!strcmp(t, "expression_list")) {
      k = 0;
      for (uint32_t i = 0; i < ts_node_named_child_count(n) && k < 16; i++) items[k++] = ts_node_named_child(n, i);
    }
    char *v[16];
    for (int i = 0; i < k; i++) {
      pj_ex x = pj_expr(p, items[i]);
      v[i] = pj_as_value(&x);
      pj_ex_free(&x);
    }
    char *tt = pj_tuple_text(v, k);
    for (int i = 0; i < k; i++) free(v[i]);
    pj_ex e = pj_ex_new(tt);
    e.atomic = true;
    return e;
  }
  return pj_unsupported(p, n, "`%s` has no cuTile.jl mapping", t);
}
