/* bind.c — see bind.h. */
#include "checker/bind.h"
#include "checker/proc.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wordexp.h>

#include "util/fs.h"
#include "util/util.h"

/* ------------------------------------------------------------------ types */

typedef struct { const char *name; tt_check_dtype t; int lanes; } ctype_row;

/* Spellings of the element types kernels use: builtins, <cstdint>, the CUDA and HIP
 * half and bfloat16 types, and the vector types (lanes of one element type). */
static const ctype_row k_ctypes[] = {
  {"float", TT_CHECK_F32, 1}, {"double", TT_CHECK_F64, 1},
  {"__half", TT_CHECK_F16, 1}, {"half", TT_CHECK_F16, 1}, {"__hip_half", TT_CHECK_F16, 1},
  {"_Float16", TT_CHECK_F16, 1},
  {"__nv_bfloat16", TT_CHECK_BF16, 1}, {"nv_bfloat16", TT_CHECK_BF16, 1}, {"__hip_bfloat16", TT_CHECK_BF16, 1},
  {"hip_bfloat16", TT_CHECK_BF16, 1}, {"__bf16", TT_CHECK_BF16, 1},
  {"int", TT_CHECK_I32, 1}, {"signed", TT_CHECK_I32, 1}, {"signed int", TT_CHECK_I32, 1}, {"int32_t", TT_CHECK_I32, 1},
  {"unsigned", TT_CHECK_U32, 1}, {"unsigned int", TT_CHECK_U32, 1}, {"uint32_t", TT_CHECK_U32, 1}, {"uint", TT_CHECK_U32, 1},
  {"long long", TT_CHECK_I64, 1}, {"long long int", TT_CHECK_I64, 1}, {"int64_t", TT_CHECK_I64, 1}, {"long", TT_CHECK_I64, 1},
  {"long int", TT_CHECK_I64, 1}, {"ptrdiff_t", TT_CHECK_I64, 1}, {"ssize_t", TT_CHECK_I64, 1},
  {"unsigned long long", TT_CHECK_U64, 1}, {"unsigned long long int", TT_CHECK_U64, 1}, {"unsigned long", TT_CHECK_U64, 1},
  {"uint64_t", TT_CHECK_U64, 1}, {"size_t", TT_CHECK_U64, 1},
  {"short", TT_CHECK_I16, 1}, {"short int", TT_CHECK_I16, 1}, {"int16_t", TT_CHECK_I16, 1},
  {"char", TT_CHECK_I8, 1}, {"signed char", TT_CHECK_I8, 1}, {"int8_t", TT_CHECK_I8, 1},
  {"unsigned char", TT_CHECK_U8, 1}, {"uint8_t", TT_CHECK_U8, 1}, {"bool", TT_CHECK_BOOL, 1},
  {"float2", TT_CHECK_F32, 2}, {"float3", TT_CHECK_F32, 3}, {"float4", TT_CHECK_F32, 4},
  {"double2", TT_CHECK_F64, 2}, {"double4", TT_CHECK_F64, 4},
  {"int2", TT_CHECK_I32, 2}, {"int3", TT_CHECK_I32, 3}, {"int4", TT_CHECK_I32, 4},
  {"uint2", TT_CHECK_U32, 2}, {"uint3", TT_CHECK_U32, 3}, {"uint4", TT_CHECK_U32, 4},
  {"char2", TT_CHECK_I8, 2}, {"char4", TT_CHECK_I8, 4}, {"uchar2", TT_CHECK_U8, 2}, {"uchar4", TT_CHECK_U8, 4},
  {"longlong2", TT_CHECK_I64, 2}, {"ulonglong2", TT_CHECK_U64, 2},
  {"__half2", TT_CHECK_F16, 2}, {"half2", TT_CHECK_F16, 2}, {"__nv_bfloat162", TT_CHECK_BF16, 2},
  {"nv_bfloat162", TT_CHECK_BF16, 2}, {"__hip_bfloat162", TT_CHECK_BF16, 2},
};

