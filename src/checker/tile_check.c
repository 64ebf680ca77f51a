/* tile_check.c — tile specs through the tile interpreter (tile_check.h).
 *
 * The kernel under test is the candidate, or the source when a PyTorch reference
 * stands in for it. A `.py` candidate of a cuTile Python source is Triton and a `.jl`
 * one cuTile.jl (DESIGN.md); each runs with its own dialect's semantics over the same
 * bytes. What the interpreter rejects before running (a parse error, an unsupported
 * construct, a shape the real compiler refuses) is BUILD-FAIL; what fails while
 * running is RUN-FAIL; both name the kernel line. */
#include "checker/tile_check.h"

#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checker/harness.h"
#include "checker/proc.h"
#include "checker/side.h"
#include "checker/torch_ref.h"
#include "port_jl/port_jl.h"
#include "tile/tt_tile.h"
#include "util/fs.h"
#include "util/relocate.h"
#include "util/util.h"

static void set_verdict(tt_check_result *r, tt_check_verdict v, char *msg) {
  r->status = v;
  free(r->message);
  r->message = msg;
}

static tt_tile_dtype tile_dtype(tt_check_dtype t) {
  static const tt_tile_dtype map[TT_CHECK_DTYPE_COUNT] = {
    [TT_CHECK_F16] = TT_TILE_F16, [TT_CHECK_BF16] = TT_TILE_BF16, [TT_CHECK_F32] = TT_TILE_F32,
    [TT_CHECK_F64] = TT_TILE_F64, [TT_CHECK_I8] = TT_TILE_I8, [TT_CHECK_I16] = TT_TILE_I16,
    [TT_CHECK_I32] = TT_TILE_I32, [TT_CHECK_I64] = TT_TILE_I64, [TT_CHECK_U8] = TT_TILE_U8,
    [TT_CHECK_U32] = TT_TILE_U32, [TT_CHECK_U64] = TT_TILE_U64,
  };
  return map[t];
}

/* The tile interpreter's arguments over `blob` (a private copy of the inputs). A
 * cuTile.jl candidate under `# layout: flipped` sees each array with its dims
 * reversed (the same bytes as a column-major Julia array of the reversed shape);
 * under `logical` it sees the Python shape (a permuted, row-major-strided array). */
static tt_tile_arg *tile_args(const tt_check_spec *spec, unsigned char *blob, size_t len, bool flipped) {
  tt_tile_arg *args = tt_xcalloc(spec->nargs ? spec->nargs : 1, sizeof *args);
  for (size_t i = 0; i < spec->nargs; i++) {
    const tt_check_arg *a = &spec->args[i];
    tt_tile_arg *t = &args[i];
    t->name = a->name;
    if (a->is_buffer) {
      size_t n;
      t->kind = TT_TILE_ARG_ARRAY;
      t->dtype = tile_dtype(a->dtype);
      t->data = (void *)tt_check_inputs_arg(blob, len, i, &n);
      t->ndim = a->ndim ? a->ndim : 1;
      for (int d = 0; d < t->ndim; d++) t->shape[d] = a->ndim ? a->shape[d] : a->len;
      int64_t s = 1;
      for (int d = t->ndim - 1; d >= 0; d--) t->strides[d] = s, s *= t->shape[d];
      for (int d = 0; flipped && d < t->ndim / 2; d++) {
        int o = t->ndim - 1 - d;
        int64_t x = t->shape[d], y = t->strides[d];
        t->shape[d] = t->shape[o], t->strides[d] = t->strides[o];
        t->shape[o] = x, t->strides[o] = y;
      }
    } else if (a->value_is_float) {
      t->kind = TT_TILE_ARG_FLOAT;
      t->fvalue = a->fvalue;
    } else {
      t->kind = TT_TILE_ARG_INT;
      t->ivalue = a->ivalue;
    }
  }
  return args;
}

