/* check.c — one check from spec to verdict, and running many in parallel.
 *
 * Steps: candidate text (given or translated) → prepare both sources for the sim →
 * build both harnesses (cached) → generate the inputs once → run each side in a
 * child process under every schedule → compare outputs. The first step that fails
 * decides the verdict; its message names the side, the semantics and, where the sim
 * knows it, the kernel source line. */
#include "checker/check.h"
#include "checker/bind.h"
#include "checker/data.h"
#include "checker/compare.h"
#include "checker/harness.h"
#include "checker/proc.h"
#include "checker/realcc.h"
#include "checker/side.h"
#include "checker/tile_check.h"
#include "checker/torch_ref.h"
#include "checker/translate.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rules/rewrite.h"
#include "rules/rulebook.h"
#include "util/fs.h"
#include "util/sha256.h"
#include "util/util.h"

/* The translator is the rule engine's (tt_core, rules/rewrite.h). */

const char *tt_check_verdict_name(tt_check_verdict v) {
  static const char *names[] = {"PASS", "MISMATCH", "TRANSLATE-FAIL", "BUILD-FAIL", "RUN-FAIL"};
  return names[v];
}

const char *tt_check_backend_name(tt_check_backend b) {
  static const char *names[] = {"sim", "cuda", "hip"};
  return names[b];
}

void tt_check_options_init(tt_check_options *o) {
  memset(o, 0, sizeof *o);
  o->backend = TT_CHECK_BACKEND_SIM;
  o->warp = 64;
  o->timeout_s = 60;
  o->schedules = "forward,reverse,random";
  o->memory_limit = TT_CHECK_DEFAULT_MEMORY_LIMIT;
  o->sandbox = TT_CHECK_SANDBOX_AUTO;
}


static void verdict(tt_check_result *r, tt_check_verdict v, char *msg) {
  r->status = v;
  free(r->message);
  r->message = msg;
}

/* Buffers past this size are refused: both sides, inputs and outputs stay in memory. */
#define TT_CHECK_MAX_BYTES ((size_t)4 << 30)

static int spec_too_big(const tt_check_spec *s, char **why) {
  size_t total = 0;
  for (size_t i = 0; i < s->nargs; i++) {
    const tt_check_arg *a = &s->args[i];
    if (!a->is_buffer) continue;
    size_t b;
    if (__builtin_mul_overflow((size_t)a->len, tt_check_dtype_size(a->dtype), &b) ||
        __builtin_add_overflow(total, b, &total) || total > TT_CHECK_MAX_BYTES) {
      *why = tt_xasprintf("the buffers need more than %zu GiB; shrink `sizes`", TT_CHECK_MAX_BYTES >> 30);
      return 1;
    }
  }
  return 0;
}

/* Compares the output bytes of two runs (`ref` plays the reference) buffer by buffer
 * with the spec's tolerances. Fills outs[] when not NULL; returns how many outputs
 * mismatch and, in *msg (malloc'd), what the first one looks like. */
static size_t diff_outputs(const tt_check_spec *spec, const unsigned char *ref, const unsigned char *cand,
                           const char *ref_name, const char *cand_name, tt_check_output *outs, char **msg) {
  size_t off = 0, bad = 0, k = 0;
  *msg = NULL;
  for (size_t i = 0; i < spec->nargs; i++) {
    const tt_check_arg *a = &spec->args[i];
    if (!a->output) continue;
    double atol, rtol;
    tt_check_spec_tolerance(spec, a->dtype, &atol, &rtol);
    tt_check_cmp c;
    tt_check_compare(a->dtype, ref + off, cand + off, (size_t)a->len, atol, rtol, &c);
    off += (size_t)a->len * tt_check_dtype_size(a->dtype);
    if (outs) {
      tt_check_output *o = &outs[k++];
      o->name = strdup(a->name);
      o->max_abs_err = c.max_abs_err;
      o->max_rel_err = c.max_rel_err;
      o->mismatches = c.mismatches;
      o->count = c.count;
    }
    if (c.mismatches && !bad++)
      *msg = tt_xasprintf("%s: %zu of %zu elements differ beyond atol=%g rtol=%g; first at [%lld]: "
                 "%s %.9g, %s %.9g",
                 a->name, c.mismatches, c.count, atol, rtol, (long long)c.first_bad, ref_name,
                 c.first_ref, cand_name, c.first_cand);
  }
  if (bad > 1) {
    char *m = tt_xasprintf("%s (and %zu more output%s)", *msg ? *msg : "", bad - 1, bad > 2 ? "s" : "");
    free(*msg);
    *msg = m;
  }
  return bad;
}

