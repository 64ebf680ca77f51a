/* filectx.h — what matching learns about one file beyond its syntax tree: the constants
 * it defines (for `#tt-int-eq?`) and per-function facts set by classifier analyzers
 * (for `#tt-fact?`). One context per file per matching run; used by one thread. */
#ifndef TT_FILECTX_H
#define TT_FILECTX_H

#include "parser/tree.h"
#include "rules/consts.h"
#include "rules/rule.h"
#include "util/strmap.h"
#include "sema/tt_sema.h"

typedef struct tt_fact {
  const char *name;   /* borrowed from the classifier's options */
  uint32_t start, end; /* the function it labels */
  const char *label;  /* borrowed */
} tt_fact;

/* Per-file data an analyzer derives once and reuses across its rules (e.g. every
 * identifier of the file, for nine rename tables): keyed by the analyzer. */
typedef struct tt_filectx_slot {
  const void *key;
  void *data;
  void (*free_data)(void *);
} tt_filectx_slot;

/* A range whose findings are reported at most at `max` (code the target does not
 * compile: a classifier of preprocessor branches sets these). */
typedef struct tt_sev_cap {
  uint32_t start, end;
  tt_severity max;
} tt_sev_cap;

typedef struct tt_filectx {
  const tt_tree *tree;
  const char *const *target_defines; /* borrowed: extra target-side macros (config `hip_defines`) */
  size_t n_target_defines;
  tt_strmap redefined; /* names local headers #define for the target only (`#tt-not-redefined?`) */
  /* Builds `redefined` on first use (reading headers costs; most files never ask). */
  void (*redefined_build)(struct tt_filectx *c, const void *arg);
  const void *redefined_arg;
  bool redefined_built;
  tt_sev_cap *caps;
  size_t n_caps, caps_cap;
  tt_consts *consts;  /* built on first use */
  tt_fact *facts;
  size_t n_facts, cap;
  tt_filectx_slot *slots;
  size_t n_slots, slots_cap;
  /* The semantic layer (src/sema), asked only when a rule needs it. `sema` is the run's
   * session (borrowed; NULL: the context makes its own on first use, default options);
   * `sema_file` this file's facts, made on first use. */
  tt_sema *sema, *own_sema;
  tt_sema_file *sema_file;
  /* Set while one match's predicates are evaluated: why a semantic predicate could not
   * be answered (the finding is kept and marked unconfirmed). NULL: all confirmed. */
  const char *unconfirmed;
  struct tt_fact_index *fact_index; /* built on first lookup; rebuilt when facts change */
} tt_filectx;

void tt_filectx_init(tt_filectx *c, const tt_tree *tree);
void tt_filectx_free(tt_filectx *c);
const tt_consts *tt_filectx_consts(tt_filectx *c);
void tt_filectx_add_fact(tt_filectx *c, const char *name, uint32_t start, uint32_t end, const char *label);
/* The data cached under `key`, built by `build(ctx, arg)` on first use and freed with
 * `free_data` when the context is freed. */
void *tt_filectx_cached(tt_filectx *c, const void *key, void *(*build)(tt_filectx *c, const void *arg),
                        const void *arg, void (*free_data)(void *));

/* The names local headers redefine for the target, built on first call. */
const tt_strmap *tt_filectx_redefined(tt_filectx *c);

/* Caps the severity of findings in [start, end) at `max`. */
void tt_filectx_add_cap(tt_filectx *c, uint32_t start, uint32_t end, tt_severity max);
/* `sev` lowered to the tightest cap over a finding starting at byte `at`. */
tt_severity tt_filectx_capped(const tt_filectx *c, uint32_t at, tt_severity sev);
/* This file's semantic facts (never NULL; answers may be UNKNOWN). */
tt_sema_file *tt_filectx_sema(tt_filectx *c);

/* Whether byte `at` is in a preprocessor branch that the HIP target compiles, per the
 * semantic layer: 1 live, 0 skipped for HIP, -1 unknown (c->unconfirmed is then set).
 * For guard checks that want the compiler's answer where there is one. */
int tt_filectx_live_for_hip(tt_filectx *c, uint32_t at);

/* Records why a semantic question of the current match went unanswered (the first
 * reason wins until the next match). */
void tt_filectx_unconfirmed(tt_filectx *c, const char *why);

/* The label of fact `name` for the innermost labelled range containing byte `at`, or
 * NULL. O(log n) per lookup after an O(n log n) index of the facts (rebuilt when facts
 * were added since the last lookup). */
const char *tt_filectx_fact(tt_filectx *c, const char *name, uint32_t at);

#endif