/* The output buffers of `blob`, concatenated in argument order. */
static unsigned char *outputs_of(const tt_check_spec *spec, const unsigned char *blob, size_t len) {
  unsigned char *out = tt_xmalloc(tt_check_side_output_bytes(spec) + 1);
  size_t off = 0;
  for (size_t i = 0; i < spec->nargs; i++) {
    if (!spec->args[i].output) continue;
    size_t n;
    const unsigned char *p = tt_check_inputs_arg(blob, len, i, &n);
    memcpy(out + off, p, n);
    off += n;
  }
  return out;
}

typedef struct tile_side {
  const char *path;
  tt_tile_dialect dialect;
  const char *entry;
  const char *semantics;
  bool flipped;            /* cuTile.jl: `# layout: flipped` */
} tile_side;

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* A cuTile.jl file's layout line: among its leading comment lines, `# layout:
 * logical` or `# layout: flipped`. 0 with *flipped set, or -1 with *msg. */
static int julia_layout(const char *path, bool *flipped, char **msg) {
  size_t len = 0;
  char *text = tt_check_read_file(path, &len, 0);
  if (!text) {
    *msg = tt_xasprintf("%s: cannot read: %s", path, strerror(errno));
    return -1;
  }
  int rc = -1;
  unsigned line = 1;
  for (const char *p = text; *p; line++) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    while (n && (*p == ' ' || *p == '\t')) p++, n--;
    if (n && *p != '#') break; /* the first code line ends the header */
    const char *k = "# layout:";
    if (n > strlen(k) && !strncmp(p, k, strlen(k))) {
      const char *v = p + strlen(k);
      size_t vn = n - strlen(k);
      while (vn && *v == ' ') v++, vn--;
      while (vn && (v[vn - 1] == ' ' || v[vn - 1] == '\r')) vn--;
      if (vn == 7 && !strncmp(v, "logical", 7)) *flipped = false, rc = 0;
      else if (vn == 7 && !strncmp(v, "flipped", 7)) *flipped = true, rc = 0;
      else *msg = tt_xasprintf("%s:%u:1: unknown layout '%.*s' (logical or flipped)", path, line, (int)vn, v);
      free(text);
      return rc;
    }
    if (!e) break;
    p = e + 1;
  }
  *msg = tt_xasprintf("%s:%u:1: a cuTile.jl candidate needs a '# layout: logical' or '# layout: flipped' line "
                      "before its code (which Julia array the spec's bytes are)", path, line);
  free(text);
  return -1;
}

/* The dialect of a file: the spec's language for the source; for a candidate, its
 * extension (.py: Triton, .jl: cuTile.jl). 0, or -1 with a verdict. */
static int side_for(const tt_check_spec *spec, const char *path, bool is_source, tile_side *s, tt_check_result *r) {
  s->path = path;
  s->entry = !is_source && spec->candidate_entry ? spec->candidate_entry : spec->kernel;
  s->flipped = false;
  if (ends_with(path, ".jl") || (is_source && spec->lang == TT_CHECK_LANG_CUTILE_JULIA)) {
    char *msg = NULL;
    if (julia_layout(path, &s->flipped, &msg)) {
      set_verdict(r, TT_CHECK_BUILD_FAIL, msg);
      return -1;
    }
    s->dialect = TT_TILE_CUTILE_JULIA;
    s->semantics = s->flipped ? "cutile-julia (flipped)" : "cutile-julia (logical)";
    return 0;
  }
  bool triton = is_source ? spec->lang == TT_CHECK_LANG_TRITON : ends_with(path, ".py");
  s->dialect = triton ? TT_TILE_TRITON : TT_TILE_CUTILE_PYTHON;
  s->semantics = triton ? "triton" : "cutile-python";
  return 0;
}

