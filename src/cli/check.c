/* check.c — the `tiletrans check` command line: options, spec loading, running the
 * checks (src/checker) and printing the table or the JSON document.
 *
 * Owned by the checker helper. Everything but option handling lives in src/checker. */
#include "cli/check.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef TT_HAVE_CHECKER
#include "checker/bind.h"
#include "checker/build.h"
#include "checker/check.h"
#include "checker/translate.h"
#include "checker/proc.h"
#include "checker/report.h"
#include "checker/spec.h"
#include "cli/common.h"

enum { EXIT_ALL_PASS = 0, EXIT_NOT_PASS = 1, EXIT_USAGE = 2, EXIT_INPUT = 3 };

static void help(FILE *f) {
  fprintf(f,
    "usage: tiletrans check SPEC... [options]\n"
    "\n"
    "Builds the reference (CUDA semantics, warp 32) and the candidate (HIP semantics,\n"
    "warp 64) of each check spec, runs both on the same seeded inputs under several\n"
    "lane schedules, and compares every output buffer. SPEC is a spec file or a folder\n"
    "searched for check.yaml / *.check.yaml files.\n"
    "\n"
    "options:\n"
    "  --backend sim|cuda|hip  where to run: the SIMT CPU executor (default), the\n"
    "                          reference on an NVIDIA GPU (nvcc), or an AMD GPU\n"
    "  --format text|json|junit|markdown\n"
    "                          output format (default text); junit: JUnit XML, one test\n"
    "                          case per spec; markdown: a table for $GITHUB_STEP_SUMMARY\n"
    "  --seed N                seed for random inits (overrides each spec's seed)\n"
    "  --warp 32|64            candidate wavefront: 64 for CDNA (default), 32 for RDNA\n"
    "  --schedules LIST        sim lane schedules, comma-separated from forward,\n"
    "                          reverse, random (default: all three)\n"
    "  --timeout S             time limit for one run of one side (default 60)\n"
    "  --rules DIR             rulebook used to translate sources (default: built-in)\n"
    "  -j, --jobs N            run N checks in parallel (default 1)\n"
    "  --memory-limit SIZE     address-space limit of each sim harness, e.g. 4G, 512M\n"
    "                          (default 16G)\n"
    "  --sandbox auto|on|off   run sim harnesses in user, PID and network namespaces with\n"
    "                          the file system read-only outside their work dir: auto\n"
    "                          (default) where unprivileged namespaces are available,\n"
    "                          on: refuse to run without; every harness also gets its own\n"
    "                          process group and work dir, no signals to other processes,\n"
    "                          and its leftover descendants killed\n"
    "  --layout logical|flipped  cuTile Python specs without a candidate: the layout of the\n"
    "                          cuTile.jl translation tiletrans makes (default logical)\n"
    "  --keep                  keep each check's work dir (harness sources, inputs,\n"
    "                          outputs, logs) and print where it is\n"
    "  -h, --help              this help\n"
    "\n"
    "verdicts: PASS, MISMATCH, TRANSLATE-FAIL, BUILD-FAIL, RUN-FAIL\n"
    "exit: 0 every check PASS, 1 any other verdict, 2 usage or spec error, 3 unreadable input\n"
    "environment: TILETRANS_CACHE_DIR (build cache; default $XDG_CACHE_HOME/tiletrans or\n"
    "  ~/.cache/tiletrans), CXX (C++ compiler, default c++), TMPDIR (work dirs)\n");
}

static int usage_error(const char *fmt_msg, const char *arg) {
  fprintf(stderr, "tiletrans check: ");
  fprintf(stderr, fmt_msg, arg);
  fprintf(stderr, "\n(try `tiletrans check --help`)\n");
  return EXIT_USAGE;
}

static int parse_uint(const char *s, unsigned long long max, unsigned long long *out) {
  char *end;
  errno = 0;
  if (!s || !*s || *s == '-') return -1;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || errno || v > max) return -1;
  *out = v;
  return 0;
}

typedef struct {
  char **v;
  size_t n, cap;
} strlist;

