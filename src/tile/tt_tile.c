/* tt_tile.c — the public entry points (tt_tile.h) over the evaluator core. */
#include "tile/tt_tile.h"

#include <stdlib.h>
#include <string.h>

#include "tile/tile_eval.h"
#include "tile/tile_lib.h"
#include "util/util.h"

struct tt_tile_program {
  tt_interp in;
  char *path, *text;
};

tt_tile_program *tt_tile_program_load(const char *path, const char *text, size_t len,
                                      tt_tile_dialect dialect, char **err) {
  const tt_lib *lib = NULL;
  switch (dialect) {
    case TT_TILE_CUTILE_PYTHON: lib = &tt_lib_cutile_python; break;
    case TT_TILE_TRITON: lib = &tt_lib_triton; break;
    case TT_TILE_CUTILE_JULIA: lib = &tt_lib_cutile_julia; break;
  }
  tt_tile_program *p = tt_xcalloc(1, sizeof *p);
  /* The interpreter points into the text and the path: the program keeps copies. */
  p->path = tt_xstrdup(path);
  p->text = tt_xmalloc(len + 1);
  memcpy(p->text, text, len);
  p->text[len] = 0;
  if (tt_ev_load(&p->in, p->path, p->text, len, lib, err)) {
    free(p->path);
    free(p->text);
    free(p);
    return NULL;
  }
  return p;
}

void tt_tile_program_free(tt_tile_program *p) {
  if (!p) return;
  tt_ev_unload(&p->in);
  free(p->path);
  free(p->text);
  free(p);
}

int tt_tile_run(const tt_tile_program *p, const char *name, const int64_t grid[3],
                const tt_tile_arg *args, size_t nargs, tt_tile_stats *stats, char **err) {
  /* A run changes only per-run state (pool, tuples, counters), restored on return;
   * the cast keeps the program const for callers that share one across checks. */
  tt_interp *I = (tt_interp *)&p->in;
  I->ops = 0;
  int rc = tt_ev_run(I, name, grid, args, nargs, err);
  if (stats) {
    stats->blocks = (uint64_t)(I->grid[0] * I->grid[1] * I->grid[2]);
    stats->ops = I->ops;
  }
  return rc;
}
