/* spec.h — check specs: one YAML file per kernel (DESIGN.md "Check specs").
 *
 * Owned by the checker. Parsing validates everything a check needs before anything
 * is built: unknown keys, wrong types, bad expressions and bad inits are errors that
 * name the file, line, column and key, so a user fixes a spec without running it.
 * All expressions are evaluated here against `sizes`; later stages see numbers. */
#ifndef TT_CHECK_SPEC_H
#define TT_CHECK_SPEC_H

#include <stddef.h>
#include <stdint.h>
#include "checker/dtype.h"
#include "checker/expr.h"
#include "checker/init.h"

typedef enum tt_check_lang {
  TT_CHECK_LANG_CUDA,          /* CUDA C++ reference, HIP candidate (SIMT executor) */
  TT_CHECK_LANG_CUTILE_PYTHON, /* tile kernels: the tile interpreter (src/tile) */
  TT_CHECK_LANG_TRITON,        /* Triton kernels with their host launcher (src/tile) */
  TT_CHECK_LANG_CUTILE_JULIA   /* a cuTile.jl source (a .jl file with its `# layout:` line; src/tile) */
} tt_check_lang;

/* A field of a struct argument passed by value (`fields:`). */
typedef struct tt_check_field {
  char *name;
  int value_is_float;
  int64_t ivalue;
  double fvalue;
  int line, column;
} tt_check_field;

typedef struct tt_check_arg {
  char *name;
  tt_check_dtype dtype;
  int is_buffer;       /* type ended in '*' */
  int64_t len;         /* buffers: element count (product of shape for tile kernels) */
  int64_t *shape;      /* tile kernels: `shape:` (row-major, Python order) */
  int ndim;
  int has_init;
  tt_check_init init;  /* buffers; zeros when absent */
  int output;          /* compared after the run */
  int has_value;       /* scalars: `value:` or `constant:` */
  int is_constant;     /* tile kernels: a ct.Constant parameter */
  int value_is_float;
  int64_t ivalue;
  double fvalue;
  int line, column;    /* where the argument starts, for messages */
  int is_struct;       /* `type: struct`: a struct by value, built from `fields:` */
  tt_check_field *fields;
  size_t nfields;
  char *struct_type;   /* the kernel's type for it, set by tt_check_spec_bind */
  char *data;          /* `data:` a file (.npy, or raw little-endian elements), resolved */
  double *values;      /* `data:` an explicit list */
  size_t nvalues;
  char *expect;        /* `expect:` a file an output is compared against, resolved */
} tt_check_arg;

/* One launch of a sequence (`launches:`): a kernel and the spec arguments it takes,
 * in its parameter order. A spec without `launches:` has one, from `kernel:`,
 * `launch:` and every argument in order. */
#define TT_CHECK_NULL_ARG ((size_t)-1)

typedef struct tt_check_launch {
  char *kernel;
  int64_t grid[3], block[3];
  int64_t shared_bytes;
  size_t *args;        /* indices into spec->args; TT_CHECK_NULL_ARG: `null`, a null pointer */
  int64_t *offsets;    /* per argument: elements past a buffer's start (`out + 256`) */
  size_t nargs;
  int line, column;
} tt_check_launch;
/* A `waive:` entry: one detector of the sim turned off for one kernel, with the
 * reason, which every verdict of the spec prints. */
typedef enum { TT_CHECK_WAIVE_RACE, TT_CHECK_WAIVE_INACTIVE_LANE_READ } tt_check_detector;
typedef struct tt_check_waiver {
  tt_check_detector detector;
  char *kernel;
  char *reason;
} tt_check_waiver;

/* The detector's name in specs and messages ("race", "inactive-lane-read"). */
const char *tt_check_detector_name(tt_check_detector d);

typedef struct tt_check_spec {
  char *path;          /* the spec file as given */
  char *dir;           /* its directory: relative paths resolve against it */
  char *name;
  char *source;        /* reference program, resolved against dir */
  char *kernel;
  char *candidate;     /* NULL: tiletrans translates source */
  char *candidate_entry; /* a Triton candidate's host function, when not `kernel` */
  char *torch_ref;     /* `reference: {torch: ...}`: the reference is this PyTorch code;
                          source may then be absent (the kernel under test is candidate) */
  int torch_line;      /* where the torch text starts in the spec, for messages */
  tt_check_lang lang;
  tt_check_env sizes;
  int64_t grid[3], block[3];
  int grid_dims, block_dims;
  int64_t shared_bytes;
  tt_check_arg *args;
  size_t nargs;
  int has_atol, has_rtol; /* `tolerance:` entries; each applies to every output and
                              replaces that output type's default */
  double atol, rtol;
  uint64_t seed;
  char **includes;     /* `includes:` folders, resolved against dir */
  size_t nincludes;
  char **defines;      /* `defines:` NAME or NAME=VALUE */
  size_t ndefines;
  char *compile_commands; /* `compile_commands:` file, resolved; NULL: searched upward */
  tt_check_launch *launches;
  size_t nlaunches;    /* >= 1 after parsing */
  int kernel_line, kernel_column;
  tt_check_waiver *waivers;
  size_t nwaivers;
} tt_check_spec;

/* Tile languages run in the tile interpreter; a spec's shape:/constant: keys are theirs. */
int tt_check_lang_is_tile(tt_check_lang l);

/* Parses the spec at path. Returns 0; or 2 for a spec error (invalid YAML or
 * contents) and 3 for an unreadable file, with *err set to a malloc'd message of the
 * form "FILE:LINE:COL: KEY: what is wrong" (caller frees). The codes are the CLI's
 * exit codes (DESIGN.md). */
int tt_check_spec_load(const char *path, tt_check_spec *out, char **err);

/* Same, from text in memory; `path` names it in messages and anchors relative paths. */
int tt_check_spec_parse(const char *path, const char *text, size_t len,
                        tt_check_spec *out, char **err);

void tt_check_spec_free(tt_check_spec *s);

/* The tolerance used for an output of type t: the spec's, else the dtype default. */
void tt_check_spec_tolerance(const tt_check_spec *s, tt_check_dtype t, double *atol, double *rtol);

#endif
