/* harness.c — generates the per-side C++ harness and its input file (see harness.h). */
#include "checker/harness.h"
#include "checker/data.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growable string; generation is small, so failures just poison the buffer. */
typedef struct {
  char *s;
  size_t len, cap;
  int oom;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...) {
  if (b->oom) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) { b->oom = 1; return; }
    if (b->s && b->len + (size_t)n < b->cap) { b->len += (size_t)n; return; }
    size_t cap = (b->cap ? b->cap * 2 : 4096) + (size_t)n;
    char *ns = realloc(b->s, cap);
    if (!ns) { b->oom = 1; return; }
    b->s = ns;
    b->cap = cap;
  }
}

/* A C++ string literal for a path or name (escapes quotes and backslashes). */
static void sb_cstr(sbuf *b, const char *s) {
  sb_printf(b, "\"");
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') sb_printf(b, "\\%c", ch);
    else if (ch < 0x20 || ch >= 0x7f) sb_printf(b, "\\%03o", ch);
    else sb_printf(b, "%c", ch);
  }
  sb_printf(b, "\"");
}

static const char *elem_name(tt_check_dtype t) {
  switch (t) {
  case TT_CHECK_F16: return "TT_SIM_ELEM_F16";
  case TT_CHECK_BF16: return "TT_SIM_ELEM_BF16";
  case TT_CHECK_F32: return "TT_SIM_ELEM_F32";
  case TT_CHECK_F64: return "TT_SIM_ELEM_F64";
  default: return "TT_SIM_ELEM_BYTES";
  }
}

/* The fixed part of main(): reading files and the launch configuration. The proxies
 * let one harness pass a buffer to `float *`, `const float *` or `__half *` alike
 * without tiletrans knowing how the kernel spells its parameter types. */
static const char k_prelude[] =
  "#include <cstdint>\n"
  "#include <cstdio>\n"
  "#include <cstdlib>\n"
  "#include <cstring>\n"
  "#include <vector>\n"
  "\n"
  "namespace tt_check {\n"
  "struct buf {\n"
  "  void *p;\n"
  "  template <class T> operator T *() const { return static_cast<T *>(p); }\n"
  "};\n"
  "/* f16/bf16 scalars travel as bits: converting the integer would change the value. */\n"
  "struct bits16 {\n"
  "  uint16_t v;\n"
  "  template <class T> operator T() const {\n"
  "    static_assert(sizeof(T) == 2, \"spec says f16/bf16 but the kernel parameter is not 2 bytes\");\n"
  "    T t;\n"
  "    std::memcpy(static_cast<void *>(&t), &v, 2);\n"
  "    return t;\n"
  "  }\n"
  "};\n"
  "static std::vector<unsigned char> slurp(const char *path) {\n"
  "  std::vector<unsigned char> v;\n"
  "  FILE *f = std::fopen(path, \"rb\");\n"
  "  if (!f) return v;\n"
  "  unsigned char chunk[65536];\n"
  "  size_t n;\n"
  "  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) v.insert(v.end(), chunk, chunk + n);\n"
  "  std::fclose(f);\n"
  "  return v;\n"
  "}\n"
  "static void result(const char *path, const char *status, int sched, const char *file, int line,\n"
  "                   const char *msg) {\n"
  "  FILE *f = std::fopen(path, \"w\");\n"
  "  if (!f) return;\n"
  "  std::fprintf(f, \"status=%s\\nschedule=%d\\nfile=%s\\nline=%d\\nmessage:\\n%s\\n\", status, sched,\n"
  "               file, line, msg);\n"
  "  std::fclose(f);\n"
  "}\n"
  "static uint64_t u64(const unsigned char *p) { uint64_t v; std::memcpy(&v, p, 8); return v; }\n"
  "/* Launch dimensions come as comma-separated lists, one entry per launch. */\n"
  "static unsigned long long nth(const char *s, int k) {\n"
  "  while (k > 0 && *s) { if (*s++ == ',') k--; }\n"
  "  return std::strtoull(s, 0, 10);\n"
  "}\n"
  "}  // namespace tt_check\n"
  "\n"
  "int main(int argc, char **argv) {\n"
  "  if (argc != 14) {\n"
  "    std::fprintf(stderr, \"usage: harness IN OUT RESULT GX GY GZ BX BY BZ SHARED SCHEDULES SEED TIMEOUT\\n\");\n"
  "    return 2;\n"
  "  }\n"
  "  std::vector<unsigned char> in = tt_check::slurp(argv[1]);\n"
  "  if (in.size() < 16 || std::memcmp(in.data(), \"TTCHKIN1\", 8) != 0 ||\n"
  "      tt_check::u64(in.data() + 8) != TT_CHECK_NARGS) {\n"
  "    tt_check::result(argv[3], \"config\", 0, \"\", 0, \"harness: bad inputs file\");\n"
  "    return 2;\n"
  "  }\n"
  "  const unsigned char *arg[TT_CHECK_NARGS + 1];\n"
  "  uint64_t nbytes[TT_CHECK_NARGS + 1];\n"
  "  size_t off = 16;\n"
  "  for (int i = 0; i < TT_CHECK_NARGS; i++) {\n"
  "    if (off + 8 > in.size()) { tt_check::result(argv[3], \"config\", 0, \"\", 0, \"harness: short inputs file\"); return 2; }\n"
  "    nbytes[i] = tt_check::u64(in.data() + off);\n"
  "    arg[i] = in.data() + off + 8;\n"
  "    off += 8 + nbytes[i];\n"
  "    if (off > in.size()) { tt_check::result(argv[3], \"config\", 0, \"\", 0, \"harness: short inputs file\"); return 2; }\n"
  "  }\n";

