/* narrow-store — a wide value stored in a narrow variable, then used as if narrow.
 *
 * The motivating case: CUDA's __ballot_sync returns 32 bits, HIP's __ballot 64. Code
 * that keeps the result in an `unsigned` and counts it with __popc silently drops lanes
 * 32-63 on a 64-lane wavefront. A pattern cannot link the declaration to later uses, so
 * this analyzer does, per function: declarations of a narrow type assigned from a
 * source call (at initialisation or later), the sink calls that consume them, and sink
 * calls applied to a source directly. All names come from the rule's options.
 * With `wrappers`, a function that returns a source call, or a variable it assigned
 * from one, is a source too: the file's own and those of its local headers
 * (`#include "…"`, three levels; read only when a narrow store asks for one). */
#include <stdlib.h>
#include <string.h>

#include "rules/analyzer.h"
#include "rules/analyzers/opts.h"
#include "util/fs.h"
#include "util/util.h"

typedef struct ns_opts {
  tt_strmap sources, narrow_types, sinks;
  tt_strmap method_sources; /* member calls with a wide result: `tile.ballot(p)` */
  bool wrappers;            /* functions that return a source call are sources too */
  char *wide_type;
} ns_opts;

static void free_opts(void *p) {
  ns_opts *o = p;
  tt_strmap_free(&o->sources);
  tt_strmap_free(&o->narrow_types);
  tt_strmap_free(&o->sinks);
  tt_strmap_free(&o->method_sources);
  free(o->wide_type);
  free(o);
}

static void *compile_opts(struct fy_node *opts, char **err, struct fy_node **at) {
  static const char *const keys[] = {"sources", "narrow_types", "sinks", "wide_type", "method_sources", "wrappers", NULL};
  ns_opts *o = tt_xcalloc(1, sizeof *o);
  if (tt_opts_check_keys(opts, keys, err, at) < 0 || tt_opts_set(opts, "sources", &o->sources, err, at) < 0 ||
      tt_opts_set(opts, "narrow_types", &o->narrow_types, err, at) < 0 ||
      tt_opts_map(opts, "sinks", &o->sinks, err, at) < 0 ||
      tt_opts_string(opts, "wide_type", &o->wide_type, err, at) < 0 ||
      tt_opts_set(opts, "method_sources", &o->method_sources, err, at) < 0 ||
      tt_opts_bool(opts, "wrappers", &o->wrappers, err, at) < 0)
    goto bad;
  if ((!o->sources.n && !o->method_sources.n) || !o->narrow_types.n || !o->wide_type) {
    *err = tt_xstrdup("needs `sources` (or `method_sources`), `narrow_types` and `wide_type`");
    goto bad;
  }
  return o;
bad:
  free_opts(o);
  return NULL;
}

typedef struct narrow_var {
  uint32_t name_s, name_e;  /* the variable's name in its declaration */
  uint32_t type_s, type_e;  /* the declared type */
  uint32_t src_s, src_e;    /* the source call's name, when assigned from a source */
} narrow_var;

typedef struct sink_call {
  uint32_t fn_s, fn_e;      /* the sink's name */
  uint32_t arg_s, arg_e;    /* its first argument, unwrapped */
  bool arg_is_source;       /* the argument is itself a source call */
  uint32_t src_s, src_e;
} sink_call;

typedef struct fn_walk fn_walk;

typedef struct scan {
  const ns_opts *o;
  const tt_tree *tree;
  const tt_strmap *wrapper_names; /* this file's functions that return a source call */
  fn_walk *walk;                  /* the file's walk: loads its headers' wrappers on demand */
  narrow_var *vars;
  size_t n_vars, vars_cap;
  sink_call *sinks;
  size_t n_sinks, sinks_cap;
} scan;

static const char *text(const scan *s, uint32_t a) { return s->tree->src->text + a; }

static TSNode unwrap(TSNode n) {
  for (;;) {
    const char *t = ts_node_type(n);
    if (!strcmp(t, "parenthesized_expression")) n = ts_node_named_child(n, 0);
    else if (!strcmp(t, "cast_expression")) n = ts_node_child_by_field_name(n, "value", 5);
    else return n;
    if (ts_node_is_null(n)) return n;
  }
}

static void load_header_wrappers(fn_walk *w);

/* When `n` is a call of a function named in `set`, returns its name node. For the
 * sources, also a member call named in `method_sources` (its member name node) and a
 * call of one of the file's wrappers. */
