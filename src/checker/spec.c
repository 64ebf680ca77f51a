/* spec.c — loading and validating check specs (see spec.h and DESIGN.md).
 *
 * YAML is read with libfyaml into a document; this file walks the document and
 * checks each key against the format. Positions: libfyaml's token marks are 0-based,
 * messages are 1-based. Mappings and sequences carry no mark of their own in the
 * libfyaml API, so errors about them point at their key. */
#include "checker/spec.h"
#include "checker/data.h"
#include "checker/spec_yaml.h"

#include <errno.h>
#include <libfyaml.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_sizes(tt_check_y_ctx *c, tt_check_y_slot *s) {
  struct fy_node *m = s->val;
  if (!m || fy_node_is_null(m)) return 0;
  if (!fy_node_is_mapping(m)) return tt_check_y_fail(c, s->kpos, "sizes", "expected a mapping, got %s", tt_check_y_node_kind(m));
  int n = fy_node_mapping_item_count(m);
  tt_check_env *env = &c->spec->sizes;
  env->names = calloc((size_t)n + 1, sizeof *env->names);
  env->values = calloc((size_t)n + 1, sizeof *env->values);
  if (!env->names || !env->values) return tt_check_y_fail(c, s->kpos, "sizes", "out of memory");
  void *it = NULL;
  struct fy_node_pair *pr;
  while ((pr = fy_node_mapping_iterate(m, &it))) {
    struct fy_node *k = fy_node_pair_key(pr);
    tt_check_y_pos kp = tt_check_y_node_pos(k, s->kpos);
    size_t klen = 0;
    const char *ks = k && fy_node_is_scalar(k) ? fy_node_get_scalar(k, &klen) : NULL;
    int ok = ks && klen > 0 && (ks[0] == '_' || ((ks[0] | 32) >= 'a' && (ks[0] | 32) <= 'z'));
    for (size_t i = 1; ok && i < klen; i++)
      ok = ks[i] == '_' || (ks[i] >= '0' && ks[i] <= '9') || ((ks[i] | 32) >= 'a' && (ks[i] | 32) <= 'z');
    if (!ok) return tt_check_y_fail(c, kp, "sizes", "'%.*s' is not a name (letters, digits, _)", (int)klen, ks ? ks : "");
    char key[160];
    snprintf(key, sizeof key, "sizes.%.*s", (int)klen, ks);
    int64_t dummy;
    if (tt_check_env_get(env, ks, klen, &dummy) == 0) return tt_check_y_fail(c, kp, key, "defined twice");
    static const char *reserved[] = {"cdiv", "min", "max"};
    for (int i = 0; i < 3; i++)
      if (strlen(reserved[i]) == klen && !memcmp(reserved[i], ks, klen))
        return tt_check_y_fail(c, kp, key, "'%s' is a function name", reserved[i]);
    /* Earlier sizes are visible to later ones, so `tiles: cdiv(n, tile)` works. */
    int64_t v;
    if (tt_check_y_want_expr(c, fy_node_pair_value(pr), kp, key, &v) != 0) return -1;
    env->names[env->count] = tt_check_y_xstrndup(ks, klen);
    env->values[env->count] = v;
    env->count++;
  }
  return 0;
}

/* grid/block: a list of 1-3 expressions, or one expression. */
static int parse_dims(tt_check_y_ctx *c, tt_check_y_slot *s, const char *key, int64_t dims[3], int *ndims) {
  dims[0] = dims[1] = dims[2] = 1;
  struct fy_node *n = s->val;
  if (n && fy_node_is_scalar(n) && !fy_node_is_null(n)) {
    *ndims = 1;
    return tt_check_y_want_positive(c, n, s->kpos, key, &dims[0], 0);
  }
  if (!n || !fy_node_is_sequence(n))
    return tt_check_y_fail(c, tt_check_y_node_pos(n, s->kpos), key, "expected a list of 1 to 3 expressions, got %s", tt_check_y_node_kind(n));
  int cnt = fy_node_sequence_item_count(n);
  if (cnt < 1 || cnt > 3) return tt_check_y_fail(c, s->kpos, key, "expected 1 to 3 dimensions, got %d", cnt);
  void *it = NULL;
  struct fy_node *e;
  int i = 0;
  while ((e = fy_node_sequence_iterate(n, &it))) {
    char k[64];
    snprintf(k, sizeof k, "%s[%d]", key, i);
    if (tt_check_y_want_positive(c, e, s->kpos, k, &dims[i], 0) != 0) return -1;
    i++;
  }
  *ndims = cnt;
  return 0;
}

/* The ceiling of launch.shared_bytes. */
static const int64_t k_max_shared_bytes = (int64_t)1 << 20;

/* grid, block, shared_bytes of one launch (the keys of `launch:`, or of an entry of
 * `launches:` under `where`). */
static int parse_dims_into(tt_check_y_ctx *c, tt_check_y_slot *sl, tt_check_y_pos kp, const char *where, tt_check_launch *l) {
  tt_check_spec *sp = c->spec;
  char key[96];
  snprintf(key, sizeof key, "%s.grid", where);
  if (!sl[0].present) return tt_check_y_fail(c, kp, key, "missing (required)");
  int nd;
  if (parse_dims(c, &sl[0], key, l->grid, &nd) != 0) return -1;
  if (tt_check_lang_is_tile(sp->lang)) {
    /* Tile kernels have no threads: a block size would be meaningless. */
    for (int i = 1; i < 3; i++)
      if (sl[i].present)
        return tt_check_y_fail(c, sl[i].kpos, i == 1 ? "launch.block" : "launch.shared_bytes",
                    "tile kernels (language: cutile-python) take launch: {grid: [...]} only");
    l->block[0] = l->block[1] = l->block[2] = 1;
    return 0;
  }
  snprintf(key, sizeof key, "%s.block", where);
  if (!sl[1].present) return tt_check_y_fail(c, kp, key, "missing (required)");
  if (parse_dims(c, &sl[1], key, l->block, &nd) != 0) return -1;
  snprintf(key, sizeof key, "%s.shared_bytes", where);
  if (sl[2].present && tt_check_y_want_positive(c, sl[2].val, sl[2].kpos, key, &l->shared_bytes, 1) != 0) return -1;
  /* No GPU gives a block more than 228 KiB (H100; CDNA's LDS is 64 KiB, gfx950's
   * 160 KiB): a larger value is a typo or an expression gone wrong, and the sim would
   * allocate it for every block. */
  if (l->shared_bytes > k_max_shared_bytes)
    return tt_check_y_fail(c, tt_check_y_node_pos(sl[2].val, sl[2].kpos), key,
                           "%lld bytes is more than any GPU gives a block (at most %lld: 1 MiB)",
                           (long long)l->shared_bytes, (long long)k_max_shared_bytes);
  return 0;
}

