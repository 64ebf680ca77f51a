/* tiletrans.h — the embedding API of libtiletrans: lint and rewrite a buffer.
 *
 * A small, stable C interface over tiletrans's engine for tools that embed it (an
 * editor plug-in, a language server, a build step). Find it with CMake's
 * `find_package(tiletrans)` and link `tiletrans::tiletrans`.
 *
 * Ownership, once for all functions:
 *  - Every pointer the library returns through an out-parameter is owned by the
 *    caller and is freed by the matching *_free function (char * error strings:
 *    tiletrans_free).
 *  - Pointers returned directly by tiletrans_result_* accessors are borrowed from the
 *    result and live until tiletrans_result_free. A result does not borrow from its
 *    rulebook: it may outlive it.
 *  - Input buffers are only read, never kept.
 * Threads: a rulebook is immutable once loaded and may be shared by threads that lint
 * or rewrite at the same time; a result belongs to one thread at a time.
 * Errors: functions returning int give 0 on success and -1 on failure, with *err set
 * to a message (when err is not NULL). Input that does not parse is not an error:
 * regions that fail to parse are reported as findings and never rewritten.
 *
 * TILETRANS_API_VERSION grows when functions are added; existing ones keep their
 * signatures and meaning. */
#ifndef TILETRANS_H
#define TILETRANS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TILETRANS_API_VERSION 1

#if defined(__GNUC__)
#define TILETRANS_API __attribute__((visibility("default")))
#else
#define TILETRANS_API
#endif

typedef enum tiletrans_lang {
  TILETRANS_LANG_FROM_PATH = 0, /* from the path's extension (.cu .cuh .hip .cpp .h .hpp .py .jl) */
  TILETRANS_LANG_CUDA = 1,      /* CUDA and HIP C++ */
  TILETRANS_LANG_PYTHON = 2,    /* cuTile Python, Triton */
  TILETRANS_LANG_JULIA = 3,     /* cuTile.jl */
} tiletrans_lang;

typedef enum tiletrans_severity {
  TILETRANS_NOTE = 0,
  TILETRANS_WARNING = 1,
  TILETRANS_ERROR = 2,
} tiletrans_severity;

typedef struct tiletrans_finding {
  const char *rule_id;         /* e.g. "hip-ballot-32bit" */
  tiletrans_severity severity; /* after the rule's default; no config is applied */
  const char *message;
  size_t start_byte, end_byte; /* byte range in the input, end exclusive */
  unsigned line, column;       /* 1-based; columns count bytes */
  unsigned end_line, end_column;
  int has_fix;                 /* the rule has a fix (applied by tiletrans_rewrite) */
} tiletrans_finding;

typedef struct tiletrans_rulebook tiletrans_rulebook;
typedef struct tiletrans_result tiletrans_result;

/* The library's version, e.g. "0.1.0" (static storage). */
TILETRANS_API const char *tiletrans_version(void);

/* Loads the rule files under each of `dirs` (n_dirs folders). n_dirs == 0 loads the
 * default rulebook: $TILETRANS_RULES_DIR, else the one installed with the library.
 * NULL on error (a missing folder, a malformed rule file: *err names file, line and
 * key). Loading records in $TILETRANS_CACHE_DIR (default ~/.cache/tiletrans) which
 * rule queries passed tree-sitter's pattern analysis, so that later loads skip it. */
TILETRANS_API tiletrans_rulebook *tiletrans_rulebook_load(const char *const *dirs, size_t n_dirs, char **err);
TILETRANS_API void tiletrans_rulebook_free(tiletrans_rulebook *book);

/* Lints `len` bytes of `text` as file `path` (used for messages and, with
 * TILETRANS_LANG_FROM_PATH, for the language) with the rules of `target` ("hip",
 * "julia", "triton"; NULL: every target). *out receives the findings, sorted by
 * position; suppression comments (tiletrans-ignore) are honoured. */
TILETRANS_API int tiletrans_lint(const tiletrans_rulebook *book, const char *target, const char *path,
                                 tiletrans_lang lang, const char *text, size_t len, tiletrans_result **out,
                                 char **err);

/* Like tiletrans_lint, and applies every fix to a fixpoint: *out also holds the
 * rewritten text (tiletrans_result_text). Findings are those of the input, each
 * fix's outcome folded in (refused edits add notes). */
TILETRANS_API int tiletrans_rewrite(const tiletrans_rulebook *book, const char *target, const char *path,
                                    tiletrans_lang lang, const char *text, size_t len, tiletrans_result **out,
                                    char **err);

TILETRANS_API size_t tiletrans_result_count(const tiletrans_result *r);
/* The i-th finding (i < count), borrowed from r. */
TILETRANS_API const tiletrans_finding *tiletrans_result_finding(const tiletrans_result *r, size_t i);
/* The rewritten text (NUL-terminated; *len, when not NULL, receives its length in
 * bytes), borrowed from r; NULL for a lint result. */
TILETRANS_API const char *tiletrans_result_text(const tiletrans_result *r, size_t *len);
/* 1 when the rewrite changed the text, 0 when not (and for lint results). */
TILETRANS_API int tiletrans_result_changed(const tiletrans_result *r);
TILETRANS_API void tiletrans_result_free(tiletrans_result *r);

/* Frees a string the library returned (error messages). */
TILETRANS_API void tiletrans_free(void *p);

#ifdef __cplusplus
}
#endif

#endif