/* The sim side: the launch configuration from argv. */
static const char k_sim_config[] =
  "  tt_sim_config cfg;\n"
  "  tt_sim_config_init(&cfg);\n"
  "  cfg.warp = TT_SIM_WARP;\n"
  "  /* One launch per schedule (nschedules = 1 each), buffers restored in between:\n"
  "   * tiletrans compares only the spec's outputs between schedules, with its tolerance. */\n"
  "  tt_sim_schedule sched[TT_SIM_MAX_SCHEDULES];\n"
  "  int nsched = 0;\n"
  "  for (const char *s = argv[11]; *s && nsched < TT_SIM_MAX_SCHEDULES;) {\n"
  "    if (!std::strncmp(s, \"forward\", 7)) sched[nsched++] = TT_SIM_SCHED_FORWARD;\n"
  "    else if (!std::strncmp(s, \"reverse\", 7)) sched[nsched++] = TT_SIM_SCHED_REVERSE;\n"
  "    else if (!std::strncmp(s, \"random\", 6)) sched[nsched++] = TT_SIM_SCHED_RANDOM;\n"
  "    while (*s && *s != ',') s++;\n"
  "    if (*s == ',') s++;\n"
  "  }\n"
  "  if (nsched == 0) sched[nsched++] = TT_SIM_SCHED_FORWARD;\n"
  "  cfg.nschedules = 1;\n"
  "  cfg.seed = std::strtoull(argv[12], 0, 10);\n"
  "  cfg.timeout_s = std::strtod(argv[13], 0);\n"
  "  cfg.threads = 1; /* deterministic: checks run in parallel instead (-j) */\n"
  "  cfg.regions = 1; /* region kernels: the retry below falls back */\n"
  "  /* an undefined shuffle read: poison, twice; RUN-FAIL only if it reaches a buffer */\n"
  "  cfg.inactive_read = TT_SIM_INACTIVE_COMPARE;\n";

/* What the harness launches: a template-id in parentheses, so that its commas do
 * not split the launch macro's arguments. */
static void sb_kernel(sbuf *b, const char *kernel) {
  sb_printf(b, strchr(kernel, '<') ? "(%s)" : "%s", kernel);
}

