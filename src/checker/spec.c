/* spec.c — loading and validating check specs (see spec.h and DESIGN.md).
 *
 * YAML is read with libfyaml into a document; this file walks the document and
 * checks each key against the format. Positions: libfyaml's token marks are 0-based,
 * messages are 1-based. Mappings and sequences carry no mark of their own in the
 * libfyaml API, so errors about them point at their key. */
#include "checker/spec.h"

#include <errno.h>
#include <libfyaml.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where an error points: the node itself when it is a scalar, else its key. */
typedef struct {
  int line, col;
} pos_t;

typedef struct {
  const char *path;
  char *err;
  int code;            /* 2 spec error, 3 unreadable input */
  tt_check_spec *spec;
} ctx_t;

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static char *xstrndup(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (!d) return NULL;
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

static pos_t node_pos(struct fy_node *n, pos_t fallback) {
  struct fy_token *t = n ? fy_node_get_scalar_token(n) : NULL;
  const struct fy_mark *m = t ? fy_token_start_mark(t) : NULL;
  if (!m) return fallback;
  pos_t p = {m->line + 1, m->column + 1};
  return p;
}

static int fail(ctx_t *c, pos_t p, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(ctx_t *c, pos_t p, const char *key, const char *fmt, ...) {
  if (c->err) return -1;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  size_t n = strlen(c->path) + strlen(key) + strlen(msg) + 64;
  c->err = malloc(n);
  if (c->err) snprintf(c->err, n, "%s:%d:%d: %s: %s", c->path, p.line, p.col, key, msg);
  if (!c->code) c->code = 2;
  return -1;
}

static const char *node_kind(struct fy_node *n) {
  if (!n || fy_node_is_null(n)) return "nothing";
  switch (fy_node_get_type(n)) {
  case FYNT_SEQUENCE: return "a list";
  case FYNT_MAPPING: return "a mapping";
  default: return "a scalar";
  }
}

/* A scalar's text; NULL (with an error) for anything else or an empty value. */
static const char *want_scalar(ctx_t *c, struct fy_node *n, pos_t kp, const char *key, size_t *len) {
  if (!n || fy_node_is_null(n) || !fy_node_is_scalar(n)) {
    fail(c, node_pos(n, kp), key, "expected a value, got %s", node_kind(n));
    return NULL;
  }
  const char *s = fy_node_get_scalar(n, len);
  if (!s || *len == 0) {
    fail(c, node_pos(n, kp), key, "expected a value, got an empty string");
    return NULL;
  }
  return s;
}

static char *want_string(ctx_t *c, struct fy_node *n, pos_t kp, const char *key) {
  size_t len;
  const char *s = want_scalar(c, n, kp, key, &len);
  return s ? xstrndup(s, len) : NULL;
}

/* The column of byte `off` of a scalar: quoted scalars start one byte later. */
static pos_t offset_pos(struct fy_node *n, pos_t p, size_t off) {
  enum fy_node_style st = fy_node_get_style(n);
  p.col += (int)off + ((st == FYNS_SINGLE_QUOTED || st == FYNS_DOUBLE_QUOTED) ? 1 : 0);
  return p;
}

static int want_expr(ctx_t *c, struct fy_node *n, pos_t kp, const char *key, int64_t *out) {
  size_t len;
  const char *s = want_scalar(c, n, kp, key, &len);
  if (!s) return -1;
  tt_check_expr_err e;
  if (tt_check_expr_eval(s, len, &c->spec->sizes, out, &e) != 0)
    return fail(c, offset_pos(n, node_pos(n, kp), e.offset), key, "bad expression '%.*s': %s",
                (int)len, s, e.msg);
  return 0;
}

static int want_positive(ctx_t *c, struct fy_node *n, pos_t kp, const char *key, int64_t *out, int allow_zero) {
  if (want_expr(c, n, kp, key, out) != 0) return -1;
  if (*out < 0 || (*out == 0 && !allow_zero))
    return fail(c, node_pos(n, kp), key, "must be %s, is %lld", allow_zero ? ">= 0" : "> 0", (long long)*out);
  return 0;
}

static int want_number(ctx_t *c, struct fy_node *n, pos_t kp, const char *key, double *out) {
  size_t len;
  const char *s = want_scalar(c, n, kp, key, &len);
  if (!s) return -1;
  int is_float;
  int64_t iv;
  tt_check_expr_err e;
  if (tt_check_expr_number(s, len, &c->spec->sizes, &is_float, &iv, out, &e) != 0)
    return fail(c, node_pos(n, kp), key, "expected a number, got '%.*s'", (int)len, s);
  return 0;
}

/* YAML 1.2 core schema booleans only: `yes`/`on` are strings there, and a spec that
 * relied on YAML 1.1 would silently mean something else elsewhere. */
static int want_bool(ctx_t *c, struct fy_node *n, pos_t kp, const char *key, int *out) {
  size_t len;
  const char *s = want_scalar(c, n, kp, key, &len);
  if (!s) return -1;
  if (fy_node_get_style(n) == FYNS_PLAIN) {
    static const char *t[] = {"true", "True", "TRUE"}, *f[] = {"false", "False", "FALSE"};
    for (int i = 0; i < 3; i++) {
      if (strlen(t[i]) == len && !memcmp(t[i], s, len)) { *out = 1; return 0; }
      if (strlen(f[i]) == len && !memcmp(f[i], s, len)) { *out = 0; return 0; }
    }
  }
  return fail(c, node_pos(n, kp), key, "expected true or false, got '%.*s'", (int)len, s);
}

/* One mapping's pairs, checked against the keys the format allows. */
typedef struct {
  const char *key;
  struct fy_node *val;
  pos_t kpos;
  int present;
} slot_t;

static int take_mapping(ctx_t *c, struct fy_node *map, pos_t kp, const char *where,
                        slot_t *slots, size_t nslots) {
  if (!map || fy_node_is_null(map) || !fy_node_is_mapping(map))
    return fail(c, node_pos(map, kp), where[0] ? where : "spec", "expected a mapping, got %s", node_kind(map));
  void *it = NULL;
  struct fy_node_pair *pr;
  while ((pr = fy_node_mapping_iterate(map, &it))) {
    struct fy_node *k = fy_node_pair_key(pr);
    size_t klen = 0;
    const char *ks = k && fy_node_is_scalar(k) ? fy_node_get_scalar(k, &klen) : NULL;
    pos_t p = node_pos(k, kp);
    char full[160];
    snprintf(full, sizeof full, "%s%s%.*s", where, where[0] ? "." : "", (int)(ks ? klen : 1), ks ? ks : "?");
    if (!ks) return fail(c, p, where[0] ? where : "spec", "keys must be plain strings");
    size_t i;
    for (i = 0; i < nslots; i++)
      if (strlen(slots[i].key) == klen && !memcmp(slots[i].key, ks, klen)) break;
    if (i == nslots) {
      char known[400] = "";
      for (size_t j = 0; j < nslots; j++) {
        strncat(known, slots[j].key, sizeof known - strlen(known) - 3);
        if (j + 1 < nslots) strncat(known, ", ", sizeof known - strlen(known) - 1);
      }
      return fail(c, p, full, "unknown key (known here: %s)", known);
    }
    slots[i].val = fy_node_pair_value(pr);
    slots[i].kpos = p;
    slots[i].present = 1;
  }
  return 0;
}

static slot_t *slot(slot_t *s, size_t n, const char *key) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(s[i].key, key)) return &s[i];
  return NULL;
}

