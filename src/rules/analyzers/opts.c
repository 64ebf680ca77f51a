#include "rules/analyzers/opts.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "util/yaml.h"

int tt_opts_check_keys(struct fy_node *opts, const char *const *allowed, char **err, struct fy_node **at) {
  if (!opts) return 0;
  void *it = NULL;
  struct fy_node_pair *p;
  while ((p = fy_node_mapping_iterate(opts, &it))) {
    char *k = tt_yaml_strdup(fy_node_pair_key(p));
    bool ok = false;
    for (size_t i = 0; k && allowed[i]; i++) ok |= strcmp(k, allowed[i]) == 0;
    if (!ok) {
      *err = tt_xasprintf("unknown option `%s`", k ? k : "?");
      *at = fy_node_pair_key(p);
      free(k);
      return -1;
    }
    free(k);
  }
  return 0;
}

int tt_opts_map(struct fy_node *opts, const char *key, tt_strmap *map, char **err, struct fy_node **at) {
  struct fy_node *m = opts ? fy_node_mapping_lookup_by_string(opts, key, FY_NT) : NULL;
  if (!m) return 0;
  if (!fy_node_is_mapping(m)) {
    *err = tt_xasprintf("`%s` must be a mapping of names", key);
    *at = m;
    return -1;
  }
  void *it = NULL;
  struct fy_node_pair *p;
  while ((p = fy_node_mapping_iterate(m, &it))) {
    struct fy_node *kn = fy_node_pair_key(p), *vn = fy_node_pair_value(p);
    if (!fy_node_is_scalar(kn) || !vn || !fy_node_is_scalar(vn)) {
      *err = tt_xasprintf("`%s`: every entry must map a name to a string", key);
      *at = kn;
      return -1;
    }
    char *k = tt_yaml_strdup(kn), *v = tt_yaml_strdup(vn);
    tt_strmap_put(map, k, v);
    free(k);
    free(v);
  }
  return 0;
}

int tt_opts_set(struct fy_node *opts, const char *key, tt_strmap *set, char **err, struct fy_node **at) {
  struct fy_node *s = opts ? fy_node_mapping_lookup_by_string(opts, key, FY_NT) : NULL;
  if (!s) return 0;
  if (!fy_node_is_sequence(s)) {
    *err = tt_xasprintf("`%s` must be a sequence of strings", key);
    *at = s;
    return -1;
  }
  void *it = NULL;
  struct fy_node *n;
  while ((n = fy_node_sequence_iterate(s, &it))) {
    if (!fy_node_is_scalar(n)) {
      *err = tt_xasprintf("`%s`: every entry must be a string", key);
      *at = n;
      return -1;
    }
    char *v = tt_yaml_strdup(n);
    tt_strmap_put(set, v, "");
    free(v);
  }
  return 0;
}

int tt_opts_bool(struct fy_node *opts, const char *key, bool *out, char **err, struct fy_node **at) {
  struct fy_node *s = opts ? fy_node_mapping_lookup_by_string(opts, key, FY_NT) : NULL;
  *out = false;
  if (!s || tt_yaml_bool(s, out) == 0) return 0;
  *err = tt_xasprintf("`%s` must be true or false", key);
  *at = s;
  return -1;
}

int tt_opts_string(struct fy_node *opts, const char *key, char **out, char **err, struct fy_node **at) {
  struct fy_node *s = opts ? fy_node_mapping_lookup_by_string(opts, key, FY_NT) : NULL;
  *out = NULL;
  if (!s) return 0;
  if (!fy_node_is_scalar(s)) {
    *err = tt_xasprintf("`%s` must be a string", key);
    *at = s;
    return -1;
  }
  *out = tt_yaml_strdup(s);
  return 0;
}