static const char *schedule_at(const char *list, int idx, char *buf, size_t n) {
  const char *p = list;
  for (int i = 0; i < idx && p; i++) {
    p = strchr(p, ',');
    if (p) p++;
  }
  if (!p) return "?";
  size_t len = strcspn(p, ",");
  snprintf(buf, n, "%.*s", (int)len, p);
  return buf;
}

/* A side whose outputs change with the lane schedule has a race (or a missing
 * barrier) even when one schedule happens to give the right numbers. */
static char *schedule_dependence(const tt_check_spec *spec, const tt_check_side_ctx *side,
                                 const tt_check_options *o) {
  for (int k = 1; k < side->nruns; k++) {
    char *msg = NULL, b0[16], bk[16];
    const char *s0 = schedule_at(o->schedules, 0, b0, sizeof b0), *sk = schedule_at(o->schedules, k, bk, sizeof bk);
    if (diff_outputs(spec, side->outputs[0], side->outputs[k], s0, sk, NULL, &msg)) {
      char *m = tt_xasprintf("outputs depend on the lane schedule (%s vs %s), a data race or a missing "
                    "barrier: %s", s0, sk, msg ? msg : "");
      free(msg);
      return m;
    }
    free(msg);
  }
  return NULL;
}

void tt_check_compare_buffers(const tt_check_spec *spec, const unsigned char *ref,
                              const unsigned char *cand, tt_check_result *r) {
  size_t nout = 0;
  for (size_t i = 0; i < spec->nargs; i++) nout += spec->args[i].output != 0;
  r->outputs = calloc(nout ? nout : 1, sizeof *r->outputs);
  if (!r->outputs) { verdict(r, TT_CHECK_RUN_FAIL, tt_xasprintf("out of memory")); return; }
  r->noutputs = nout;
  char *msg = NULL;
  if (diff_outputs(spec, ref, cand, "reference", "candidate", r->outputs, &msg))
    verdict(r, TT_CHECK_MISMATCH, msg);
  else {
    free(msg);
    verdict(r, TT_CHECK_PASS, NULL);
  }
}


/* Macros as "NAME" or "NAME=VALUE" strings, each name once (malloc'd). */
typedef struct tt_defines {
  char **v;
  size_t n;
} tt_defines;

static void put_define(void *ud, const char *name, const char *value) {
  tt_defines *d = ud;
  size_t len = strlen(name);
  for (size_t i = 0; i < d->n; i++)
    if (!strncmp(d->v[i], name, len) && (d->v[i][len] == '\0' || d->v[i][len] == '=')) return;
  d->v = tt_xrealloc(d->v, (d->n + 1) * sizeof *d->v);
  d->v[d->n++] = value && *value ? tt_xasprintf("%s=%s", name, value) : tt_xstrdup(name);
}

static void defines_free(tt_defines *d) {
  for (size_t i = 0; i < d->n; i++) free(d->v[i]);
  free(d->v);
}

/* The kernel taken out of a program (the source, or a candidate: text NULL reads
 * `path`) with what it needs: the text that side builds (see bind.h, xform.h). */