static char *resolve_path(const char *dir, const char *rel) {
  if (rel[0] == '/' || !dir[0]) return xstrdup(rel);
  size_t n = strlen(dir) + strlen(rel) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s", dir, rel);
  return p;
}

static int want_file(ctx_t *c, slot_t *s, const char *key, char **out) {
  char *rel = want_string(c, s->val, s->kpos, key);
  if (!rel) return -1;
  *out = resolve_path(c->spec->dir, rel);
  free(rel);
  FILE *f = *out ? fopen(*out, "rb") : NULL;
  if (!f) {
    int e = errno;
    fail(c, node_pos(s->val, s->kpos), key, "cannot read %s: %s", *out ? *out : "?", strerror(e));
    c->code = 3;
    return -1;
  }
  fclose(f);
  return 0;
}

static int parse_sizes(ctx_t *c, slot_t *s) {
  struct fy_node *m = s->val;
  if (!m || fy_node_is_null(m)) return 0;
  if (!fy_node_is_mapping(m)) return fail(c, s->kpos, "sizes", "expected a mapping, got %s", node_kind(m));
  int n = fy_node_mapping_item_count(m);
  tt_check_env *env = &c->spec->sizes;
  env->names = calloc((size_t)n + 1, sizeof *env->names);
  env->values = calloc((size_t)n + 1, sizeof *env->values);
  if (!env->names || !env->values) return fail(c, s->kpos, "sizes", "out of memory");
  void *it = NULL;
  struct fy_node_pair *pr;
  while ((pr = fy_node_mapping_iterate(m, &it))) {
    struct fy_node *k = fy_node_pair_key(pr);
    pos_t kp = node_pos(k, s->kpos);
    size_t klen = 0;
    const char *ks = k && fy_node_is_scalar(k) ? fy_node_get_scalar(k, &klen) : NULL;
    int ok = ks && klen > 0 && (ks[0] == '_' || ((ks[0] | 32) >= 'a' && (ks[0] | 32) <= 'z'));
    for (size_t i = 1; ok && i < klen; i++)
      ok = ks[i] == '_' || (ks[i] >= '0' && ks[i] <= '9') || ((ks[i] | 32) >= 'a' && (ks[i] | 32) <= 'z');
    if (!ok) return fail(c, kp, "sizes", "'%.*s' is not a name (letters, digits, _)", (int)klen, ks ? ks : "");
    char key[160];
    snprintf(key, sizeof key, "sizes.%.*s", (int)klen, ks);
    int64_t dummy;
    if (tt_check_env_get(env, ks, klen, &dummy) == 0) return fail(c, kp, key, "defined twice");
    static const char *reserved[] = {"cdiv", "min", "max"};
    for (int i = 0; i < 3; i++)
      if (strlen(reserved[i]) == klen && !memcmp(reserved[i], ks, klen))
        return fail(c, kp, key, "'%s' is a function name", reserved[i]);
    /* Earlier sizes are visible to later ones, so `tiles: cdiv(n, tile)` works. */
    int64_t v;
    if (want_expr(c, fy_node_pair_value(pr), kp, key, &v) != 0) return -1;
    env->names[env->count] = xstrndup(ks, klen);
    env->values[env->count] = v;
    env->count++;
  }
  return 0;
}