static int parse_launch(tt_check_y_ctx *c, tt_check_y_slot *s) {
  tt_check_spec *sp = c->spec;
  tt_check_y_slot sl[] = {{.key = "grid"}, {.key = "block"}, {.key = "shared_bytes"}};
  if (tt_check_y_take_mapping(c, s->val, s->kpos, "launch", sl, 3) != 0) return -1;
  tt_check_launch l = {0};
  if (parse_dims_into(c, sl, s->kpos, "launch", &l) != 0) return -1;
  memcpy(sp->grid, l.grid, sizeof l.grid);
  memcpy(sp->block, l.block, sizeof l.block);
  sp->shared_bytes = l.shared_bytes;
  sp->grid_dims = sp->block_dims = 3;
  return 0;
}

/* `launches:` a sequence of kernels sharing the spec's arguments: each entry names
 * its kernel, its launch dimensions and the arguments it takes, by name. */
static int parse_launches(tt_check_y_ctx *c, tt_check_y_slot *s) {
  tt_check_spec *sp = c->spec;
  if (!s->val || !fy_node_is_sequence(s->val) || fy_node_sequence_item_count(s->val) < 1)
    return tt_check_y_fail(c, tt_check_y_node_pos(s->val, s->kpos), "launches", "expected a list of launches, got %s", tt_check_y_node_kind(s->val));
  int cnt = fy_node_sequence_item_count(s->val);
  sp->launches = calloc((size_t)cnt + 1, sizeof *sp->launches);
  if (!sp->launches) return tt_check_y_fail(c, s->kpos, "launches", "out of memory");
  void *it = NULL;
  struct fy_node *e;
  while ((e = fy_node_sequence_iterate(s->val, &it))) {
    tt_check_launch *l = &sp->launches[sp->nlaunches++];
    char where[64], key[96];
    snprintf(where, sizeof where, "launches[%zu]", sp->nlaunches - 1);
    tt_check_y_slot sl[] = {{.key = "grid"}, {.key = "block"}, {.key = "shared_bytes"}, {.key = "kernel"}, {.key = "args"}};
    if (tt_check_y_take_mapping(c, e, s->kpos, where, sl, 5) != 0) return -1;
    tt_check_y_pos lp = sl[3].present ? sl[3].kpos : s->kpos;
    l->line = lp.line;
    l->column = lp.col;
    snprintf(key, sizeof key, "%s.kernel", where);
    if (!sl[3].present) return tt_check_y_fail(c, lp, key, "missing (required)");
    if (!(l->kernel = tt_check_y_want_string(c, sl[3].val, sl[3].kpos, key))) return -1;
    if (parse_dims_into(c, sl, lp, where, l) != 0) return -1;
    snprintf(key, sizeof key, "%s.args", where);
    struct fy_node *an = sl[4].val;
    if (!sl[4].present || !an || !fy_node_is_sequence(an))
      return tt_check_y_fail(c, sl[4].present ? sl[4].kpos : lp, key, "expected the list of argument names this kernel takes, in order");
    int na = fy_node_sequence_item_count(an);
    l->args = calloc((size_t)na + 1, sizeof *l->args);
    l->offsets = calloc((size_t)na + 1, sizeof *l->offsets);
    if (!l->args || !l->offsets) return tt_check_y_fail(c, lp, key, "out of memory");
    void *ai = NULL;
    struct fy_node *x;
    while ((x = fy_node_sequence_iterate(an, &ai))) {
      char k[128];
      snprintf(k, sizeof k, "%s[%zu]", key, l->nargs);
      size_t len;
      const char *name = tt_check_y_want_scalar(c, x, sl[4].kpos, k, &len);
      if (!name) return -1;
      /* `name + EXPR`: the buffer from element EXPR on, as `<<<...>>>(d + n)` passes it */
      const char *plus = memchr(name, '+', len);
      size_t nlen = plus ? (size_t)(plus - name) : len;
      while (nlen && name[nlen - 1] == ' ') nlen--;
      size_t j;
      for (j = 0; j < sp->nargs; j++)
        if (strlen(sp->args[j].name) == nlen && !memcmp(sp->args[j].name, name, nlen)) break;
      if (j == sp->nargs && !plus && len == 4 && !memcmp(name, "null", 4)) {
        l->args[l->nargs++] = TT_CHECK_NULL_ARG;
        continue;
      }
      if (j == sp->nargs) return tt_check_y_fail(c, tt_check_y_node_pos(x, sl[4].kpos), k, "'%.*s' is not the name of an entry of args:", (int)nlen, name);
      if (plus) {
        tt_check_expr_err ee;
        int64_t off;
        if (!sp->args[j].is_buffer) return tt_check_y_fail(c, tt_check_y_node_pos(x, sl[4].kpos), k, "only a buffer takes an offset (+)");
        if (tt_check_expr_eval(plus + 1, len - (size_t)(plus + 1 - name), &sp->sizes, &off, &ee) != 0)
          return tt_check_y_fail(c, tt_check_y_offset_pos(x, tt_check_y_node_pos(x, sl[4].kpos), (size_t)(plus + 1 - name) + ee.offset), k,
                      "bad expression '%.*s': %s", (int)len, name, ee.msg);
        if (off < 0 || off > sp->args[j].len)
          return tt_check_y_fail(c, tt_check_y_node_pos(x, sl[4].kpos), k, "offset %lld is outside %s (%lld elements)", (long long)off,
                      sp->args[j].name, (long long)sp->args[j].len);
        l->offsets[l->nargs] = off;
      }
      l->args[l->nargs++] = j;
    }
  }
  return 0;
}

