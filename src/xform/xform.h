/* xform.h — source transformations on the tree-sitter parse: taking one kernel out of
 * a whole CUDA/HIP program (tt_xf_extract) and reading its signature.
 *
 * Owned by the xform module (prefix tt_xf_). Used by `tiletrans check`, which builds
 * only the kernel of a program as users have it: `main`, host functions, `<<<...>>>`
 * launches, cudaMalloc/cudaMemcpy and includes of host libraries (cuBLAS, cuDNN,
 * NCCL, ...) stay in the user's file, unguarded.
 *
 * Extraction works on top-level items (function definitions, declarations, types,
 * templates, macros) of the file and of every local header it includes ("..."
 * resolved against the including file's folder, then the include folders). The kept
 * set is the dependency closure of the kernel by identifiers used: an item is kept
 * when it defines a name that a kept item uses. Preprocessor directives stay
 * (macros only expand where used, conditionals are left to the compiler); local
 * headers are inlined in place, once each, between #line directives, so that every
 * message of a later compile names the user's file and line. Items not kept become
 * blank space of the same shape (newlines kept), so the main file's lines keep their
 * numbers without any #line. System includes that the check's build does not provide
 * (host libraries: cublas_v2.h, cudnn.h, nccl.h, ...) are dropped without ever being
 * opened. */
#ifndef TT_XFORM_H
#define TT_XFORM_H

#include <stddef.h>

typedef struct tt_xf_options {
  const char *const *include_dirs; /* searched for "..." includes after the file's folder */
  size_t n_include_dirs;
  const char *const *defines;      /* NAME or NAME=VALUE, emitted as #define at the top */
  size_t n_defines;
  /* Folders whose headers the build provides (the sim's shim headers): a <...> include
   * found in one of them is kept. C and C++ standard headers are always kept. */
  const char *const *provided_dirs;
  size_t n_provided_dirs;
  /* Folders of headers that ship with ports (the rulebook's support files, such as
   * tiletrans_hip_compat.h): an include of one of their files is kept as written, never
   * inlined, even where a copy sits next to the including file; the build searches them. */
  const char *const *support_dirs;
  size_t n_support_dirs;
  /* 1: emit every item, not only the kernels' closure (local headers are still inlined
   * and the signatures still read). The whole program as one text, for a translation
   * whose rules need its host code too (launch arithmetic is porting evidence); the
   * kernel is then taken out of the translation. */
  int keep_all;
  /* Texts that stand for files (by absolute path) wherever extraction would read them:
   * a translation's own headers (tt_xf_split_inlined). Borrowed. */
  const struct tt_xf_text *overlay;
  size_t n_overlay;
} tt_xf_options;

/* A file's text, by absolute path. */
typedef struct tt_xf_text {
  char *path;
  char *text; /* NUL-terminated */
  size_t len;
} tt_xf_text;

typedef enum tt_xf_tparam_kind { TT_XF_TPARAM_TYPE, TT_XF_TPARAM_VALUE } tt_xf_tparam_kind;

typedef struct tt_xf_tparam {
  tt_xf_tparam_kind kind;
  char *name;
  char *value_type;   /* VALUE: the parameter's type ("int", "bool"); NULL for TYPE */
  char *deflt;        /* default argument text, or NULL */
} tt_xf_tparam;

/* One kernel parameter, as written and as resolved. */
typedef struct tt_xf_param {
  char *decl;         /* the declaration as written, whitespace collapsed */
  char *name;         /* NULL when unnamed */
  char *base;         /* base type after template arguments and typedefs, without
                         const/volatile/__restrict__ ("float", "unsigned int", "Params") */
  int pointers;       /* pointer (or array) levels after resolution */
  int reference;      /* declared as a reference */
  int resolved;       /* 0: the base type is a name extraction could not resolve to one
                         definition (a typedef in two #if branches, a macro, ...) */
  int is_struct, is_enum; /* base names a struct/class or an enum of the program */
  char **fields;      /* is_struct: field names in order (the types are not needed) */
  char **field_types; /* their base types (after typedefs), same order */
  size_t nfields;
  int line, column;   /* 1-based, in `file` */
} tt_xf_param;

typedef struct tt_xf_signature {
  char *file;         /* where the kernel is defined (absolute) */
  int line;           /* its name's line */
  char *line_text;    /* that source line, for messages */
  char *base_name;    /* "k" for "k<float, 256>" */
  char *launch_name;  /* what the harness launches: "k" or "(k<float, 256>)" */
  tt_xf_tparam *tparams;
  size_t ntparams;
  char **targs;       /* the template arguments given with the name, in order */
  size_t ntargs;
  tt_xf_param *params;
  size_t nparams;
} tt_xf_signature;

typedef struct tt_xf_result {
  char *text;         /* the extracted translation unit (malloc'd, NUL-terminated) */
  size_t len;
  int renumbered;     /* 1 when the text holds #line directives (inlined headers, defines) */
  char **notes;       /* what was dropped and why ("x.cu:3: dropped #include <cublas_v2.h>: ...") */
  size_t nnotes;
  char **files;       /* every file read (absolute): the main file, then local headers */
  size_t nfiles;
  tt_xf_signature *sigs; /* one per kernel asked for, in that order */
  size_t nsigs;
} tt_xf_result;

/* Takes the kernels (names, optionally with template arguments: "k<float, 256,
 * false>") out of the program at `path` (text `text`, len bytes; the caller keeps
 * it), with everything they need. Returns 0 and fills *out; or -1 with *err
 * (malloc'd, "FILE:LINE: what") when a kernel is not defined in the file or its local
 * headers, or its template arguments do not fit. Free with tt_xf_result_free. */
int tt_xf_extract(const char *path, const char *text, size_t len, const char *const *kernels,
                  size_t nkernels, const tt_xf_options *o, tt_xf_result *out, char **err);

void tt_xf_result_free(tt_xf_result *r);

/* Splits a text in which tt_xf_extract (keep_all) inlined local headers between
 * `#line 1 "HEADER"` and `#line N "INCLUDER"` back into files: (*files)[0] is the main
 * file `main_path`, each header after it, and in each includer an inlined header is
 * `#include "HEADER"` (absolute) on the line of the include it replaced, so every file
 * keeps its own line numbers. The defines emitted before `#line 1 "MAIN"` are dropped.
 * Linear in len. Returns the count; free with tt_xf_texts_free. A header parsed apart
 * from its includer parses as the user's file does (one parse error in ggml.h no longer
 * swallows every header after it). */
size_t tt_xf_split_inlined(const char *main_path, const char *text, size_t len, tt_xf_text **files);
void tt_xf_texts_free(tt_xf_text *files, size_t n);

/* Splits "k<float, 256, false>" into its name and top-level template arguments
 * (whitespace trimmed). Returns 0, or -1 when the angle brackets do not balance. The
 * caller frees *name, each (*args)[i] and *args. */
int tt_xf_split_template_id(const char *s, char **name, char ***args, size_t *nargs);

#endif