/* grid/block: a list of 1-3 expressions, or one expression. */
static int parse_dims(ctx_t *c, slot_t *s, const char *key, int64_t dims[3], int *ndims) {
  dims[0] = dims[1] = dims[2] = 1;
  struct fy_node *n = s->val;
  if (n && fy_node_is_scalar(n) && !fy_node_is_null(n)) {
    *ndims = 1;
    return want_positive(c, n, s->kpos, key, &dims[0], 0);
  }
  if (!n || !fy_node_is_sequence(n))
    return fail(c, node_pos(n, s->kpos), key, "expected a list of 1 to 3 expressions, got %s", node_kind(n));
  int cnt = fy_node_sequence_item_count(n);
  if (cnt < 1 || cnt > 3) return fail(c, s->kpos, key, "expected 1 to 3 dimensions, got %d", cnt);
  void *it = NULL;
  struct fy_node *e;
  int i = 0;
  while ((e = fy_node_sequence_iterate(n, &it))) {
    char k[64];
    snprintf(k, sizeof k, "%s[%d]", key, i);
    if (want_positive(c, e, s->kpos, k, &dims[i], 0) != 0) return -1;
    i++;
  }
  *ndims = cnt;
  return 0;
}

static int parse_launch(ctx_t *c, slot_t *s) {
  tt_check_spec *sp = c->spec;
  slot_t sl[] = {{.key = "grid"}, {.key = "block"}, {.key = "shared_bytes"}};
  if (take_mapping(c, s->val, s->kpos, "launch", sl, 3) != 0) return -1;
  if (!sl[0].present) return fail(c, s->kpos, "launch.grid", "missing (required)");
  if (parse_dims(c, &sl[0], "launch.grid", sp->grid, &sp->grid_dims) != 0) return -1;
  if (sp->lang == TT_CHECK_LANG_CUTILE_PYTHON) {
    /* Tile kernels have no threads: a block size would be meaningless. */
    for (int i = 1; i < 3; i++)
      if (sl[i].present)
        return fail(c, sl[i].kpos, i == 1 ? "launch.block" : "launch.shared_bytes",
                    "tile kernels (language: cutile-python) take launch: {grid: [...]} only");
    sp->block[0] = sp->block[1] = sp->block[2] = 1;
    sp->block_dims = 1;
    return 0;
  }
  if (!sl[1].present) return fail(c, s->kpos, "launch.block", "missing (required)");
  if (parse_dims(c, &sl[1], "launch.block", sp->block, &sp->block_dims) != 0) return -1;
  if (sl[2].present && want_positive(c, sl[2].val, sl[2].kpos, "launch.shared_bytes", &sp->shared_bytes, 1) != 0)
    return -1;
  return 0;
}

