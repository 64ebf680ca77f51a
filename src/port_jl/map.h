/* map.h — lookups in the API map (internal to src/port_jl). Strings returned point into
 * the map's document and live as long as the map. */
#ifndef TT_PJ_MAP_H
#define TT_PJ_MAP_H

#include <libfyaml.h>
#include <stdbool.h>

#include "port_jl/port_jl.h"

/* The mapping `section` (a top-level key) or NULL. */
struct fy_node *tt_pj_map_section(const tt_pj_map *m, const char *section);
/* The value of `key` in top-level mapping `section`: a node, or NULL. */
struct fy_node *tt_pj_map_entry(const tt_pj_map *m, const char *section, const char *key);
/* The scalar text of `key` in `section` (NULL when absent or not a scalar). */
const char *tt_pj_map_str(const tt_pj_map *m, const char *section, const char *key);
/* The scalar text of `key` in mapping `node`. */
const char *tt_pj_node_str(struct fy_node *node, const char *key);
/* True when the sequence at `key` of `node` holds the scalar `item`. */
bool tt_pj_node_list_has(struct fy_node *node, const char *key, const char *item);
/* Item `i` of the sequence at `key` of `node` (NULL past its end). */
const char *tt_pj_node_list_at(struct fy_node *node, const char *key, int i);
/* Position of `item` in that sequence, or -1. */
int tt_pj_node_list_index(struct fy_node *node, const char *key, const char *item);
/* A top-level scalar. */
const char *tt_pj_map_top(const tt_pj_map *m, const char *key);

#endif
