/* test_analyzers.c — the built-in analyzers through inline rules: rename (identifiers,
 * types, includes, macro bodies; never comments or strings; unsupported names) and
 * narrow-store (declarations, later assignments, direct sink(source()), sinks renamed). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rewrite.h"
#include "rules/rulebook.h"
#include "support.h"
#include "util/util.h"

static const char *const RENAME_BODY =
    "analyzer: rename\n"
    "options:\n"
    "  identifiers:\n"
    "    cudaMalloc: hipMalloc\n"
    "    cudaFree: hipFree\n"
    "    cudaStream_t: hipStream_t\n"
    "    cudaSuccess: hipSuccess\n"
    "  includes:\n"
    "    cuda_runtime.h: hip/hip_runtime.h\n"
    "  unsupported:\n"
    "    cudaGraphInstantiateWithParams: \"no HIP equivalent\"\n"
    "fix:\n"
    "  description: \"use {{to}}\"\n"
    "  edits:\n"
    "    - capture: from\n"
    "      replacement: \"{{to}}\"\n";

static tt_rule *rename_rule(void) { return tts_rule_of("cuda", "{{from}} -> {{to}}", RENAME_BODY); }

/* Rewrites `code` with `rule` alone; returns the text (caller frees) and the findings. */
static char *rewrite_with(const tt_rule *rule, const char *code, tt_findings *findings) {
  char *err = NULL;
  tt_rulebook *book = tt_rulebook_of_rule(rule, NULL, &err);
  cr_assert_not_null(book, "%s", err);
  tt_rewrite_result r;
  cr_assert_eq(tt_rewrite_text(book, NULL, "t.cu", TT_LANG_CUDA, code, strlen(code), &r, &err), 0, "%s", err);
  cr_expect(r.converged);
  char *text = r.text;
  r.text = NULL;
  if (findings) tt_findings_move(findings, &r.findings);
  tt_rewrite_result_free(&r);
  tt_rulebook_free(book);
  return text;
}

static void expect_rewrite(const tt_rule *rule, const char *code, const char *want) {
  char *got = rewrite_with(rule, code, NULL);
  cr_expect_str_eq(got, want, "rewrite of\n%s\ngot:\n%s\nwant:\n%s", code, got, want);
  free(got);
}

Test(rename, identifiers_and_types) {
  tt_rule *r = rename_rule();
  expect_rewrite(r,
                 "void f(float **p, cudaStream_t s) {\n"
                 "  if (cudaMalloc(p, 4) != cudaSuccess) return;\n"
                 "  cudaStream_t t = s;\n"
                 "  cudaFree(*p);\n"
                 "}\n",
                 "void f(float **p, hipStream_t s) {\n"
                 "  if (hipMalloc(p, 4) != hipSuccess) return;\n"
                 "  hipStream_t t = s;\n"
                 "  hipFree(*p);\n"
                 "}\n");
  /* Whole identifiers only. */
  expect_rewrite(r, "void g() { cudaMallocHost(0); my_cudaMalloc(1); cudaMalloc2(); }\n",
                 "void g() { cudaMallocHost(0); my_cudaMalloc(1); cudaMalloc2(); }\n");
  /* Types in templates and casts; function pointers. */
  expect_rewrite(r, "std::vector<cudaStream_t> v; auto fp = &cudaFree; auto s = (cudaStream_t)0;\n",
                 "std::vector<hipStream_t> v; auto fp = &hipFree; auto s = (hipStream_t)0;\n");
  tt_rule_free(r);
}

Test(rename, includes_keep_delimiters) {
  tt_rule *r = rename_rule();
  expect_rewrite(r,
                 "#include <cuda_runtime.h>\n"
                 "#include \"cuda_runtime.h\"\n"
                 "#include <cuda_runtime.hpp>\n"
                 "#include \"my/cuda_runtime.h\"\n",
                 "#include <hip/hip_runtime.h>\n"
                 "#include \"hip/hip_runtime.h\"\n"
                 "#include <cuda_runtime.hpp>\n"
                 "#include \"my/cuda_runtime.h\"\n");
  tt_rule_free(r);
}

