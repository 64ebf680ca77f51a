/* tile_array.h — tiles to and from a kernel's array arguments, internal to src/tile.
 *
 * An array is a tt_tile_arg of kind TT_TILE_ARG_ARRAY: shape and strides (in
 * elements) over caller-owned bytes. These functions are the only place the
 * interpreter touches those bytes, so every access is bounds-checked here: tiled
 * loads pad what lies outside, tiled stores clip it, and gathers/scatters follow
 * their mask and bounds rules. Dialects map their own index conventions (cuTile.jl's
 * 1-based, column-major views) onto these 0-based strided views. */
#ifndef TT_TILE_ARRAY_H
#define TT_TILE_ARRAY_H

#include "tile/tile_ops.h"

/* A view of an array: dims permuted by `order` (view dim d is array dim order[d]). */
typedef struct tt_view {
  const tt_tile_arg *arr;
  int ndim;
  int64_t shape[TT_TILE_MAX_DIMS];
  int64_t strides[TT_TILE_MAX_DIMS];
} tt_view;

/* order NULL: identity. Returns -1 when order is not a permutation of the rank. */
int tt_view_make(const tt_tile_arg *arr, const int *order, tt_view *v, tt_err *e);

/* The tile at tile-space `index` of shape `shape` (rank = view rank); elements
 * outside the view take `pad` (a float for float arrays; its integer part else). */
tt_tile_t *tt_view_load(tt_tpool *p, const tt_view *v, const int64_t *index, const int64_t *shape,
                        double pad, tt_err *e);
/* Stores t (cast to the array's dtype) at tile-space `index`; elements outside the
 * view are dropped. t's rank must be the view's. */
int tt_view_store(const tt_view *v, const int64_t *index, const tt_tile_t *t, tt_err *e);

/* Gather: idx[d] are integer tiles already broadcast to one shape (or NULL for a
 * scalar index idx_s[d]); mask may be NULL. Out-of-bounds and masked-off elements
 * take pad. */
tt_tile_t *tt_array_gather(tt_tpool *p, const tt_tile_arg *arr, tt_tile_t *const *idx,
                           int ndim, const int64_t *shape, const tt_tile_t *mask, double pad,
                           tt_err *e);
/* Scatter: val already broadcast to the indices' shape; out-of-bounds and masked-off
 * elements are not stored. */
int tt_array_scatter(const tt_tile_arg *arr, tt_tile_t *const *idx, const tt_tile_t *val,
                     const tt_tile_t *mask, tt_err *e);

#endif
