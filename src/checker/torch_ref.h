/* torch_ref.h — PyTorch references (`reference: {torch: ...}`, DESIGN.md).
 *
 * Owned by the checker. The reference code runs in a python3 child with torch on the
 * CPU: tiletrans writes each argument's initial bytes and a JSON manifest into the
 * check's work dir, the child (a script embedded in torch_ref.c) builds CPU tensors of
 * the spec's shapes and dtypes, evaluates the code, casts the results to the outputs'
 * dtypes and writes their bytes back. Torch 1.13 (Debian's python3-torch) lacks
 * torch.nn.functional.scaled_dot_product_attention; the script supplies it with the
 * 2.x semantics when the installed torch has none. */
#ifndef TT_CHECK_TORCH_REF_H
#define TT_CHECK_TORCH_REF_H

#include <stddef.h>

#include "checker/check.h"
#include "checker/spec.h"

typedef enum tt_torch_status { TT_TORCH_OK, TT_TORCH_MISSING, TT_TORCH_FAILED } tt_torch_status;

/* Runs spec->torch_ref over `inputs` (the tt_check_inputs_make blob) in `workdir`.
 * On TT_TORCH_OK *outputs holds the output buffers concatenated in argument order
 * (malloc'd; caller frees). Otherwise *err says why: TT_TORCH_MISSING when python3 or
 * torch cannot be found (the message names the package), TT_TORCH_FAILED when the
 * code raised (the Python error, with the spec's line) or its results do not fit the
 * outputs. The interpreter is $TILETRANS_PYTHON, else /usr/bin/python3, else python3. */
tt_torch_status tt_check_torch_run(const tt_check_spec *spec, const unsigned char *inputs, size_t in_len,
                                   const char *workdir, double timeout_s, unsigned char **outputs,
                                   char **err);

/* CUDA specs with a torch reference (check.c's one hook): runs the reference over the
 * same inputs, compares the source's outputs with it (a mismatch there names the
 * source), then the candidate's, and sets r's verdict and output table; the reference
 * side is reported as torch/cpu. A missing torch is BUILD-FAIL, a failing one RUN-FAIL. */
void tt_check_torch_compare(const tt_check_spec *spec, const unsigned char *inputs, size_t in_len, const char *workdir,
                            double timeout_s, const unsigned char *source_out, const unsigned char *cand_out,
                            tt_check_result *r);

#endif