int tt_check_ctype_dtype(const char *base, tt_check_dtype *out, int *lanes) {
  if (!strncmp(base, "std::", 5)) base += 5;
  if (!strncmp(base, "::", 2)) base += 2;
  for (size_t i = 0; i < sizeof k_ctypes / sizeof k_ctypes[0]; i++)
    if (!strcmp(k_ctypes[i].name, base)) {
      *out = k_ctypes[i].t;
      *lanes = k_ctypes[i].lanes;
      return 0;
    }
  return -1;
}

/* ------------------------------------------------------------------ options */

typedef struct {
  char **v;
  size_t n, cap;
} strvec;

static void sv_push(strvec *s, char *owned) { TT_PUSH(s->v, s->n, s->cap, owned); }

static void sv_free(strvec *s) {
  for (size_t i = 0; i < s->n; i++) free(s->v[i]);
  free(s->v);
  memset(s, 0, sizeof *s);
}

/* The first compile_commands.json in `dir` or above it (or in a build/ folder on
 * the way), as clangd finds it. NULL when there is none. */
static char *find_compile_commands(const char *source) {
  char *abs = realpath(source, NULL);
  char *dir = tt_fs_dirname(abs ? abs : source);
  free(abs);
  while (dir) {
    const char *names[] = {"compile_commands.json", "build/compile_commands.json"};
    for (int i = 0; i < 2; i++) {
      char *p = tt_fs_join(dir, names[i]);
      if (access(p, R_OK) == 0) { free(dir); return p; }
      free(p);
    }
    if (!strcmp(dir, "/") || !strcmp(dir, ".") || !*dir) break;
    char *up = tt_fs_dirname(dir);
    free(dir);
    dir = up;
  }
  free(dir);
  return NULL;
}

/* -I, -isystem and -D of one compile command (word-split like the shell would,
 * without running anything: WRDE_NOCMD). Relative folders are against `directory`. */
static void take_flags(char **words, size_t n, const char *directory, strvec *inc, strvec *def) {
  for (size_t i = 0; i < n; i++) {
    const char *w = words[i], *val = NULL;
    int is_inc = 0;
    if (!strncmp(w, "-I", 2) || !strcmp(w, "-isystem") || !strcmp(w, "-iquote")) {
      is_inc = 1;
      val = !strncmp(w, "-I", 2) && w[2] ? w + 2 : (i + 1 < n ? words[++i] : NULL);
    } else if (!strncmp(w, "-D", 2)) {
      val = w[2] ? w + 2 : (i + 1 < n ? words[++i] : NULL);
    }
    if (!val) continue;
    if (is_inc) sv_push(inc, val[0] == '/' || !directory ? tt_xstrdup(val) : tt_fs_join(directory, val));
    else sv_push(def, tt_xstrdup(val));
  }
}

/* Reads the entry for `source` from compile_commands.json. Returns 0 (also when no
 * entry names the source), or -1 with *err for a file that is not a compilation
 * database. */
static int read_compile_commands(const char *db, const char *source, strvec *inc, strvec *def, char **err) {
  json_error_t je;
  json_t *root = json_load_file(db, 0, &je);
  if (!root || !json_is_array(root)) {
    *err = tt_xasprintf("%s:%d:%d: not a compilation database: %s", db, je.line, je.column,
                        root ? "the top level is not a list" : je.text);
    json_decref(root);
    return -1;
  }
  char *want = realpath(source, NULL);
  size_t i;
  json_t *e;
  json_array_foreach(root, i, e) {
    const char *dir = json_string_value(json_object_get(e, "directory"));
    const char *file = json_string_value(json_object_get(e, "file"));
    if (!file) continue;
    char *fp = file[0] == '/' || !dir ? tt_xstrdup(file) : tt_fs_join(dir, file);
    char *fabs = realpath(fp, NULL);
    int match = want && fabs && !strcmp(want, fabs);
    free(fp);
    free(fabs);
    if (!match) continue;
    json_t *args = json_object_get(e, "arguments");
    if (json_is_array(args)) {
      size_t n = json_array_size(args);
      char **words = tt_xcalloc(n + 1, sizeof *words);
      for (size_t k = 0; k < n; k++) words[k] = (char *)json_string_value(json_array_get(args, k));
      size_t m = 0;
      for (size_t k = 0; k < n; k++)
        if (words[k]) words[m++] = words[k];
      take_flags(words, m, dir, inc, def);
      free(words);
    } else if (json_string_value(json_object_get(e, "command"))) {
      wordexp_t we;
      if (wordexp(json_string_value(json_object_get(e, "command")), &we, WRDE_NOCMD) == 0) {
        take_flags(we.we_wordv, we.we_wordc, dir, inc, def);
        wordfree(&we);
      }
    }
    break;
  }
  free(want);
  json_decref(root);
  return 0;
}

