/* port_jl.c — the statement pass of cuTile Python -> cuTile.jl: the module, functions
 * (kernels, helpers, host code), blocks, comments and findings. Expressions: expr.c. */
#include "port_jl/port_jl.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser/tree.h"
#include "port_jl/pj.h"

int tt_pj_layout_parse(const char *s, tt_pj_layout *out) {
  if (!strcmp(s, "logical")) return *out = TT_PJ_LOGICAL, 0;
  if (!strcmp(s, "flipped")) return *out = TT_PJ_FLIPPED, 0;
  return -1;
}

const char *tt_pj_layout_name(tt_pj_layout l) { return l == TT_PJ_FLIPPED ? "flipped" : "logical"; }

char *pj_text(const pj *p, TSNode n) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  return tt_xstrndup(p->src->text + a, b - a);
}

char *pj_renamed(const pj *p, char *name) {
  const char *r = tt_strmap_get(&p->renames, name, strlen(name));
  if (!r) return name;
  free(name);
  return tt_xstrdup(r);
}

bool pj_is(TSNode n, const char *type) { return !ts_node_is_null(n) && !strcmp(ts_node_type(n), type); }

bool pj_text_eq(const pj *p, TSNode n, const char *s) {
  if (ts_node_is_null(n)) return false;
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  return strlen(s) == b - a && !memcmp(p->src->text + a, s, b - a);
}

void pj_shape_free(pj_shape *s) {
  for (int i = 0; i < s->rank && i < PJ_MAX_RANK; i++) free(s->dims[i]);
  s->rank = -1;
}

pj_shape pj_shape_copy(const pj_shape *s) {
  pj_shape r = {.rank = s->rank, .tile0 = s->tile0};
  for (int i = 0; i < s->rank && i < PJ_MAX_RANK; i++) r.dims[i] = tt_xstrdup(s->dims[i]);
  return r;
}

void pj_ex_free(pj_ex *e) {
  free(e->text);
  e->text = NULL;
  pj_shape_free(&e->sh);
}

static void add_finding(pj *p, TSNode n, const char *severity, char *msg) {
  TSPoint a = ts_node_start_point(n), b = ts_node_end_point(n);
  tt_pj_finding f = {a.row + 1, a.column + 1, b.row + 1, b.column + 1, ts_node_start_byte(n), ts_node_end_byte(n),
                     severity, msg};
  TT_PUSH(p->findings, p->n_findings, p->cap_findings, f);
}

void pj_finding(pj *p, TSNode n, const char *severity, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_finding(p, n, severity, tt_xvasprintf(fmt, ap));
  va_end(ap);
}

static void flag_unsupported(pj *p, TSNode n, const char *fmt, va_list ap) {
  if (p->unsupported) return; /* the first one is the statement's reason */
  p->unsupported = true;
  p->unsupported_node = n;
  p->unsupported_msg = tt_xvasprintf(fmt, ap);
}

void pj_flag_unsupported(pj *p, TSNode n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  flag_unsupported(p, n, fmt, ap);
  va_end(ap);
}

pj_ex pj_unsupported(pj *p, TSNode n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  flag_unsupported(p, n, fmt, ap);
  va_end(ap);
  pj_ex e = {.text = tt_xstrdup("nothing"), .sh = {.rank = -1}, .atomic = true};
  return e;
}

pj_var *pj_var_get(pj *p, const char *name) {
  for (size_t i = p->n_vars; i-- > 0;)
    if (!strcmp(p->vars[i].name, name)) return &p->vars[i];
  return NULL;
}

pj_var *pj_var_put(pj *p, const char *name) {
  pj_var *v = pj_var_get(p, name);
  if (v) return v;
  pj_var nv = {.name = tt_xstrdup(name), .sh = {.rank = -1}};
  TT_PUSH(p->vars, p->n_vars, p->cap_vars, nv);
  return &p->vars[p->n_vars - 1];
}

static void vars_clear(pj *p) {
  for (size_t i = 0; i < p->n_vars; i++) free(p->vars[i].name), pj_shape_free(&p->vars[i].sh);
  p->n_vars = 0;
  tt_strmap_free(&p->renames);
  memset(&p->renames, 0, sizeof p->renames);
}

bool pj_is_const_alias(const pj *p, const char *name) {
  for (size_t i = 0; i < p->n_aliases; i++)
    if (!strcmp(p->const_aliases[i], name)) return true;
  return false;
}

bool pj_is_module_number(const pj *p, const char *name) {
  for (size_t i = 0; i < p->n_module_numbers; i++)
    if (!strcmp(p->module_numbers[i], name)) return true;
  return false;
}

/* ---- output ---------------------------------------------------------------------- */

static void line_start(pj *p) {
  for (int i = 0; i < p->indent; i++) tt_buf_puts(&p->out, "    ");
}