Test(rename, macro_bodies) {
  tt_rule *r = rename_rule();
  expect_rewrite(r,
                 "#define ALLOC(p, n) cudaMalloc(p, n)\n"
                 "#define STREAM cudaStream_t /* cudaFree */\n"
                 "#define MSG \"cudaMalloc failed\" // cudaFree\n"
                 "#define CH 'c'+cudaSuccess\n",
                 "#define ALLOC(p, n) hipMalloc(p, n)\n"
                 "#define STREAM hipStream_t /* cudaFree */\n"
                 "#define MSG \"cudaMalloc failed\" // cudaFree\n"
                 "#define CH 'c'+hipSuccess\n");
  tt_rule_free(r);
}

Test(rename, never_comments_or_strings) {
  tt_rule *r = rename_rule();
  const char *code =
      "// cudaMalloc in a comment\n"
      "/* cudaFree(p); cudaStream_t */\n"
      "const char *s = \"cudaMalloc\";\n"
      "const char *raw = R\"(cudaFree)\";\n"
      "void f() { printf(\"%s\", \"cudaStream_t\"); }\n";
  tt_findings fs = {0};
  char *got = rewrite_with(r, code, &fs);
  cr_expect_str_eq(got, code);
  cr_expect_eq(fs.n, 0u, "no findings in comments or strings (got %zu)", fs.n);
  free(got);
  tt_findings_free(&fs);
  tt_rule_free(r);
}

Test(rename, unsupported_reported_without_fix) {
  tt_rule *r = rename_rule();
  const char *code = "void f() { cudaGraphInstantiateWithParams(0); cudaFree(0); }\n";
  tt_findings fs = {0};
  cr_assert_eq(tts_match(r, TT_LANG_CUDA, code, &fs), 2u);
  const tt_finding *u = &fs.items[0], *ok = &fs.items[1];
  cr_expect_eq(u->start, 11u);
  cr_expect_eq(u->end, 11u + 30);
  cr_expect(!u->has_fix, "an unsupported name has no fix");
  cr_expect_eq(u->n_edits, 0u);
  cr_expect_str_eq(u->message, "cudaGraphInstantiateWithParams -> no HIP equivalent");
  cr_expect_eq(u->severity, TT_SEV_WARNING, "the rule's severity");
  cr_expect(ok->has_fix);
  cr_expect_str_eq(ok->message, "cudaFree -> hipFree");
  cr_expect_str_eq(ok->fix_description, "use hipFree");
  cr_assert_eq(ok->n_edits, 1u);
  cr_expect_str_eq(ok->edits[0].replacement, "hipFree");
  tt_findings_free(&fs);
  char *text = rewrite_with(r, code, NULL);
  cr_expect_str_eq(text, "void f() { cudaGraphInstantiateWithParams(0); hipFree(0); }\n");
  free(text);
  tt_rule_free(r);
}

Test(rename, fix_without_edits_uses_the_analyzer_edits) {
  /* rule-format.md: "The finding's fix replaces `from` with `to`"; a `fix` without
   * `edits` is accepted for analyzer rules because "the analyzer computes the edits". */
  tt_rule *r = tts_rule_of("cuda", "{{from}}",
                           "analyzer: rename\n"
                           "options:\n"
                           "  identifiers: {cudaFree: hipFree}\n"
                           "  includes: {cuda_runtime.h: hip/hip_runtime.h}\n"
                           "fix:\n"
                           "  description: \"use {{to}}\"\n");
  cr_assert_eq(r->n_edits, 0u);
  const char *code = "#include <cuda_runtime.h>\nvoid f() { cudaFree(0); }\n";
  tt_findings fs = {0};
  cr_assert_eq(tts_match(r, TT_LANG_CUDA, code, &fs), 2u);
  for (size_t i = 0; i < fs.n; i++) cr_expect(fs.items[i].has_fix, "finding %zu (%s) has no fix", i, fs.items[i].message);
  tt_findings_free(&fs);
  expect_rewrite(r, code, "#include <hip/hip_runtime.h>\nvoid f() { hipFree(0); }\n");
  tt_rule_free(r);
}