static int parse_type(ctx_t *c, slot_t *s, const char *key, tt_check_arg *a) {
  size_t len;
  const char *t = want_scalar(c, s->val, s->kpos, key, &len);
  if (!t) return -1;
  size_t n = len;
  while (n && t[n - 1] == ' ') n--;
  a->is_buffer = n && t[n - 1] == '*';
  if (a->is_buffer) n--;
  while (n && t[n - 1] == ' ') n--;
  if (tt_check_dtype_parse(t, n, &a->dtype) != 0)
    return fail(c, node_pos(s->val, s->kpos), key,
                "unknown type '%.*s' (known: f16 bf16 f32 f64 i8 i16 i32 i64 u8 u32 u64, '*' for buffers)",
                (int)len, t);
  return 0;
}

static int parse_shape(ctx_t *c, slot_t *s, const char *key, tt_check_arg *a) {
  struct fy_node *n = s->val;
  if (!n || !fy_node_is_sequence(n))
    return fail(c, node_pos(n, s->kpos), key, "expected a list of dimensions, got %s", node_kind(n));
  int cnt = fy_node_sequence_item_count(n);
  if (cnt < 1) return fail(c, s->kpos, key, "needs at least one dimension");
  a->shape = calloc((size_t)cnt, sizeof *a->shape);
  if (!a->shape) return fail(c, s->kpos, key, "out of memory");
  a->ndim = cnt;
  a->len = 1;
  void *it = NULL;
  struct fy_node *e;
  int i = 0;
  while ((e = fy_node_sequence_iterate(n, &it))) {
    char k[192];
    snprintf(k, sizeof k, "%s[%d]", key, i);
    if (want_positive(c, e, s->kpos, k, &a->shape[i], 0) != 0) return -1;
    if (__builtin_mul_overflow(a->len, a->shape[i], &a->len)) return fail(c, s->kpos, key, "too many elements");
    i++;
  }
  return 0;
}

static int parse_value(ctx_t *c, slot_t *s, const char *key, tt_check_arg *a) {
  size_t len;
  const char *t = want_scalar(c, s->val, s->kpos, key, &len);
  if (!t) return -1;
  tt_check_expr_err e;
  if (tt_check_expr_number(t, len, &c->spec->sizes, &a->value_is_float, &a->ivalue, &a->fvalue, &e) != 0)
    return fail(c, offset_pos(s->val, node_pos(s->val, s->kpos), e.offset), key,
                "bad expression '%.*s': %s (or not a float literal)", (int)len, t, e.msg);
  a->has_value = 1;
  return 0;
}