static void emit_line(pj *p, const char *s) {
  line_start(p);
  tt_buf_puts(&p->out, s);
  tt_buf_putc(&p->out, '\n');
}

/* The Python text of `n`, as comment lines: what has no mapping stays visible. */
static void emit_commented(pj *p, TSNode n, const char *why) {
  char *s = pj_text(p, n);
  line_start(p);
  tt_buf_printf(&p->out, "# tiletrans: unsupported: %s\n", why);
  for (char *l = s, *nl; l; l = nl ? nl + 1 : NULL) {
    nl = strchr(l, '\n');
    line_start(p);
    tt_buf_printf(&p->out, "# %.*s\n", (int)(nl ? nl - l : (long)strlen(l)), l);
  }
  free(s);
}

/* A Python comment (`# ...`) is a Julia comment as it is. */
static void emit_comment(pj *p, TSNode c) {
  char *s = pj_text(p, c);
  emit_line(p, s);
  free(s);
}

/* After translating a statement: an unsupported construct turns the statement into
 * comment lines and a finding. Returns true when that happened. */
static bool settle_unsupported(pj *p, TSNode stmt, size_t out_mark) {
  if (!p->unsupported) return false;
  p->out.len = out_mark;
  if (p->out.data) p->out.data[out_mark] = '\0';
  add_finding(p, p->unsupported_node, "error", tt_xasprintf("no cuTile.jl mapping: %s", p->unsupported_msg));
  emit_commented(p, stmt, p->unsupported_msg);
  free(p->unsupported_msg);
  p->unsupported_msg = NULL;
  p->unsupported = false;
  return true;
}

static void block(pj *p, TSNode blk);

/* ---- statements ------------------------------------------------------------------ */

static void record_assign(pj *p, TSNode left, pj_ex *e) {
  if (!pj_is(left, "identifier")) return;
  char *name = pj_text(p, left);
  pj_var *v = pj_var_put(p, name);
  pj_shape_free(&v->sh);
  v->sh = pj_shape_copy(&e->sh);
  free(name);
}

static void assignment(pj *p, TSNode n) {
  TSNode left = ts_node_child_by_field_name(n, "left", 4), right = ts_node_child_by_field_name(n, "right", 5);
  if (ts_node_is_null(right)) { /* x: T (a declaration only) */
    pj_flag_unsupported(p, n, "a declaration without a value");
    return;
  }
  if (pj_is(right, "assignment")) {
    pj_flag_unsupported(p, n, "chained assignment");
    return;
  }
  pj_ex e = pj_expr(p, right);
  char *lt;
  if (pj_is(left, "identifier")) {
    lt = pj_text(p, left);
    pj_var *v = pj_var_get(p, lt);
    if (v && v->one_based && !e.one_based) pj_flag_unsupported(p, n, "an id variable reassigned to a plain value");
    char *val = v && v->one_based ? tt_xstrdup(e.text) : pj_as_value(&e);
    char *shown = pj_renamed(p, tt_xstrdup(lt));
    line_start(p);
    tt_buf_printf(&p->out, "%s = %s", shown, val);
    free(val), free(shown);
  } else if (pj_is(left, "pattern_list") || pj_is(left, "tuple_pattern")) {
    lt = pj_text(p, left);
    line_start(p);
    tt_buf_printf(&p->out, "%s = %s", lt, e.text);
  } else {
    lt = NULL;
    pj_flag_unsupported(p, left, "assignment to a subscript or attribute");
  }
  record_assign(p, left, &e);
  free(lt);
  pj_ex_free(&e);
}

static void augmented(pj *p, TSNode n) {
  TSNode left = ts_node_child_by_field_name(n, "left", 4), right = ts_node_child_by_field_name(n, "right", 5);
  char *op = pj_text(p, ts_node_child_by_field_name(n, "operator", 8));
  op[strlen(op) - 1] = '\0'; /* "+=" -> "+" */
  if (!pj_is(left, "identifier")) {
    pj_flag_unsupported(p, n, "augmented assignment to a subscript or attribute");
    free(op);
    return;
  }
  /* x op= y is x = x op y: reuse the binary translation through a synthetic view. */
  pj_ex l = pj_expr(p, left), r = pj_expr(p, right);
  bool scalar = pj_shape_is_number(&l.sh) && pj_shape_is_number(&r.sh);
  const char *jop = tt_pj_map_str(p->map, scalar ? "scalar_operators" : "operators", op);
  if (!jop) jop = op;
  char *name = pj_renamed(p, pj_text(p, left));
  char *rv = pj_as_value(&r);
  line_start(p);
  if (jop[0] == '.') tt_buf_printf(&p->out, "%s = %s %s (%s)", name, name, jop, rv);
  else if (!strchr("+-*/^", jop[0])) tt_buf_printf(&p->out, "%s = %s%s(%s, %s)", name, jop, scalar ? "" : ".", name, rv);
  else tt_buf_printf(&p->out, "%s = %s %s (%s)", name, name, jop, rv);
  free(name), free(rv), free(op);
  pj_ex_free(&l), pj_ex_free(&r);
}

