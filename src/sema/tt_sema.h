/* tt_sema.h — the semantic layer: what a CUDA file means once it is preprocessed and
 * parsed by clang (libclang) for the CUDA target and for the HIP target. This header is
 * the module's whole surface.
 *
 * tree-sitter sees one file's text; clang sees the translation unit: the real include
 * paths and defines (-I, -D, compile_commands.json), the headers, and the macros each
 * target defines. The layer answers, per file:
 *   (a) which preprocessor branches are live for each target (byte ranges per file);
 *   (b) which names are macros for a target, and where the macro is defined (so a CUDA
 *       name that a project header redefines for HIP is recognised as the header's
 *       business);
 *   (c) the type of the expression at a byte range (spelled and canonical: a
 *       `uint32_t` through a typedef, an `auto`, a wrapper's return type);
 *   (d) the function template instantiations a file names explicitly;
 *   and the identifiers of a byte range as clang's lexer sees them (for lines that
 *   tree-sitter could not parse).
 *
 * Two kinds of parse, each made lazily, at most once per file and target view:
 *   - the preprocessor view (facts a, b): system headers are not read (-nostdinc), the
 *     target's compiler macros are predefined, function bodies are skipped. It costs a
 *     few milliseconds, since only the file and its project headers are lexed.
 *   - the typed view (facts c, d): the full parse with the sim's CUDA or HIP shim
 *     headers (src/sim/include, precompiled once per run into a PCH) and the system
 *     headers.
 * Each answer is YES, NO or UNKNOWN; UNKNOWN comes with a reason (the layer is off,
 * tiletrans was built without libclang, clang could not parse the file, or a project
 * include was not found so the answer may be wrong). Callers keep the finding and say
 * it could not be confirmed.
 *
 * Threads: a tt_sema is created once per run and is shared (it locks its caches); a
 * tt_sema_file belongs to one thread. */
#ifndef TT_SEMA_H
#define TT_SEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum tt_sema_side { TT_SEMA_CUDA = 0, TT_SEMA_HIP = 1, TT_SEMA_SIDES } tt_sema_side;

typedef enum tt_sema_answer { TT_SEMA_UNKNOWN = -1, TT_SEMA_NO = 0, TT_SEMA_YES = 1 } tt_sema_answer;

/* Options of a run; every string is borrowed for the call of tt_sema_new (it copies). */
typedef struct tt_sema_options {
  const char *const *includes;     /* -I folders, both views */
  size_t n_includes;
  const char *const *defines;      /* -D NAME or NAME=VALUE, both views */
  size_t n_defines;
  const char *const *hip_defines;  /* extra HIP-side macros (e.g. GGML_USE_HIP), HIP view only */
  size_t n_hip_defines;
  const char *compile_commands;    /* a compile_commands.json; NULL: searched upward from each file */
  const char *shim_dir;            /* CUDA/HIP headers of the typed view; NULL: the sim's */
  bool off;                        /* --no-sema: every answer is UNKNOWN ("semantic layer off") */
} tt_sema_options;

typedef struct tt_sema tt_sema;
typedef struct tt_sema_file tt_sema_file;

/* A run's semantic layer. Never NULL. Free with tt_sema_free. */
tt_sema *tt_sema_new(const tt_sema_options *o);
void tt_sema_free(tt_sema *s);

/* The libclang the layer loads on its first parse (a path, static or the
 * environment's); NULL in a build without libclang. For cache keys: what it answers
 * depends on which library it is. */
const char *tt_sema_library(void);

/* NULL when the layer can answer; else why it cannot (a static string). */
const char *tt_sema_unavailable(const tt_sema *s);

/* The default HIP-side macros (NULL-terminated, static): what hipcc and HIP builds of
 * common projects define. */
const char *const *tt_sema_default_hip_defines(void);

/* Facts about the file `path` whose current text is `text` (len bytes; both borrowed,
 * they must outlive the result; the text need not be what is on disk: a rewrite's
 * intermediate text is parsed as such). Nothing is parsed until a question needs it.
 * Free with tt_sema_file_free. */
tt_sema_file *tt_sema_file_new(tt_sema *s, const char *path, const char *text, size_t len);
void tt_sema_file_free(tt_sema_file *f);

/* The reason of the last UNKNOWN answer of `f` (a string that lives as long as `f`),
 * or NULL. */
const char *tt_sema_why(const tt_sema_file *f);

/* (a) YES when byte `at` of the file is in a preprocessor branch that `side` compiles,
 * NO when that target skips it. */
tt_sema_answer tt_sema_live(tt_sema_file *f, tt_sema_side side, uint32_t at);

/* (a) The byte ranges of the file that `side` skips (sorted, [start, end) pairs of
 * *n ranges; owned by `f`). NULL with *n = 0 when UNKNOWN (see tt_sema_why). */
const uint32_t *tt_sema_skipped(tt_sema_file *f, tt_sema_side side, size_t *n);

/* (b) A macro expansion seen by the preprocessor of one target. */
typedef struct tt_sema_macro {
  const char *name;     /* owned by the file's facts */
  const char *def_file; /* where the macro is defined: a path, or "<built-in>" / "<command line>" */
  uint32_t def_line;    /* 1-based; 0 for built-in and command-line macros */
} tt_sema_macro;

/* (b) YES with *m filled when the name at byte `at` is the name of a macro expansion for
 * `side` (an expansion in the file itself, not inside another expansion). */
tt_sema_answer tt_sema_macro_at(tt_sema_file *f, tt_sema_side side, uint32_t at, tt_sema_macro *m);

/* (b) YES when the name at byte `at` expands, for the HIP target, as a macro that the
 * CUDA target does not expand there, or defines elsewhere: the code is handed to HIP by
 * a header (ggml's vendors/hip.h defines `__shfl_xor_sync` under GGML_USE_HIP). */
tt_sema_answer tt_sema_hip_redefined(tt_sema_file *f, uint32_t at);

/* (c) The type of the outermost expression (or declared variable) that spans exactly,
 * or most tightly covers, bytes [start, end) in the CUDA view. YES with *spelled (as
 * written: `mask_t`, `auto` resolved to its deduced type) and *canonical (typedefs
 * resolved: `unsigned int`), both owned by `f`. */
tt_sema_answer tt_sema_type_at(tt_sema_file *f, uint32_t start, uint32_t end, const char **spelled,
                               const char **canonical);

/* (d) The explicit function template instantiations and specialisations declared in the
 * file (`template void f<float>(float *);`, `extern template …`), in the CUDA view:
 * *n entries of "name<args>" display names, owned by `f`. */
const char *const *tt_sema_instantiations(tt_sema_file *f, size_t *n);

/* The identifiers that clang's lexer finds in bytes [start, end) of the file (the raw
 * text, no preprocessing), as *n [start, end) byte pairs owned by `f`: for lines that
 * tree-sitter could not parse. NULL when UNKNOWN. */
const uint32_t *tt_sema_identifiers(tt_sema_file *f, uint32_t start, uint32_t end, size_t *n);

#endif