static char *extracted_text(const tt_check_toolchain *tc, const tt_check_spec *spec, const char *path,
                            const char *text, size_t text_len, const tt_check_cand_inputs *cand, size_t *len,
                            char **notes, char **err) {
  tt_xf_result x;
  int rc = cand ? tt_check_extract_candidate(spec, path, text, text_len, tc->sim_include, cand, &x, err)
                : tt_check_extract(spec, path, text, text_len, tc->sim_include, &x, err);
  if (rc != 0) return NULL;
  tt_buf nb = {0};
  for (size_t i = 0; i < x.nnotes; i++) tt_buf_printf(&nb, "\n  %s", x.notes[i]);
  *notes = nb.len ? tt_buf_steal(&nb) : NULL;
  tt_buf_free(&nb);
  char *out = x.text;
  *len = x.len;
  x.text = NULL;
  tt_xf_result_free(&x);
  return out;
}

/* Copies each support file of the rulebook (tiletrans_hip_compat.h) that the port
 * `text` includes into `dir`, next to it, as `rewrite --out` does: the saved
 * translation builds as it stands. Returns 0, or -1 with errno set. */
static int ship_supports(const tt_check_toolchain *tc, const char *text, const char *dir) {
  if (!tc->hip_support) return 0;
  size_t n;
  char **names = tt_fs_list(tc->hip_support, &n);
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    char *quoted = tt_xasprintf("\"%s\"", names[i]);
    if (rc == 0 && names[i][0] != '.' && strstr(text, quoted)) {
      char *from = tt_xasprintf("%s/%s", tc->hip_support, names[i]), *to = tt_xasprintf("%s/%s", dir, names[i]);
      size_t len;
      char *body = tt_check_read_file(from, &len, 0);
      rc = body && tt_check_write_file(to, body, len) == 0 ? 0 : -1;
      free(body);
      free(from);
      free(to);
    }
    free(quoted);
    free(names[i]);
  }
  free(names);
  return rc;
}

/* tiletrans's translation of the whole source program, local headers inlined (the
 * rules see host code too: launch arithmetic is strategy evidence), saved in the
 * cache (content-addressed, named after the source) so that messages and reports
 * point at a file the user can open. Returns the text with *path, or NULL. */
static char *translation(const tt_check_toolchain *tc, const tt_check_spec *spec, const tt_check_options *o,
                         size_t *len, char **path, char **err) {
  *path = NULL;
  tt_xf_result whole;
  if (tt_check_inline_program(spec, tc->sim_include, &whole, err) != 0) return NULL;
  char *text = NULL, *terr = NULL;
  int trc = o->translator ? tt_check_translate(o->translator, spec->source, tt_lang_from_path(spec->source),
                                               whole.text, whole.len, &text, len, &terr)
                          : -1;
  tt_xf_result_free(&whole);
  if (trc < 0) {
    *err = tt_xasprintf("translating %s to HIP failed: %s", spec->source, terr ? terr : "no rulebook loaded");
    free(terr);
    return NULL;
  }
  const char *base = strrchr(spec->source, '/');
  base = base ? base + 1 : spec->source;
  const char *dot = strrchr(base, '.');
  size_t stem = dot ? (size_t)(dot - base) : strlen(base);
  tt_sha256 h;
  tt_sha256_init(&h);
  tt_sha256_field(&h, text, *len);
  char hex[65];
  tt_sha256_hex(&h, hex);
  char *dir = tt_xasprintf("%s/translated/%.24s", tc->cache_dir, hex);
  *path = dir ? tt_xasprintf("%s/%.*s.hip", dir, (int)stem, base) : NULL;
  if (!*path || tt_check_mkdirs(dir) != 0 || tt_check_write_file(*path, text, *len) != 0 ||
      ship_supports(tc, text, dir) != 0) {
    *err = tt_xasprintf("cannot save the translation of %s in the cache: %s", spec->source, strerror(errno));
    free(text);
    text = NULL;
  }
  free(dir);
  return text;
}

/* Each launched kernel's name as tiletrans's port spells it: the template arguments of
 * `k<__nv_bfloat16, 256>` are CUDA names too, and the HIP side has `__hip_bfloat16`.
 * The rulebook translates them as it translates the source (one parser, one rename
 * table). Returns a copy of spec->launches with the names replaced (the caller frees
 * each kernel and the array), or NULL when no name changes. */