static void for_statement(pj *p, TSNode n) {
  TSNode left = ts_node_child_by_field_name(n, "left", 4), right = ts_node_child_by_field_name(n, "right", 5);
  TSNode body = ts_node_child_by_field_name(n, "body", 4);
  if (!pj_is(left, "identifier") || !pj_is(right, "call") ||
      !pj_text_eq(p, ts_node_child_by_field_name(right, "function", 8), "range")) {
    pj_flag_unsupported(p, n, "a for loop over something other than range(...)");
    return;
  }
  TSNode args = ts_node_child_by_field_name(right, "arguments", 9);
  uint32_t na = ts_node_named_child_count(args);
  char *var = pj_text(p, left), *shown = pj_renamed(p, pj_text(p, left));
  pj_var *v = pj_var_get(p, var);
  line_start(p);
  if (na == 1 && v && v->one_based) {
    pj_ex n1 = pj_expr(p, ts_node_named_child(args, 0));
    char *e = pj_as_value(&n1);
    tt_buf_printf(&p->out, "for %s in Int32(1):%s\n", shown, e);
    free(e);
    pj_ex_free(&n1);
  } else if (na >= 1 && na <= 3) {
    pj_ex a = na == 1 ? (pj_ex){.text = tt_xstrdup("0"), .sh = {.rank = 0}, .atomic = true}
                      : pj_expr(p, ts_node_named_child(args, 0));
    pj_ex b = pj_expr(p, ts_node_named_child(args, na == 1 ? 0 : 1));
    char *av = pj_as_value(&a), *bv = pj_as_value(&b);
    if (na == 3) {
      pj_ex s = pj_expr(p, ts_node_named_child(args, 2));
      char *sv = pj_as_value(&s);
      tt_buf_printf(&p->out, "for %s in %s:%s:(%s - 1)\n", shown, av, sv, bv);
      free(sv);
      pj_ex_free(&s);
    } else {
      tt_buf_printf(&p->out, "for %s in %s:(%s - 1)\n", shown, av, bv);
    }
    free(av), free(bv);
    pj_ex_free(&a), pj_ex_free(&b);
  } else {
    pj_flag_unsupported(p, right, "range(...) with %u arguments", na);
  }
  pj_var *lv = pj_var_put(p, var);
  lv->sh.rank = 0;
  free(var), free(shown);
  if (p->unsupported) return;
  p->indent++;
  block(p, body);
  p->indent--;
  emit_line(p, "end");
}

static char *condition(pj *p, TSNode c) {
  pj_ex e = pj_expr(p, c);
  char *v = pj_as_value(&e);
  pj_ex_free(&e);
  return v;
}

static void if_statement(pj *p, TSNode n) {
  char *c = condition(p, ts_node_child_by_field_name(n, "condition", 9));
  line_start(p);
  tt_buf_printf(&p->out, "if %s\n", c);
  free(c);
  if (p->unsupported) return;
  p->indent++;
  block(p, ts_node_child_by_field_name(n, "consequence", 11));
  p->indent--;
  uint32_t k = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < k; i++) {
    TSNode alt = ts_node_named_child(n, i);
    if (pj_is(alt, "elif_clause")) {
      char *ec = condition(p, ts_node_child_by_field_name(alt, "condition", 9));
      line_start(p);
      tt_buf_printf(&p->out, "elseif %s\n", ec);
      free(ec);
      p->indent++;
      block(p, ts_node_child_by_field_name(alt, "consequence", 11));
      p->indent--;
    } else if (pj_is(alt, "else_clause")) {
      emit_line(p, "else");
      p->indent++;
      block(p, ts_node_child_by_field_name(alt, "body", 4));
      p->indent--;
    }
  }
  emit_line(p, "end");
}

static void while_statement(pj *p, TSNode n) {
  char *c = condition(p, ts_node_child_by_field_name(n, "condition", 9));
  line_start(p);
  tt_buf_printf(&p->out, "while %s\n", c);
  free(c);
  if (p->unsupported) return;
  p->indent++;
  block(p, ts_node_child_by_field_name(n, "body", 4));
  p->indent--;
  emit_line(p, "end");
}

static bool is_docstring(TSNode stmt) {
  return pj_is(stmt, "expression_statement") && ts_node_named_child_count(stmt) == 1 &&
         pj_is(ts_node_named_child(stmt, 0), "string");
}