/* The single launch of a spec without `launches:`: `kernel:` with every argument. */
static int default_launch(tt_check_y_ctx *c) {
  tt_check_spec *sp = c->spec;
  tt_check_y_pos top = {1, 1};
  sp->launches = calloc(1, sizeof *sp->launches);
  tt_check_launch *l = sp->launches;
  if (!l || !(l->args = calloc(sp->nargs + 1, sizeof *l->args)) || !(l->offsets = calloc(sp->nargs + 1, sizeof *l->offsets)) ||
      !(l->kernel = tt_check_y_xstrdup(sp->kernel)))
    return tt_check_y_fail(c, top, "spec", "out of memory");
  sp->nlaunches = 1;
  memcpy(l->grid, sp->grid, sizeof l->grid);
  memcpy(l->block, sp->block, sizeof l->block);
  l->shared_bytes = sp->shared_bytes;
  for (size_t i = 0; i < sp->nargs; i++) l->args[l->nargs++] = i;
  l->line = sp->kernel_line;
  l->column = sp->kernel_column;
  return 0;
}

/* A list of strings (`includes:`, `defines:`). */
static int parse_strings(tt_check_y_ctx *c, tt_check_y_slot *s, const char *key, char ***out, size_t *n) {
  struct fy_node *m = s->val;
  if (!m || !fy_node_is_sequence(m)) return tt_check_y_fail(c, tt_check_y_node_pos(m, s->kpos), key, "expected a list, got %s", tt_check_y_node_kind(m));
  int cnt = fy_node_sequence_item_count(m);
  *out = calloc((size_t)cnt + 1, sizeof **out);
  if (!*out) return tt_check_y_fail(c, s->kpos, key, "out of memory");
  void *it = NULL;
  struct fy_node *e;
  while ((e = fy_node_sequence_iterate(m, &it))) {
    char k[64];
    snprintf(k, sizeof k, "%s[%zu]", key, *n);
    if (!((*out)[*n] = tt_check_y_want_string(c, e, s->kpos, k))) return -1;
    (*n)++;
  }
  return 0;
}

static int parse_includes(tt_check_y_ctx *c, tt_check_y_slot *s) {
  tt_check_spec *sp = c->spec;
  if (parse_strings(c, s, "includes", &sp->includes, &sp->nincludes) != 0) return -1;
  for (size_t i = 0; i < sp->nincludes; i++) {
    char *abs = tt_check_y_resolve_path(sp->dir, sp->includes[i]);
    free(sp->includes[i]);
    sp->includes[i] = abs;
  }
  return 0;
}

static int parse_defines(tt_check_y_ctx *c, tt_check_y_slot *s) {
  tt_check_spec *sp = c->spec;
  if (parse_strings(c, s, "defines", &sp->defines, &sp->ndefines) != 0) return -1;
  for (size_t i = 0; i < sp->ndefines; i++) {
    const char *d = sp->defines[i];
    size_t j = 0;
    int ok = d[0] == '_' || ((d[0] | 32) >= 'a' && (d[0] | 32) <= 'z');
    for (j = 1; ok && d[j] && d[j] != '='; j++)
      ok = d[j] == '_' || (d[j] >= '0' && d[j] <= '9') || ((d[j] | 32) >= 'a' && (d[j] | 32) <= 'z');
    if (!ok) {
      char k[64];
      snprintf(k, sizeof k, "defines[%zu]", i);
      return tt_check_y_fail(c, s->kpos, k, "'%s' is not NAME or NAME=VALUE", d);
    }
  }
  return 0;
}

static int parse_type(tt_check_y_ctx *c, tt_check_y_slot *s, const char *key, tt_check_arg *a) {
  size_t len;
  const char *t = tt_check_y_want_scalar(c, s->val, s->kpos, key, &len);
  if (!t) return -1;
  size_t n = len;
  while (n && t[n - 1] == ' ') n--;
  a->is_buffer = n && t[n - 1] == '*';
  if (a->is_buffer) n--;
  while (n && t[n - 1] == ' ') n--;
  if (!a->is_buffer && n == 6 && !memcmp(t, "struct", 6)) {
    a->is_struct = 1;
    a->dtype = TT_CHECK_U8;
    return 0;
  }
  if (tt_check_dtype_parse(t, n, &a->dtype) != 0)
    return tt_check_y_fail(c, tt_check_y_node_pos(s->val, s->kpos), key,
                "unknown type '%.*s' (known: f16 bf16 f32 f64 i8 i16 i32 i64 u8 u32 u64 bool, '*' for "
                "buffers, struct with fields:)",
                (int)len, t);
  return 0;
}