static tt_check_launch *ported_launches(tt_check_translator *tr, const tt_check_spec *spec) {
  tt_check_launch *out = NULL;
  for (size_t i = 0; i < spec->nlaunches; i++) {
    const char *name = spec->launches[i].kernel;
    if (!strchr(name, '<')) continue;
    static const char pre[] = "static void *tt_kernel = (void *)&";
    char *snippet = tt_xasprintf("%s%s;\n", pre, name);
    char *ported = NULL, *err = NULL;
    size_t plen;
    if (tt_check_translate(tr, "kernel.cu", TT_LANG_CUDA, snippet, strlen(snippet), &ported, &plen, &err) == 0) {
      const char *at = strstr(ported, pre), *end = at ? strchr(at, ';') : NULL;
      size_t n = end ? (size_t)(end - at) - (sizeof pre - 1) : 0;
      if (end && (n != strlen(name) || memcmp(at + sizeof pre - 1, name, n))) {
        if (!out) {
          out = tt_xcalloc(spec->nlaunches, sizeof *out);
          for (size_t k = 0; k < spec->nlaunches; k++) out[k] = spec->launches[k], out[k].kernel = tt_xstrdup(spec->launches[k].kernel);
        }
        free(out[i].kernel);
        out[i].kernel = tt_xstrndup(at + sizeof pre - 1, n);
      }
      free(ported);
    }
    free(err);
    free(snippet);
  }
  return out;
}

/* The candidate's source text: the kernel taken out of the spec's `candidate:`, else
 * out of tiletrans's translation of the source. */
static char *candidate_text(const tt_check_toolchain *tc, const tt_check_spec *spec, const tt_check_options *o,
                            size_t *len, char **path, char **notes, tt_check_verdict *fail_as, char **err) {
  *fail_as = TT_CHECK_BUILD_FAIL;
  tt_check_cand_inputs in = {.support_dir = tc->hip_support};
  if (spec->candidate) {
    *path = strdup(spec->candidate);
    return extracted_text(tc, spec, spec->candidate, NULL, 0, &in, len, notes, err);
  }
  size_t tlen = 0;
  char *t = translation(tc, spec, o, &tlen, path, err);
  if (!t) {
    *fail_as = *path ? TT_CHECK_BUILD_FAIL : TT_CHECK_TRANSLATE_FAIL;
    return NULL;
  }
  /* The port left the branches the rulebook read as CUDA-only (`#ifdef GGML_USE_HIP`'s
   * `#else`) as they were: it builds as the project's HIP build does, with those macros. */
  tt_defines hip = {0};
  tt_rulebook_target_defines(tt_check_translator_book(o->translator), "hip", put_define, &hip);
  /* Each translated header is parsed on its own, as the reference's headers are. */
  char *abs = realpath(spec->source, NULL); /* as the inliner names files */
  if (!abs) abs = tt_check_abspath(spec->source);
  tt_xf_text *files;
  size_t nfiles = tt_xf_split_inlined(abs, t, tlen, &files);
  in.hip_defines = (const char *const *)hip.v, in.n_hip_defines = hip.n;
  in.headers = files + 1, in.n_headers = nfiles - 1;
  char *text = extracted_text(tc, spec, *path, files[0].text, files[0].len, &in, len, notes, err);
  tt_xf_texts_free(files, nfiles);
  free(abs);
  defines_free(&hip);
  free(t);
  return text;
}

/* Outputs with `expect:` against their files: the reference's run must give them
 * (within tolerance); the candidate is compared with the reference as always. */
