/* tile_check.h — `tiletrans check` for tile specs (language: cutile-python | triton).
 *
 * Owned by the checker. Both sides run in the tile interpreter (src/tile, in
 * process) on copies of the same seeded inputs; a PyTorch reference
 * (`reference: {torch: ...}`) replaces the source side when the spec has one. */
#ifndef TT_CHECK_TILE_CHECK_H
#define TT_CHECK_TILE_CHECK_H

#include "checker/check.h"

/* Fills r (already named by tt_check_run) with the verdict of a tile spec. */
void tt_check_run_tile(const tt_check_spec *spec, const tt_check_options *o, tt_check_result *r);

#endif
