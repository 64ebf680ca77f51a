/* The semantic layer of a build without libclang (-DTT_WITH_LIBCLANG=OFF, or libclang
 * not found): every answer is UNKNOWN, and the reason says so, so that lint keeps the
 * findings and marks them as not confirmed. */
#include "sema/sema_internal.h"

#include <stdlib.h>

#include "util/util.h"

struct tt_sema {
  const char *why;
};

struct tt_sema_file {
  const char *why;
};

tt_sema *tt_sema_new(const tt_sema_options *o) {
  tt_sema *s = tt_xcalloc(1, sizeof *s);
  s->why = o && o->off ? "the semantic layer is off (--no-sema)" : "tiletrans was built without libclang";
  return s;
}

void tt_sema_free(tt_sema *s) { free(s); }
const char *tt_sema_unavailable(const tt_sema *s) { return s->why; }

const char *tt_sema_library(void) { return NULL; }

tt_sema_file *tt_sema_file_new(tt_sema *s, const char *path, const char *text, size_t len) {
  tt_sema_file *f = tt_xcalloc(1, sizeof *f);
  f->why = s->why;
  return f;
}

void tt_sema_file_free(tt_sema_file *f) { free(f); }
const char *tt_sema_why(const tt_sema_file *f) { return f->why; }
tt_sema_answer tt_sema_live(tt_sema_file *f, tt_sema_side side, uint32_t at) { return TT_SEMA_UNKNOWN; }

const uint32_t *tt_sema_skipped(tt_sema_file *f, tt_sema_side side, size_t *n) {
  *n = 0;
  return NULL;
}

tt_sema_answer tt_sema_macro_at(tt_sema_file *f, tt_sema_side side, uint32_t at, tt_sema_macro *m) {
  return TT_SEMA_UNKNOWN;
}

tt_sema_answer tt_sema_hip_redefined(tt_sema_file *f, uint32_t at) { return TT_SEMA_UNKNOWN; }

tt_sema_answer tt_sema_type_at(tt_sema_file *f, uint32_t start, uint32_t end, const char **spelled,
                               const char **canonical) {
  return TT_SEMA_UNKNOWN;
}

const char *const *tt_sema_instantiations(tt_sema_file *f, size_t *n) {
  *n = 0;
  return NULL;
}

const uint32_t *tt_sema_identifiers(tt_sema_file *f, uint32_t start, uint32_t end, size_t *n) {
  *n = 0;
  return NULL;
}