static int parse_arg(ctx_t *c, struct fy_node *n, pos_t seqpos, size_t idx) {
  tt_check_spec *sp = c->spec;
  tt_check_arg *a = &sp->args[idx];
  char where[64];
  snprintf(where, sizeof where, "args[%zu]", idx);
  slot_t sl[] = {{.key = "name"}, {.key = "type"}, {.key = "len"}, {.key = "shape"}, {.key = "init"}, {.key = "output"}, {.key = "value"}, {.key = "constant"}};
  const size_t ns = sizeof sl / sizeof sl[0];
  if (take_mapping(c, n, seqpos, where, sl, ns) != 0) return -1;
  /* The argument's own position: its first key. */
  pos_t apos = seqpos;
  for (size_t i = 0; i < ns; i++)
    if (sl[i].present && (sl[i].kpos.line < apos.line || apos.line == seqpos.line)) apos = sl[i].kpos;
  a->line = apos.line;
  a->column = apos.col;
  char key[128];
#define KEY(k) (snprintf(key, sizeof key, "%s.%s", where, k), key)
  if (!slot(sl, ns, "name")->present) return fail(c, apos, KEY("name"), "missing (required)");
  if (!(a->name = want_string(c, slot(sl, ns, "name")->val, slot(sl, ns, "name")->kpos, KEY("name")))) return -1;
  for (size_t j = 0; j < idx; j++)
    if (!strcmp(sp->args[j].name, a->name))
      return fail(c, slot(sl, ns, "name")->kpos, KEY("name"), "'%s' is already the name of args[%zu]", a->name, j);
  snprintf(where, sizeof where, "args[%zu] (%s)", idx, a->name);
  slot_t *ty = slot(sl, ns, "type"), *ln = slot(sl, ns, "len"), *sh = slot(sl, ns, "shape");
  slot_t *in = slot(sl, ns, "init"), *out = slot(sl, ns, "output"), *val = slot(sl, ns, "value");
  slot_t *cst = slot(sl, ns, "constant");
  int tile = sp->lang == TT_CHECK_LANG_CUTILE_PYTHON;
  if (cst->present && !tile)
    return fail(c, cst->kpos, KEY("constant"), "only tile kernels (language: cutile-python) have constants; use value:");
  if (sh->present && !tile)
    return fail(c, sh->kpos, KEY("shape"), "only tile kernels (language: cutile-python) use shape:; use len:");
  if (ty->present) {
    if (parse_type(c, ty, KEY("type"), a) != 0) return -1;
  } else if (!cst->present) {
    return fail(c, apos, KEY("type"), "missing (required)");
  }
  if (cst->present) {
    /* ct.Constant parameter: a scalar, typed i64/f64 from its literal unless `type:` says. */
    if (a->is_buffer) return fail(c, ty->kpos, KEY("type"), "a constant cannot be a buffer");
    if (val->present) return fail(c, val->kpos, KEY("value"), "give either value: or constant:, not both");
    if (parse_value(c, cst, KEY("constant"), a) != 0) return -1;
    a->is_constant = 1;
    if (!ty->present) a->dtype = a->value_is_float ? TT_CHECK_F64 : TT_CHECK_I64;
  }
  if (a->is_buffer) {
    if (val->present) return fail(c, val->kpos, KEY("value"), "a buffer (type ending in '*') takes init:, not value:");
    if (ln->present && sh->present) return fail(c, sh->kpos, KEY("shape"), "give either len: or shape:, not both");
    if (sh->present) {
      if (parse_shape(c, sh, KEY("shape"), a) != 0) return -1;
    } else if (ln->present) {
      if (want_positive(c, ln->val, ln->kpos, KEY("len"), &a->len, 1) != 0) return -1;
    } else {
      return fail(c, apos, KEY(tile ? "shape" : "len"), "missing (required for a buffer)");
    }
    if (in->present) {
      size_t len;
      const char *t = want_scalar(c, in->val, in->kpos, KEY("init"), &len);
      char msg[256];
      if (!t) return -1;
      if (tt_check_init_parse(t, len, &a->init, msg, sizeof msg) != 0)
        return fail(c, node_pos(in->val, in->kpos), KEY("init"), "%s", msg);
      a->has_init = 1;
    }
    if (out->present && want_bool(c, out->val, out->kpos, KEY("output"), &a->output) != 0) return -1;
  } else {
    slot_t *bad[] = {ln, sh, in, out};
    const char *names[] = {"len", "shape", "init", "output"};
    for (int i = 0; i < 4; i++)
      if (bad[i]->present)
        return fail(c, bad[i]->kpos, KEY(names[i]), "only buffers (type ending in '*') take %s:", names[i]);
    if (!a->is_constant) {
      if (!val->present) return fail(c, apos, KEY("value"), "missing (required for a scalar argument)");
      if (parse_value(c, val, KEY("value"), a) != 0) return -1;
    }
    if (a->value_is_float && !tt_check_dtype_is_float(a->dtype))
      return fail(c, node_pos(cst->present ? cst->val : val->val, apos), KEY(cst->present ? "constant" : "value"),
                  "%g is not an integer, but the type is %s", a->fvalue, tt_check_dtype_name(a->dtype));
  }
#undef KEY
  return 0;
}