static int parse_shape(tt_check_y_ctx *c, tt_check_y_slot *s, const char *key, tt_check_arg *a) {
  struct fy_node *n = s->val;
  if (!n || !fy_node_is_sequence(n))
    return tt_check_y_fail(c, tt_check_y_node_pos(n, s->kpos), key, "expected a list of dimensions, got %s", tt_check_y_node_kind(n));
  int cnt = fy_node_sequence_item_count(n);
  if (cnt < 1) return tt_check_y_fail(c, s->kpos, key, "needs at least one dimension");
  a->shape = calloc((size_t)cnt, sizeof *a->shape);
  if (!a->shape) return tt_check_y_fail(c, s->kpos, key, "out of memory");
  a->ndim = cnt;
  a->len = 1;
  void *it = NULL;
  struct fy_node *e;
  int i = 0;
  while ((e = fy_node_sequence_iterate(n, &it))) {
    char k[192];
    snprintf(k, sizeof k, "%s[%d]", key, i);
    if (tt_check_y_want_positive(c, e, s->kpos, k, &a->shape[i], 0) != 0) return -1;
    if (__builtin_mul_overflow(a->len, a->shape[i], &a->len)) return tt_check_y_fail(c, s->kpos, key, "too many elements");
    i++;
  }
  return 0;
}

static int parse_value(tt_check_y_ctx *c, tt_check_y_slot *s, const char *key, tt_check_arg *a) {
  size_t len;
  const char *t = tt_check_y_want_scalar(c, s->val, s->kpos, key, &len);
  if (!t) return -1;
  if (a->dtype == TT_CHECK_BOOL && fy_node_get_style(s->val) == FYNS_PLAIN && (len == 4 || len == 5) &&
      (!memcmp(t, "true", len) || !memcmp(t, "false", len))) {
    a->ivalue = len == 4;
    a->has_value = 1;
    return 0;
  }
  tt_check_expr_err e;
  if (tt_check_expr_number(t, len, &c->spec->sizes, &a->value_is_float, &a->ivalue, &a->fvalue, &e) != 0)
    return tt_check_y_fail(c, tt_check_y_offset_pos(s->val, tt_check_y_node_pos(s->val, s->kpos), e.offset), key,
                "bad expression '%.*s': %s (or not a float literal)", (int)len, t, e.msg);
  a->has_value = 1;
  return 0;
}

/* `fields:` of a struct argument: a mapping from field name to a value (an
 * expression over sizes, or a float literal). The kernel's struct says which fields
 * exist and their types (tt_check_spec_bind). */
static int parse_fields(tt_check_y_ctx *c, tt_check_y_slot *s, const char *key, tt_check_arg *a) {
  struct fy_node *m = s->val;
  if (!m || !fy_node_is_mapping(m)) return tt_check_y_fail(c, tt_check_y_node_pos(m, s->kpos), key, "expected a mapping of field: value, got %s", tt_check_y_node_kind(m));
  int n = fy_node_mapping_item_count(m);
  a->fields = calloc((size_t)n + 1, sizeof *a->fields);
  if (!a->fields) return tt_check_y_fail(c, s->kpos, key, "out of memory");
  void *it = NULL;
  struct fy_node_pair *pr;
  while ((pr = fy_node_mapping_iterate(m, &it))) {
    struct fy_node *k = fy_node_pair_key(pr);
    tt_check_y_pos kp = tt_check_y_node_pos(k, s->kpos);
    size_t klen = 0;
    const char *ks = k && fy_node_is_scalar(k) ? fy_node_get_scalar(k, &klen) : NULL;
    if (!ks || !klen) return tt_check_y_fail(c, kp, key, "field names must be plain strings");
    char fkey[192];
    snprintf(fkey, sizeof fkey, "%s.%.*s", key, (int)klen, ks);
    tt_check_field *f = &a->fields[a->nfields];
    f->name = tt_check_y_xstrndup(ks, klen);
    a->nfields++;
    for (size_t j = 0; j + 1 < a->nfields; j++)
      if (!strcmp(a->fields[j].name, f->name)) return tt_check_y_fail(c, kp, fkey, "given twice");
    f->line = kp.line;
    f->column = kp.col;
    size_t len;
    struct fy_node *v = fy_node_pair_value(pr);
    const char *t = tt_check_y_want_scalar(c, v, kp, fkey, &len);
    if (!t) return -1;
    tt_check_expr_err e;
    if (tt_check_expr_number(t, len, &c->spec->sizes, &f->value_is_float, &f->ivalue, &f->fvalue, &e) != 0)
      return tt_check_y_fail(c, tt_check_y_offset_pos(v, tt_check_y_node_pos(v, kp), e.offset), fkey, "bad expression '%.*s': %s", (int)len, t, e.msg);
  }
  return 0;
}

/* A file of buffer contents for `data:` or `expect:`: resolved against the spec's
 * folder and checked against the argument's type and length now, so that a wrong
 * file is a spec error and not a failed run. */
static int want_data_file(tt_check_y_ctx *c, tt_check_y_slot *s, const char *key, tt_check_arg *a, char **out) {
  if (tt_check_y_want_file(c, s, key, out) != 0) return -1;
  char *why = NULL;
  unsigned char *b = tt_check_data_read(*out, a->dtype, a->len, NULL, &why);
  free(b);
  if (!b) {
    tt_check_y_fail(c, tt_check_y_node_pos(s->val, s->kpos), key, "%s", why ? why : "unreadable");
    free(why);
    return -1;
  }
  return 0;
}

/* `data:` a file (see want_data_file) or a list of exactly len numbers. */
static int parse_data(tt_check_y_ctx *c, tt_check_y_slot *s, const char *key, tt_check_arg *a) {
  struct fy_node *n = s->val;
  if (n && fy_node_is_scalar(n)) return want_data_file(c, s, key, a, &a->data);
  if (!n || !fy_node_is_sequence(n))
    return tt_check_y_fail(c, tt_check_y_node_pos(n, s->kpos), key, "expected a file name or a list of numbers, got %s", tt_check_y_node_kind(n));
  int cnt = fy_node_sequence_item_count(n);
  if (cnt != a->len) return tt_check_y_fail(c, s->kpos, key, "the list has %d numbers, the buffer %lld elements", cnt, (long long)a->len);
  a->values = calloc((size_t)cnt + 1, sizeof *a->values);
  if (!a->values) return tt_check_y_fail(c, s->kpos, key, "out of memory");
  void *it = NULL;
  struct fy_node *e;
  while ((e = fy_node_sequence_iterate(n, &it))) {
    char k[192];
    snprintf(k, sizeof k, "%s[%zu]", key, a->nvalues);
    if (tt_check_y_want_number(c, e, s->kpos, k, &a->values[a->nvalues]) != 0) return -1;
    a->nvalues++;
  }
  return 0;
}