Test(rename, template_edits_when_rule_lists_them) {
  /* A rule may give its own edits using the bindings instead of the analyzer's. */
  tt_rule *r = tts_rule_of("cuda", "{{from}}",
                           "analyzer: rename\n"
                           "options:\n"
                           "  identifiers: {cudaFree: hipFree}\n"
                           "fix:\n"
                           "  description: d\n"
                           "  edits:\n"
                           "    - capture: from\n"
                           "      replacement: \"{{to}}/*was {{from}}*/\"\n");
  expect_rewrite(r, "void f() { cudaFree(0); }\n", "void f() { hipFree/*was cudaFree*/(0); }\n");
  tt_rule_free(r);
}

/* --- narrow-store ------------------------------------------------------------------ */

static const char *const NS_BODY =
    "analyzer: narrow-store\n"
    "options:\n"
    "  sources: [__ballot_sync, __activemask]\n"
    "  narrow_types: [unsigned, unsigned int, int, uint32_t]\n"
    "  sinks:\n"
    "    __popc: __popcll\n"
    "    __ffs: __ffsll\n"
    "  wide_type: unsigned long long\n"
    "fix:\n"
    "  description: \"store in {{wide}}\"\n";

static tt_rule *ns_rule(void) {
  return tts_rule_of("cuda", "var={{var}} type={{type}} source={{source}} sink={{sink}} wide={{wide}}", NS_BODY);
}

Test(narrow_store, declaration_initialised_from_source) {
  tt_rule *r = ns_rule();
  const char *code =
      "__global__ void k(const float *in, int *out) {\n"
      "  unsigned int m = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.f);\n"
      "  out[0] = __popc(m);\n"
      "  out[1] = __popc(m) + __ffs(m);\n"
      "  out[2] = __popc(other);\n"
      "}\n";
  tt_findings fs = {0};
  cr_assert_eq(tts_match(r, TT_LANG_CUDA, code, &fs), 4u, "the declaration and its three sink calls");
  cr_expect_str_eq(fs.items[0].message,
                   "var=m type=unsigned int source=__ballot_sync sink=__popc wide=unsigned long long");
  cr_expect_eq(fs.items[0].start_pos.line, 2u);
  cr_expect_eq(fs.items[0].start_pos.column, 3u);
  cr_expect_str_eq(fs.items[0].fix_description, "store in unsigned long long");
  cr_expect_eq(fs.items[1].start_pos.line, 3u);
  cr_expect(fs.items[1].has_fix && fs.items[1].n_edits == 1 && !strcmp(fs.items[1].edits[0].replacement, "__popcll"),
            "each sink call is a finding with its own edit");
  cr_expect_eq(fs.items[0].n_edits, 1u, "the declaration's fix changes the type only");
  cr_expect_str_eq(fs.items[3].message, "var=m type=unsigned int source=__ballot_sync sink=__ffs wide=unsigned long long");
  tt_findings_free(&fs);
  expect_rewrite(r, code,
                 "__global__ void k(const float *in, int *out) {\n"
                 "  unsigned long long m = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.f);\n"
                 "  out[0] = __popcll(m);\n"
                 "  out[1] = __popcll(m) + __ffsll(m);\n"
                 "  out[2] = __popc(other);\n"
                 "}\n");
  tt_rule_free(r);
}

Test(narrow_store, later_assignment) {
  tt_rule *r = ns_rule();
  expect_rewrite(r, "__device__ int first() { int m; m = __activemask(); return __ffs(m) - 1; }\n",
                 "__device__ int first() { unsigned long long m; m = __activemask(); return __ffsll(m) - 1; }\n");
  tt_rule_free(r);
}

Test(narrow_store, direct_sink_of_source) {
  tt_rule *r = ns_rule();
  const char *code = "__device__ int votes(bool p) { return __popc(__ballot_sync(0xffffffff, p)); }\n";
  tt_findings fs = {0};
  cr_assert_eq(tts_match(r, TT_LANG_CUDA, code, &fs), 1u);
  cr_expect_str_eq(fs.items[0].message, "var= type= source=__ballot_sync sink=__popc wide=__popcll");
  tt_findings_free(&fs);
  expect_rewrite(r, code, "__device__ int votes(bool p) { return __popcll(__ballot_sync(0xffffffff, p)); }\n");
  /* Through parentheses and casts. */
  expect_rewrite(r, "__device__ int v(bool p) { return __popc((unsigned)(__ballot_sync(~0u, p))); }\n",
                 "__device__ int v(bool p) { return __popcll((unsigned)(__ballot_sync(~0u, p))); }\n");
  tt_rule_free(r);
}