/* The arguments of launch li, each from its spec argument's variable. */
static void sb_launch_args(sbuf *b, const tt_check_spec *spec, size_t li, int leading_comma) {
  const tt_check_launch *l = &spec->launches[li];
  for (size_t k = 0; k < l->nargs; k++) {
    size_t i = l->args[k];
    sb_printf(b, "%s", k || leading_comma ? ", " : "");
    if (i == TT_CHECK_NULL_ARG) {
      sb_printf(b, "nullptr");
      continue;
    }
    if (spec->args[i].is_buffer && l->offsets[k])
      sb_printf(b, "tt_check::buf{static_cast<char *>(b%zu) + %lld}", i,
                (long long)(l->offsets[k] * (int64_t)tt_check_dtype_size(spec->args[i].dtype)));
    else
      sb_printf(b, spec->args[i].is_buffer ? "tt_check::buf{b%zu}" : "s%zu", i);
  }
}

/* The variables of scalar and struct arguments, from the inputs. A struct's fields
 * arrive as 8-byte slots (int64 or double, as the spec wrote them) and are converted
 * to the field's own type. */
static void sb_scalars(sbuf *b, const tt_check_spec *spec) {
  for (size_t i = 0; i < spec->nargs; i++) {
    const tt_check_arg *a = &spec->args[i];
    if (a->is_buffer) continue;
    if (a->is_struct) {
      sb_printf(b, "  %s s%zu{};\n", a->struct_type ? a->struct_type : "tt_check_struct_type_unknown", i);
      for (size_t k = 0; k < a->nfields; k++) {
        const tt_check_field *f = &a->fields[k];
        sb_printf(b, "  { %s v; std::memcpy(&v, arg[%zu] + %zu, 8); s%zu.%s = static_cast<decltype(s%zu.%s)>(v); }\n",
                  f->value_is_float ? "double" : "int64_t", i, 8 * k, i, f->name, i, f->name);
      }
    } else if (a->dtype == TT_CHECK_F16 || a->dtype == TT_CHECK_BF16) {
      sb_printf(b, "  tt_check::bits16 s%zu;\n  std::memcpy(&s%zu.v, arg[%zu], 2);\n", i, i, i);
    } else {
      sb_printf(b, "  %s s%zu;\n  std::memcpy(&s%zu, arg[%zu], sizeof s%zu);\n", tt_check_dtype_ctype(a->dtype), i, i, i, i);
    }
  }
}

