/* spec_yaml.c — see spec_yaml.h. */
#include "checker/spec_yaml.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>



char *tt_check_y_xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

char *tt_check_y_xstrndup(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (!d) return NULL;
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

tt_check_y_pos tt_check_y_node_pos(struct fy_node *n, tt_check_y_pos fallback) {
  struct fy_token *t = n ? fy_node_get_scalar_token(n) : NULL;
  const struct fy_mark *m = t ? fy_token_start_mark(t) : NULL;
  if (!m) return fallback;
  tt_check_y_pos p = {m->line + 1, m->column + 1};
  return p;
}

int tt_check_y_fail(tt_check_y_ctx *c, tt_check_y_pos p, const char *key, const char *fmt, ...) {
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

const char *tt_check_y_node_kind(struct fy_node *n) {
  if (!n || fy_node_is_null(n)) return "nothing";
  switch (fy_node_get_type(n)) {
  case FYNT_SEQUENCE: return "a list";
  case FYNT_MAPPING: return "a mapping";
  default: return "a scalar";
  }
}

/* A scalar's text; NULL (with an error) for anything else or an empty value. */
const char *tt_check_y_want_scalar(tt_check_y_ctx *c, struct fy_node *n, tt_check_y_pos kp, const char *key, size_t *len) {
  if (!n || fy_node_is_null(n) || !fy_node_is_scalar(n)) {
    tt_check_y_fail(c, tt_check_y_node_pos(n, kp), key, "expected a value, got %s", tt_check_y_node_kind(n));
    return NULL;
  }
  const char *s = fy_node_get_scalar(n, len);
  if (!s || *len == 0) {
    tt_check_y_fail(c, tt_check_y_node_pos(n, kp), key, "expected a value, got an empty string");
    return NULL;
  }
  return s;
}

char *tt_check_y_want_string(tt_check_y_ctx *c, struct fy_node *n, tt_check_y_pos kp, const char *key) {
  size_t len;
  const char *s = tt_check_y_want_scalar(c, n, kp, key, &len);
  return s ? tt_check_y_xstrndup(s, len) : NULL;
}

/* The column of byte `off` of a scalar: quoted scalars start one byte later. */
tt_check_y_pos tt_check_y_offset_pos(struct fy_node *n, tt_check_y_pos p, size_t off) {
  enum fy_node_style st = fy_node_get_style(n);
  p.col += (int)off + ((st == FYNS_SINGLE_QUOTED || st == FYNS_DOUBLE_QUOTED) ? 1 : 0);
  return p;
}

int tt_check_y_want_expr(tt_check_y_ctx *c, struct fy_node *n, tt_check_y_pos kp, const char *key, int64_t *out) {
  size_t len;
  const char *s = tt_check_y_want_scalar(c, n, kp, key, &len);
  if (!s) return -1;
  tt_check_expr_err e;
  if (tt_check_expr_eval(s, len, &c->spec->sizes, out, &e) != 0)
    return tt_check_y_fail(c, tt_check_y_offset_pos(n, tt_check_y_node_pos(n, kp), e.offset), key, "bad expression '%.*s': %s",
                (int)len, s, e.msg);
  return 0;
}

int tt_check_y_want_positive(tt_check_y_ctx *c, struct fy_node *n, tt_check_y_pos kp, const char *key, int64_t *out, int allow_zero) {
  if (tt_check_y_want_expr(c, n, kp, key, out) != 0) return -1;
  if (*out < 0 || (*out == 0 && !allow_zero))
    return tt_check_y_fail(c, tt_check_y_node_pos(n, kp), key, "must be %s, is %lld", allow_zero ? ">= 0" : "> 0", (long long)*out);
  return 0;
}

int tt_check_y_want_number(tt_check_y_ctx *c, struct fy_node *n, tt_check_y_pos kp, const char *key, double *out) {
  size_t len;
  const char *s = tt_check_y_want_scalar(c, n, kp, key, &len);
  if (!s) return -1;
  int is_float;
  int64_t iv;
  tt_check_expr_err e;
  if (tt_check_expr_number(s, len, &c->spec->sizes, &is_float, &iv, out, &e) != 0)
    return tt_check_y_fail(c, tt_check_y_node_pos(n, kp), key, "expected a number, got '%.*s'", (int)len, s);
  return 0;
}

/* YAML 1.2 core schema booleans only: `yes`/`on` are strings there, and a spec that
 * relied on YAML 1.1 would silently mean something else elsewhere. */
int tt_check_y_want_bool(tt_check_y_ctx *c, struct fy_node *n, tt_check_y_pos kp, const char *key, int *out) {
  size_t len;
  const char *s = tt_check_y_want_scalar(c, n, kp, key, &len);
  if (!s) return -1;
  if (fy_node_get_style(n) == FYNS_PLAIN) {
    static const char *t[] = {"true", "True", "TRUE"}, *f[] = {"false", "False", "FALSE"};
    for (int i = 0; i < 3; i++) {
      if (strlen(t[i]) == len && !memcmp(t[i], s, len)) { *out = 1; return 0; }
      if (strlen(f[i]) == len && !memcmp(f[i], s, len)) { *out = 0; return 0; }
    }
  }
  return tt_check_y_fail(c, tt_check_y_node_pos(n, kp), key, "expected true or false, got '%.*s'", (int)len, s);
}

/* One mapping's pairs, checked against the keys the format allows. */

int tt_check_y_take_mapping(tt_check_y_ctx *c, struct fy_node *map, tt_check_y_pos kp, const char *where,
                        tt_check_y_slot *slots, size_t nslots) {
  if (!map || fy_node_is_null(map) || !fy_node_is_mapping(map))
    return tt_check_y_fail(c, tt_check_y_node_pos(map, kp), where[0] ? where : "spec", "expected a mapping, got %s", tt_check_y_node_kind(map));
  void *it = NULL;
  struct fy_node_pair *pr;
  while ((pr = fy_node_mapping_iterate(map, &it))) {
    struct fy_node *k = fy_node_pair_key(pr);
    size_t klen = 0;
    const char *ks = k && fy_node_is_scalar(k) ? fy_node_get_scalar(k, &klen) : NULL;
    tt_check_y_pos p = tt_check_y_node_pos(k, kp);
    char full[160];
    snprintf(full, sizeof full, "%s%s%.*s", where, where[0] ? "." : "", (int)(ks ? klen : 1), ks ? ks : "?");
    if (!ks) return tt_check_y_fail(c, p, where[0] ? where : "spec", "keys must be plain strings");
    size_t i;
    for (i = 0; i < nslots; i++)
      if (strlen(slots[i].key) == klen && !memcmp(slots[i].key, ks, klen)) break;
    if (i == nslots) {
      char known[400] = "";
      for (size_t j = 0; j < nslots; j++) {
        strncat(known, slots[j].key, sizeof known - strlen(known) - 3);
        if (j + 1 < nslots) strncat(known, ", ", sizeof known - strlen(known) - 1);
      }
      return tt_check_y_fail(c, p, full, "unknown key (known here: %s)", known);
    }
    slots[i].val = fy_node_pair_value(pr);
    slots[i].kpos = p;
    slots[i].present = 1;
  }
  return 0;
}

tt_check_y_slot *tt_check_y_find_slot(tt_check_y_slot *s, size_t n, const char *key) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(s[i].key, key)) return &s[i];
  return NULL;
}

char *tt_check_y_resolve_path(const char *dir, const char *rel) {
  if (rel[0] == '/' || !dir[0]) return tt_check_y_xstrdup(rel);
  size_t n = strlen(dir) + strlen(rel) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s", dir, rel);
  return p;
}

int tt_check_y_want_file(tt_check_y_ctx *c, tt_check_y_slot *s, const char *key, char **out) {
  char *rel = tt_check_y_want_string(c, s->val, s->kpos, key);
  if (!rel) return -1;
  *out = tt_check_y_resolve_path(c->spec->dir, rel);
  free(rel);
  FILE *f = *out ? fopen(*out, "rb") : NULL;
  if (!f) {
    int e = errno;
    tt_check_y_fail(c, tt_check_y_node_pos(s->val, s->kpos), key, "cannot read %s: %s", *out ? *out : "?", strerror(e));
    c->code = 3;
    return -1;
  }
  fclose(f);
  return 0;
}