static int extract(const tt_check_spec *spec, const char *path, const char *text, size_t len,
                   const char *provided_dir, const tt_check_cand_inputs *cand, int keep_all, tt_xf_result *out,
                   char **err) {
  *err = NULL;
  static const tt_check_cand_inputs none;
  if (!cand) cand = &none;
  strvec inc = {0}, def = {0};
  for (size_t i = 0; i < spec->nincludes; i++) sv_push(&inc, tt_xstrdup(spec->includes[i]));
  for (size_t i = 0; i < spec->ndefines; i++) sv_push(&def, tt_xstrdup(spec->defines[i]));
  for (size_t i = 0; i < cand->n_hip_defines; i++) sv_push(&def, tt_xstrdup(cand->hip_defines[i]));
  char *db = spec->compile_commands ? tt_xstrdup(spec->compile_commands) : find_compile_commands(spec->source);
  int rc = -1;
  char *owned = NULL;
  if (db && read_compile_commands(db, spec->source, &inc, &def, err) != 0) goto done;
  if (!text) {
    owned = tt_check_read_file(path, &len, 0);
    if (!owned) {
      *err = tt_xasprintf("cannot read %s: %s", path, strerror(errno));
      goto done;
    }
    text = owned;
  }
  const char **kernels = tt_xcalloc(spec->nlaunches + 1, sizeof *kernels);
  size_t nk = 0;
  for (size_t i = 0; i < spec->nlaunches; i++) {
    size_t j = 0;
    while (j < nk && strcmp(kernels[j], spec->launches[i].kernel)) j++;
    if (j == nk) kernels[nk++] = spec->launches[i].kernel;
  }
  const char *provided[] = {provided_dir}, *support[] = {cand->support_dir};
  tt_xf_options o = {.include_dirs = (const char *const *)inc.v,
                     .n_include_dirs = inc.n,
                     .defines = (const char *const *)def.v,
                     .n_defines = def.n,
                     .provided_dirs = provided,
                     .n_provided_dirs = provided_dir && *provided_dir ? 1 : 0,
                     .support_dirs = support,
                     .n_support_dirs = cand->support_dir ? 1 : 0,
                     .keep_all = keep_all,
                     .overlay = cand->headers,
                     .n_overlay = cand->n_headers};
  rc = tt_xf_extract(path, text, len, kernels, nk, &o, out, err);
  free(kernels);
done:
  free(owned);
  free(db);
  sv_free(&inc);
  sv_free(&def);
  return rc;
}

int tt_check_extract(const tt_check_spec *spec, const char *path, const char *text, size_t len,
                     const char *provided_dir, tt_xf_result *out, char **err) {
  return extract(spec, path, text, len, provided_dir, NULL, 0, out, err);
}

int tt_check_extract_candidate(const tt_check_spec *spec, const char *path, const char *text, size_t len,
                               const char *provided_dir, const tt_check_cand_inputs *in, tt_xf_result *out,
                               char **err) {
  return extract(spec, path, text, len, provided_dir, in, 0, out, err);
}

int tt_check_inline_program(const tt_check_spec *spec, const char *provided_dir, tt_xf_result *out, char **err) {
  return extract(spec, spec->source, NULL, 0, provided_dir, NULL, 1, out, err);
}

/* ------------------------------------------------------------------ binding */

static const tt_xf_signature *sig_of(const tt_xf_result *x, const char *kernel) {
  char *base = NULL, **targs = NULL;
  size_t nt = 0;
  tt_xf_split_template_id(kernel, &base, &targs, &nt);
  const tt_xf_signature *found = NULL;
  for (size_t i = 0; i < x->nsigs && !found; i++) {
    const tt_xf_signature *s = &x->sigs[i];
    int same = base && !strcmp(s->base_name, base) && s->ntargs == nt;
    for (size_t k = 0; same && k < nt; k++) same = !strcmp(s->targs[k], targs[k]);
    if (same) found = s;
  }
  free(base);
  for (size_t k = 0; k < nt; k++) free(targs[k]);
  free(targs);
  return found ? found : &x->sigs[0];
}