static int parse_arg(tt_check_y_ctx *c, struct fy_node *n, tt_check_y_pos seqpos, size_t idx) {
  tt_check_spec *sp = c->spec;
  tt_check_arg *a = &sp->args[idx];
  char where[64];
  snprintf(where, sizeof where, "args[%zu]", idx);
  tt_check_y_slot sl[] = {{.key = "name"}, {.key = "type"}, {.key = "len"}, {.key = "shape"}, {.key = "init"}, {.key = "output"}, {.key = "value"}, {.key = "constant"},
                 {.key = "fields"}, {.key = "data"}, {.key = "expect"}};
  const size_t ns = sizeof sl / sizeof sl[0];
  if (tt_check_y_take_mapping(c, n, seqpos, where, sl, ns) != 0) return -1;
  /* The argument's own position: its first key. */
  tt_check_y_pos apos = seqpos;
  for (size_t i = 0; i < ns; i++)
    if (sl[i].present && (sl[i].kpos.line < apos.line || apos.line == seqpos.line)) apos = sl[i].kpos;
  a->line = apos.line;
  a->column = apos.col;
  char key[128];
#define KEY(k) (snprintf(key, sizeof key, "%s.%s", where, k), key)
  if (!tt_check_y_find_slot(sl, ns, "name")->present) return tt_check_y_fail(c, apos, KEY("name"), "missing (required)");
  if (!(a->name = tt_check_y_want_string(c, tt_check_y_find_slot(sl, ns, "name")->val, tt_check_y_find_slot(sl, ns, "name")->kpos, KEY("name")))) return -1;
  for (size_t j = 0; j < idx; j++)
    if (!strcmp(sp->args[j].name, a->name))
      return tt_check_y_fail(c, tt_check_y_find_slot(sl, ns, "name")->kpos, KEY("name"), "'%s' is already the name of args[%zu]", a->name, j);
  snprintf(where, sizeof where, "args[%zu] (%s)", idx, a->name);
  tt_check_y_slot *ty = tt_check_y_find_slot(sl, ns, "type"), *ln = tt_check_y_find_slot(sl, ns, "len"), *sh = tt_check_y_find_slot(sl, ns, "shape");
  tt_check_y_slot *in = tt_check_y_find_slot(sl, ns, "init"), *out = tt_check_y_find_slot(sl, ns, "output"), *val = tt_check_y_find_slot(sl, ns, "value");
  tt_check_y_slot *cst = tt_check_y_find_slot(sl, ns, "constant"), *fld = tt_check_y_find_slot(sl, ns, "fields"), *dat = tt_check_y_find_slot(sl, ns, "data");
  tt_check_y_slot *exp = tt_check_y_find_slot(sl, ns, "expect");
  int tile = tt_check_lang_is_tile(sp->lang);
  if (cst->present && !tile)
    return tt_check_y_fail(c, cst->kpos, KEY("constant"), "only tile kernels (language: cutile-python) have constants; use value:");
  if (sh->present && !tile)
    return tt_check_y_fail(c, sh->kpos, KEY("shape"), "only tile kernels (language: cutile-python) use shape:; use len:");
  if (ty->present) {
    if (parse_type(c, ty, KEY("type"), a) != 0) return -1;
  } else if (!cst->present) {
    return tt_check_y_fail(c, apos, KEY("type"), "missing (required)");
  }
  if (cst->present) {
    /* ct.Constant parameter: a scalar, typed i64/f64 from its literal unless `type:` says. */
    if (a->is_buffer) return tt_check_y_fail(c, ty->kpos, KEY("type"), "a constant cannot be a buffer");
    if (val->present) return tt_check_y_fail(c, val->kpos, KEY("value"), "give either value: or constant:, not both");
    if (parse_value(c, cst, KEY("constant"), a) != 0) return -1;
    a->is_constant = 1;
    if (!ty->present) a->dtype = a->value_is_float ? TT_CHECK_F64 : TT_CHECK_I64;
  }
  if (a->is_struct != fld->present)
    return tt_check_y_fail(c, a->is_struct ? apos : fld->kpos, KEY("fields"),
                a->is_struct ? "missing (required for type: struct)" : "only type: struct takes fields:");
  if (a->is_struct) {
    tt_check_y_slot *bad[] = {ln, sh, in, out, val, dat, exp};
    const char *names[] = {"len", "shape", "init", "output", "value", "data", "expect"};
    for (int i = 0; i < 7; i++)
      if (bad[i]->present) return tt_check_y_fail(c, bad[i]->kpos, KEY(names[i]), "a struct argument takes fields: only");
    return parse_fields(c, fld, KEY("fields"), a);
  }
  if ((dat->present || exp->present) && !a->is_buffer)
    return tt_check_y_fail(c, (dat->present ? dat : exp)->kpos, KEY(dat->present ? "data" : "expect"),
                "only buffers (type ending in '*') take %s:", dat->present ? "data" : "expect");
  if (a->is_buffer) {
    if (val->present) return tt_check_y_fail(c, val->kpos, KEY("value"), "a buffer (type ending in '*') takes init:, not value:");
    if (ln->present && sh->present) return tt_check_y_fail(c, sh->kpos, KEY("shape"), "give either len: or shape:, not both");
    if (sh->present) {
      if (parse_shape(c, sh, KEY("shape"), a) != 0) return -1;
    } else if (ln->present) {
      if (tt_check_y_want_positive(c, ln->val, ln->kpos, KEY("len"), &a->len, 1) != 0) return -1;
    } else {
      return tt_check_y_fail(c, apos, KEY(tile ? "shape" : "len"), "missing (required for a buffer)");
    }
    if (in->present) {
      size_t len;
      const char *t = tt_check_y_want_scalar(c, in->val, in->kpos, KEY("init"), &len);
      char msg[256];
      if (!t) return -1;
      if (tt_check_init_parse(t, len, &a->init, msg, sizeof msg) != 0)
        return tt_check_y_fail(c, tt_check_y_node_pos(in->val, in->kpos), KEY("init"), "%s", msg);
      a->has_init = 1;
    }
    if (out->present && tt_check_y_want_bool(c, out->val, out->kpos, KEY("output"), &a->output) != 0) return -1;
    if (dat->present) {
      if (in->present) return tt_check_y_fail(c, dat->kpos, KEY("data"), "give either init: or data:, not both");
      if (parse_data(c, dat, KEY("data"), a) != 0) return -1;
    }
    if (exp->present) {
      if (!a->output) return tt_check_y_fail(c, exp->kpos, KEY("expect"), "only an output (output: true) is compared against a file");
      if (want_data_file(c, exp, KEY("expect"), a, &a->expect) != 0) return -1;
    }
  } else {
    tt_check_y_slot *bad[] = {ln, sh, in, out};
    const char *names[] = {"len", "shape", "init", "output"};
    for (int i = 0; i < 4; i++)
      if (bad[i]->present)
        return tt_check_y_fail(c, bad[i]->kpos, KEY(names[i]), "only buffers (type ending in '*') take %s:", names[i]);
    if (!a->is_constant) {
      if (!val->present) return tt_check_y_fail(c, apos, KEY("value"), "missing (required for a scalar argument)");
      if (parse_value(c, val, KEY("value"), a) != 0) return -1;
    }
    if (a->dtype == TT_CHECK_BOOL) a->ivalue = a->ivalue != 0;
    if (a->value_is_float && !tt_check_dtype_is_float(a->dtype))
      return tt_check_y_fail(c, tt_check_y_node_pos(cst->present ? cst->val : val->val, apos), KEY(cst->present ? "constant" : "value"),
                  "%g is not an integer, but the type is %s", a->fvalue, tt_check_dtype_name(a->dtype));
  }
#undef KEY
  return 0;
}