static char *expect_mismatch(const tt_check_spec *spec, const unsigned char *ref) {
  size_t off = 0;
  for (size_t i = 0; i < spec->nargs; i++) {
    const tt_check_arg *a = &spec->args[i];
    if (!a->output) continue;
    size_t bytes = (size_t)a->len * tt_check_dtype_size(a->dtype);
    if (a->expect) {
      char *why = NULL;
      unsigned char *want = tt_check_data_read(a->expect, a->dtype, a->len, NULL, &why);
      if (!want) return why;
      double atol, rtol;
      tt_check_spec_tolerance(spec, a->dtype, &atol, &rtol);
      tt_check_cmp c;
      tt_check_compare(a->dtype, want, ref + off, (size_t)a->len, atol, rtol, &c);
      free(want);
      if (c.mismatches)
        return tt_xasprintf("%s: the reference's output differs from expect: %s in %zu of %zu elements; first at "
                            "[%lld]: expected %.9g, reference %.9g",
                            a->name, a->expect, c.mismatches, c.count, (long long)c.first_bad, c.first_ref, c.first_cand);
    }
    off += bytes;
  }
  return NULL;
}

/* The sim's notes and warnings of both sides (defined behaviour worth knowing, an
 * undefined read no output depends on) go into the message, a PASS's too. */
static void add_notes(tt_check_result *r, const tt_check_side_ctx *ref, const tt_check_side_ctx *cand) {
  const tt_check_side_ctx *s[2] = {ref, cand};
  for (int i = 0; i < 2; i++) {
    if (!s[i]->notes) continue;
    char *m = tt_xasprintf("%s%s%s: %s", r->message ? r->message : "", r->message ? "\n" : "", s[i]->role,
                           s[i]->notes);
    if (m) verdict(r, r->status, m);
  }
}

/* Every verdict says which detectors the spec waived, and why. */
static void add_waivers(tt_check_result *r, const tt_check_spec *spec) {
  for (size_t i = 0; i < spec->nwaivers; i++) {
    const tt_check_waiver *w = &spec->waivers[i];
    char *m = tt_xasprintf("%s%swaived: the %s detector for kernel %s: %s", r->message ? r->message : "",
                           r->message ? "\n" : "", tt_check_detector_name(w->detector), w->kernel, w->reason);
    if (m) verdict(r, r->status, m);
  }
}

