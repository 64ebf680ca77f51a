#include "rules/analyzer.h"

#include <string.h>

extern const tt_analyzer tt_analyzer_rename;
extern const tt_analyzer tt_analyzer_narrow_store;
extern const tt_analyzer tt_analyzer_classify;
extern const tt_analyzer tt_analyzer_branches;
extern const tt_analyzer tt_analyzer_scalar_args;
extern const tt_analyzer tt_analyzer_launch_args;
extern const tt_analyzer tt_analyzer_row_broadcast;
extern const tt_analyzer tt_analyzer_tile_shapes;

static const tt_analyzer *const all[] = {&tt_analyzer_rename, &tt_analyzer_narrow_store, &tt_analyzer_classify,
                                         &tt_analyzer_branches, &tt_analyzer_scalar_args, &tt_analyzer_launch_args, &tt_analyzer_row_broadcast,
                                         &tt_analyzer_tile_shapes};

const tt_analyzer *tt_analyzer_find(const char *name) {
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    if (strcmp(all[i]->name, name) == 0) return all[i];
  return NULL;
}

const char *tt_analyzer_names(void) { return "rename, narrow-store, classify-functions, preprocessor-branches, julia-scalar-args, julia-launch-args, julia-row-broadcast"; }