Test(narrow_store, wide_or_unrelated_variables_are_fine) {
  tt_rule *r = ns_rule();
  static const char *const ok[] = {
      "__device__ int a(bool p) { auto m = __ballot_sync(0xffffffff, p); return __popc(m); }\n",
      "__device__ int b(bool p) { unsigned long long m = __ballot_sync(0xffffffff, p); return __popcll(m); }\n",
      "__device__ int c(unsigned x) { unsigned y = x & 7; return __popc(y); }\n",
      "__device__ int d(bool p) { float f = 1.0f; int m = other(p); return __popc(m); }\n",
  };
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
    cr_expect_eq(tts_match(r, TT_LANG_CUDA, ok[i], NULL), 0u, "no finding expected in:\n%s", ok[i]);
  tt_rule_free(r);
}

Test(narrow_store, per_function_scope) {
  tt_rule *r = ns_rule();
  /* The sink in g uses g's own `m`, not f's. */
  expect_rewrite(r,
                 "__device__ void f(bool p) { unsigned m = __ballot_sync(~0u, p); use(m); }\n"
                 "__device__ int g(unsigned m) { return __popc(m); }\n",
                 "__device__ void f(bool p) { unsigned long long m = __ballot_sync(~0u, p); use(m); }\n"
                 "__device__ int g(unsigned m) { return __popc(m); }\n");
  tt_rule_free(r);
}

Test(narrow_store, whitespace_in_type_and_several_vars) {
  tt_rule *r = ns_rule();
  expect_rewrite(r,
                 "__device__ int f(bool p) {\n"
                 "  unsigned  int a = __ballot_sync(~0u, p);\n"
                 "  uint32_t b = __activemask();\n"
                 "  return __popc(a) + __ffs(b);\n"
                 "}\n",
                 "__device__ int f(bool p) {\n"
                 "  unsigned long long a = __ballot_sync(~0u, p);\n"
                 "  unsigned long long b = __activemask();\n"
                 "  return __popcll(a) + __ffsll(b);\n"
                 "}\n");
  tt_rule_free(r);
}

/* ---- julia-scalar-args / julia-launch-args (jl_kinds) ----------------------------- */

static const char *const KINDS_OPTS =
    "  scalar_types: '\\A(?:Int|Int32|Float32)\\z'\n"
    "  tile_types: '\\A(?:ct\\.)?(?:Tile|TileArray)\\b|\\ACuVector\\b'\n"
    "  scalar_calls: [ct.bid, size, length, ct.Constant]\n"
    "  tile_calls: [ct.load, similar]\n"
    "  elementwise_calls: [max, min, cld]\n"
    "  reduction_calls: [maximum]\n"
    "  reduction_keyword: dims\n";

static tt_rule *jl_rule(const char *head) {
  char *body = tt_xasprintf("%s%s", head, KINDS_OPTS);
  tt_rule *r = tts_rule_of("julia", "{{problem}}", body);
  free(body);
  return r;
}

Test(julia_scalar_args, labels_by_the_join_of_the_arguments) {
  tt_rule *r = tts_rule_of("julia", "{{fn}}:{{label}}:{{arg}}",
                           "analyzer: julia-scalar-args\noptions:\n  fact: k\n  calls: [max, min]\n"
                           "  report: [tile, unknown]\n"
                           "  scalar_types: '\\A(?:Int|Int32|Float32)\\z'\n  tile_types: '\\A(?:ct\\.)?Tile\\b'\n"
                           "  scalar_calls: [ct.bid, size]\n  tile_calls: [ct.load]\n  elementwise_calls: [max, min]\n"
                           "  reduction_calls: [maximum]\n  reduction_keyword: dims\n");
  const char *code = "function k(A, n::Int32, t::ct.Tile{Float32}) where {N}\n"
                     "    i = ct.bid(1) + n\n"           /* scalar */
                     "    a = min(i, N, size(A, 1))\n"   /* scalar: not reported */
                     "    x = ct.load(A; index=i, shape=(16,))\n"
                     "    b = max(x .* 2, 1)\n"          /* tile */
                     "    c = max(maximum(t), i)\n"      /* unknown: no dims */
                     "    d = max(maximum(t; dims=1), i)\n" /* tile */
                     "    e = min(A, n)\n"               /* unknown: untyped */
                     "end\n";
  tt_findings fs = {0};
  cr_assert_eq(tts_match(r, TT_LANG_JULIA, code, &fs), 4u);
  cr_expect_str_eq(fs.items[0].message, "max:tile:x .* 2");
  cr_expect_eq(fs.items[0].start_pos.line, 5u);
  cr_expect_str_eq(fs.items[1].message, "max:unknown:maximum(t)");
  cr_expect_str_eq(fs.items[2].message, "max:tile:maximum(t; dims=1)");
  cr_expect_str_eq(fs.items[3].message, "min:unknown:A");
  tt_findings_free(&fs);
  tt_rule_free(r);
}