static char *where_in_kernel(const tt_xf_signature *s, const tt_xf_param *p) {
  return tt_xasprintf("the kernel's parameter `%s` (%s:%d)", p->decl, s->file, p ? p->line : s->line);
}

/* Why spec argument a does not fit parameter p, or NULL when it does. */
static char *mismatch(const tt_check_arg *a, const tt_xf_param *p) {
  tt_check_dtype t;
  int lanes = 1;
  int known = p->resolved && tt_check_ctype_dtype(p->base, &t, &lanes) == 0;
  if (p->reference) return NULL; /* a reference parameter: tiletrans cannot tell what binds */
  if (a->is_struct) {
    if (p->pointers) return tt_xstrdup("type: struct is passed by value, but the kernel takes a pointer");
    if (known || p->is_enum) return tt_xasprintf("type: struct, but the kernel takes %s", p->base);
    if (!p->is_struct) return NULL; /* a type extraction could not see: the build decides */
    for (size_t k = 0; k < a->nfields; k++) {
      size_t j = 0;
      while (j < p->nfields && strcmp(p->fields[j], a->fields[k].name)) j++;
      if (j == p->nfields) return tt_xasprintf("%s has no field '%s'", p->base, a->fields[k].name);
    }
    for (size_t j = 0; j < p->nfields; j++) {
      size_t k = 0;
      while (k < a->nfields && strcmp(p->fields[j], a->fields[k].name)) k++;
      if (k == a->nfields) return tt_xasprintf("fields: lacks %s's field '%s'", p->base, p->fields[j]);
    }
    return NULL;
  }
  if (a->is_buffer && p->pointers == 0)
    return tt_xasprintf("%s* is a buffer, but the kernel takes a value of type %s", tt_check_dtype_name(a->dtype), p->base);
  if (!a->is_buffer && p->pointers > 0)
    return tt_xasprintf("%s is a value, but the kernel takes a pointer (%s*); a buffer's type ends in '*'",
                        tt_check_dtype_name(a->dtype), p->base);
  if (p->pointers > 1) return tt_xasprintf("the kernel takes a pointer to pointers (%s), which a buffer is not", p->decl);
  if (p->is_struct) return tt_xasprintf("the kernel takes struct %s by value: give type: struct with fields:", p->base);
  if (p->is_enum) {
    if (a->is_buffer || tt_check_dtype_is_float(a->dtype))
      return tt_xasprintf("the kernel takes the enum %s: give an integer type (i32)", p->base);
    return NULL;
  }
  if (!known) return NULL;
  if (a->is_buffer) {
    if (a->dtype == t) return NULL;
    /* `char` buffers hold bytes of either sign. */
    if (t == TT_CHECK_I8 && a->dtype == TT_CHECK_U8 && !strcmp(p->base, "char")) return NULL;
    return tt_xasprintf("%s* does not match %s%s (%s)", tt_check_dtype_name(a->dtype), p->base,
                        lanes > 1 ? " elements" : " *", tt_check_dtype_name(t));
  }
  if (lanes > 1) return tt_xasprintf("the kernel takes a vector (%s) by value, which a scalar is not", p->base);
  if (a->dtype == t) return NULL;
  if (t == TT_CHECK_BOOL && !tt_check_dtype_is_float(a->dtype)) return NULL;
  /* Integer scalars of the same size convert exactly (the value is checked in range). */
  if (!tt_check_dtype_is_float(t) && !tt_check_dtype_is_float(a->dtype) && a->dtype != TT_CHECK_BOOL &&
      tt_check_dtype_size(t) == tt_check_dtype_size(a->dtype))
    return NULL;
  return tt_xasprintf("%s does not match %s (%s)", tt_check_dtype_name(a->dtype), p->base, tt_check_dtype_name(t));
}