static int parse_args(ctx_t *c, slot_t *s) {
  tt_check_spec *sp = c->spec;
  if (!s->val || !fy_node_is_sequence(s->val))
    return fail(c, node_pos(s->val, s->kpos), "args", "expected a list of arguments, got %s", node_kind(s->val));
  int cnt = fy_node_sequence_item_count(s->val);
  sp->args = calloc((size_t)cnt + 1, sizeof *sp->args);
  if (!sp->args) return fail(c, s->kpos, "args", "out of memory");
  void *it = NULL;
  struct fy_node *e;
  while ((e = fy_node_sequence_iterate(s->val, &it))) {
    sp->nargs++; /* counted first so that free() sees a partly filled arg */
    if (parse_arg(c, e, s->kpos, sp->nargs - 1) != 0) return -1;
  }
  int outputs = 0;
  for (size_t i = 0; i < sp->nargs; i++) outputs += sp->args[i].output;
  if (!outputs) return fail(c, s->kpos, "args", "no argument has output: true, so there is nothing to compare");
  return 0;
}

static int parse_tolerance(ctx_t *c, slot_t *s) {
  tt_check_spec *sp = c->spec;
  slot_t sl[] = {{.key = "atol"}, {.key = "rtol"}};
  if (take_mapping(c, s->val, s->kpos, "tolerance", sl, 2) != 0) return -1;
  double *dst[] = {&sp->atol, &sp->rtol};
  int *has[] = {&sp->has_atol, &sp->has_rtol};
  for (int i = 0; i < 2; i++) {
    if (!sl[i].present) continue;
    char key[32];
    snprintf(key, sizeof key, "tolerance.%s", sl[i].key);
    if (want_number(c, sl[i].val, sl[i].kpos, key, dst[i]) != 0) return -1;
    if (!(*dst[i] >= 0)) return fail(c, node_pos(sl[i].val, sl[i].kpos), key, "must be >= 0");
    *has[i] = 1;
  }
  return 0;
}

static const char *const k_detectors[] = {"race", "inactive-lane-read"};

const char *tt_check_detector_name(tt_check_detector d) {
  return (unsigned)d < 2 ? k_detectors[d] : "?";
}