static int parse_args(tt_check_y_ctx *c, tt_check_y_slot *s) {
  tt_check_spec *sp = c->spec;
  if (!s->val || !fy_node_is_sequence(s->val))
    return tt_check_y_fail(c, tt_check_y_node_pos(s->val, s->kpos), "args", "expected a list of arguments, got %s", tt_check_y_node_kind(s->val));
  int cnt = fy_node_sequence_item_count(s->val);
  sp->args = calloc((size_t)cnt + 1, sizeof *sp->args);
  if (!sp->args) return tt_check_y_fail(c, s->kpos, "args", "out of memory");
  void *it = NULL;
  struct fy_node *e;
  while ((e = fy_node_sequence_iterate(s->val, &it))) {
    sp->nargs++; /* counted first so that free() sees a partly filled arg */
    if (parse_arg(c, e, s->kpos, sp->nargs - 1) != 0) return -1;
  }
  int outputs = 0;
  for (size_t i = 0; i < sp->nargs; i++) outputs += sp->args[i].output;
  if (!outputs) return tt_check_y_fail(c, s->kpos, "args", "no argument has output: true, so there is nothing to compare");
  return 0;
}

static int parse_tolerance(tt_check_y_ctx *c, tt_check_y_slot *s) {
  tt_check_spec *sp = c->spec;
  tt_check_y_slot sl[] = {{.key = "atol"}, {.key = "rtol"}};
  if (tt_check_y_take_mapping(c, s->val, s->kpos, "tolerance", sl, 2) != 0) return -1;
  double *dst[] = {&sp->atol, &sp->rtol};
  int *has[] = {&sp->has_atol, &sp->has_rtol};
  for (int i = 0; i < 2; i++) {
    if (!sl[i].present) continue;
    char key[32];
    snprintf(key, sizeof key, "tolerance.%s", sl[i].key);
    if (tt_check_y_want_number(c, sl[i].val, sl[i].kpos, key, dst[i]) != 0) return -1;
    if (!(*dst[i] >= 0)) return tt_check_y_fail(c, tt_check_y_node_pos(sl[i].val, sl[i].kpos), key, "must be >= 0");
    *has[i] = 1;
  }
  return 0;
}

int tt_check_lang_is_tile(tt_check_lang l) {
  return l == TT_CHECK_LANG_CUTILE_PYTHON || l == TT_CHECK_LANG_TRITON || l == TT_CHECK_LANG_CUTILE_JULIA;
}

/* reference: {torch: "..."} — PyTorch code evaluated by python3 (DESIGN.md). */
static int parse_reference(tt_check_y_ctx *c, tt_check_y_slot *s) {
  tt_check_spec *sp = c->spec;
  tt_check_y_slot sl[] = {{.key = "torch"}};
  if (tt_check_y_take_mapping(c, s->val, s->kpos, "reference", sl, 1) != 0) return -1;
  if (!sl[0].present) return tt_check_y_fail(c, s->kpos, "reference.torch", "missing (the only kind of reference is torch:)");
  if (!(sp->torch_ref = tt_check_y_want_string(c, sl[0].val, sl[0].kpos, "reference.torch"))) return -1;
  sp->torch_line = tt_check_y_node_pos(sl[0].val, sl[0].kpos).line;
  return 0;
}

static const char *const k_detectors[] = {"race", "inactive-lane-read"};

const char *tt_check_detector_name(tt_check_detector d) {
  return (unsigned)d < 2 ? k_detectors[d] : "?";
}

