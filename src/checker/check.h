/* check.h — the checker's entry points: run one spec, run many in parallel.
 *
 * Owned by the checker (src/checker); used by src/cli/check.c. A check builds the
 * reference (CUDA semantics, warp 32) and the candidate (HIP semantics, warp 64 or
 * 32) of one spec, runs both on the same seeded inputs under several lane
 * schedules, compares every output buffer and gives one verdict (DESIGN.md). */
#ifndef TT_CHECK_CHECK_H
#define TT_CHECK_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include "checker/build.h"
#include "checker/spec.h"

typedef enum tt_check_verdict {
  TT_CHECK_PASS, TT_CHECK_MISMATCH, TT_CHECK_TRANSLATE_FAIL, TT_CHECK_BUILD_FAIL,
  TT_CHECK_RUN_FAIL
} tt_check_verdict;

const char *tt_check_verdict_name(tt_check_verdict v);

typedef enum tt_check_backend {
  TT_CHECK_BACKEND_SIM,   /* both sides in the SIMT CPU executor */
  TT_CHECK_BACKEND_CUDA,  /* reference built with nvcc, run on an NVIDIA GPU */
  TT_CHECK_BACKEND_HIP    /* candidate built with hipcc, run on an AMD GPU */
} tt_check_backend;

const char *tt_check_backend_name(tt_check_backend b);

struct tt_check_result;

typedef struct tt_check_options {
  tt_check_backend backend;
  int seed_set;            /* --seed given: it replaces every spec's seed */
  uint64_t seed;
  int warp;                /* candidate warp: 64 (CDNA) or 32 (RDNA) */
  double timeout_s;        /* per run of one side */
  int keep;                /* keep each check's work dir (printed in the message) */
  struct tt_check_translator *translator; /* translates sources that have no `candidate:`
                                     (translate.h); made once by the caller, shared by every check */
  int layout_flipped;      /* cuTile Python without `candidate:`: translate --layout flipped */
  const char *schedules;   /* comma-separated sim schedules, e.g. "forward,reverse,random" */
  size_t memory_limit;     /* address-space limit of a sim harness (RLIMIT_AS); 0: none */
  int sandbox;             /* tt_check_sandbox (proc.h) of sim harnesses */
  /* Called by tt_check_run_all as each check finishes (one call at a time, from the
   * thread that ran it): its result, its index, and how many are done of total. */
  void (*on_done)(const struct tt_check_result *r, size_t index, size_t done, size_t total, void *ctx);
  void *on_done_ctx;
} tt_check_options;

/* The default memory_limit: far above what a kernel's buffers and the sim's fiber
 * stacks need, far below what would take a shared machine down. */
#define TT_CHECK_DEFAULT_MEMORY_LIMIT ((size_t)16 << 30)

void tt_check_options_init(tt_check_options *o);

typedef struct tt_check_side {
  char *semantics;         /* "cuda/warp32", "hip/warp64", "cuda/gpu" */
  int warp;
  char *source;            /* the kernel file this side ran */
  int built;               /* 1 when a harness was built or found in the cache */
  int cached;
  double run_s;
} tt_check_side;

typedef struct tt_check_output {
  char *name;
  double max_abs_err, max_rel_err;
  size_t mismatches, count;
} tt_check_output;

typedef struct tt_check_result {
  char *name;
  char *spec;              /* the spec path as given */
  tt_check_verdict status;
  tt_check_backend backend;
  tt_check_side reference, candidate;
  tt_check_output *outputs;
  size_t noutputs;
  char *message;           /* NULL for PASS */
  double time_s;
} tt_check_result;

/* Runs one check. Never fails as a function: every problem becomes a verdict with a
 * message. tc may be NULL when the toolchain could not be set up (tc_err says why:
 * every check then reports BUILD-FAIL with that message). */
void tt_check_run(const tt_check_toolchain *tc, const char *tc_err, const tt_check_spec *spec,
                  const tt_check_options *o, tt_check_result *res);

/* Compares two sides' outputs (the output buffers concatenated in argument order)
 * with the spec's tolerances; fills r->outputs and sets PASS or MISMATCH. */
void tt_check_compare_buffers(const tt_check_spec *spec, const unsigned char *ref,
                              const unsigned char *cand, tt_check_result *r);

/* Runs n checks on up to `jobs` threads; results[i] belongs to specs[i]. */
void tt_check_run_all(const tt_check_toolchain *tc, const char *tc_err,
                      const tt_check_spec *specs, size_t n, const tt_check_options *o,
                      int jobs, tt_check_result *results);

void tt_check_result_free(tt_check_result *r);

/* Whether a backend can run here; when not, *why (malloc'd) says what is missing
 * ("no CUDA device", "hipcc not found", ...). */
int tt_check_backend_available(tt_check_backend b, char **why);

#endif