char *tt_check_harness_text(const tt_check_spec *spec, tt_check_side_sem sem, int warp,
                            const char *kernel_include) {
  sbuf b = {0};
  sb_printf(&b, "// Generated by `tiletrans check` for spec %s (%s side). Do not edit.\n",
            spec->name, sem == TT_CHECK_SEM_CUDA ? "reference" : "candidate");
  /* First, before any macro: the standard headers, the same for every harness, whose
   * precompiled header (build.c) is made once per sim build. */
  sb_printf(&b, "#include \"tt_sim_std.hpp\"\n");
  sb_printf(&b, "#define TT_SIM_WARP %d\n", warp);
  sb_printf(&b, "#define TT_CHECK_NARGS %zu\n", spec->nargs);
  sb_printf(&b, "#include \"%s\"\n", sem == TT_CHECK_SEM_CUDA ? "tt_sim_cuda.h" : "tt_sim_hip.h");
  /* check builds the kernel taken out of the program (src/xform), so a source's own
   * main() is gone; a given text may still hold one, which must not clash. */
  sb_printf(&b, "#define main tt_check_kernel_source_main\n#include ");
  sb_cstr(&b, kernel_include);
  sb_printf(&b, "\n#undef main\n\n%s%s", k_prelude, k_sim_config);
  /* the spec's waivers (printed with every verdict by check.c) */
  for (size_t i = 0; i < spec->nwaivers; i++)
    sb_printf(&b, "%s", spec->waivers[i].detector == TT_CHECK_WAIVE_RACE ? "  cfg.race_check = 0; /* waived */\n"
                                                                        : "  cfg.inactive_read = TT_SIM_INACTIVE_POISON; /* waived */\n");
  for (size_t i = 0; i < spec->nargs; i++) {
    const tt_check_arg *a = &spec->args[i];
    if (!a->is_buffer) continue;
    sb_printf(&b, "  void *b%zu = tt_sim_alloc(nbytes[%zu] ? nbytes[%zu] : 1);\n", i, i, i);
    sb_printf(&b, "  if (!b%zu) { tt_check::result(argv[3], \"config\", 0, \"\", 0, \"harness: out of memory\"); return 2; }\n", i);
    sb_printf(&b, "  std::memcpy(b%zu, arg[%zu], nbytes[%zu]);\n", i, i, i);
    sb_printf(&b, "  tt_sim_buffer_describe(b%zu, ", i);
    sb_cstr(&b, a->name);
    sb_printf(&b, ", %s);\n", elem_name(a->dtype));
  }
  sb_scalars(&b, spec);
  sb_printf(&b, "  tt_sim_result r;\n  std::memset(&r, 0, sizeof r);\n"
                "  for (int si = 0; si < nsched; si++) {\n");
  for (size_t i = 0; i < spec->nargs; i++)
    if (spec->args[i].is_buffer) sb_printf(&b, "    std::memcpy(b%zu, arg[%zu], nbytes[%zu]);\n", i, i, i);
  /* The launches of a sequence run in order on the same buffers; the first that
   * does not finish ends the schedule's run. */
  sb_printf(&b, "    cfg.schedules[0] = sched[si];\n    r.status = TT_SIM_OK;\n"
                "    for (int li = 0; li < %zu && r.status == TT_SIM_OK; li++) {\n"
                "      cfg.grid.x = (uint32_t)tt_check::nth(argv[4], li);\n"
                "      cfg.grid.y = (uint32_t)tt_check::nth(argv[5], li);\n"
                "      cfg.grid.z = (uint32_t)tt_check::nth(argv[6], li);\n"
                "      cfg.block.x = (uint32_t)tt_check::nth(argv[7], li);\n"
                "      cfg.block.y = (uint32_t)tt_check::nth(argv[8], li);\n"
                "      cfg.block.z = (uint32_t)tt_check::nth(argv[9], li);\n"
                "      cfg.shared_bytes = (size_t)tt_check::nth(argv[10], li);\n"
                "      switch (li) {\n", spec->nlaunches);
  for (size_t li = 0; li < spec->nlaunches; li++) {
    sb_printf(&b, "      case %zu: r = TT_SIM_LAUNCH(", li);
    sb_kernel(&b, spec->launches[li].kernel);
    sb_printf(&b, ", cfg");
    sb_launch_args(&b, spec, li, 1);
    sb_printf(&b, "); break;\n");
  }
  sb_printf(&b, "      }\n    }\n");
  /* A region kernel that meets what only a coroutine runs exactly (lanes of a
   * warp at different chains) runs that schedule again as a coroutine; a
   * coroutine kernel whose barrier or collective sits in a function it calls
   * cannot run as a coroutine: the same schedule runs again on fibers.  The
   * buffers are copied in again at the top of the loop. */
  sb_printf(&b, "    if (r.status == TT_SIM_ERR_NEEDS_COROUTINES && cfg.regions) {\n"
                "      cfg.regions = 0;\n      si--;\n      continue;\n    }\n");
  sb_printf(&b, "    if (r.status == TT_SIM_ERR_NEEDS_FIBERS && cfg.coroutines) {\n"
                "      cfg.coroutines = 0;\n      si--;\n      continue;\n    }\n");
  /* notes and warnings of a launch that succeeded go to stderr, where side.c finds them */
  sb_printf(&b, "    if (r.status == TT_SIM_OK && r.notes[0]) std::fputs(r.notes, stderr);\n");
  sb_printf(&b, "    r.schedule = sched[si];\n    if (r.status != TT_SIM_OK) break;\n");
  /* Outputs first, then the result file: its presence means the outputs are whole. */
  sb_printf(&b, "    char path[4096];\n"
                "    std::snprintf(path, sizeof path, \"%%s.%%d\", argv[2], si);\n"
                "    FILE *o = std::fopen(path, \"wb\");\n"
                "    if (!o) return 2;\n");
  for (size_t i = 0; i < spec->nargs; i++)
    if (spec->args[i].is_buffer && spec->args[i].output)
      sb_printf(&b, "    if (std::fwrite(b%zu, 1, nbytes[%zu], o) != nbytes[%zu]) return 2;\n", i, i, i);
  sb_printf(&b, "    if (std::fclose(o) != 0) return 2;\n  }\n");
  sb_printf(&b, "  tt_check::result(argv[3], tt_sim_status_name(r.status), (int)r.schedule, r.file, r.line,\n"
                "                   r.message);\n");
  for (size_t i = 0; i < spec->nargs; i++)
    if (spec->args[i].is_buffer) sb_printf(&b, "  tt_sim_free(b%zu);\n", i);
  sb_printf(&b, "  return r.status == TT_SIM_OK ? 0 : 1;\n}\n");
  if (b.oom) {
    free(b.s);
    return NULL;
  }
  return b.s;
}