/* waive: [{detector: race, kernel: k, reason: "..."}, ...] */
static int parse_waive(ctx_t *c, slot_t *s) {
  tt_check_spec *sp = c->spec;
  if (!s->val || !fy_node_is_sequence(s->val))
    return fail(c, node_pos(s->val, s->kpos), "waive", "expected a list of {detector, kernel, reason}, got %s",
                node_kind(s->val));
  int cnt = fy_node_sequence_item_count(s->val);
  sp->waivers = calloc((size_t)cnt + 1, sizeof *sp->waivers);
  if (!sp->waivers) return fail(c, s->kpos, "waive", "out of memory");
  void *it = NULL;
  struct fy_node *e;
  while ((e = fy_node_sequence_iterate(s->val, &it))) {
    tt_check_waiver *w = &sp->waivers[sp->nwaivers++];
    slot_t sl[] = {{.key = "detector"}, {.key = "kernel"}, {.key = "reason"}};
    if (take_mapping(c, e, s->kpos, "waive", sl, 3) != 0) return -1;
    for (int i = 0; i < 3; i++)
      if (!sl[i].present) return fail(c, node_pos(e, s->kpos), sl[i].key, "missing in a waive entry (required)");
    size_t len;
    const char *d = want_scalar(c, sl[0].val, sl[0].kpos, "waive.detector", &len);
    if (!d) return -1;
    int found = -1;
    for (int i = 0; i < 2; i++)
      if (strlen(k_detectors[i]) == len && !memcmp(k_detectors[i], d, len)) found = i;
    if (found < 0)
      return fail(c, node_pos(sl[0].val, sl[0].kpos), "waive.detector",
                  "unknown detector '%.*s' (known: race, inactive-lane-read)", (int)len, d);
    w->detector = (tt_check_detector)found;
    if (!(w->kernel = want_string(c, sl[1].val, sl[1].kpos, "waive.kernel"))) return -1;
    if (strcmp(w->kernel, sp->kernel) != 0)
      return fail(c, node_pos(sl[1].val, sl[1].kpos), "waive.kernel", "'%s' is not the spec's kernel ('%s')",
                  w->kernel, sp->kernel);
    if (!(w->reason = want_string(c, sl[2].val, sl[2].kpos, "waive.reason"))) return -1;
    if (!w->reason[0]) return fail(c, node_pos(sl[2].val, sl[2].kpos), "waive.reason", "must say why");
  }
  return 0;
}

static int parse_root(ctx_t *c, struct fy_node *root) {
  tt_check_spec *sp = c->spec;
  pos_t top = {1, 1};
  slot_t sl[] = {{.key = "name"}, {.key = "source"}, {.key = "kernel"}, {.key = "candidate"}, {.key = "language"}, {.key = "seed"},
                 {.key = "sizes"}, {.key = "launch"}, {.key = "args"}, {.key = "tolerance"}, {.key = "waive"}};
  const size_t ns = sizeof sl / sizeof sl[0];
  if (take_mapping(c, root, top, "", sl, ns) != 0) return -1;
  slot_t *lang = slot(sl, ns, "language");
  if (lang->present) {
    size_t len;
    const char *l = want_scalar(c, lang->val, lang->kpos, "language", &len);
    if (!l) return -1;
    if (len == 4 && !memcmp(l, "cuda", 4)) sp->lang = TT_CHECK_LANG_CUDA;
    else if (len == 13 && !memcmp(l, "cutile-python", 13)) sp->lang = TT_CHECK_LANG_CUTILE_PYTHON;
    else return fail(c, node_pos(lang->val, lang->kpos), "language", "unknown language '%.*s' (known: cuda, cutile-python)", (int)len, l);
  }
  const char *required[] = {"source", "kernel", "launch", "args"};
  for (int i = 0; i < 4; i++)
    if (!slot(sl, ns, required[i])->present) return fail(c, top, required[i], "missing (required)");
  slot_t *s;
  if (want_file(c, slot(sl, ns, "source"), "source", &sp->source) != 0) return -1;
  s = slot(sl, ns, "kernel");
  if (!(sp->kernel = want_string(c, s->val, s->kpos, "kernel"))) return -1;
  s = slot(sl, ns, "name");
  if (s->present) {
    if (!(sp->name = want_string(c, s->val, s->kpos, "name"))) return -1;
  } else {
    sp->name = xstrdup(sp->kernel);
  }
  s = slot(sl, ns, "candidate");
  if (s->present && want_file(c, s, "candidate", &sp->candidate) != 0) return -1;
  s = slot(sl, ns, "seed");
  if (s->present) {
    int64_t seed;
    if (want_positive(c, s->val, s->kpos, "seed", &seed, 1) != 0) return -1;
    sp->seed = (uint64_t)seed;
  }
  s = slot(sl, ns, "sizes");
  if (s->present && parse_sizes(c, s) != 0) return -1;
  if (parse_launch(c, slot(sl, ns, "launch")) != 0) return -1;
  if (parse_args(c, slot(sl, ns, "args")) != 0) return -1;
  s = slot(sl, ns, "tolerance");
  if (s->present && parse_tolerance(c, s) != 0) return -1;
  s = slot(sl, ns, "waive");
  if (s->present && parse_waive(c, s) != 0) return -1;
  return 0;
}