/* A docstring becomes comment lines (the structure stays; Julia strings differ). */
static void docstring(pj *p, TSNode stmt) {
  char *s = pj_text(p, ts_node_named_child(stmt, 0));
  char *body = s;
  size_t n = strlen(s);
  int q = n >= 6 && (!strncmp(s, "\"\"\"", 3) || !strncmp(s, "'''", 3)) ? 3 : 1;
  s[n - q] = '\0';
  body += q;
  for (char *l = body, *nl; l; l = nl ? nl + 1 : NULL) {
    nl = strchr(l, '\n');
    int len = (int)(nl ? nl - l : (long)strlen(l));
    while (len > 0 && l[0] == ' ') l++, len--;
    line_start(p);
    tt_buf_printf(&p->out, "#%s%.*s\n", len ? " " : "", len, l);
  }
  free(s);
}

static void function_def(pj *p, TSNode def, TSNode decorated);
static void module_statement(pj *p, TSNode n);

static void statement(pj *p, TSNode n) {
  const char *t = ts_node_type(n);
  size_t mark = p->out.len;
  if (!strcmp(t, "expression_statement")) {
    TSNode e = ts_node_named_child(n, 0);
    if (is_docstring(n)) {
      docstring(p, n);
      return;
    }
    if (pj_is(e, "assignment")) assignment(p, e);
    else if (pj_is(e, "augmented_assignment")) augmented(p, e);
    else {
      pj_ex x = pj_expr(p, e);
      line_start(p);
      tt_buf_puts(&p->out, x.text);
      pj_ex_free(&x);
    }
    tt_buf_putc(&p->out, '\n');
  } else if (!strcmp(t, "for_statement")) {
    for_statement(p, n);
  } else if (!strcmp(t, "if_statement")) {
    if_statement(p, n);
  } else if (!strcmp(t, "while_statement")) {
    while_statement(p, n);
  } else if (!strcmp(t, "return_statement")) {
    TSNode v = ts_node_named_child(n, 0);
    if (ts_node_is_null(v)) {
      emit_line(p, "return");
    } else {
      pj_ex x = pj_expr(p, v);
      char *s = pj_as_value(&x);
      line_start(p);
      tt_buf_printf(&p->out, "return %s\n", s);
      free(s);
      pj_ex_free(&x);
    }
  } else if (!strcmp(t, "pass_statement")) {
    emit_line(p, "nothing");
  } else if (!strcmp(t, "break_statement")) {
    emit_line(p, "break");
  } else if (!strcmp(t, "continue_statement")) {
    emit_line(p, "continue");
  } else if (!strcmp(t, "function_definition") || !strcmp(t, "decorated_definition")) {
    emit_commented(p, n, "a nested function");
    pj_finding(p, n, "error", "no cuTile.jl mapping: a nested function");
    return;
  } else {
    pj_flag_unsupported(p, n, "`%s` has no cuTile.jl mapping", t);
  }
  settle_unsupported(p, n, mark);
}

/* A Python comment on the same row as the end of the previous statement is trailing:
 * it goes at the end of that statement's last line. */
static void trailing_comment(pj *p, TSNode c) {
  char *s = pj_text(p, c);
  if (p->out.len && p->out.data[p->out.len - 1] == '\n') p->out.len--;
  tt_buf_printf(&p->out, "  %s\n", s);
  free(s);
}

static void block_children(pj *p, TSNode parent, bool module) {
  uint32_t n = ts_node_named_child_count(parent);
  int32_t prev_end = -1;
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(parent, i);
    int32_t row = (int32_t)ts_node_start_point(c).row;
    if (prev_end >= 0 && row > prev_end + 1) tt_buf_putc(&p->out, '\n');
    if (pj_is(c, "comment")) {
      if (prev_end >= 0 && row == prev_end) trailing_comment(p, c);
      else emit_comment(p, c);
    } else if (module && (pj_is(c, "function_definition") || pj_is(c, "decorated_definition"))) {
      TSNode def = pj_is(c, "decorated_definition") ? ts_node_child_by_field_name(c, "definition", 10) : c;
      if (pj_is(def, "function_definition")) {
        function_def(p, def, pj_is(c, "decorated_definition") ? c : (TSNode){0});
      } else {
        pj_finding(p, c, "error", "no cuTile.jl mapping: a decorated `%s`", ts_node_type(def));
        emit_commented(p, c, "a decorated class or other definition");
      }
    } else if (module) {
      module_statement(p, c);
    } else {
      statement(p, c);
    }
    prev_end = (int32_t)ts_node_end_point(c).row;
  }
}

/* tree-sitter-python puts the comments between a header's `:` and the first statement
 * in the header's node, before the block: they open the block here (one on the
 * header's row ends the header's line). */
static void leading_comments(pj *p, TSNode blk) {
  TSNode parent = ts_node_parent(blk);
  uint32_t n = ts_node_named_child_count(parent), header_row = ts_node_start_point(parent).row;
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(parent, i);
    if (ts_node_start_byte(c) >= ts_node_start_byte(blk)) break;
    if (!pj_is(c, "comment")) continue;
    if (ts_node_start_point(c).row == header_row) {
      char *s = pj_text(p, c);
      if (p->out.len && p->out.data[p->out.len - 1] == '\n') p->out.len--;
      tt_buf_printf(&p->out, "  %s\n", s);
      free(s);
    } else {
      emit_comment(p, c);
    }
  }
}

