/* lang.h — the source languages tiletrans parses, and their tree-sitter grammars. */
#ifndef TT_LANG_H
#define TT_LANG_H

#include <tree_sitter/api.h>

typedef enum tt_lang {
  TT_LANG_NONE = 0,
  TT_LANG_CUDA,   /* CUDA and HIP C++ (.cu .cuh .hip .cpp .h .hpp) */
  TT_LANG_PYTHON, /* cuTile Python, Triton (.py) */
  TT_LANG_JULIA,  /* cuTile.jl (.jl) */
  TT_LANG_COUNT
} tt_lang;

/* Language from a file name's extension; TT_LANG_NONE when not a source tiletrans reads. */
tt_lang tt_lang_from_path(const char *path);
/* Language from its name in rule files and --language ("cuda", "python", "julia"; "hip",
 * "cpp" and "c++" are accepted for cuda); TT_LANG_NONE when unknown. */
tt_lang tt_lang_from_name(const char *name);
const char *tt_lang_name(tt_lang lang);
/* The tree-sitter grammar (static; not owned). */
const TSLanguage *tt_lang_grammar(tt_lang lang);
/* The line-comment marker used for suppressions ("//" or "#"). */
const char *tt_lang_comment(tt_lang lang);

#endif