char *tt_check_harness_text_cuda(const tt_check_spec *spec, const char *kernel_include) {
  sbuf b = {0};
  sb_printf(&b, "// Generated by `tiletrans check --backend cuda` for spec %s. Do not edit.\n", spec->name);
  sb_printf(&b, "#define TT_CHECK_NARGS %zu\n#include <cuda_runtime.h>\n", spec->nargs);
  sb_printf(&b, "#define main tt_check_kernel_source_main\n#include ");
  sb_cstr(&b, kernel_include);
  sb_printf(&b, "\n#undef main\n\n%s", k_prelude);
  sb_printf(&b, "  cudaError_t e = cudaSuccess;\n");
  for (size_t i = 0; i < spec->nargs; i++) {
    if (!spec->args[i].is_buffer) continue;
    sb_printf(&b, "  void *b%zu = 0;\n", i);
    sb_printf(&b, "  if (e == cudaSuccess) e = cudaMalloc(&b%zu, nbytes[%zu] ? nbytes[%zu] : 1);\n", i, i, i);
    sb_printf(&b, "  if (e == cudaSuccess) e = cudaMemcpy(b%zu, arg[%zu], nbytes[%zu], cudaMemcpyHostToDevice);\n", i, i, i);
  }
  sb_scalars(&b, spec);
  for (size_t li = 0; li < spec->nlaunches; li++) {
    sb_printf(&b, "  if (e == cudaSuccess) {\n"
                  "    dim3 g((unsigned)tt_check::nth(argv[4], %zu), (unsigned)tt_check::nth(argv[5], %zu), (unsigned)tt_check::nth(argv[6], %zu));\n"
                  "    dim3 t((unsigned)tt_check::nth(argv[7], %zu), (unsigned)tt_check::nth(argv[8], %zu), (unsigned)tt_check::nth(argv[9], %zu));\n    ",
              li, li, li, li, li, li);
    sb_kernel(&b, spec->launches[li].kernel);
    sb_printf(&b, "<<<g, t, (size_t)tt_check::nth(argv[10], %zu)>>>(", li);
    sb_launch_args(&b, spec, li, 0);
    sb_printf(&b, ");\n    e = cudaGetLastError();\n  }\n");
  }
  sb_printf(&b, "  if (e == cudaSuccess) e = cudaDeviceSynchronize();\n"
                "  if (e != cudaSuccess) {\n"
                "    tt_check::result(argv[3], \"trap\", 0, \"\", 0, cudaGetErrorString(e));\n"
                "    return 1;\n  }\n"
                "  char path[4096];\n"
                "  std::snprintf(path, sizeof path, \"%%s.0\", argv[2]);\n"
                "  FILE *o = std::fopen(path, \"wb\");\n  if (!o) return 2;\n"
                "  std::vector<unsigned char> host;\n");
  for (size_t i = 0; i < spec->nargs; i++)
    if (spec->args[i].is_buffer && spec->args[i].output)
      sb_printf(&b, "  host.resize(nbytes[%zu]);\n"
                    "  if (cudaMemcpy(host.data(), b%zu, nbytes[%zu], cudaMemcpyDeviceToHost) != cudaSuccess ||\n"
                    "      std::fwrite(host.data(), 1, nbytes[%zu], o) != nbytes[%zu]) return 2;\n", i, i, i, i, i);
  sb_printf(&b, "  if (std::fclose(o) != 0) return 2;\n"
                "  tt_check::result(argv[3], \"ok\", 0, \"\", 0, \"\");\n  return 0;\n}\n");
  if (b.oom) {
    free(b.s);
    return NULL;
  }
  return b.s;
}