static int bind_launch(tt_check_spec *spec, size_t li, const tt_xf_signature *s, char **err) {
  const tt_check_launch *l = &spec->launches[li];
  char lkey[48];
  if (spec->nlaunches > 1) snprintf(lkey, sizeof lkey, "launches[%zu].args", li);
  else snprintf(lkey, sizeof lkey, "args");
  /* Every parameter, defaults included: a launch through the harness passes them all
   * (`null` gives a null pointer where the program relies on a default NULL). */
  int defaults = 0;
  for (size_t i = 0; i < s->nparams; i++) defaults |= strstr(s->params[i].decl, "=") != NULL;
  if (l->nargs != s->nparams) {
    *err = tt_xasprintf("%s:%d:%d: %s: the spec gives %zu argument%s, kernel '%s' takes %zu%s; the kernel: %s:%d: %s",
                        spec->path, l->line ? l->line : 1, l->column ? l->column : 1, lkey, l->nargs,
                        l->nargs == 1 ? "" : "s", s->base_name, s->nparams,
                        defaults ? " (give the defaulted ones too; `null` passes a null pointer)" : "", s->file,
                        s->line, s->line_text);
    return 2;
  }
  for (size_t k = 0; k < l->nargs; k++) {
    const tt_xf_param *p = &s->params[k];
    if (l->args[k] == TT_CHECK_NULL_ARG) {
      if (p->pointers == 0 && !p->reference) {
        *err = tt_xasprintf("%s:%d:%d: %s[%zu]: null is a pointer, but the kernel takes a value here: `%s` (%s:%d)",
                            spec->path, l->line, l->column, lkey, k, p->decl, s->file, p->line);
        return 2;
      }
      continue;
    }
    tt_check_arg *a = &spec->args[l->args[k]];
    char *why = mismatch(a, p);
    if (why) {
      char *w = where_in_kernel(s, p);
      *err = tt_xasprintf("%s:%d:%d: args[%zu] (%s).type: %s; %s", spec->path, a->line, a->column, l->args[k], a->name,
                          why, w);
      free(w);
      free(why);
      return 2;
    }
    if (a->is_struct && !a->struct_type) a->struct_type = tt_xstrdup(p->base);
    if (!a->is_buffer && !a->is_struct && !tt_check_dtype_is_float(a->dtype) && p->resolved) {
      tt_check_dtype t;
      int lanes;
      if (tt_check_ctype_dtype(p->base, &t, &lanes) == 0 && !tt_check_dtype_is_float(t) && t != TT_CHECK_BOOL &&
          tt_check_dtype_size(t) < 8) {
        int is_unsigned = t == TT_CHECK_U8 || t == TT_CHECK_U32;
        int bits = (int)tt_check_dtype_size(t) * 8;
        int64_t lo = is_unsigned ? 0 : -((int64_t)1 << (bits - 1));
        int64_t hi = is_unsigned ? ((int64_t)1 << bits) - 1 : ((int64_t)1 << (bits - 1)) - 1;
        if (a->ivalue < lo || a->ivalue > hi) {
          *err = tt_xasprintf("%s:%d:%d: args[%zu] (%s).value: %lld does not fit %s; the kernel's parameter `%s` (%s:%d)",
                              spec->path, a->line, a->column, l->args[k], a->name, (long long)a->ivalue, p->base,
                              p->decl, s->file, p->line);
          return 2;
        }
      }
    }
  }
  return 0;
}

int tt_check_spec_bind(tt_check_spec *spec, const char *provided_dir, char **err) {
  *err = NULL;
  if (spec->lang != TT_CHECK_LANG_CUDA) return 0;
  tt_xf_result x;
  char *why = NULL;
  if (tt_check_extract(spec, spec->source, NULL, 0, provided_dir, &x, &why) != 0) {
    *err = tt_xasprintf("%s:%d:%d: kernel: %s", spec->path, spec->kernel_line ? spec->kernel_line : 1,
                        spec->kernel_column ? spec->kernel_column : 1, why ? why : "cannot take the kernel out of the source");
    free(why);
    return 2;
  }
  int rc = 0;
  for (size_t i = 0; i < spec->nlaunches && !rc; i++)
    rc = bind_launch(spec, i, sig_of(&x, spec->launches[i].kernel), err);
  tt_xf_result_free(&x);
  return rc;
}