Test(julia_launch_args, count_and_array_scalar_mismatches) {
  tt_rule *r = jl_rule("analyzer: julia-launch-args\noptions:\n  launch_calls: [ct.launch]\n  kernel_at: 1\n"
                       "  args_from: 3\n");
  const char *code = "function k(a::ct.TileArray{Float32,1}, n::Int, m::Int=2)\n    return\nend\n"
                     "function h(x::CuVector{Float32})\n"
                     "    y = similar(x)\n"
                     "    ct.launch(k, 1, x, length(x))\n"     /* fits (m optional) */
                     "    ct.launch(k, 1, x, 1, 2, 3)\n"       /* too many */
                     "    ct.launch(k, 1, 4, y)\n"             /* both swapped */
                     "    ct.launch(k, 1, x; stream=s)\n"      /* too few (keywords do not count) */
                     "end\n";
  tt_findings fs = {0};
  cr_assert_eq(tts_match(r, TT_LANG_JULIA, code, &fs), 4u);
  cr_expect_str_eq(fs.items[0].message, "passes 4 arguments to `k`, whose signature takes at least 2");
  cr_expect_eq(fs.items[0].start_pos.line, 7u);
  cr_expect_str_eq(fs.items[1].message,
                   "argument 1 `4`: a scalar goes to the array parameter `a::ct.TileArray{Float32,1}`");
  cr_expect_str_eq(fs.items[2].message, "argument 2 `y`: an array goes to the scalar parameter `n::Int`");
  cr_expect_eq(fs.items[3].start_pos.line, 9u);
  tt_findings_free(&fs);
  tt_rule_free(r);
}

Test(julia_launch_args, bad_options_name_the_key) {
  char *err = NULL;
  tt_rule *r = tts_rule("id: t\ntarget: julia\nlanguage: julia\ncategory: api-mapping\nseverity: error\n"
                        "summary: s\nmessage: m\nexplain: e\nanalyzer: julia-launch-args\noptions:\n"
                        "  launch_calls: [ct.launch]\n  kernel_at: 0\n  args_from: 3\n"
                        "  scalar_types: 'x'\n  tile_types: 'y'\nexamples:\n  - match: \"x\"\n",
                        &err);
  cr_expect_null(r);
  cr_expect(err && strstr(err, "`kernel_at` must be a position"), "%s", err ? err : "(no error)");
  free(err);
}

/* ---- julia-tile-shapes ------------------------------------------------------------ */

static tt_rule *shape_rule(const char *check) {
  char *head = tt_xasprintf("analyzer: julia-tile-shapes\noptions:\n  check: %s\n"
                            "  shape_calls: {ct.load: shape, ct.num_tiles: \"3\"}\n  store_calls: {ct.store: tile}\n"
                            "  dims_keyword: dims\n  order_keyword: order\n  index_keyword: index\n"
                            "  new_calls: [zeros, fill]\n  reshape_calls: [reshape]\n  keep_calls: [convert]\n"
                            "  transpose_calls: [transpose]\n  muladd_calls: [muladd]\n  operators: ['.+', '.*']\n",
                            check);
  tt_rule *r = jl_rule(head);
  free(head);
  return r;
}

/* The inferred shapes follow locals, convert and transpose; a local assigned two shapes
 * has its reaching assignment's shape, and none after an `if` whose arms disagree. */