/* waive: [{detector: race, kernel: k, reason: "..."}, ...] */
static int parse_waive(tt_check_y_ctx *c, tt_check_y_slot *s) {
  tt_check_spec *sp = c->spec;
  if (!s->val || !fy_node_is_sequence(s->val))
    return tt_check_y_fail(c, tt_check_y_node_pos(s->val, s->kpos), "waive", "expected a list of {detector, kernel, reason}, got %s",
                tt_check_y_node_kind(s->val));
  int cnt = fy_node_sequence_item_count(s->val);
  sp->waivers = calloc((size_t)cnt + 1, sizeof *sp->waivers);
  if (!sp->waivers) return tt_check_y_fail(c, s->kpos, "waive", "out of memory");
  void *it = NULL;
  struct fy_node *e;
  while ((e = fy_node_sequence_iterate(s->val, &it))) {
    tt_check_waiver *w = &sp->waivers[sp->nwaivers++];
    tt_check_y_slot sl[] = {{.key = "detector"}, {.key = "kernel"}, {.key = "reason"}};
    if (tt_check_y_take_mapping(c, e, s->kpos, "waive", sl, 3) != 0) return -1;
    for (int i = 0; i < 3; i++)
      if (!sl[i].present) return tt_check_y_fail(c, tt_check_y_node_pos(e, s->kpos), sl[i].key, "missing in a waive entry (required)");
    size_t len;
    const char *d = tt_check_y_want_scalar(c, sl[0].val, sl[0].kpos, "waive.detector", &len);
    if (!d) return -1;
    int found = -1;
    for (int i = 0; i < 2; i++)
      if (strlen(k_detectors[i]) == len && !memcmp(k_detectors[i], d, len)) found = i;
    if (found < 0)
      return tt_check_y_fail(c, tt_check_y_node_pos(sl[0].val, sl[0].kpos), "waive.detector",
                  "unknown detector '%.*s' (known: race, inactive-lane-read)", (int)len, d);
    w->detector = (tt_check_detector)found;
    if (!(w->kernel = tt_check_y_want_string(c, sl[1].val, sl[1].kpos, "waive.kernel"))) return -1;
    bool known = false;
    for (size_t k = 0; k < sp->nlaunches; k++) known |= !strcmp(w->kernel, sp->launches[k].kernel);
    if (!known)
      return tt_check_y_fail(c, tt_check_y_node_pos(sl[1].val, sl[1].kpos), "waive.kernel", "'%s' is not a kernel the spec launches ('%s')",
                  w->kernel, sp->kernel);
    if (!(w->reason = tt_check_y_want_string(c, sl[2].val, sl[2].kpos, "waive.reason"))) return -1;
    if (!w->reason[0]) return tt_check_y_fail(c, tt_check_y_node_pos(sl[2].val, sl[2].kpos), "waive.reason", "must say why");
  }
  return 0;
}