static void block(pj *p, TSNode blk) {
  leading_comments(p, blk);
  block_children(p, blk, false);
}

/* ---- functions ------------------------------------------------------------------- */

typedef struct scan_ctx {
  pj *p;
} scan_ctx;

/* Before a function's body: which names are 1-based ids (every assignment a ct.bid or a
 * `for x in range(n)`), and which parameters are arrays (loaded, stored, counted). */
static bool scan_enter(TSNode n, void *vctx) {
  pj *p = ((scan_ctx *)vctx)->p;
  TSNode left = {0};
  bool one = false;
  if (pj_is(n, "assignment")) {
    left = ts_node_child_by_field_name(n, "left", 4);
    TSNode r = ts_node_child_by_field_name(n, "right", 5);
    TSNode fn = pj_is(r, "call") ? ts_node_child_by_field_name(r, "function", 8) : (TSNode){0};
    if (pj_is(fn, "attribute")) {
      char *a = pj_text(p, ts_node_child_by_field_name(fn, "attribute", 9));
      const char *form = tt_pj_node_str(tt_pj_map_entry(p->map, "functions", a), "form");
      one = form && !strcmp(form, "one_based") &&
            pj_text_eq(p, ts_node_child_by_field_name(fn, "object", 6), tt_pj_map_str(p->map, "module", "alias"));
      free(a);
    }
  } else if (pj_is(n, "augmented_assignment")) {
    left = ts_node_child_by_field_name(n, "left", 4);
  } else if (pj_is(n, "for_statement")) {
    left = ts_node_child_by_field_name(n, "left", 4);
    TSNode r = ts_node_child_by_field_name(n, "right", 5);
    one = pj_is(r, "call") && pj_text_eq(p, ts_node_child_by_field_name(r, "function", 8), "range") &&
          ts_node_named_child_count(ts_node_child_by_field_name(r, "arguments", 9)) == 1;
  } else if (pj_is(n, "call")) {
    TSNode fn = ts_node_child_by_field_name(n, "function", 8);
    TSNode args = ts_node_child_by_field_name(n, "arguments", 9);
    TSNode a0 = ts_node_named_child(args, 0);
    if (pj_is(fn, "attribute") && pj_is(a0, "identifier")) {
      char *a = pj_text(p, ts_node_child_by_field_name(fn, "attribute", 9));
      struct fy_node *e = tt_pj_map_entry(p->map, "functions", a);
      const char *arr = tt_pj_node_list_at(e, "positional", 0);
      const char *form = tt_pj_node_str(e, "form");
      if ((arr && !strcmp(arr, "array")) || (form && !strcmp(form, "gather"))) {
        char *name = pj_text(p, a0);
        pj_var *v = pj_var_put(p, name);
        v->is_array = true;
        /* The rank of the array from its index tuple (positional or `index=`), else from
         * its tile's shape tuple (ct.num_tiles(X, axis=1, shape=(1, TN)): tiles have the
         * array's rank there). */
        const char *keys[2] = {tt_pj_node_list_at(e, "index", 0), tt_pj_node_list_at(e, "shape", 0)};
        uint32_t na = ts_node_named_child_count(args);
        for (int kk = 0; kk < 2 && !v->array_rank; kk++) {
          const char *idx = keys[kk];
          int ip = idx ? tt_pj_node_list_index(e, "positional", idx) : -1;
          for (uint32_t q = 1; idx && q < na; q++) {
            TSNode c = ts_node_named_child(args, q);
            TSNode val = c;
            if (pj_is(c, "keyword_argument")) {
              if (!pj_text_eq(p, ts_node_child_by_field_name(c, "name", 4), idx)) continue;
              val = ts_node_child_by_field_name(c, "value", 5);
            } else if ((int)q != ip) {
              continue;
            }
            if (pj_is(val, "tuple")) v->array_rank = (int)ts_node_named_child_count(val);
          }
        }
        free(name);
      }
      free(a);
    }
  }
  if (pj_is(left, "identifier")) {
    char *name = pj_text(p, left);
    pj_var *v = pj_var_get(p, name);
    if (!v) {
      v = pj_var_put(p, name);
      v->one_based = one;
    } else {
      v->one_based = v->one_based && one;
    }
    free(name);
  }
  return true;
}

/* The bare Julia functions (`cumsum`, `sum`, `fill`; not `ct.load`) that the API map
 * gives the `ct.X(...)` calls of a body. */
typedef struct called_ctx {
  pj *p;
  tt_strmap names;
} called_ctx;