Test(julia_tile_shapes, muladd_inner_dims_and_accumulator) {
  tt_rule *r = shape_rule("muladd");
  const char *code = "function mm(A, B, TM::Int, TN::Int, TK::Int)\n"
                     "    a = convert(ct.Tile{Float32}, ct.load(A; index=(1, 1), shape=(TM, TK)))\n"
                     "    b = ct.load(B; index=(1, 1), shape=(TK, TN))\n"
                     "    acc = zeros(Float32, TN, TM)\n"
                     "    x = muladd(a, b, acc)\n"                                  /* 5: accumulator */
                     "    y = muladd(a, transpose(b), zeros(Float32, TM, TK))\n"    /* 6: inner dims */
                     "    z = muladd(a, b, zeros(Float32, TM, TN))\n"               /* fits */
                     "    if TK > 1\n        w = zeros(Float32, TM, TN)\n    else\n        w = fill(1.0f0, TN, TM)\n    end\n"
                     "    v = muladd(a, b, w)\n"                                    /* w: either arm's */
                     "    u = zeros(Float32, TM, TN)\n    u = fill(1.0f0, TN, TM)\n"
                     "    t = muladd(a, b, u)\n"                                    /* 16: u's last value */
                     "end\n";
  tt_findings fs = {0};
  cr_assert_eq(tts_match(r, TT_LANG_JULIA, code, &fs), 3u);
  cr_expect_eq(fs.items[0].start_pos.line, 5u);
  cr_expect_str_eq(fs.items[0].message, "the product is (TM, TN), but the accumulator `acc` is (TN, TM)");
  cr_expect_eq(fs.items[1].start_pos.line, 6u);
  cr_expect(strstr(fs.items[1].message, "the inner dims TK and TN differ"), "%s", fs.items[1].message);
  cr_expect_eq(fs.items[2].start_pos.line, 16u);
  cr_expect_str_eq(fs.items[2].message, "the product is (TM, TN), but the accumulator `u` is (TN, TM)");
  tt_findings_free(&fs);
  tt_rule_free(r);
}

/* Tiles in two arms of one `if` may differ; the same variable on one path may not. */
Test(julia_tile_shapes, index_dims_on_one_path_only) {
  tt_rule *r = shape_rule("index-dims");
  const char *code = "function t(x, y, TM::Int, TN::Int, TR::Bool)\n"
                     "    i = ct.bid(1)\n    j = ct.bid(2)\n"
                     "    if TR\n"
                     "        a = ct.load(x; index=(i, j), shape=(TM, TN))\n"
                     "    else\n"
                     "        a = ct.load(x; index=(j, i), shape=(TM, TN))\n"   /* other arm: fine */
                     "    end\n"
                     "    ct.store(y; index=(i, j), tile=ct.load(x; index=(j, i), shape=(TN, TM)))\n"
                     "    ct.store(y; index=(j, i), tile=ct.load(x; index=(i, j), shape=(TM, TN), order=(2, 1)))\n"
                     "end\n";
  tt_findings fs = {0};
  cr_assert_eq(tts_match(r, TT_LANG_JULIA, code, &fs), 1u);
  cr_expect_eq(fs.items[0].start_pos.line, 9u);
  cr_expect(strstr(fs.items[0].message, "`j` counts tiles of TN here"), "%s", fs.items[0].message);
  tt_findings_free(&fs);
  tt_rule_free(r);
}

Test(julia_tile_shapes, bad_check_names_the_choices) {
  char *err = NULL;
  tt_rule *r = tts_rule("id: t\ntarget: julia\nlanguage: julia\ncategory: broadcasting\nseverity: warning\n"
                        "summary: s\nmessage: m\nexplain: e\nanalyzer: julia-tile-shapes\noptions:\n"
                        "  check: shapes\n  shape_calls: {ct.load: shape}\n  dims_keyword: dims\n"
                        "  scalar_types: 'x'\n  tile_types: 'y'\nexamples:\n  - match: \"x\"\n",
                        &err);
  cr_expect_null(r);
  cr_expect(err && strstr(err, "`check` must be one of muladd, array-tiles"), "%s", err ? err : "(no error)");
  free(err);
}