static void put_u64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }

/* Integer scalars are stored from the exact int64 value: a double would round
 * values past 2^53. */
static void store_int(tt_check_dtype t, unsigned char *p, int64_t v) {
  switch (tt_check_dtype_size(t)) {
  case 1: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
  case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
  case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
  default: { uint64_t x = (uint64_t)v; memcpy(p, &x, 8); break; }
  }
}

static size_t arg_bytes(const tt_check_arg *a) {
  if (a->is_struct) return 8 * a->nfields;
  return a->is_buffer ? (size_t)a->len * tt_check_dtype_size(a->dtype) : 8;
}

unsigned char *tt_check_inputs_make(const tt_check_spec *spec, uint64_t seed, size_t *len) {
  size_t total = 16;
  for (size_t i = 0; i < spec->nargs; i++) {
    const tt_check_arg *a = &spec->args[i];
    total += 8 + arg_bytes(a);
  }
  unsigned char *blob = calloc(1, total);
  if (!blob) return NULL;
  memcpy(blob, "TTCHKIN1", 8);
  put_u64(blob + 8, spec->nargs);
  size_t off = 16;
  for (size_t i = 0; i < spec->nargs; i++) {
    const tt_check_arg *a = &spec->args[i];
    size_t n = arg_bytes(a);
    put_u64(blob + off, n);
    unsigned char *p = blob + off + 8;
    if (a->is_struct) {
      for (size_t k = 0; k < a->nfields; k++) {
        if (a->fields[k].value_is_float) memcpy(p + 8 * k, &a->fields[k].fvalue, 8);
        else memcpy(p + 8 * k, &a->fields[k].ivalue, 8);
      }
    } else if (a->is_buffer && a->data) {
      char *why = NULL;
      unsigned char *d = tt_check_data_read(a->data, a->dtype, a->len, NULL, &why);
      free(why);
      if (!d) { free(blob); return NULL; }
      memcpy(p, d, n);
      free(d);
    } else if (a->is_buffer && a->values) {
      for (size_t k = 0; k < a->nvalues; k++) tt_check_store(a->dtype, p + k * tt_check_dtype_size(a->dtype), a->values[k]);
    } else if (a->is_buffer) {
      tt_check_init zeros = {TT_CHECK_INIT_ZEROS, 0, 0};
      /* Stream = argument index: adding an argument at the end leaves the data of
       * the others unchanged. */
      tt_check_init_fill(a->has_init ? &a->init : &zeros, a->dtype, p, (size_t)a->len, seed, i);
    } else if (a->value_is_float || tt_check_dtype_is_float(a->dtype)) {
      tt_check_store(a->dtype, p, a->fvalue);
    } else {
      store_int(a->dtype, p, a->ivalue);
    }
    off += 8 + n;
  }
  *len = total;
  return blob;
}

const unsigned char *tt_check_inputs_arg(const unsigned char *blob, size_t len, size_t idx,
                                         size_t *nbytes) {
  size_t off = 16;
  for (size_t i = 0; off + 8 <= len; i++) {
    uint64_t n;
    memcpy(&n, blob + off, 8);
    if (off + 8 + n > len) return NULL;
    if (i == idx) {
      *nbytes = (size_t)n;
      return blob + off + 8;
    }
    off += 8 + (size_t)n;
  }
  return NULL;
}
