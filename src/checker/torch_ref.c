/* torch_ref.c — PyTorch references in a python3 child (torch_ref.h). */
#include "checker/torch_ref.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checker/compare.h"
#include "checker/harness.h"
#include "checker/proc.h"
#include "util/util.h"

/* The child. Exit 3: torch (or python) is missing; 4: the reference code failed;
 * 5: its results do not match the outputs. Messages go to stderr. */
static const char script[] =
  "import ast, json, math, sys\n"
  "try:\n"
  "    import torch\n"
  "    import torch.nn.functional as F\n"
  "except Exception as e:\n"
  "    sys.stderr.write('python3 cannot import torch (%s); install Debian\\'s python3-torch' % e)\n"
  "    sys.exit(3)\n"
  "def _sdpa(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False):\n"
  "    # torch 2.x semantics, for torch versions that lack it\n"
  "    if dropout_p != 0.0:\n"
  "        raise ValueError('scaled_dot_product_attention: dropout_p must be 0 in a reference')\n"
  "    L, S = query.size(-2), key.size(-2)\n"
  "    s = 1.0 / math.sqrt(query.size(-1)) if scale is None else scale\n"
  "    if enable_gqa:\n"
  "        key = key.repeat_interleave(query.size(-3) // key.size(-3), -3)\n"
  "        value = value.repeat_interleave(query.size(-3) // value.size(-3), -3)\n"
  "    w = query @ key.transpose(-2, -1) * s\n"
  "    if is_causal:\n"
  "        keep = torch.ones(L, S, dtype=torch.bool, device=query.device).tril(diagonal=0)\n"
  "        w = w.masked_fill(~keep, float('-inf'))\n"
  "    if attn_mask is not None:\n"
  "        if attn_mask.dtype == torch.bool:\n"
  "            w = w.masked_fill(~attn_mask, float('-inf'))\n"
  "        else:\n"
  "            w = w + attn_mask\n"
  "    return torch.softmax(w, dim=-1) @ value\n"
  "if not hasattr(F, 'scaled_dot_product_attention'):\n"
  "    F.scaled_dot_product_attention = _sdpa\n"
  "DT = {'f16': torch.float16, 'bf16': torch.bfloat16, 'f32': torch.float32, 'f64': torch.float64,\n"
  "      'i8': torch.int8, 'i16': torch.int16, 'i32': torch.int32, 'i64': torch.int64, 'u8': torch.uint8}\n"
  "m = json.load(open(sys.argv[1]))\n"
  "env = {'torch': torch, 'F': F, 'math': math}\n"
  "outs = []\n"
  "for a in m['args']:\n"
  "    if 'file' in a:\n"
  "        dt = DT.get(a['dtype'])\n"
  "        if dt is None:\n"
  "            sys.stderr.write('torch has no dtype for %s (argument %s)' % (a['dtype'], a['name'])); sys.exit(5)\n"
  "        data = bytearray(open(a['file'], 'rb').read())\n"
  "        t = torch.frombuffer(data, dtype=dt).clone() if len(data) else torch.empty(0, dtype=dt)\n"
  "        env[a['name']] = t.reshape(a['shape'])\n"
  "        if a.get('output'):\n"
  "            outs.append(a)\n"
  "    else:\n"
  "        env[a['name']] = a['value']\n"
  "code = m['code']\n"
  "try:\n"
  "    tree = ast.parse(code, '<reference>', 'exec')\n"
  "    last = None\n"
  "    if tree.body and isinstance(tree.body[-1], ast.Expr):\n"
  "        last = ast.Expression(tree.body.pop().value)\n"
  "    exec(compile(tree, '<reference>', 'exec'), env)\n"
  "    res = eval(compile(last, '<reference>', 'eval'), env) if last is not None else None\n"
  "except Exception as e:\n"
  "    ln = getattr(e, 'lineno', None)\n"
  "    tb = e.__traceback__\n"
  "    while tb is not None:\n"
  "        if tb.tb_frame.f_code.co_filename == '<reference>':\n"
  "            ln = tb.tb_lineno\n"
  "        tb = tb.tb_next\n"
  "    sys.stderr.write('%s%s: %s' % ('line %d of the reference: ' % ln if ln else '', type(e).__name__, e))\n"
  "    sys.exit(4)\n"
  "if res is None:\n"
  "    sys.stderr.write('the reference code gives no value: end it with an expression'); sys.exit(5)\n"
  "if not isinstance(res, (tuple, list)):\n"
  "    res = (res,)\n"
  "if len(res) != len(outs):\n"
  "    sys.stderr.write('the reference gives %d value(s) for %d output(s) (%s)' % (len(res), len(outs), ', '.join(o['name'] for o in outs))); sys.exit(5)\n"
  "for o, r in zip(outs, res):\n"
  "    r = torch.as_tensor(r)\n"
  "    if r.numel() != o['count']:\n"
  "        sys.stderr.write('the reference value for %s has %d elements, the output has %d' % (o['name'], r.numel(), o['count'])); sys.exit(5)\n"
  "    r = r.detach().to(DT[o['dtype']]).contiguous().reshape(-1)\n"
  "    open(o['out'], 'wb').write(r.view(torch.uint8).numpy().tobytes() if r.numel() else b'')\n";