static bool called_enter(TSNode n, void *vctx) {
  called_ctx *c = vctx;
  pj *p = c->p;
  TSNode fn = pj_is(n, "call") ? ts_node_child_by_field_name(n, "function", 8) : (TSNode){0};
  if (!pj_is(fn, "attribute") ||
      !pj_text_eq(p, ts_node_child_by_field_name(fn, "object", 6), tt_pj_map_str(p->map, "module", "alias")))
    return true;
  char *a = pj_text(p, ts_node_child_by_field_name(fn, "attribute", 9));
  const char *j = tt_pj_node_str(tt_pj_map_entry(p->map, "functions", a), "julia");
  if (j && !strchr(j, '.')) tt_strmap_put(&c->names, j, "");
  free(a);
  return true;
}

static bool name_taken(const pj *p, const tt_strmap *called, const char *s) {
  return tt_strmap_get(called, s, strlen(s)) || pj_var_get((pj *)p, s) || tt_strmap_get(&p->renames, s, strlen(s));
}

static void rename_one(pj *p, const tt_strmap *called, const char *name) {
  if (!tt_strmap_get(called, name, strlen(name)) || tt_strmap_get(&p->renames, name, strlen(name))) return;
  tt_buf b = {0};
  tt_buf_printf(&b, "%s_", name);
  while (name_taken(p, called, b.data)) tt_buf_putc(&b, '_');
  tt_strmap_put(&p->renames, name, b.data);
  tt_buf_free(&b);
}

/* A local or parameter named like a Julia function the body's translation calls is
 * renamed `name_` (more underscores while that is taken): in Julia an assignment makes
 * the name local to the whole function, so `cumsum = cumsum(x; dims=1)` would call the
 * unassigned local. Runs after the scan (p->vars holds the locals). */
static void plan_renames(pj *p, TSNode def, TSNode body) {
  called_ctx c = {p, {0}};
  tt_tree_walk(body, called_enter, &c);
  if (c.names.n) {
    TSNode params = ts_node_child_by_field_name(def, "parameters", 10);
    for (uint32_t i = 0; i < ts_node_named_child_count(params); i++) {
      TSNode prm = ts_node_named_child(params, i), id = prm;
      if (!pj_is(prm, "identifier")) id = ts_node_child_by_field_name(prm, "name", 4);
      if (!pj_is(id, "identifier")) id = ts_node_named_child(prm, 0);
      if (!pj_is(id, "identifier")) continue;
      char *n = pj_text(p, id);
      rename_one(p, &c.names, n);
      free(n);
    }
    for (size_t i = 0; i < p->n_vars; i++) rename_one(p, &c.names, p->vars[i].name);
  }
  tt_strmap_free(&c.names);
}

static void emit_signature(pj *p, TSNode def, bool kernel, pj_kernel *k) {
  char *name = pj_text(p, ts_node_child_by_field_name(def, "name", 4));
  TSNode params = ts_node_child_by_field_name(def, "parameters", 10);
  uint32_t n = ts_node_named_child_count(params);
  tt_buf b = {0};
  tt_buf_printf(&b, "function %s(", name);
  k->name = name;
  k->is_const = tt_xcalloc(n + 1, sizeof(bool));
  const char *arr_t = tt_pj_map_top(p->map, "array_type");
  for (uint32_t i = 0; i < n; i++) {
    TSNode prm = ts_node_named_child(params, i);
    if (pj_is(prm, "comment")) continue;
    TSNode id = prm;
    TSNode type = {0}, dflt = {0};
    if (pj_is(prm, "typed_parameter")) {
      id = ts_node_named_child(prm, 0);
      type = ts_node_child_by_field_name(prm, "type", 4);
    } else if (!kernel && (pj_is(prm, "default_parameter") || pj_is(prm, "typed_default_parameter"))) {
      id = ts_node_child_by_field_name(prm, "name", 4);
      type = ts_node_child_by_field_name(prm, "type", 4);
      dflt = ts_node_child_by_field_name(prm, "value", 5);
    } else if (!pj_is(prm, "identifier")) {
      pj_flag_unsupported(p, prm, "parameter form `%s` (defaults, *args)", ts_node_type(prm));
      continue;
    }
    char *pn = pj_text(p, id);
    pj_var *v = pj_var_put(p, pn);
    char *jt = NULL;
    bool is_const = false;
    if (!ts_node_is_null(type)) {
      jt = pj_annotation(p, type, &is_const);
      if (!jt && kernel) pj_flag_unsupported(p, type, "kernel parameter annotation with no cuTile.jl mapping");
      else if (!jt) pj_finding(p, type, "note", "host parameter annotation dropped (no Julia counterpart)");
      if (jt) v->sh.rank = 0;
    } else if (kernel && v->is_array && arr_t) {
      jt = tt_xstrdup(arr_t);
    } else if (kernel && !v->is_array) {
      /* A kernel takes arrays and scalars, never tiles: a parameter no load, store or
       * gather uses as an array is a scalar (LayerNorm's `eps`), so `x + eps` keeps
       * x's shape and later broadcasts are aligned. */
      v->sh.rank = 0;
    }
    k->is_const[k->n_params++] = is_const;
    char *shown = pj_renamed(p, tt_xstrdup(pn));
    tt_buf_printf(&b, "%s%s%s%s", i ? ", " : "", shown, jt ? "::" : "", jt ? jt : "");
    free(shown);
    if (!ts_node_is_null(dflt)) {
      pj_ex d = pj_expr(p, dflt);
      tt_buf_printf(&b, "=%s", d.text);
      pj_ex_free(&d);
    }
    free(jt);
    free(pn);
  }
  tt_buf_putc(&b, ')');
  emit_line(p, b.data);
  tt_buf_free(&b);
}