/* Runs one side; on success *out holds its outputs. */
static int run_side(const tt_check_spec *spec, const tile_side *s, const unsigned char *inputs, size_t in_len,
                    const char *role, unsigned char **out, double *secs, tt_check_result *r) {
  size_t len = 0;
  char *text = tt_check_read_file(s->path, &len, 0), *err = NULL;
  if (!text) {
    set_verdict(r, TT_CHECK_BUILD_FAIL, tt_xasprintf("%s: cannot read %s: %s", role, s->path, strerror(errno)));
    return -1;
  }
  double t0 = tt_check_now();
  tt_tile_program *p = tt_tile_program_load(s->path, text, len, s->dialect, &err);
  free(text);
  if (!p) {
    set_verdict(r, TT_CHECK_BUILD_FAIL, tt_xasprintf("%s (%s): %s", role, s->semantics, err));
    free(err);
    return -1;
  }
  unsigned char *blob = tt_xmalloc(in_len);
  memcpy(blob, inputs, in_len);
  tt_tile_arg *args = tile_args(spec, blob, in_len, s->flipped);
  int rc = tt_tile_run(p, s->entry, spec->grid, args, spec->nargs, NULL, &err);
  *secs = tt_check_now() - t0;
  if (rc) {
    set_verdict(r, rc == TT_TILE_E_RUNTIME ? TT_CHECK_RUN_FAIL : TT_CHECK_BUILD_FAIL,
                tt_xasprintf("%s (%s): %s", role, s->semantics, err));
    free(err);
  } else {
    *out = outputs_of(spec, blob, in_len);
  }
  free(args);
  free(blob);
  tt_tile_program_free(p);
  return rc ? -1 : 0;
}

static const char *spec_language(const tt_check_spec *spec) {
  return spec->lang == TT_CHECK_LANG_TRITON ? "triton" : spec->lang == TT_CHECK_LANG_CUTILE_JULIA ? "cutile-julia" : "cutile-python";
}

/* With --keep, the work dir holds what a GPU rerun needs: each argument's initial
 * bytes (arg.NAME.bin), each side's outputs (out.SIDE.NAME.bin) and manifest.json
 * (args with dtype, shape and value; the kernel files), so bench/tile-gpu can run the
 * same bytes through real Triton. */
static void keep_inputs(const tt_check_spec *spec, const unsigned char *inputs, size_t in_len, const char *dir) {
  json_t *m = json_object(), *args = json_array();
  for (size_t i = 0; i < spec->nargs; i++) {
    const tt_check_arg *a = &spec->args[i];
    json_t *j = json_object();
    json_object_set_new(j, "name", json_string(a->name));
    json_object_set_new(j, "dtype", json_string(tt_check_dtype_name(a->dtype)));
    if (a->is_buffer) {
      size_t n;
      const unsigned char *p = tt_check_inputs_arg(inputs, in_len, i, &n);
      char *f = tt_xasprintf("%s/arg.%s.bin", dir, a->name);
      tt_check_write_file(f, p, n);
      free(f);
      json_t *shape = json_array();
      for (int d = 0; d < (a->ndim ? a->ndim : 1); d++) json_array_append_new(shape, json_integer(a->ndim ? a->shape[d] : a->len));
      json_object_set_new(j, "shape", shape);
      json_object_set_new(j, "output", json_boolean(a->output));
    } else {
      json_object_set_new(j, "value", a->value_is_float ? json_real(a->fvalue) : json_integer(a->ivalue));
    }
    json_array_append_new(args, j);
  }
  json_object_set_new(m, "args", args);
  json_object_set_new(m, "kernel", json_string(spec->kernel));
  if (spec->source) json_object_set_new(m, "source", json_string(spec->source));
  if (spec->candidate) json_object_set_new(m, "candidate", json_string(spec->candidate));
  json_object_set_new(m, "language", json_string(spec_language(spec)));
  char *text = json_dumps(m, JSON_INDENT(1)), *f = tt_xasprintf("%s/manifest.json", dir);
  if (text) tt_check_write_file(f, text, strlen(text));
  free(text);
  free(f);
  json_decref(m);
}

static void keep_outputs(const tt_check_spec *spec, const unsigned char *out, const char *side, const char *dir) {
  size_t off = 0;
  for (size_t i = 0; i < spec->nargs; i++) {
    const tt_check_arg *a = &spec->args[i];
    if (!a->output) continue;
    size_t n = (size_t)a->len * tt_check_dtype_size(a->dtype);
    char *f = tt_xasprintf("%s/out.%s.%s.bin", dir, side, a->name);
    tt_check_write_file(f, out + off, n);
    free(f);
    off += n;
  }
}

