/* map.c — the API map: loading, validation of its top-level keys, lookups, JSON. */
#include "port_jl/map.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "util/yaml.h"

struct tt_pj_map {
  struct fy_document *doc;
  char *path;
};

/* The sections the translator reads; a map without one of them is refused by name. */
static const char *const k_sections[] = {"module", "functions", "methods", "attributes", "dtypes",
                                         "scalar_types", "padding_modes", "operators", "scalar_operators"};

/* The value of scalar key `key` in mapping `map`. The keys are compared as text: a
 * lookup by string would parse the key as YAML, and operator keys such as `*` are
 * aliases there. Maps are small (tens of entries), so the scan is cheap. */
static struct fy_node *lookup(struct fy_node *map, const char *key) {
  if (!map || !fy_node_is_mapping(map)) return NULL;
  void *it = NULL;
  struct fy_node_pair *pr;
  while ((pr = fy_node_mapping_iterate(map, &it))) {
    struct fy_node *k = fy_node_pair_key(pr);
    const char *s = k && fy_node_is_scalar(k) ? fy_node_get_scalar0(k) : NULL;
    if (s && !strcmp(s, key)) return fy_node_pair_value(pr);
  }
  return NULL;
}

tt_pj_map *tt_pj_map_load(const char *path, char **err) {
  struct fy_document *doc = tt_yaml_load(path, NULL, err);
  if (!doc) return NULL;
  struct fy_node *root = fy_document_root(doc);
  if (!root || !fy_node_is_mapping(root)) {
    *err = tt_yaml_error(path, root, "the API map must be a mapping");
    fy_document_destroy(doc);
    return NULL;
  }
  for (size_t i = 0; i < sizeof k_sections / sizeof *k_sections; i++) {
    struct fy_node *s = lookup(root, k_sections[i]);
    if (!s || !fy_node_is_mapping(s)) {
      *err = tt_yaml_error(path, s ? s : root, "key `%s`: expected a mapping", k_sections[i]);
      fy_document_destroy(doc);
      return NULL;
    }
  }
  tt_pj_map *m = tt_xcalloc(1, sizeof *m);
  m->doc = doc;
  m->path = tt_xstrdup(path);
  return m;
}

void tt_pj_map_free(tt_pj_map *m) {
  if (!m) return;
  fy_document_destroy(m->doc);
  free(m->path);
  free(m);
}

char *tt_pj_map_json(const tt_pj_map *m) {
  return fy_emit_node_to_string(fy_document_root(m->doc), FYECF_MODE_JSON_ONELINE);
}

struct fy_node *tt_pj_map_section(const tt_pj_map *m, const char *section) {
  return lookup(fy_document_root(m->doc), section);
}

struct fy_node *tt_pj_map_entry(const tt_pj_map *m, const char *section, const char *key) {
  struct fy_node *s = tt_pj_map_section(m, section);
  return lookup(s, key);
}

static const char *scalar(struct fy_node *n) {
  return n && fy_node_is_scalar(n) ? fy_node_get_scalar0(n) : NULL;
}

const char *tt_pj_map_str(const tt_pj_map *m, const char *section, const char *key) {
  return scalar(tt_pj_map_entry(m, section, key));
}

const char *tt_pj_map_top(const tt_pj_map *m, const char *key) { return scalar(tt_pj_map_section(m, key)); }

const char *tt_pj_node_str(struct fy_node *node, const char *key) {
  return scalar(lookup(node, key));
}

const char *tt_pj_node_list_at(struct fy_node *node, const char *key, int i) {
  struct fy_node *l = lookup(node, key);
  if (!l || !fy_node_is_sequence(l) || i < 0 || i >= fy_node_sequence_item_count(l)) return NULL;
  return scalar(fy_node_sequence_get_by_index(l, i));
}

int tt_pj_node_list_index(struct fy_node *node, const char *key, const char *item) {
  for (int i = 0;; i++) {
    const char *s = tt_pj_node_list_at(node, key, i);
    if (!s) return -1;
    if (!strcmp(s, item)) return i;
  }
}

bool tt_pj_node_list_has(struct fy_node *node, const char *key, const char *item) {
  return tt_pj_node_list_index(node, key, item) >= 0;
}