static bool is_kernel_decorator(pj *p, TSNode dec) {
  TSNode e = ts_node_named_child(dec, 0);
  if (pj_is(e, "call")) e = ts_node_child_by_field_name(e, "function", 8);
  char *s = pj_text(p, e);
  char *want = tt_xasprintf("%s.kernel", tt_pj_map_str(p->map, "module", "alias"));
  bool k = !strcmp(s, want);
  free(s);
  free(want);
  return k;
}

/* True when the function calls the API (ct.* other than ct.launch): device code. */
static bool uses_device_api(pj *p, TSNode body) {
  char *src = pj_text(p, body);
  char *needle = tt_xasprintf("%s.", tt_pj_map_str(p->map, "module", "alias"));
  bool dev = false;
  for (char *s = strstr(src, needle); s && !dev; s = strstr(s + 1, needle))
    dev = strncmp(s + strlen(needle), "launch", 6) != 0 && (s == src || !isalnum((unsigned char)s[-1]));
  free(needle);
  free(src);
  return dev;
}

static void function_def(pj *p, TSNode def, TSNode decorated) {
  bool kernel = false;
  size_t mark = p->out.len;
  if (!ts_node_is_null(decorated)) {
    uint32_t n = ts_node_named_child_count(decorated);
    for (uint32_t i = 0; i < n; i++) {
      TSNode d = ts_node_named_child(decorated, i);
      if (!pj_is(d, "decorator")) continue;
      if (is_kernel_decorator(p, d)) {
        kernel = true;
        if (pj_is(ts_node_named_child(d, 0), "call"))
          pj_finding(p, d, "warning", "the kernel decorator's options are not translated: cuTile.jl takes them as `ct.@compiler_options` in the body");
      } else {
        /* A host decorator (registration, caching) leaves the function itself intact. */
        pj_finding(p, d, "warning", "decorator with no cuTile.jl counterpart; kept as a comment");
        emit_commented(p, d, "decorator");
      }
    }
  }
  TSNode body = ts_node_child_by_field_name(def, "body", 4);
  vars_clear(p);
  scan_ctx sc = {p};
  tt_tree_walk(body, scan_enter, &sc);
  plan_renames(p, def, body);
  p->device = kernel || uses_device_api(p, body);
  pj_kernel k = {0};
  emit_signature(p, def, kernel, &k);
  if (settle_unsupported(p, def, mark)) {
    free(k.name), free(k.is_const);
    return;
  }
  if (kernel) TT_PUSH(p->kernels, p->n_kernels, p->cap_kernels, k);
  else free(k.name), free(k.is_const);
  p->indent++;
  block(p, body);
  /* A Python function that falls off its end returns None; a Julia one returns its
   * last value. An explicit `return` keeps Python's meaning, and cuTile.jl kernels
   * must return nothing. */
  uint32_t nb = ts_node_named_child_count(body);
  TSNode last = nb ? ts_node_named_child(body, nb - 1) : (TSNode){0};
  if (!pj_is(last, "return_statement")) emit_line(p, "return");
  p->indent--;
  emit_line(p, "end");
  p->device = false;
  vars_clear(p);
}

/* ---- the module ------------------------------------------------------------------ */

/* `import math` (the map's math modules): translated to Base names where used. */
static bool import_is_math(pj *p, TSNode n) {
  TSNode name = ts_node_named_child(n, 0);
  if (!pj_is(name, "dotted_name")) return false;
  char *s = pj_text(p, name);
  bool m = tt_pj_node_list_has(tt_pj_map_section(p->map, "math"), "modules", s);
  free(s);
  return m;
}