static int parse_root(tt_check_y_ctx *c, struct fy_node *root) {
  tt_check_spec *sp = c->spec;
  tt_check_y_pos top = {1, 1};
  tt_check_y_slot sl[] = {{.key = "name"}, {.key = "source"}, {.key = "kernel"}, {.key = "candidate"}, {.key = "language"}, {.key = "seed"},
                 {.key = "sizes"}, {.key = "launch"}, {.key = "args"}, {.key = "tolerance"},
                 {.key = "includes"}, {.key = "defines"}, {.key = "compile_commands"}, {.key = "launches"},
                 {.key = "reference"}, {.key = "candidate_entry"}, {.key = "waive"}};
  const size_t ns = sizeof sl / sizeof sl[0];
  if (tt_check_y_take_mapping(c, root, top, "", sl, ns) != 0) return -1;
  tt_check_y_slot *lang = tt_check_y_find_slot(sl, ns, "language");
  if (lang->present) {
    size_t len;
    const char *l = tt_check_y_want_scalar(c, lang->val, lang->kpos, "language", &len);
    if (!l) return -1;
    if (len == 4 && !memcmp(l, "cuda", 4)) sp->lang = TT_CHECK_LANG_CUDA;
    else if (len == 13 && !memcmp(l, "cutile-python", 13)) sp->lang = TT_CHECK_LANG_CUTILE_PYTHON;
    else if (len == 6 && !memcmp(l, "triton", 6)) sp->lang = TT_CHECK_LANG_TRITON;
    else if (len == 12 && !memcmp(l, "cutile-julia", 12)) sp->lang = TT_CHECK_LANG_CUTILE_JULIA;
    else return tt_check_y_fail(c, tt_check_y_node_pos(lang->val, lang->kpos), "language", "unknown language '%.*s' (known: cuda, cutile-python, cutile-julia, triton)", (int)len, l);
  }
  tt_check_y_slot *s = tt_check_y_find_slot(sl, ns, "reference");
  if (s->present && parse_reference(c, s) != 0) return -1;
  tt_check_y_slot *seq = tt_check_y_find_slot(sl, ns, "launches");
  /* With a PyTorch reference the source is optional (the kernel under test is then the
   * candidate); a Triton kernel computes its own grid, so it takes no launch. */
  const char *required[] = {sp->torch_ref ? NULL : "source", "args", "kernel",
                            sp->lang == TT_CHECK_LANG_TRITON ? NULL : "launch"};
  for (int i = 0; i < (seq->present ? 2 : 4); i++)
    if (required[i] && !tt_check_y_find_slot(sl, ns, required[i])->present) return tt_check_y_fail(c, top, required[i], "missing (required)");
  const char *per_launch[] = {"kernel", "launch"};
  for (int i = 0; seq->present && i < 2; i++)
    if ((s = tt_check_y_find_slot(sl, ns, per_launch[i]))->present)
      return tt_check_y_fail(c, s->kpos, per_launch[i], "a spec with launches: names each launch's kernel and dimensions there");
  if (tt_check_y_find_slot(sl, ns, "source")->present &&
      tt_check_y_want_file(c, tt_check_y_find_slot(sl, ns, "source"), "source", &sp->source) != 0) return -1;
  if (!sp->source && !tt_check_y_find_slot(sl, ns, "candidate")->present)
    return tt_check_y_fail(c, top, "candidate", "missing (required when the spec has no source: the kernel under test)");
  s = tt_check_y_find_slot(sl, ns, "kernel");
  if (s->present) {
    if (!(sp->kernel = tt_check_y_want_string(c, s->val, s->kpos, "kernel"))) return -1;
    sp->kernel_line = s->kpos.line;
    sp->kernel_column = s->kpos.col;
  }
  s = tt_check_y_find_slot(sl, ns, "name");
  if (s->present) {
    if (!(sp->name = tt_check_y_want_string(c, s->val, s->kpos, "name"))) return -1;
  } else if (sp->kernel) {
    sp->name = tt_check_y_xstrdup(sp->kernel);
  } else {
    return tt_check_y_fail(c, top, "name", "missing (required with launches:)");
  }
  s = tt_check_y_find_slot(sl, ns, "candidate");
  if (s->present && tt_check_y_want_file(c, s, "candidate", &sp->candidate) != 0) return -1;
  s = tt_check_y_find_slot(sl, ns, "candidate_entry");
  if (s->present && !(sp->candidate_entry = tt_check_y_want_string(c, s->val, s->kpos, "candidate_entry"))) return -1;
  s = tt_check_y_find_slot(sl, ns, "seed");
  if (s->present) {
    int64_t seed;
    if (tt_check_y_want_positive(c, s->val, s->kpos, "seed", &seed, 1) != 0) return -1;
    sp->seed = (uint64_t)seed;
  }
  s = tt_check_y_find_slot(sl, ns, "sizes");
  if (s->present && parse_sizes(c, s) != 0) return -1;
  if (!seq->present && tt_check_y_find_slot(sl, ns, "launch")->present &&
      parse_launch(c, tt_check_y_find_slot(sl, ns, "launch")) != 0) return -1;
  if (parse_args(c, tt_check_y_find_slot(sl, ns, "args")) != 0) return -1;
  if (seq->present) {
    if (parse_launches(c, seq) != 0) return -1;
    /* The first launch stands for the spec where one launch is expected. */
    sp->kernel = tt_check_y_xstrdup(sp->launches[0].kernel);
    memcpy(sp->grid, sp->launches[0].grid, sizeof sp->grid);
    memcpy(sp->block, sp->launches[0].block, sizeof sp->block);
    sp->shared_bytes = sp->launches[0].shared_bytes;
    sp->grid_dims = sp->block_dims = 3;
  } else if (default_launch(c) != 0) {
    return -1;
  }
  s = tt_check_y_find_slot(sl, ns, "includes");
  if (s->present && parse_includes(c, s) != 0) return -1;
  s = tt_check_y_find_slot(sl, ns, "defines");
  if (s->present && parse_defines(c, s) != 0) return -1;
  s = tt_check_y_find_slot(sl, ns, "compile_commands");
  if (s->present && tt_check_y_want_file(c, s, "compile_commands", &sp->compile_commands) != 0) return -1;
  s = tt_check_y_find_slot(sl, ns, "tolerance");
  if (s->present && parse_tolerance(c, s) != 0) return -1;
  s = tt_check_y_find_slot(sl, ns, "waive");
  if (s->present && parse_waive(c, s) != 0) return -1;
  return 0;
}

static char *dirname_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return tt_check_y_xstrdup("");
  if (slash == path) return tt_check_y_xstrdup("/");
  return tt_check_y_xstrndup(path, (size_t)(slash - path));
}

int tt_check_spec_parse(const char *path, const char *text, size_t len,
                        tt_check_spec *out, char **err) {
  memset(out, 0, sizeof *out);
  *err = NULL;
  out->path = tt_check_y_xstrdup(path);
  out->dir = dirname_of(path);
  tt_check_y_ctx c = {path, NULL, 0, out};

  struct fy_diag_cfg dc;
  fy_diag_cfg_default(&dc);
  dc.fp = NULL;
  dc.output_fn = NULL;
  dc.level = FYET_ERROR;
  struct fy_diag *diag = fy_diag_create(&dc);
  if (!diag) {
    *err = tt_check_y_xstrdup("out of memory");
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
    tt_check_y_pos p = {e ? e->line : 1, e ? e->column : 1};
    tt_check_y_fail(&c, p, "yaml", "%s", e && e->msg ? e->msg : "not valid YAML");
  } else {
    struct fy_node *root = fy_document_root(doc);
    if (!root) {
      tt_check_y_pos p = {1, 1};
      tt_check_y_fail(&c, p, "spec", "the file is empty");
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
  free(s->candidate_entry);
  free(s->torch_ref);
  for (size_t i = 0; i < s->sizes.count; i++) free(s->sizes.names[i]);
  free(s->sizes.names);
  free(s->sizes.values);
  for (size_t i = 0; i < s->nargs; i++) {
    tt_check_arg *a = &s->args[i];
    free(a->name);
    free(a->shape);
    for (size_t k = 0; k < a->nfields; k++) free(a->fields[k].name);
    free(a->fields);
    free(a->struct_type);
    free(a->data);
    free(a->values);
    free(a->expect);
  }
  free(s->args);
  for (size_t i = 0; i < s->nincludes; i++) free(s->includes[i]);
  free(s->includes);
  for (size_t i = 0; i < s->ndefines; i++) free(s->defines[i]);
  free(s->defines);
  free(s->compile_commands);
  for (size_t i = 0; i < s->nlaunches; i++) {
    free(s->launches[i].kernel);
    free(s->launches[i].args);
    free(s->launches[i].offsets);
  }
  free(s->launches);
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