static int push(strlist *l, const char *s) {
  if (l->n == l->cap) {
    char **nv = realloc(l->v, (l->cap = l->cap ? l->cap * 2 : 16) * sizeof *nv);
    if (!nv) return -1;
    l->v = nv;
  }
  l->v[l->n] = strdup(s);
  return l->v[l->n++] ? 0 : -1;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int is_spec_name(const char *name) {
  size_t n = strlen(name);
  return !strcmp(name, "check.yaml") || (n > 11 && !strcmp(name + n - 11, ".check.yaml"));
}

/* Collects the spec files under a folder, sorted so output order is stable. */
static void find_specs(const char *dir, strlist *out) {
  DIR *d = opendir(dir);
  if (!d) return;
  strlist here = {0};
  struct dirent *e;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.') push(&here, e->d_name);
  closedir(d);
  if (here.n) qsort(here.v, here.n, sizeof *here.v, cmp_str);
  for (size_t i = 0; i < here.n; i++) {
    size_t len = strlen(dir) + strlen(here.v[i]) + 2;
    char *p = malloc(len);
    if (p) {
      snprintf(p, len, "%s/%s", dir, here.v[i]);
      struct stat st;
      if (stat(p, &st) == 0) {
        if (S_ISDIR(st.st_mode)) find_specs(p, out);
        else if (S_ISREG(st.st_mode) && is_spec_name(here.v[i])) push(out, p);
      }
    }
    free(p);
    free(here.v[i]);
  }
  free(here.v);
}

/* Progress on stderr while checks run: each verdict as it comes, and on a terminal
 * a live "N/M" line that the next verdict overwrites. The table and the JSON on
 * stdout are unchanged. */
typedef struct {
  int tty;
} progress_t;

static void on_done(const tt_check_result *r, size_t index, size_t done, size_t total, void *ctx) {
  progress_t *p = ctx;
  (void)index;
  if (p->tty) fputs("\r\033[K", stderr);
  fprintf(stderr, "[%zu/%zu] %s: %s (%.1fs)\n", done, total, r->name, tt_check_verdict_name(r->status), r->time_s);
  if (p->tty && done < total) fprintf(stderr, "%zu/%zu checks done...", done, total);
  fflush(stderr);
}

int tt_cmd_check(int argc, char **argv) {
  enum { O_BACKEND = 256, O_FORMAT, O_SEED, O_WARP, O_TIMEOUT, O_KEEP, O_RULES, O_SCHEDULES, O_MEMORY, O_SANDBOX, O_LAYOUT };
  enum { F_TEXT, F_JSON, F_JUNIT, F_MARKDOWN };
  static const struct option longopts[] = {
    {"backend", required_argument, 0, O_BACKEND}, {"format", required_argument, 0, O_FORMAT},
    {"seed", required_argument, 0, O_SEED},       {"warp", required_argument, 0, O_WARP},
    {"timeout", required_argument, 0, O_TIMEOUT}, {"keep", no_argument, 0, O_KEEP},
    {"rules", required_argument, 0, O_RULES},     {"schedules", required_argument, 0, O_SCHEDULES},
    {"jobs", required_argument, 0, 'j'},          {"help", no_argument, 0, 'h'},
    {"memory-limit", required_argument, 0, O_MEMORY}, {"sandbox", required_argument, 0, O_SANDBOX},
    {"layout", required_argument, 0, O_LAYOUT},
    {0, 0, 0, 0}};
  tt_check_options o;
  tt_check_options_init(&o);
  const char *rules_dir = NULL;
  int format = F_TEXT, jobs = 1;
  unsigned long long u;
  if (tt_cli_check_longopts(argc, argv, longopts) < 0) return TT_EXIT_USAGE; /* no --abbreviations */
  optind = 1;
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, ":j:h", longopts, NULL)) != -1) {
    switch (c) {
    case O_BACKEND:
      if (!strcmp(optarg, "sim")) o.backend = TT_CHECK_BACKEND_SIM;
      else if (!strcmp(optarg, "cuda")) o.backend = TT_CHECK_BACKEND_CUDA;
      else if (!strcmp(optarg, "hip")) o.backend = TT_CHECK_BACKEND_HIP;
      else return usage_error("--backend must be sim, cuda or hip, not '%s'", optarg);
      break;
    case O_FORMAT:
      if (!strcmp(optarg, "text")) format = F_TEXT;
      else if (!strcmp(optarg, "json")) format = F_JSON;
      else if (!strcmp(optarg, "junit")) format = F_JUNIT;
      else if (!strcmp(optarg, "markdown")) format = F_MARKDOWN;
      else return usage_error("--format must be text, json, junit or markdown, not '%s'", optarg);
      break;
    case O_MEMORY:
      if (tt_check_parse_size(optarg, &o.memory_limit) != 0)
        return usage_error("--memory-limit needs a size such as 4G or 512M, not '%s'", optarg);
      break;
    case O_SANDBOX:
      if (!strcmp(optarg, "auto")) o.sandbox = TT_CHECK_SANDBOX_AUTO;
      else if (!strcmp(optarg, "on")) o.sandbox = TT_CHECK_SANDBOX_ON;
      else if (!strcmp(optarg, "off")) o.sandbox = TT_CHECK_SANDBOX_OFF;
      else return usage_error("--sandbox must be auto, on or off, not '%s'", optarg);
      break;
    case O_SEED:
      if (parse_uint(optarg, UINT64_MAX, &u) != 0) return usage_error("--seed needs a non-negative integer, not '%s'", optarg);
      o.seed_set = 1;
      o.seed = u;
      break;
    case O_WARP:
      if (strcmp(optarg, "32") && strcmp(optarg, "64")) return usage_error("--warp must be 32 or 64, not '%s'", optarg);
      o.warp = atoi(optarg);
      break;
    case O_TIMEOUT: {
      char *end;
      double t = strtod(optarg, &end);
      if (*end || !(t > 0) || t > 86400) return usage_error("--timeout needs seconds > 0, not '%s'", optarg);
      o.timeout_s = t;
      break;
    }
    case O_KEEP: o.keep = 1; break;
    case O_LAYOUT:
      if (strcmp(optarg, "logical") && strcmp(optarg, "flipped")) return usage_error("--layout must be logical or flipped, not '%s'", optarg);
      o.layout_flipped = !strcmp(optarg, "flipped");
      break;
    case O_RULES: rules_dir = optarg; break;
    case O_SCHEDULES: {
      /* Validate here so a typo is a usage error, not a silently skipped schedule. */
      char *copy = strdup(optarg), *save = NULL;
      int n = 0, ok = copy != NULL;
      for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && ok; t = strtok_r(NULL, ",", &save)) {
        ok = !strcmp(t, "forward") || !strcmp(t, "reverse") || !strcmp(t, "random");
        n++;
      }
      free(copy);
      if (!ok || n < 1 || n > 4)
        return usage_error("--schedules takes 1 to 4 of forward,reverse,random, not '%s'", optarg);
      o.schedules = optarg;
      break;
    }
    case 'j':
      if (parse_uint(optarg, 64, &u) != 0 || u < 1) return usage_error("-j needs a number from 1 to 64, not '%s'", optarg);
      jobs = (int)u;
      break;
    case 'h': help(stdout); return EXIT_ALL_PASS;
    case ':': return usage_error("option %s needs a value", argv[optind - 1]);
    default: return usage_error("unknown option '%s'", argv[optind - 1]);
    }
  }
  if (optind >= argc) return usage_error("no spec given%s", "");

  strlist paths = {0};
  for (int i = optind; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
      size_t before = paths.n;
      find_specs(argv[i], &paths);
      if (paths.n == before) {
        fprintf(stderr, "tiletrans check: %s: no check.yaml or *.check.yaml files in this folder\n", argv[i]);
        return EXIT_INPUT;
      }
    } else {
      push(&paths, argv[i]);
    }
  }

  /* Every spec is validated before anything is built: a bad spec is exit 2 (3 for an
   * unreadable file) with every error printed, not a half-run batch. */
  tt_check_spec *specs = calloc(paths.n ? paths.n : 1, sizeof *specs);
  int rc = EXIT_ALL_PASS;
  for (size_t i = 0; specs && i < paths.n; i++) {
    char *err = NULL;
    int src = tt_check_spec_load(paths.v[i], &specs[i], &err);
    if (src != 0) {
      fprintf(stderr, "tiletrans check: %s\n", err ? err : paths.v[i]);
      if (!rc) rc = src;
    }
    free(err);
  }
  if (!specs) rc = EXIT_INPUT;
  /* The toolchain first: binding a spec to its kernel keeps the includes the sim's
   * shim headers provide. */
  tt_check_toolchain tc;
  char *tc_err = NULL;
  int have_tc = tt_check_toolchain_init(&tc, &tc_err) == 0;
  if (have_tc) tt_check_toolchain_set_hip_support(&tc, rules_dir ? rules_dir : tt_cli_default_rules_dir());
  /* Each spec against its kernel's signature: a mismatch is a spec error now, not
   * a failed build later. */
  for (size_t i = 0; rc == EXIT_ALL_PASS && specs && i < paths.n; i++) {
    char *err = NULL;
    if (tt_check_spec_bind(&specs[i], have_tc ? tc.sim_include : NULL, &err) != 0) {
      fprintf(stderr, "tiletrans check: %s\n", err ? err : paths.v[i]);
      rc = EXIT_USAGE;
    }
    free(err);
  }
  if (rc == EXIT_ALL_PASS) {
    char *why = NULL;
    if (!tt_check_backend_available(o.backend, &why)) {
      fprintf(stderr, "tiletrans check: --backend %s: %s\n", tt_check_backend_name(o.backend), why);
      rc = EXIT_USAGE;
    }
    free(why);
  }
  /* One rulebook for every translation: rule-file errors are usage errors (exit 2).
   * Its queries are compiled on a translation cache miss only (checker/translate.h):
   * compiling them is most of a warm check. */
  tt_rulebook *book = NULL;
  for (size_t i = 0; rc == EXIT_ALL_PASS && i < paths.n && !book; i++)
    if (!specs[i].candidate && !(book = tt_cli_load_rules_uncompiled(rules_dir ? &rules_dir : NULL, rules_dir ? 1 : 0)))
      rc = EXIT_USAGE;
  if (book && !(o.translator = tt_check_translator_new(book, have_tc ? tc.cache_dir : NULL, have_tc ? tc.sim_hash : NULL))) {
    fprintf(stderr, "tiletrans check: out of memory\n");
    rc = EXIT_INPUT;
  }
  progress_t prog = {isatty(2)};
  if (format == F_TEXT && paths.n > 1) {
    o.on_done = on_done;
    o.on_done_ctx = &prog;
    if (prog.tty) fprintf(stderr, "0/%zu checks done...", paths.n);
  }
  if (rc == EXIT_ALL_PASS) {
    tt_check_result *results = calloc(paths.n, sizeof *results);
    double t0 = tt_check_now();
    if (results) {
      tt_check_run_all(have_tc ? &tc : NULL, tc_err, specs, paths.n, &o, jobs, results);
      double total = tt_check_now() - t0;
      if (format == F_JSON && tt_check_report_json(stdout, results, paths.n, total) != 0) {
        fprintf(stderr, "tiletrans check: cannot build the JSON output\n");
        rc = EXIT_INPUT;
      } else if (format == F_JUNIT && tt_check_report_junit(stdout, results, paths.n, total) != 0) {
        fprintf(stderr, "tiletrans check: cannot write the JUnit XML\n");
        rc = EXIT_INPUT;
      } else if (format == F_MARKDOWN) {
        tt_check_report_markdown(stdout, results, paths.n, total);
      } else if (format == F_TEXT) {
        tt_check_report_text(stdout, results, paths.n, total);
      }
      for (size_t i = 0; i < paths.n; i++) {
        if (results[i].status != TT_CHECK_PASS && rc == EXIT_ALL_PASS) rc = EXIT_NOT_PASS;
        tt_check_result_free(&results[i]);
      }
      free(results);
    } else {
      rc = EXIT_INPUT;
    }
  }
  if (have_tc) tt_check_toolchain_free(&tc);
  free(tc_err);
  tt_check_translator_free(o.translator);
  tt_rulebook_free(book);
  for (size_t i = 0; i < paths.n; i++) {
    if (specs) tt_check_spec_free(&specs[i]);
    free(paths.v[i]);
  }
  free(paths.v);
  free(specs);
  fflush(stdout);
  return rc;
}

#else /* !TT_HAVE_CHECKER */

int tt_cmd_check(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "tiletrans check: this build of tiletrans has no checker (src/checker was not built)\n");
  return 2;
}

#endif
