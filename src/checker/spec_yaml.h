/* spec_yaml.h — reading a check spec's YAML (internal to the checker: spec.c and
 * its parts). Positions, errors that name FILE:LINE:COL: KEY, scalars, expressions,
 * mappings checked against their allowed keys, files. Messages are 1-based. */
#ifndef TT_CHECK_SPEC_YAML_H
#define TT_CHECK_SPEC_YAML_H

#include <libfyaml.h>
#include <stddef.h>
#include <stdint.h>
#include "checker/spec.h"

/* Where an error points: the node itself when it is a scalar, else its key. */
typedef struct {
  int line, col;
} tt_check_y_pos;

typedef struct {
  const char *path;
  char *err;
  int code;            /* 2 spec error, 3 unreadable input */
  tt_check_spec *spec;
} tt_check_y_ctx;

/* One key of a mapping, as take_mapping finds it. */
typedef struct {
  const char *key;
  struct fy_node *val;
  tt_check_y_pos kpos;
  int present;
} tt_check_y_slot;

char *tt_check_y_xstrdup(const char *s);
char *tt_check_y_xstrndup(const char *s, size_t n);
tt_check_y_pos tt_check_y_node_pos(struct fy_node *n, tt_check_y_pos fallback);
int tt_check_y_fail(tt_check_y_ctx *c, tt_check_y_pos p, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
const char *tt_check_y_node_kind(struct fy_node *n);
const char *tt_check_y_want_scalar(tt_check_y_ctx *c, struct fy_node *n, tt_check_y_pos kp, const char *key, size_t *len);
char *tt_check_y_want_string(tt_check_y_ctx *c, struct fy_node *n, tt_check_y_pos kp, const char *key);
tt_check_y_pos tt_check_y_offset_pos(struct fy_node *n, tt_check_y_pos p, size_t off);
int tt_check_y_want_expr(tt_check_y_ctx *c, struct fy_node *n, tt_check_y_pos kp, const char *key, int64_t *out);
int tt_check_y_want_positive(tt_check_y_ctx *c, struct fy_node *n, tt_check_y_pos kp, const char *key, int64_t *out, int allow_zero);
int tt_check_y_want_number(tt_check_y_ctx *c, struct fy_node *n, tt_check_y_pos kp, const char *key, double *out);
int tt_check_y_want_bool(tt_check_y_ctx *c, struct fy_node *n, tt_check_y_pos kp, const char *key, int *out);
int tt_check_y_take_mapping(tt_check_y_ctx *c, struct fy_node *map, tt_check_y_pos kp, const char *where,
                        tt_check_y_slot *slots, size_t nslots);
tt_check_y_slot *tt_check_y_find_slot(tt_check_y_slot *s, size_t n, const char *key);
char *tt_check_y_resolve_path(const char *dir, const char *rel);
int tt_check_y_want_file(tt_check_y_ctx *c, tt_check_y_slot *s, const char *key, char **out);

#endif