static char *make_workdir(void) {
  const char *tmp = getenv("TMPDIR");
  char *tmpl = tt_xasprintf("%s/tiletrans-check-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (mkdtemp(tmpl)) return tmpl;
  free(tmpl);
  return NULL;
}

static void set_side(tt_check_side *side, const char *semantics, const char *source) {
  free(side->semantics);
  free(side->source);
  side->semantics = strdup(semantics);
  side->source = strdup(source);
}

/* A cuTile Python source without a candidate: its cuTile.jl translation (rewrite
 * --target julia, in the spec's layout) written into `workdir`. Returns the .jl path
 * (caller frees), or NULL with TRANSLATE-FAIL: the source does not parse, or the code
 * the kernel reaches has constructs with no mapping (the first is named; host code
 * beside the kernel, which the interpreter does not run, does not count). */
static char *translate_to_julia(const tt_check_spec *spec, const tt_check_options *o, const char *workdir,
                                tt_check_result *r) {
  char *rules = tt_relocate_rules_dir();
  char *map_path = tt_fs_join(rules, TT_PJ_MAP_RELPATH);
  char *err = NULL, *text = NULL, *out = NULL;
  size_t len = 0;
  tt_pj_map *m = tt_pj_map_load(map_path, &err);
  tt_source *src = NULL;
  if (m && tt_fs_read(spec->source, &text, &len, &err) == 0) src = tt_source_new(spec->source, text, len, TT_LANG_PYTHON);
  tt_pj_result res = {0};
  if (!m || !src) {
    set_verdict(r, TT_CHECK_TRANSLATE_FAIL, tt_xasprintf("%s", err ? err : "cannot read the source"));
  } else if (tt_pj_translate(m, src, o->layout_flipped ? TT_PJ_FLIPPED : TT_PJ_LOGICAL, &res, &err) < 0) {
    set_verdict(r, TT_CHECK_TRANSLATE_FAIL, tt_xasprintf("%s", err));
  } else {
    const tt_pj_finding *bad = tt_pj_first_error_for(src, &res, spec->kernel);
    char *path = tt_xasprintf("%s/%s.jl", workdir, spec->kernel);
    if (bad) {
      set_verdict(r, TT_CHECK_TRANSLATE_FAIL, tt_xasprintf("%s:%u:%u: %s", spec->source, bad->line, bad->column, bad->message));
    } else if (tt_fs_write_atomic(path, res.text, res.len, &err) < 0) {
      set_verdict(r, TT_CHECK_TRANSLATE_FAIL, tt_xasprintf("%s", err));
    } else {
      out = path;
      path = NULL;
    }
    free(path);
  }
  if (!src) free(text);
  tt_pj_result_free(&res);
  tt_source_free(src);
  tt_pj_map_free(m);
  free(err);
  free(map_path);
  free(rules);
  return out;
}

/* With a PyTorch reference, every kernel the spec names (the source, the candidate)
 * is compared against it, the source first; without one, the candidate against the
 * source. The first side that is not PASS decides. */
void tt_check_run_tile(const tt_check_spec *spec, const tt_check_options *o, tt_check_result *r) {
  tile_side src, cand, ref;
  bool has_src = spec->source != NULL, has_cand = spec->candidate != NULL;
  unsigned char *ref_out = NULL, *out = NULL, *inputs = NULL;
  char *workdir = NULL;
  set_side(&r->reference, spec->torch_ref ? "torch/cpu" : spec_language(spec),
           spec->torch_ref ? spec->path : spec->source);
  set_side(&r->candidate, "tile", has_cand ? spec->candidate : spec->source);
  char *translated = NULL; /* the candidate tiletrans wrote, when the spec has none */
  if (!spec->torch_ref && !has_cand) {
    if (spec->lang != TT_CHECK_LANG_CUTILE_PYTHON || !(workdir = make_workdir())) {
      set_verdict(r, TT_CHECK_TRANSLATE_FAIL,
                  tt_xasprintf("%s: tiletrans translates cuTile Python (to cuTile.jl) only; give a candidate: or a "
                               "reference: {torch: ...}", spec->source));
      goto done;
    }
    if (!(translated = translate_to_julia(spec, o, workdir, r))) goto done;
    has_cand = true;
  }
  const char *cand_path = translated ? translated : spec->candidate;
  if ((has_src && side_for(spec, spec->source, true, &src, r)) || (has_cand && side_for(spec, cand_path, false, &cand, r))) {
    if (translated) set_verdict(r, r->status, tt_xasprintf("translated by tiletrans (%s) to %s; %s",
                                                           o->layout_flipped ? "flipped" : "logical", translated, r->message));
    goto done;
  }
  set_side(&r->candidate, has_cand ? cand.semantics : src.semantics, has_cand ? cand_path : spec->source);
  size_t in_len = 0;
  uint64_t seed = o->seed_set ? o->seed : spec->seed;
  inputs = tt_check_inputs_make(spec, seed, &in_len);
  if ((spec->torch_ref || o->keep) && !workdir) {
    if (!(workdir = make_workdir())) {
      set_verdict(r, TT_CHECK_RUN_FAIL, tt_xasprintf("cannot create a work dir: %s", strerror(errno)));
      goto done;
    }
    if (o->keep) keep_inputs(spec, inputs, in_len, workdir);
  }
  if (spec->torch_ref) {
    char *err = NULL;
    double t0 = tt_check_now();
    tt_torch_status st = tt_check_torch_run(spec, inputs, in_len, workdir, o->timeout_s, &ref_out, &err);
    r->reference.run_s = tt_check_now() - t0;
    if (st != TT_TORCH_OK) {
      set_verdict(r, st == TT_TORCH_MISSING ? TT_CHECK_BUILD_FAIL : TT_CHECK_RUN_FAIL, tt_xasprintf("reference (torch/cpu): %s", err));
      free(err);
      goto done;
    }
  } else {
    ref = src;
    if (run_side(spec, &ref, inputs, in_len, "reference", &ref_out, &r->reference.run_s, r)) goto done;
  }
  r->reference.built = 1;
  if (o->keep) keep_outputs(spec, ref_out, spec->torch_ref ? "torch" : "source", workdir);
  const tile_side *tests[2];
  int ntests = 0;
  if (spec->torch_ref && has_src) tests[ntests++] = &src;
  if (has_cand) tests[ntests++] = &cand;
  for (int i = 0; i < ntests; i++) {
    const char *role = tests[i] == &src ? "source" : "candidate";
    free(out);
    out = NULL;
    for (size_t k = 0; k < r->noutputs; k++) free(r->outputs[k].name);
    free(r->outputs);
    r->outputs = NULL;
    r->noutputs = 0;
    if (run_side(spec, tests[i], inputs, in_len, role, &out, &r->candidate.run_s, r)) goto done;
    r->candidate.built = 1;
    if (o->keep) keep_outputs(spec, out, role, workdir);
    tt_check_compare_buffers(spec, ref_out, out, r);
    if (r->status != TT_CHECK_PASS) {
      if (tests[i] == &src && has_cand) {
        char *m = tt_xasprintf("the source %s does not match the torch reference: %s", spec->source, r->message);
        set_verdict(r, r->status, m);
      }
      goto done;
    }
  }
done:
  if (workdir && o->keep) {
    /* as for CUDA checks: PASS has no message, so the kept dir goes to stderr */
    if (r->status == TT_CHECK_PASS || !r->message) fprintf(stderr, "tiletrans check: %s: work dir kept: %s\n", spec->name, workdir);
    else set_verdict(r, r->status, tt_xasprintf("%s [work dir kept: %s]", r->message, workdir));
  } else if (workdir) {
    tt_check_side_rmtree(workdir);
  }
  free(workdir);
  free(translated);
  free(inputs);
  free(ref_out);
  free(out);
}