static const char *python_path(void) {
  const char *p = getenv("TILETRANS_PYTHON");
  if (p && *p) return p;
  return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

static json_t *arg_json(const tt_check_spec *spec, size_t i, const unsigned char *inputs, size_t in_len,
                        const char *workdir, int *bad) {
  const tt_check_arg *a = &spec->args[i];
  json_t *j = json_object();
  json_object_set_new(j, "name", json_string(a->name));
  if (!a->is_buffer) {
    json_object_set_new(j, "value", a->value_is_float ? json_real(a->fvalue) : json_integer(a->ivalue));
    return j;
  }
  size_t n = 0;
  const unsigned char *p = tt_check_inputs_arg(inputs, in_len, i, &n);
  char *file = tt_xasprintf("%s/torch-in-%zu.bin", workdir, i);
  if (!p || tt_check_write_file(file, p, n) != 0) *bad = 1;
  json_object_set_new(j, "file", json_string(file));
  free(file);
  json_object_set_new(j, "dtype", json_string(tt_check_dtype_name(a->dtype)));
  json_t *shape = json_array();
  if (a->ndim)
    for (int d = 0; d < a->ndim; d++) json_array_append_new(shape, json_integer(a->shape[d]));
  else
    json_array_append_new(shape, json_integer(a->len));
  json_object_set_new(j, "shape", shape);
  json_object_set_new(j, "count", json_integer(a->len));
  if (a->output) {
    json_object_set_new(j, "output", json_true());
    char *out = tt_xasprintf("%s/torch-out-%zu.bin", workdir, i);
    json_object_set_new(j, "out", json_string(out));
    free(out);
  }
  return j;
}

/* Reads the outputs the child wrote, in argument order. */
static unsigned char *collect_outputs(const tt_check_spec *spec, const char *workdir, char **err) {
  size_t total = 0;
  for (size_t i = 0; i < spec->nargs; i++)
    if (spec->args[i].output) total += (size_t)spec->args[i].len * tt_check_dtype_size(spec->args[i].dtype);
  unsigned char *buf = tt_xmalloc(total ? total : 1);
  size_t off = 0;
  for (size_t i = 0; i < spec->nargs; i++) {
    const tt_check_arg *a = &spec->args[i];
    if (!a->output) continue;
    size_t want = (size_t)a->len * tt_check_dtype_size(a->dtype), got = 0;
    char *file = tt_xasprintf("%s/torch-out-%zu.bin", workdir, i);
    char *data = tt_check_read_file(file, &got, 0);
    free(file);
    if (!data || got != want) {
      *err = tt_xasprintf("the torch reference wrote %zu bytes for output %s, expected %zu", data ? got : 0, a->name, want);
      free(data);
      free(buf);
      return NULL;
    }
    memcpy(buf + off, data, want);
    off += want;
    free(data);
  }
  return buf;
}

tt_torch_status tt_check_torch_run(const tt_check_spec *spec, const unsigned char *inputs, size_t in_len,
                                   const char *workdir, double timeout_s, unsigned char **outputs,
                                   char **err) {
  *outputs = NULL;
  int bad = 0;
  json_t *m = json_object(), *args = json_array();
  for (size_t i = 0; i < spec->nargs; i++) json_array_append_new(args, arg_json(spec, i, inputs, in_len, workdir, &bad));
  json_object_set_new(m, "args", args);
  json_object_set_new(m, "code", json_string(spec->torch_ref));
  char *mpath = tt_xasprintf("%s/torch-manifest.json", workdir), *spath = tt_xasprintf("%s/torch-ref.py", workdir);
  char *mtext = json_dumps(m, JSON_COMPACT);
  json_decref(m);
  if (bad || !mtext || tt_check_write_file(mpath, mtext, strlen(mtext)) != 0 ||
      tt_check_write_file(spath, script, sizeof script - 1) != 0) {
    *err = tt_xasprintf("cannot write the torch reference's files in %s", workdir);
    free(mtext), free(mpath), free(spath);
    return TT_TORCH_FAILED;
  }
  free(mtext);
  char *out = tt_xasprintf("%s/torch.out", workdir), *errf = tt_xasprintf("%s/torch.err", workdir);
  char *argv[] = {(char *)python_path(), "-I", spath, mpath, NULL};
  tt_check_proc pr;
  tt_torch_status st = TT_TORCH_OK;
  if (tt_check_proc_run(argv, workdir, out, errf, timeout_s, &pr) != 0) {
    *err = tt_xasprintf("cannot run %s for the torch reference (%s); install python3 and Debian's python3-torch",
                        argv[0], pr.err ? pr.err : "not found");
    st = TT_TORCH_MISSING;
  } else if (pr.timed_out) {
    *err = tt_xasprintf("the torch reference ran past %.0f s", timeout_s);
    st = TT_TORCH_FAILED;
  } else if (!pr.exited || pr.exit_code != 0) {
    const char *why = pr.err && *pr.err ? pr.err : "no message";
    if (pr.exited && pr.exit_code == 3) st = TT_TORCH_MISSING;
    else st = TT_TORCH_FAILED;
    if (pr.exited && pr.exit_code == 4)
      *err = tt_xasprintf("the torch reference (spec line %d) failed: %s", spec->torch_line, why);
    else
      *err = tt_xasprintf("torch reference: %s", why);
  } else if (!(*outputs = collect_outputs(spec, workdir, err))) {
    st = TT_TORCH_FAILED;
  }
  tt_check_proc_free(&pr);
  free(out), free(errf), free(mpath), free(spath);
  return st;
}

static void torch_verdict(tt_check_result *r, tt_check_verdict v, char *msg) {
  r->status = v;
  free(r->message);
  r->message = msg;
}

static void clear_outputs(tt_check_result *r) {
  for (size_t k = 0; k < r->noutputs; k++) free(r->outputs[k].name);
  free(r->outputs);
  r->outputs = NULL;
  r->noutputs = 0;
}

void tt_check_torch_compare(const tt_check_spec *spec, const unsigned char *inputs, size_t in_len, const char *workdir,
                            double timeout_s, const unsigned char *source_out, const unsigned char *cand_out,
                            tt_check_result *r) {
  unsigned char *ref = NULL;
  char *err = NULL;
  double t0 = tt_check_now();
  tt_torch_status st = tt_check_torch_run(spec, inputs, in_len, workdir, timeout_s, &ref, &err);
  r->reference.run_s = tt_check_now() - t0;
  free(r->reference.semantics);
  r->reference.semantics = strdup("torch/cpu");
  if (st != TT_TORCH_OK) {
    torch_verdict(r, st == TT_TORCH_MISSING ? TT_CHECK_BUILD_FAIL : TT_CHECK_RUN_FAIL, tt_xasprintf("reference (torch/cpu): %s", err));
    free(err);
    return;
  }
  /* the source first: a source that disagrees with the reference makes the candidate's
   * comparison meaningless */
  tt_check_compare_buffers(spec, ref, source_out, r);
  if (r->status != TT_CHECK_PASS) {
    char *m = tt_xasprintf("the source %s does not match the torch reference: %s", spec->source, r->message ? r->message : "");
    torch_verdict(r, r->status, m);
  } else {
    clear_outputs(r);
    tt_check_compare_buffers(spec, ref, cand_out, r);
  }
  free(ref);
}