static bool call_of(const scan *s, TSNode n, const tt_strmap *set, TSNode *fn) {
  n = unwrap(n);
  if (ts_node_is_null(n) || strcmp(ts_node_type(n), "call_expression")) return false;
  *fn = ts_node_child_by_field_name(n, "function", 8);
  if (ts_node_is_null(*fn)) return false;
  bool sources = set == &s->o->sources;
  if (!strcmp(ts_node_type(*fn), "field_expression")) {
    if (!sources) return false;
    *fn = ts_node_child_by_field_name(*fn, "field", 5);
    if (ts_node_is_null(*fn)) return false;
    uint32_t a = ts_node_start_byte(*fn), b = ts_node_end_byte(*fn);
    return tt_strmap_get(&s->o->method_sources, text(s, a), b - a) != NULL;
  }
  if (strcmp(ts_node_type(*fn), "identifier")) return false;
  uint32_t a = ts_node_start_byte(*fn), b = ts_node_end_byte(*fn);
  if (tt_strmap_get(set, text(s, a), b - a)) return true;
  if (sources && s->walk) load_header_wrappers(s->walk);
  return sources && s->wrapper_names && tt_strmap_get(s->wrapper_names, text(s, a), b - a) != NULL;
}

static bool same_text(const scan *s, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  return b - a == d - c && memcmp(text(s, a), text(s, c), b - a) == 0;
}

/* The byte range of a function-qualifier macro that the parser took for part of a
 * sized type (`MGPU_HOST_DEVICE unsigned f()` parses as the type `MGPU_HOST_DEVICE
 * unsigned`): an all-capitals type name beside `unsigned`/`signed`/`long`/`short`. */
static void qualifier_macro(const scan *s, TSNode type, uint32_t *qs, uint32_t *qe) {
  *qs = *qe = 0;
  if (strcmp(ts_node_type(type), "sized_type_specifier")) return;
  TSNode t = ts_node_child_by_field_name(type, "type", 4);
  if (ts_node_is_null(t) || strcmp(ts_node_type(t), "type_identifier")) return;
  uint32_t a = ts_node_start_byte(t), b = ts_node_end_byte(t);
  for (uint32_t i = a; i < b; i++) {
    char c = *text(s, i);
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return;
  }
  *qs = a, *qe = b;
}

/* The bytes of `type` that the fix replaces: all of it but a qualifier macro at either end. */
static void type_range(const scan *s, TSNode type, uint32_t *ts, uint32_t *te) {
  uint32_t qs, qe;
  *ts = ts_node_start_byte(type), *te = ts_node_end_byte(type);
  qualifier_macro(s, type, &qs, &qe);
  if (qe == 0) return;
  if (qs == *ts)
    for (*ts = qe; *ts < *te && (*text(s, *ts) == ' ' || *text(s, *ts) == '\t' || *text(s, *ts) == '\n'); ++*ts) {
    }
  else if (qe == *te)
    for (*te = qs; *te > *ts && (*text(s, *te - 1) == ' ' || *text(s, *te - 1) == '\t' || *text(s, *te - 1) == '\n'); --*te) {
    }
}

static bool is_narrow_type(const scan *s, TSNode type) {
  /* Compare with whitespace runs collapsed: `unsigned  int` is `unsigned int`. */
  tt_buf norm = {0};
  uint32_t a = ts_node_start_byte(type), b = ts_node_end_byte(type), qs, qe;
  qualifier_macro(s, type, &qs, &qe);
  for (uint32_t i = a; i < b; i++) {
    if (i >= qs && i < qe) continue;
    char c = *text(s, i);
    bool ws = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (ws && norm.len && norm.data[norm.len - 1] != ' ') tt_buf_putc(&norm, ' ');
    else if (!ws) tt_buf_putc(&norm, c);
  }
  bool narrow = norm.data && tt_strmap_get(&s->o->narrow_types, norm.data, norm.len);
  tt_buf_free(&norm);
  return narrow;
}

static void add_declaration(scan *s, TSNode decl) {
  TSNode type = ts_node_child_by_field_name(decl, "type", 4);
  if (ts_node_is_null(type) || !is_narrow_type(s, type)) return;
  uint32_t k = ts_node_named_child_count(decl);
  for (uint32_t i = 0; i < k; i++) {
    TSNode d = ts_node_named_child(decl, i), name = d, value = {0}, fn;
    if (!strcmp(ts_node_type(d), "init_declarator")) {
      name = ts_node_child_by_field_name(d, "declarator", 10);
      value = ts_node_child_by_field_name(d, "value", 5);
    }
    if (ts_node_is_null(name) || strcmp(ts_node_type(name), "identifier")) continue;
    uint32_t ts, te;
    type_range(s, type, &ts, &te);
    narrow_var v = {ts_node_start_byte(name), ts_node_end_byte(name), ts, te, 0, 0};
    if (!ts_node_is_null(value) && call_of(s, value, &s->o->sources, &fn))
      v.src_s = ts_node_start_byte(fn), v.src_e = ts_node_end_byte(fn);
    TT_PUSH(s->vars, s->n_vars, s->vars_cap, v);
  }
}

