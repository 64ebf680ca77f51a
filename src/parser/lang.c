#include "parser/lang.h"

#include <string.h>
#include <strings.h>

const TSLanguage *tree_sitter_cuda(void);
const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_julia(void);

static const struct {
  const char *ext;
  tt_lang lang;
} exts[] = {
    {".cu", TT_LANG_CUDA}, {".cuh", TT_LANG_CUDA}, {".hip", TT_LANG_CUDA},
    {".cpp", TT_LANG_CUDA}, {".h", TT_LANG_CUDA},  {".hpp", TT_LANG_CUDA},
    {".py", TT_LANG_PYTHON}, {".jl", TT_LANG_JULIA},
};

tt_lang tt_lang_from_path(const char *path) {
  const char *slash = strrchr(path, '/');
  const char *dot = strrchr(slash ? slash : path, '.');
  if (!dot) return TT_LANG_NONE;
  for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
    if (strcasecmp(dot, exts[i].ext) == 0) return exts[i].lang;
  return TT_LANG_NONE;
}

tt_lang tt_lang_from_name(const char *name) {
  if (!strcmp(name, "cuda") || !strcmp(name, "hip") || !strcmp(name, "cpp") ||
      !strcmp(name, "c++"))
    return TT_LANG_CUDA;
  if (!strcmp(name, "python")) return TT_LANG_PYTHON;
  if (!strcmp(name, "julia")) return TT_LANG_JULIA;
  return TT_LANG_NONE;
}

const char *tt_lang_name(tt_lang lang) {
  switch (lang) {
  case TT_LANG_CUDA: return "cuda";
  case TT_LANG_PYTHON: return "python";
  case TT_LANG_JULIA: return "julia";
  default: return "none";
  }
}

const TSLanguage *tt_lang_grammar(tt_lang lang) {
  switch (lang) {
  case TT_LANG_CUDA: return tree_sitter_cuda();
  case TT_LANG_PYTHON: return tree_sitter_python();
  case TT_LANG_JULIA: return tree_sitter_julia();
  default: return NULL;
  }
}

const char *tt_lang_comment(tt_lang lang) { return lang == TT_LANG_CUDA ? "//" : "#"; }
