/* bind.h — a spec against its program: the kernels taken out of the source
 * (src/xform) and each launch's arguments checked against the kernel's signature.
 *
 * Owned by the checker. tt_check_spec_bind runs when specs are loaded, so a spec
 * that gives `f64*` for a `float *` parameter, too few arguments, a scalar for a
 * pointer or an unknown struct field is a spec error (exit 2) before anything is
 * built. tt_check_extract gives the text each side builds. */
#ifndef TT_CHECK_BIND_H
#define TT_CHECK_BIND_H

#include "checker/spec.h"
#include "xform/xform.h"

/* Takes the spec's kernels (every launch's) out of the program at path (text given,
 * or NULL to read it), with the spec's includes, defines and compile_commands.json
 * (given, or the first found in the source's folder or above, or in a build/ folder
 * there). provided_dir: the sim's shim headers (NULL: none). Returns 0 and fills
 * *out (free with tt_xf_result_free), or -1 with *err (malloc'd). */
int tt_check_extract(const tt_check_spec *spec, const char *path, const char *text, size_t len,
                     const char *provided_dir, tt_xf_result *out, char **err);

/* What a HIP candidate's extraction takes besides the spec (all borrowed; zero: none). */
typedef struct tt_check_cand_inputs {
  /* The rulebook's hip/support folder: an include of one of its files, such as
   * tiletrans_hip_compat.h, is kept for the build to find there
   * (tt_check_toolchain.hip_support), whether or not a copy sits next to the port. */
  const char *support_dir;
  /* "NAME" or "NAME=VALUE", after the spec's `defines:`: the macros of the HIP build
   * that the rulebook assumed (tt_rulebook_target_defines). */
  const char *const *hip_defines;
  size_t n_hip_defines;
  /* The translation's own headers, read in place of the user's (tt_xf_split_inlined). */
  const tt_xf_text *headers;
  size_t n_headers;
} tt_check_cand_inputs;

/* The same for a HIP candidate. */
int tt_check_extract_candidate(const tt_check_spec *spec, const char *path, const char *text, size_t len,
                               const char *provided_dir, const tt_check_cand_inputs *in, tt_xf_result *out,
                               char **err);

/* The same, but out->text is the whole program with its local headers inlined
 * (tt_xf_options.keep_all): what a translation reads. */
int tt_check_inline_program(const tt_check_spec *spec, const char *provided_dir, tt_xf_result *out, char **err);

/* Checks every launch of the spec against its kernel's signature in the source and
 * records the kernel's type for struct arguments. Returns 0, or 2 (spec error) with
 * *err (malloc'd) "SPEC:LINE:COL: KEY: what; the kernel: FILE:LINE: text". */
int tt_check_spec_bind(tt_check_spec *spec, const char *provided_dir, char **err);

/* The spec type a kernel parameter's base type stands for ("float" -> f32, "float4"
 * -> f32 with *lanes 4). Returns 0, or -1 for a type tiletrans does not map. */
int tt_check_ctype_dtype(const char *base, tt_check_dtype *out, int *lanes);

#endif