/* `x = source(...)` marks the latest narrow declaration of x as holding a wide value. */
static void add_assignment(scan *s, TSNode as) {
  TSNode left = ts_node_child_by_field_name(as, "left", 4), right = ts_node_child_by_field_name(as, "right", 5), fn;
  if (ts_node_is_null(left) || strcmp(ts_node_type(left), "identifier") || ts_node_is_null(right)) return;
  uint32_t a = ts_node_start_byte(left), b = ts_node_end_byte(left);
  for (size_t i = s->n_vars; i-- > 0;)
    if (same_text(s, s->vars[i].name_s, s->vars[i].name_e, a, b)) {
      if (!s->vars[i].src_e && call_of(s, right, &s->o->sources, &fn))
        s->vars[i].src_s = ts_node_start_byte(fn), s->vars[i].src_e = ts_node_end_byte(fn);
      return;
    }
}

static void add_call(scan *s, TSNode call) {
  TSNode fn, args = ts_node_child_by_field_name(call, "arguments", 9), sfn;
  if (!call_of(s, call, &s->o->sinks, &fn) || ts_node_is_null(args) || ts_node_named_child_count(args) == 0) return;
  TSNode arg = unwrap(ts_node_named_child(args, 0));
  if (ts_node_is_null(arg)) return;
  sink_call c = {ts_node_start_byte(fn), ts_node_end_byte(fn), ts_node_start_byte(arg), ts_node_end_byte(arg),
                 false, 0, 0};
  if (call_of(s, arg, &s->o->sources, &sfn)) {
    c.arg_is_source = true;
    c.src_s = ts_node_start_byte(sfn), c.src_e = ts_node_end_byte(sfn);
  } else if (strcmp(ts_node_type(arg), "identifier")) {
    return;
  }
  TT_PUSH(s->sinks, s->n_sinks, s->sinks_cap, c);
}

static bool collect(TSNode n, void *ctx) {
  scan *s = ctx;
  const char *t = ts_node_type(n);
  if (!strcmp(t, "declaration")) add_declaration(s, n);
  else if (!strcmp(t, "assignment_expression")) add_assignment(s, n);
  else if (!strcmp(t, "call_expression")) add_call(s, n);
  return true;
}

typedef struct report_ctx {
  tt_analyzer_emit emit;
  void *ud;
} report_ctx;

/* The sink calls that count `v` are findings of their own, each with its own edit
 * (`__popc` -> `__popcll`), so that every line that needs a change is reported. */
static void report_sinks(scan *s, report_ctx *rc, const narrow_var *v, tt_binding *b) {
  for (size_t j = 0; j < s->n_sinks; j++) {
    const sink_call *c = &s->sinks[j];
    if (c->arg_is_source || !same_text(s, c->arg_s, c->arg_e, v->name_s, v->name_e) || c->fn_s < v->name_e) continue;
    tt_edit e = {c->fn_s, c->fn_e, (char *)tt_strmap_get(&s->o->sinks, text(s, c->fn_s), c->fn_e - c->fn_s)};
    b[3] = (tt_binding){"sink", text(s, c->fn_s), c->fn_e - c->fn_s, c->fn_s, c->fn_e};
    tt_analyzer_hit h = {c->fn_s, c->arg_e + 1, b, 5, &e, 1, true};
    rc->emit(rc->ud, &h);
  }
}