static void module_statement(pj *p, TSNode n) {
  size_t mark = p->out.len;
  const char *pymod = tt_pj_map_str(p->map, "module", "python");
  if (pj_is(n, "import_statement") || pj_is(n, "import_from_statement")) {
    char *s = pj_text(p, n);
    if (strstr(s, pymod) && !p->imported) {
      emit_line(p, tt_pj_map_str(p->map, "module", "julia"));
      p->imported = true;
    } else if (strstr(s, pymod)) { /* one Julia import covers every cuda.tile import */
      line_start(p);
      tt_buf_printf(&p->out, "# %s  (cuTile.jl: covered by `%s`)\n", s, tt_pj_map_str(p->map, "module", "julia"));
    } else if (pj_is(n, "import_statement") && import_is_math(p, n)) { /* math.* are Base names */
      line_start(p);
      tt_buf_printf(&p->out, "# %s  (Julia: its functions and constants are Base's)\n", s);
    } else {
      pj_finding(p, n, "note", "import with no cuTile.jl counterpart (host code's library); kept as a comment");
      line_start(p);
      tt_buf_printf(&p->out, "# tiletrans: host import, no Julia counterpart: %s\n", s);
    }
    free(s);
    return;
  }
  if (pj_is(n, "expression_statement") && pj_is(ts_node_named_child(n, 0), "assignment")) {
    TSNode a = ts_node_named_child(n, 0);
    TSNode left = ts_node_child_by_field_name(a, "left", 4), right = ts_node_child_by_field_name(a, "right", 5);
    bool ck;
    char *jt = pj_is(left, "identifier") && !ts_node_is_null(right) && pj_is(right, "subscript")
                   ? pj_annotation(p, right, &ck) : NULL;
    if (jt && ck) {
      char *name = pj_text(p, left), *s = pj_text(p, n);
      TT_PUSH(p->const_aliases, p->n_aliases, p->cap_aliases, name);
      line_start(p);
      tt_buf_printf(&p->out, "# %s  (cuTile.jl: constant parameters are `::%s`, launched as %s(v))\n", s, jt,
                    tt_pj_map_top(p->map, "launch_constant"));
      free(s);
      free(jt);
      return;
    }
    free(jt);
    if (pj_is(left, "identifier")) {
      pj_ex e = pj_expr(p, right);
      char *name = pj_text(p, left);
      line_start(p);
      tt_buf_printf(&p->out, "const %s = %s\n", name, e.text);
      if (pj_shape_is_number(&e.sh) && !p->unsupported && !pj_is_module_number(p, name))
        TT_PUSH(p->module_numbers, p->n_module_numbers, p->cap_module_numbers, tt_xstrdup(name));
      free(name);
      pj_ex_free(&e);
      settle_unsupported(p, n, mark);
      return;
    }
  }
  if (is_docstring(n)) {
    docstring(p, n);
    return;
  }
  if (pj_is(n, "if_statement")) { /* if __name__ == "__main__": and friends */
    pj_finding(p, n, "error", "no cuTile.jl mapping: module-level control flow (a script's main)");
    emit_commented(p, n, "module-level control flow");
    return;
  }
  statement(p, n);
}

int tt_pj_translate(const tt_pj_map *m, const tt_source *src, tt_pj_layout layout, tt_pj_result *out, char **err) {
  memset(out, 0, sizeof *out);
  tt_tree *tree = tt_tree_parse(src);
  if (!tree) {
    *err = tt_xasprintf("%s: no grammar for this language", src->path);
    return -1;
  }
  if (tree->n_errors) {
    tt_pos pos = tt_source_pos(src, tree->errors[0].start);
    *err = tt_xasprintf("%s:%u:%u: syntax error: the file is not translated", src->path, pos.line, pos.column);
    tt_tree_free(tree);
    return -1;
  }
  pj p = {.map = m, .src = src, .layout = layout};
  tt_buf_printf(&p.out, "# layout: %s\n", tt_pj_layout_name(layout));
  tt_buf_printf(&p.out, "# Translated from cuTile Python by `tiletrans rewrite --target julia --layout %s`%s\n",
                tt_pj_layout_name(layout),
                layout == TT_PJ_FLIPPED ? "; every array is its Python shape reversed (the same bytes, column-major)."
                                        : "; arrays keep their Python shapes.");
  block_children(&p, ts_tree_root_node(tree->ts), true);
  vars_clear(&p);
  free(p.vars);
  for (size_t i = 0; i < p.n_kernels; i++) free(p.kernels[i].name), free(p.kernels[i].is_const);
  free(p.kernels);
  for (size_t i = 0; i < p.n_aliases; i++) free(p.const_aliases[i]);
  free(p.const_aliases);
  for (size_t i = 0; i < p.n_module_numbers; i++) free(p.module_numbers[i]);
  free(p.module_numbers);
  free(p.unsupported_msg);
  out->len = p.out.len;
  out->text = tt_buf_steal(&p.out);
  out->findings = p.findings;
  out->n_findings = p.n_findings;
  tt_tree_free(tree);
  return 0;
}

void tt_pj_result_free(tt_pj_result *r) {
  for (size_t i = 0; i < r->n_findings; i++) free(r->findings[i].message);
  free(r->findings);
  free(r->text);
  memset(r, 0, sizeof *r);
}

size_t tt_pj_result_problems(const tt_pj_result *r) {
  size_t n = 0;
  for (size_t i = 0; i < r->n_findings; i++) n += strcmp(r->findings[i].severity, "note") != 0;
  return n;
}