static char *dirname_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return xstrdup("");
  if (slash == path) return xstrdup("/");
  return xstrndup(path, (size_t)(slash - path));
}

int tt_check_spec_parse(const char *path, const char *text, size_t len,
                        tt_check_spec *out, char **err) {
  memset(out, 0, sizeof *out);
  *err = NULL;
  out->path = xstrdup(path);
  out->dir = dirname_of(path);
  ctx_t c = {path, NULL, 0, out};

  struct fy_diag_cfg dc;
  fy_diag_cfg_default(&dc);
  dc.fp = NULL;
  dc.output_fn = NULL;
  dc.level = FYET_ERROR;
  struct fy_diag *diag = fy_diag_create(&dc);
  if (!diag) {
    *err = xstrdup("out of memory");
    return 2;
  }
  fy_diag_set_collect_errors(diag, true);
  /* YAML 1.2: `1e-4` is a number and `yes` is a string; aliases are resolved. */
  struct fy_parse_cfg cfg = {0};
  cfg.flags = FYPCF_QUIET | FYPCF_COLLECT_DIAG | FYPCF_RESOLVE_DOCUMENT | FYPCF_DEFAULT_VERSION_1_2;
  cfg.diag = diag;
  struct fy_document *doc = fy_document_build_from_string(&cfg, text, len);
  if (!doc) {
    void *it = NULL;
    struct fy_diag_error *e = fy_diag_errors_iterate(diag, &it);
    pos_t p = {e ? e->line : 1, e ? e->column : 1};
    fail(&c, p, "yaml", "%s", e && e->msg ? e->msg : "not valid YAML");
  } else {
    struct fy_node *root = fy_document_root(doc);
    if (!root) {
      pos_t p = {1, 1};
      fail(&c, p, "spec", "the file is empty");
    } else {
      parse_root(&c, root);
    }
    fy_document_destroy(doc);
  }
  fy_diag_destroy(diag);
  if (c.err) {
    *err = c.err;
    return c.code ? c.code : 2;
  }
  return 0;
}

int tt_check_spec_load(const char *path, tt_check_spec *out, char **err) {
  memset(out, 0, sizeof *out);
  *err = NULL;
  FILE *f = fopen(path, "rb");
  if (!f) {
    int e = errno;
    size_t n = strlen(path) + 128;
    *err = malloc(n);
    if (*err) snprintf(*err, n, "%s: cannot read: %s", path, strerror(e));
    return 3;
  }
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) { free(buf); buf = NULL; }
      else buf = nb;
    }
  }
  int rerr = ferror(f);
  fclose(f);
  if (!buf || rerr) {
    free(buf);
    size_t n = strlen(path) + 64;
    *err = malloc(n);
    if (*err) snprintf(*err, n, "%s: cannot read", path);
    return 3;
  }
  int rc = tt_check_spec_parse(path, buf, len, out, err);
  free(buf);
  return rc;
}

void tt_check_spec_free(tt_check_spec *s) {
  if (!s) return;
  free(s->path);
  free(s->dir);
  free(s->name);
  free(s->source);
  free(s->kernel);
  free(s->candidate);
  for (size_t i = 0; i < s->sizes.count; i++) free(s->sizes.names[i]);
  free(s->sizes.names);
  free(s->sizes.values);
  for (size_t i = 0; i < s->nargs; i++) {
    free(s->args[i].name);
    free(s->args[i].shape);
  }
  free(s->args);
  for (size_t i = 0; i < s->nwaivers; i++) {
    free(s->waivers[i].kernel);
    free(s->waivers[i].reason);
  }
  free(s->waivers);
  memset(s, 0, sizeof *s);
}

void tt_check_spec_tolerance(const tt_check_spec *s, tt_check_dtype t, double *atol, double *rtol) {
  tt_check_dtype_default_tol(t, atol, rtol);
  if (s->has_atol) *atol = s->atol;
  if (s->has_rtol) *rtol = s->rtol;
}