static void report_function(scan *s, report_ctx *rc) {
  const char *wide = s->o->wide_type;
  for (size_t i = 0; i < s->n_vars; i++) {
    narrow_var *v = &s->vars[i];
    if (!v->src_e) continue;
    tt_edit edits[1] = {{v->type_s, v->type_e, (char *)wide}};
    size_t ne = 1;
    const char *sink = "", *sink_end = sink;
    for (size_t j = 0; j < s->n_sinks && !*sink; j++) {
      sink_call *c = &s->sinks[j];
      if (!c->arg_is_source && same_text(s, c->arg_s, c->arg_e, v->name_s, v->name_e))
        sink = text(s, c->fn_s), sink_end = text(s, c->fn_e);
    }
    tt_binding b[] = {{"var", text(s, v->name_s), v->name_e - v->name_s, v->name_s, v->name_e},
                      {"type", text(s, v->type_s), v->type_e - v->type_s, v->type_s, v->type_e},
                      {"source", text(s, v->src_s), v->src_e - v->src_s, v->src_s, v->src_e},
                      {"sink", sink, (size_t)(sink_end - sink), 0, 0},
                      {"wide", wide, strlen(wide), v->type_s, v->type_e}};
    tt_analyzer_hit h = {v->type_s, v->name_e, b, 5, edits, ne, true};
    rc->emit(rc->ud, &h);
    report_sinks(s, rc, v, b);
  }
  for (size_t j = 0; j < s->n_sinks; j++) {
    sink_call *c = &s->sinks[j];
    if (!c->arg_is_source) continue;
    const char *to = tt_strmap_get(&s->o->sinks, text(s, c->fn_s), c->fn_e - c->fn_s);
    tt_edit e = {c->fn_s, c->fn_e, (char *)to};
    tt_binding b[] = {{"var", "", 0, 0, 0},
                      {"type", "", 0, 0, 0},
                      {"source", text(s, c->src_s), c->src_e - c->src_s, c->src_s, c->src_e},
                      {"sink", text(s, c->fn_s), c->fn_e - c->fn_s, c->fn_s, c->fn_e},
                      {"wide", to, strlen(to), c->fn_s, c->fn_e}};
    tt_analyzer_hit h = {c->fn_s, c->arg_e, b, 5, &e, 1, true};
    rc->emit(rc->ud, &h);
  }
}

struct fn_walk {
  const ns_opts *o;
  const tt_tree *tree;
  report_ctx rc;      /* rc.emit NULL: a header's walk, collecting wrapper names only */
  tt_strmap wrappers; /* name -> "" for functions whose return value is a source call */
  bool headers_loaded;
};

typedef struct ret_scan {
  scan *s;
  bool returns_source;
  TSNode src_fn;
} ret_scan;

static bool on_return(TSNode n, void *vr) {
  ret_scan *r = vr;
  if (!strcmp(ts_node_type(n), "lambda_expression")) return false;
  if (strcmp(ts_node_type(n), "return_statement")) return true;
  TSNode v = ts_node_named_child_count(n) ? unwrap(ts_node_named_child(n, 0)) : (TSNode){0}, fn;
  if (ts_node_is_null(v)) return false;
  if (call_of(r->s, v, &r->s->o->sources, &fn)) {
    r->returns_source = true, r->src_fn = fn;
  } else if (!strcmp(ts_node_type(v), "identifier")) {
    /* `y = __ballot_sync(m, p); ... return y;`: a variable of the function assigned from a source */
    uint32_t a = ts_node_start_byte(v), b = ts_node_end_byte(v);
    for (size_t i = 0; i < r->s->n_vars; i++)
      if (r->s->vars[i].src_e && same_text(r->s, r->s->vars[i].name_s, r->s->vars[i].name_e, a, b)) {
        r->returns_source = true;
        r->src_fn = ts_node_descendant_for_byte_range(ts_tree_root_node(r->s->tree->ts), r->s->vars[i].src_s,
                                                      r->s->vars[i].src_e);
        break;
      }
  }
  return false;
}

/* A wrapper: a function that returns a source call (`return __ballot_sync(m, p);`). Its
 * calls are sources; when it declares a narrow return type, that is a narrow store. */
static bool on_wrapper(TSNode n, void *ctx) {
  fn_walk *w = ctx;
  if (strcmp(ts_node_type(n), "function_definition")) return true;
  TSNode body = ts_node_child_by_field_name(n, "body", 4), d = ts_node_child_by_field_name(n, "declarator", 10);
  while (!ts_node_is_null(d) && strcmp(ts_node_type(d), "function_declarator"))
    d = ts_node_child_by_field_name(d, "declarator", 10);
  TSNode name = ts_node_is_null(d) ? d : ts_node_child_by_field_name(d, "declarator", 10);
  if (ts_node_is_null(body) || ts_node_is_null(name) || strcmp(ts_node_type(name), "identifier")) return false;
  scan s = {.o = w->o, .tree = w->tree, .wrapper_names = &w->wrappers, .walk = w};
  tt_tree_walk(body, collect, &s); /* the narrow variables a `return y;` may name */
  ret_scan r = {&s, false, {{0}, 0, 0}};
  tt_tree_walk(body, on_return, &r);
  free(s.vars);
  free(s.sinks);
  if (!r.returns_source) return false;
  uint32_t a = ts_node_start_byte(name), b = ts_node_end_byte(name);
  char *k = tt_xstrndup(text(&s, a), b - a);
  tt_strmap_put(&w->wrappers, k, "");
  free(k);
  TSNode type = ts_node_child_by_field_name(n, "type", 4);
  if (!w->rc.emit || ts_node_is_null(type) || !is_narrow_type(&s, type)) return false;
  const char *wide = w->o->wide_type;
  uint32_t ts, te;
  type_range(&s, type, &ts, &te);
  uint32_t ss = ts_node_start_byte(r.src_fn), se = ts_node_end_byte(r.src_fn);
  tt_edit e = {ts, te, (char *)wide};
  tt_binding bd[] = {{"var", text(&s, a), b - a, a, b},
                     {"type", text(&s, ts), te - ts, ts, te},
                     {"source", text(&s, ss), se - ss, ss, se},
                     {"sink", "return", 6, 0, 0},
                     {"wide", wide, strlen(wide), ts, te}};
  tt_analyzer_hit h = {ts, b, bd, 5, &e, 1, true};
  w->rc.emit(w->rc.ud, &h);
  return false;
}