void tt_check_run(const tt_check_toolchain *tc, const char *tc_err, const tt_check_spec *spec,
                  const tt_check_options *o, tt_check_result *r) {
  double t0 = tt_check_now();
  memset(r, 0, sizeof *r);
  r->name = strdup(spec->name);
  r->spec = strdup(spec->path);
  r->backend = o->backend;
  r->reference.warp = 32;
  r->candidate.warp = o->warp;
  r->reference.semantics = strdup(o->backend == TT_CHECK_BACKEND_CUDA ? "cuda/gpu" : "cuda/warp32");
  r->candidate.semantics = o->backend == TT_CHECK_BACKEND_HIP ? strdup("hip/gpu") : tt_xasprintf("hip/warp%d", o->warp);
  r->reference.source = strdup(spec->source ? spec->source : spec->path);
  r->candidate.source = spec->candidate ? strdup(spec->candidate) : NULL;

  char *why = NULL;
  tt_check_side_ctx ref = {0}, cand = {0};
  char *workdir = NULL, *cand_path = NULL, *cand_src = NULL, *ref_src = NULL, *notes[2] = {NULL, NULL};
  unsigned char *inputs = NULL;
  tt_check_spec cand_spec = *spec; /* the candidate's: its kernels' names as ported */
  tt_check_launch *ported = NULL;
  if (tt_check_lang_is_tile(spec->lang)) {
    tt_check_run_tile(spec, o, r);
    goto done;
  }
  if (!tc) {
    verdict(r, TT_CHECK_BUILD_FAIL, tt_xasprintf("%s", tc_err ? tc_err : "no sim toolchain"));
    goto done;
  }
  if (spec_too_big(spec, &why)) {
    verdict(r, TT_CHECK_RUN_FAIL, why);
    why = NULL;
    goto done;
  }

  /* Work dir: inputs, outputs, result files and logs of this check. */
  {
    const char *tmp = getenv("TMPDIR");
    char *tmpl = tt_xasprintf("%s/tiletrans-check-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    workdir = tmpl ? mkdtemp(tmpl) : NULL;
    if (!workdir) {
      free(tmpl);
      verdict(r, TT_CHECK_RUN_FAIL, tt_xasprintf("cannot create a work dir: %s", strerror(errno)));
      goto done;
    }
  }

  /* The kernel out of the program, then the candidate's text: a translation
   * failure says more than a build failure. */
  size_t ref_len = 0, cand_len = 0;
  ref_src = extracted_text(tc, spec, spec->source, NULL, 0, NULL, &ref_len, &notes[0], &why);
  if (!ref_src) {
    verdict(r, TT_CHECK_BUILD_FAIL, tt_xasprintf("reference: %s", why));
    goto done;
  }
  tt_check_verdict cand_fail;
  if (!spec->candidate && o->translator && (ported = ported_launches(o->translator, spec))) cand_spec.launches = ported;
  cand_src = candidate_text(tc, &cand_spec, o, &cand_len, &cand_path, &notes[1], &cand_fail, &why);
  if (!cand_src) {
    verdict(r, cand_fail, why);
    why = NULL;
    goto done;
  }
  if (!r->candidate.source) r->candidate.source = strdup(cand_path);

  tt_check_side_init(&ref, tc, spec, o, workdir, "reference", spec->source, ref_src, ref_len,
                     o->backend == TT_CHECK_BACKEND_CUDA ? TT_CHECK_SIDE_NVCC : TT_CHECK_SIDE_SIM_CUDA, 32);
  tt_check_side_init(&cand, tc, &cand_spec, o, workdir, "candidate", cand_path, cand_src, cand_len,
                     o->backend == TT_CHECK_BACKEND_HIP ? TT_CHECK_SIDE_HIPCC : TT_CHECK_SIDE_SIM_HIP, o->warp);
  tt_check_side *sides[2] = {&r->reference, &r->candidate};
  tt_check_side_ctx *ctxs[2] = {&ref, &cand};
  for (int i = 0; i < 2; i++) {
    if (tt_check_side_build(ctxs[i], &why) != 0) {
      const char *nt = notes[i] ? notes[i] : notes[0];
      verdict(r, TT_CHECK_BUILD_FAIL, tt_xasprintf("%s (%s): %s%s%s", ctxs[i]->role, sides[i]->semantics, why,
                                                   nt ? "\ntaking the kernel out of the program:" : "", nt ? nt : ""));
      free(why);
      why = NULL;
      goto done;
    }
    sides[i]->built = 1;
    sides[i]->cached = ctxs[i]->cached;
  }

  uint64_t seed = o->seed_set ? o->seed : spec->seed;
  size_t in_len = 0;
  inputs = tt_check_inputs_make(spec, seed, &in_len);
  char *in_path = tt_xasprintf("%s/inputs.bin", workdir);
  if (!inputs || !in_path || tt_check_write_file(in_path, inputs, in_len) != 0) {
    verdict(r, TT_CHECK_RUN_FAIL, tt_xasprintf("cannot write the inputs: %s", strerror(errno)));
    free(in_path);
    goto done;
  }
  for (int i = 0; i < 2; i++) {
    if (tt_check_side_run(ctxs[i], in_path, seed, &why) != 0) {
      verdict(r, TT_CHECK_RUN_FAIL, tt_xasprintf("%s (%s): %s", ctxs[i]->role, sides[i]->semantics, why));
      free(why);
      why = NULL;
      free(in_path);
      goto done;
    }
    sides[i]->run_s = ctxs[i]->run_s;
  }
  free(in_path);
  for (int i = 0; i < 2; i++) {
    char *dep = schedule_dependence(spec, ctxs[i], o);
    if (dep) {
      verdict(r, TT_CHECK_RUN_FAIL, tt_xasprintf("%s (%s): %s", ctxs[i]->role, sides[i]->semantics, dep));
      free(dep);
      goto done;
    }
  }
  char *ex = expect_mismatch(spec, ref.outputs[0]);
  if (ex) {
    verdict(r, TT_CHECK_MISMATCH, ex);
    goto done;
  }
  /* Sets PASS or MISMATCH from the first run of each side (against the torch
   * reference, when the spec has one: torch_ref.h). */
  if (spec->torch_ref) tt_check_torch_compare(spec, inputs, in_len, workdir, o->timeout_s, ref.outputs[0], cand.outputs[0], r);
  else tt_check_compare_buffers(spec, ref.outputs[0], cand.outputs[0], r);
  if (r->status == TT_CHECK_PASS) { /* a PASS also means both sides build for real (realcc.h) */
    tt_check_realcc_flags fl = {spec->includes, spec->nincludes, spec->defines, spec->ndefines};
    char *note = NULL;
    char *fail = tt_check_realcc_sides(tc, spec->source, cand_path, cand_src, cand_len, &fl, &note);
    if (fail) verdict(r, TT_CHECK_BUILD_FAIL, fail);
    else if (note) verdict(r, r->status, note), note = NULL;
    free(note);
  }
  add_notes(r, &ref, &cand);

done:
  add_waivers(r, spec);
  free(ref_src);
  free(notes[0]);
  free(notes[1]);
  tt_check_side_free(&ref);
  tt_check_side_free(&cand);
  for (size_t i = 0; ported && i < spec->nlaunches; i++) free(ported[i].kernel);
  free(ported);
  free(inputs);
  free(cand_src);
  free(cand_path);
  if (workdir) {
    if (o->keep) {
      /* PASS has no message (DESIGN.md), so the kept dir goes to stderr. */
      if (r->status == TT_CHECK_PASS || !r->message)
        fprintf(stderr, "tiletrans check: %s: work dir kept: %s\n", spec->name, workdir);
      else
        verdict(r, r->status, tt_xasprintf("%s [work dir kept: %s]", r->message, workdir));
    } else {
      tt_check_side_rmtree(workdir);
    }
    free(workdir);
  }
  r->time_s = tt_check_now() - t0;
}

typedef struct {
  const tt_check_toolchain *tc;
  const char *tc_err;
  const tt_check_spec *specs;
  size_t n;
  const tt_check_options *o;
  tt_check_result *results;
  size_t next, done;
  pthread_mutex_t lock;
} pool_t;

static void *worker(void *arg) {
  pool_t *p = arg;
  for (;;) {
    pthread_mutex_lock(&p->lock);
    size_t i = p->next++;
    pthread_mutex_unlock(&p->lock);
    if (i >= p->n) return NULL;
    tt_check_run(p->tc, p->tc_err, &p->specs[i], p->o, &p->results[i]);
    pthread_mutex_lock(&p->lock);
    p->done++;
    if (p->o->on_done) p->o->on_done(&p->results[i], i, p->done, p->n, p->o->on_done_ctx);
    pthread_mutex_unlock(&p->lock);
  }
}

void tt_check_run_all(const tt_check_toolchain *tc, const char *tc_err,
                      const tt_check_spec *specs, size_t n, const tt_check_options *o,
                      int jobs, tt_check_result *results) {
  pool_t p = {tc, tc_err, specs, n, o, results, 0, 0, PTHREAD_MUTEX_INITIALIZER};
  if (jobs < 1) jobs = 1;
  if ((size_t)jobs > n) jobs = (int)n;
  pthread_t th[64];
  int started = 0;
  for (int i = 1; i < jobs && i < 64; i++)
    if (pthread_create(&th[started], NULL, worker, &p) == 0) started++;
  worker(&p); /* this thread works too */
  for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
  pthread_mutex_destroy(&p.lock);
}

void tt_check_result_free(tt_check_result *r) {
  free(r->name);
  free(r->spec);
  free(r->message);
  tt_check_side *s[2] = {&r->reference, &r->candidate};
  for (int i = 0; i < 2; i++) {
    free(s[i]->semantics);
    free(s[i]->source);
  }
  for (size_t i = 0; i < r->noutputs; i++) free(r->outputs[i].name);
  free(r->outputs);
  memset(r, 0, sizeof *r);
}
