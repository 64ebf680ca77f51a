/* tt_tile.h — the tile interpreter: runs cuTile Python, cuTile.jl and Triton kernels on a CPU.
 *
 * This header is the module's whole public surface. The checker (src/checker) hands
 * it a kernel file, a kernel name, a grid and the kernel's arguments (buffers as
 * strided arrays over the checker's bytes, constants as numbers); the interpreter
 * runs every block of the grid in order and writes the kernel's stores into the
 * buffers. Kernels are read with the project's tree-sitter-python (or -julia) grammar and
 * evaluated statement by statement; tile operations run as whole-tile loops in C,
 * so the interpreter's own cost is per operation, not per element.
 *
 * Ownership: tt_tile_program_load returns a program the caller frees with
 * tt_tile_program_free; error strings are malloc'd and belong to the caller.
 * Buffers passed in are borrowed for the duration of one tt_tile_run call. */
#ifndef TT_TILE_H
#define TT_TILE_H

#include <stddef.h>
#include <stdint.h>

#define TT_TILE_MAX_DIMS 4

/* Element types. Floating types narrower than f32 are computed in f32 and rounded
 * to their own precision after every operation (tile_value.c). */
typedef enum tt_tile_dtype {
  TT_TILE_BOOL, TT_TILE_I8, TT_TILE_I16, TT_TILE_I32, TT_TILE_I64,
  TT_TILE_U8, TT_TILE_U16, TT_TILE_U32, TT_TILE_U64,
  TT_TILE_F16, TT_TILE_BF16, TT_TILE_TF32, TT_TILE_F32, TT_TILE_F64,
  TT_TILE_DTYPE_COUNT
} tt_tile_dtype;

const char *tt_tile_dtype_name(tt_tile_dtype t);
/* Bytes of one element in a buffer (tf32 is stored as f32). */
size_t tt_tile_dtype_size(tt_tile_dtype t);

/* The kernel dialect a file is written in. */
typedef enum tt_tile_dialect {
  TT_TILE_CUTILE_PYTHON, /* `name` in tt_tile_run is a @ct.kernel, run once per block */
  TT_TILE_TRITON,        /* `name` is the host function, run once; it launches kernel[grid](...) */
  TT_TILE_CUTILE_JULIA   /* a cuTile.jl file (tree-sitter-julia); `name` is the kernel, run once per block */
} tt_tile_dialect;

typedef struct tt_tile_program tt_tile_program;

/* Parses `path` (text of `len` bytes) as a kernel file of `dialect`. Returns NULL and
 * sets *err ("FILE:LINE:COL: what") when the file does not parse or uses a construct
 * the interpreter cannot run at top level. */
tt_tile_program *tt_tile_program_load(const char *path, const char *text, size_t len,
                                      tt_tile_dialect dialect, char **err);
void tt_tile_program_free(tt_tile_program *p);

/* One kernel argument. Buffers are row-major arrays over caller-owned bytes; shape
 * and strides are in Python order (dim 0 outermost), strides in elements. */
typedef enum tt_tile_arg_kind { TT_TILE_ARG_ARRAY, TT_TILE_ARG_INT, TT_TILE_ARG_FLOAT } tt_tile_arg_kind;

typedef struct tt_tile_arg {
  tt_tile_arg_kind kind;
  const char *name;          /* the spec's name, for messages */
  tt_tile_dtype dtype;       /* arrays */
  int ndim;
  int64_t shape[TT_TILE_MAX_DIMS];
  int64_t strides[TT_TILE_MAX_DIMS];
  void *data;                /* arrays: borrowed, at least the extent of shape/strides */
  int64_t ivalue;            /* TT_TILE_ARG_INT */
  double fvalue;             /* TT_TILE_ARG_FLOAT */
} tt_tile_arg;

typedef struct tt_tile_stats {
  uint64_t blocks;           /* blocks run */
  uint64_t ops;              /* tile operations evaluated */
} tt_tile_stats;

/* Runs kernel `name` of `p` over `grid` (up to 3 dims; missing dims are 1) with `args`
 * bound to its parameters in order. Returns 0; or, with *err set to
 * "FILE:LINE:COL: what" naming the kernel line where the run stopped,
 * TT_TILE_E_COMPILE for what the real compiler rejects or the interpreter does not
 * support (a construct, a shape or dtype error, a non-power-of-two tile), and
 * TT_TILE_E_RUNTIME for what goes wrong while running (an access outside an array
 * under a true mask, an integer overflow the language makes an error, division by
 * zero, a failed assertion). stats may be NULL. */
#define TT_TILE_E_COMPILE (-1)
#define TT_TILE_E_RUNTIME (-2)
int tt_tile_run(const tt_tile_program *p, const char *name, const int64_t grid[3],
                const tt_tile_arg *args, size_t nargs, tt_tile_stats *stats, char **err);

#endif