/* The wrappers of the local headers of `tree` into `into` (deepest first, so a header's
 * wrapper of another header's wrapper is known). `seen` holds the paths read. */
static void header_wrappers(fn_walk *into, const tt_tree *tree, int depth, tt_strmap *seen);

static bool on_include(TSNode n, void *vctx) {
  void **a = vctx;
  fn_walk *into = a[0];
  const tt_tree *tree = a[1];
  int depth = *(int *)a[2];
  tt_strmap *seen = a[3];
  if (strcmp(ts_node_type(n), "preproc_include")) return true;
  TSNode path = ts_node_child_by_field_name(n, "path", 4);
  if (ts_node_is_null(path) || strcmp(ts_node_type(path), "string_literal")) return false;
  uint32_t ps = ts_node_start_byte(path) + 1, pe = ts_node_end_byte(path) - 1;
  if (pe <= ps) return false;
  char *dir = tt_fs_dirname(tree->src->path), *rel = tt_xstrndup(tree->src->text + ps, pe - ps);
  char *full = tt_fs_join(dir, rel), *body;
  size_t len;
  if (!tt_strmap_get(seen, full, strlen(full)) && tt_fs_read(full, &body, &len, NULL) == 0) {
    tt_strmap_put(seen, full, "");
    tt_source *src = tt_source_new(full, body, len, tree->src->lang);
    tt_tree *t = src ? tt_tree_parse(src) : NULL;
    if (t) {
      header_wrappers(into, t, depth + 1, seen);
      fn_walk hw = {into->o, t, {NULL, NULL}, {0}, true};
      hw.wrappers = into->wrappers; /* shared: the header's wrappers go into the file's map */
      tt_tree_walk(ts_tree_root_node(t->ts), on_wrapper, &hw);
      into->wrappers = hw.wrappers;
    }
    tt_tree_free(t);
    if (src) tt_source_free(src);
    else free(body);
  }
  free(full);
  free(rel);
  free(dir);
  return false;
}

static void header_wrappers(fn_walk *into, const tt_tree *tree, int depth, tt_strmap *seen) {
  if (depth >= 3 || !tree->src->path) return;
  void *a[] = {into, (void *)tree, &depth, seen};
  tt_tree_walk(ts_tree_root_node(tree->ts), on_include, a);
}

static void load_header_wrappers(fn_walk *w) {
  if (w->headers_loaded) return;
  w->headers_loaded = true;
  if (!w->o->wrappers || !w->rc.emit) return;
  tt_strmap seen = {0};
  header_wrappers(w, w->tree, 0, &seen);
  tt_strmap_free(&seen);
}

static bool on_function(TSNode n, void *ctx) {
  fn_walk *w = ctx;
  if (strcmp(ts_node_type(n), "function_definition")) return true;
  scan s = {.o = w->o, .tree = w->tree, .wrapper_names = &w->wrappers, .walk = w};
  tt_tree_walk(n, collect, &s);
  report_function(&s, &w->rc);
  free(s.vars);
  free(s.sinks);
  return false; /* nested functions (lambdas) are part of this one's scan */
}

static void run(const void *opts, tt_filectx *ctx, tt_analyzer_emit emit, void *ud) {
  fn_walk w = {opts, ctx->tree, {emit, ud}, {0}, false};
  if (w.o->wrappers) tt_tree_walk(ts_tree_root_node(ctx->tree->ts), on_wrapper, &w);
  tt_tree_walk(ts_tree_root_node(ctx->tree->ts), on_function, &w);
  tt_strmap_free(&w.wrappers);
}

static const char *const bindings[] = {"var", "type", "source", "sink", "wide", NULL};

const tt_analyzer tt_analyzer_narrow_store = {"narrow-store", bindings, compile_opts, free_opts, run, false, NULL};
