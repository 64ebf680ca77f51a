/* realcc.c — real hipcc/nvcc compiles of a check's sources (see realcc.h). */
#include "checker/realcc.h"
#include "checker/proc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/sha256.h"
#include "util/util.h"

/* hipcc: gfx90a (wave64, the first target of DESIGN.md); -fsyntax-only checks the code
 * without code generation. The device pass alone: clang still checks the host
 * functions there (an undeclared name in main, a host call of a __device__ function),
 * and the host pass would parse the HIP headers a second time (vector_add: 1.15 -> 0.72
 * s CPU); code only the host pass sees (#ifndef __HIP_DEVICE_COMPILE__) is not checked.
 * -w: warnings are not verdicts. */
static const char *const k_hipcc_flags[] = {"--offload-arch=gfx90a", "--cuda-device-only", "-fsyntax-only", "-w",
                                            "-x", "hip", NULL};
/* nvcc has no syntax-only mode. --ptx for one architecture runs the preprocessor, the
 * whole C++ front end over host and device code (under __CUDA_ARCH__) and the device
 * compiler, and skips the host compiler and ptxas: 0.5 s of CPU where `-c` takes 1.6 s
 * (vector_add), with the same errors for everything but host code hidden from the
 * device pass and PTX the assembler rejects. */
static const char *const k_nvcc_flags[] = {"-arch=sm_90", "--ptx", "-w", "-x", "cu", "-o", "/dev/null", NULL};

const char *tt_check_realcc_name(tt_check_realcc kind) { return kind == TT_CHECK_REALCC_HIPCC ? "hipcc" : "nvcc"; }

static char *which(const char *prog) {
  const char *path = getenv("PATH");
  for (const char *p = path ? path : ""; *p;) {
    const char *colon = strchr(p, ':');
    size_t n = colon ? (size_t)(colon - p) : strlen(p);
    char *cand = n ? tt_xasprintf("%.*s/%s", (int)n, p, prog) : NULL;
    if (cand && access(cand, X_OK) == 0) return cand;
    free(cand);
    if (!colon) break;
    p = colon + 1;
  }
  return NULL;
}

char *tt_check_realcc_find(tt_check_realcc kind) {
  const char *env = getenv(kind == TT_CHECK_REALCC_HIPCC ? "TILETRANS_HIPCC" : "TILETRANS_NVCC");
  if (env) return *env ? strdup(env) : NULL;
  char *found = which(tt_check_realcc_name(kind));
  if (!found && kind == TT_CHECK_REALCC_NVCC && access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
    found = strdup("/usr/local/cuda/bin/nvcc");
  return found;
}

static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return strdup(".");
  if (slash == path) return strdup("/");
  return strndup(path, (size_t)(slash - path));
}

/* Hashes the header-like files of dir (what the source may include). */
static void hash_headers(tt_sha256 *h, const char *dir) {
  static const char *const exts[] = {".h", ".hh", ".hpp", ".cuh", ".inc", ".inl", NULL};
  size_t n;
  char **names = tt_fs_list(dir, &n);
  for (size_t i = 0; i < n; i++) {
    const char *dot = strrchr(names[i], '.');
    int want = 0;
    for (const char *const *e = exts; dot && *e; e++) want |= !strcmp(dot, *e);
    char *p = want ? tt_xasprintf("%s/%s", dir, names[i]) : NULL;
    size_t len;
    char *data = p ? tt_check_read_file(p, &len, 0) : NULL;
    if (data) {
      tt_sha256_field(h, names[i], strlen(names[i]));
      tt_sha256_field(h, data, len);
    }
    free(data);
    free(p);
    free(names[i]);
  }
  free(names);
}

/* The compiler's identity for the cache key: its path, size and mtime. */
static void hash_compiler(tt_sha256 *h, const char *cc) {
  char *real = cc[0] == '/' ? strdup(cc) : which(cc);
  struct stat st;
  char id[128] = "";
  if (real && stat(real, &st) == 0) snprintf(id, sizeof id, "%lld/%lld", (long long)st.st_size, (long long)st.st_mtime);
  tt_sha256_field(h, cc, strlen(cc));
  tt_sha256_field(h, id, strlen(id));
  free(real);
}

/* The cached outcome: "ok\n", or "fail\n" and the first error lines. */
static int cached_result(const char *path, char **log) {
  char *t = tt_check_read_file(path, NULL, 0);
  if (!t) return -1;
  int rc = !strncmp(t, "ok\n", 3) ? 0 : !strncmp(t, "fail\n", 5) ? 1 : -1;
  if (rc == 1) *log = strdup(t + 5);
  free(t);
  return rc;
}

/* The -I and -D arguments of the spec's flags (malloc'd strings; *n of them). */
static char **spec_args(const tt_check_realcc_flags *fl, size_t *n) {
  *n = fl ? fl->nincludes + fl->ndefines : 0;
  char **a = tt_xcalloc(*n + 1, sizeof *a);
  for (size_t i = 0; fl && i < fl->nincludes; i++) a[i] = tt_xasprintf("-I%s", fl->includes[i]);
  for (size_t i = 0; fl && i < fl->ndefines; i++) a[fl->nincludes + i] = tt_xasprintf("-D%s", fl->defines[i]);
  return a;
}

static int run_compiler(const tt_check_toolchain *tc, const char *cc, tt_check_realcc kind, const char *src,
                        const char *orig_path, const char *inc1, const char *inc2, const tt_check_realcc_flags *fl,
                        char **log) {
  char *inc3 = kind == TT_CHECK_REALCC_HIPCC && tc->hip_support ? tt_xasprintf("-I%s", tc->hip_support) : NULL;
  char *olog = tt_xasprintf("%s.out", src), *elog = tt_xasprintf("%s.err", src);
  size_t nspec;
  char **spec = spec_args(fl, &nspec);
  char **argv = tt_xcalloc(16 + nspec, sizeof *argv);
  int n = 0;
  argv[n++] = (char *)cc;
  for (const char *const *f = kind == TT_CHECK_REALCC_HIPCC ? k_hipcc_flags : k_nvcc_flags; *f; f++)
    argv[n++] = (char *)*f;
  argv[n++] = (char *)inc1;
  if (inc2) argv[n++] = (char *)inc2;
  for (size_t i = 0; i < nspec; i++) argv[n++] = spec[i];
  if (inc3) argv[n++] = inc3;
  argv[n++] = (char *)src;
  argv[n] = NULL;
  tt_check_proc pr;
  int rc = -1;
  if (tt_check_proc_run(argv, NULL, olog, elog, tc->timeout_s, &pr) != 0) {
    *log = tt_xasprintf("cannot run %s: %s", cc, pr.err ? pr.err : "?");
  } else if (pr.timed_out || !pr.exited) {
    *log = pr.timed_out ? tt_xasprintf("%s ran past %.0f s", cc, tc->timeout_s) : tt_xasprintf("%s died (signal %d)", cc, pr.sig);
  } else if (pr.exit_code == 0) {
    rc = 0;
  } else {
    /* clang (hipcc) and nvcc both write errors to stderr as "file:line:col: error: ..."
     * or "file(line): error: ...". */
    char *all = tt_xasprintf("%s%s", pr.err ? pr.err : "", pr.out ? pr.out : "");
    char *first = all ? tt_check_first_errors(all, orig_path, 4) : NULL;
    *log = first && *first ? first : tt_xasprintf("%s failed (exit %d)", cc, pr.exit_code);
    if (*log != first) free(first);
    free(all);
    rc = pr.exit_code == 127 ? -1 : 1;
  }
  tt_check_proc_free(&pr);
  if (olog) unlink(olog);
  if (elog) unlink(elog);
  free(olog);
  free(elog);
  free(inc3);
  for (size_t i = 0; i < nspec; i++) free(spec[i]);
  free(spec);
  free(argv);
  return rc;
}

int tt_check_realcc_compile(const tt_check_toolchain *tc, tt_check_realcc kind, const char *orig_path,
                            const char *extra_dir, const tt_check_realcc_flags *fl, const char *text, size_t len,
                            int *cached, char **log) {
  *log = NULL;
  *cached = 0;
  const char *cc = kind == TT_CHECK_REALCC_HIPCC ? tc->hipcc : tc->nvcc;
  if (!cc) {
    *log = tt_xasprintf("%s is not installed", tt_check_realcc_name(kind));
    return -1;
  }
  char *abs = tt_check_abspath(orig_path);
  char *dir = dir_of(abs);
  /* The compiler reads the text with a #line naming the original file, so its
   * messages cite that file's lines. */
  char *head = tt_xasprintf("#line 1 \"%s\"\n", abs);
  tt_sha256 h;
  tt_sha256_init(&h);
  hash_compiler(&h, cc);
  for (const char *const *f = kind == TT_CHECK_REALCC_HIPCC ? k_hipcc_flags : k_nvcc_flags; *f; f++)
    tt_sha256_field(&h, *f, strlen(*f));
  tt_sha256_field(&h, head, strlen(head));
  tt_sha256_field(&h, text, len);
  hash_headers(&h, dir);
  if (extra_dir) {
    tt_sha256_field(&h, extra_dir, strlen(extra_dir));
    hash_headers(&h, extra_dir);
  }
  for (size_t i = 0; fl && i < fl->nincludes; i++) {
    tt_sha256_field(&h, fl->includes[i], strlen(fl->includes[i]));
    hash_headers(&h, fl->includes[i]);
  }
  for (size_t i = 0; fl && i < fl->ndefines; i++) tt_sha256_field(&h, fl->defines[i], strlen(fl->defines[i]));
  if (kind == TT_CHECK_REALCC_HIPCC && tc->hip_support) {
    tt_sha256_field(&h, tc->hip_support, strlen(tc->hip_support));
    hash_headers(&h, tc->hip_support);
  }
  char hex[65];
  tt_sha256_hex(&h, hex);
  char *rdir = tt_xasprintf("%s/realcc", tc->cache_dir);
  char *result = tt_xasprintf("%s/%.32s", rdir, hex);
  int rc = cached_result(result, log);
  if (rc >= 0) {
    *cached = 1;
    goto done;
  }
  char *tmpl = tt_xasprintf("%s/tmp-XXXXXX", tc->cache_dir);
  char *tmp = tmpl && tt_check_mkdirs(rdir) == 0 ? mkdtemp(tmpl) : NULL;
  const char *base = strrchr(abs, '/') ? strrchr(abs, '/') + 1 : abs;
  char *src = tmp ? tt_xasprintf("%s/%s", tmp, base) : NULL;
  char *body = src ? malloc(strlen(head) + len + 1) : NULL;
  if (!body) {
    *log = tt_xasprintf("cannot create a build dir in %s: %s", tc->cache_dir, strerror(errno));
    rc = -1;
  } else {
    memcpy(body, head, strlen(head));
    memcpy(body + strlen(head), text, len);
    char *inc1 = tt_xasprintf("-I%s", dir), *inc2 = extra_dir ? tt_xasprintf("-I%s", extra_dir) : NULL;
    if (tt_check_write_file(src, body, strlen(head) + len) != 0) {
      *log = tt_xasprintf("cannot write %s: %s", src, strerror(errno));
      rc = -1;
    } else {
      rc = run_compiler(tc, cc, kind, src, abs, inc1, inc2, fl, log);
    }
    if (rc >= 0) {
      char *rec = tt_xasprintf("%s%s", rc == 0 ? "ok\n" : "fail\n", rc == 0 ? "" : *log);
      if (rec) tt_check_write_file(result, rec, strlen(rec));
      free(rec);
    }
    unlink(src);
    free(inc1);
    free(inc2);
  }
  if (tmp) rmdir(tmp);
  free(body);
  free(src);
  free(tmpl);
done:
  free(rdir);
  free(result);
  free(head);
  free(dir);
  free(abs);
  return rc;
}

/* The header a compiler's first error says it cannot open (gcc, as nvcc's host compiler:
 * "fatal error: X: No such file or directory"; nvcc's front end: "cannot open source file
 * "X""; clang: "'X' file not found"), malloc'd, or NULL. */
static char *missing_header(const char *log) {
  static const struct { const char *before, *after; } forms[] = {
      {"fatal error: ", ": No such file or directory"}, {"cannot open source file \"", "\""}, {"fatal error: '", "' file not found"}};
  const char *nl = strchr(log, '\n');
  size_t first = nl ? (size_t)(nl - log) : strlen(log);
  for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
    const char *b = strstr(log, forms[i].before);
    if (!b || (size_t)(b - log) >= first) continue;
    b += strlen(forms[i].before);
    const char *e = strstr(b, forms[i].after);
    if (e && (size_t)(e - log) <= first && e > b) return tt_xstrndup(b, (size_t)(e - b));
  }
  return NULL;
}

char *tt_check_realcc_sides(const tt_check_toolchain *tc, const char *ref_path, const char *cand_path,
                            const char *cand_text, size_t cand_len, const tt_check_realcc_flags *fl, char **note) {
  char *msg = NULL;
  *note = NULL;
  if (tc->nvcc && ref_path) {
    size_t len;
    char *text = tt_check_read_file(ref_path, &len, 0);
    char *log = NULL;
    int cached;
    if (text && tt_check_realcc_compile(tc, TT_CHECK_REALCC_NVCC, ref_path, NULL, fl, text, len, &cached, &log) == 1) {
      /* The reference is the user's whole file: a host library that is not installed here
       * (apex's <ATen/ATen.h>; Debian's torch has no ATen/cuda headers) stops nvcc before
       * the kernel. That says nothing about the kernel, which the sim built without it. */
      char *hdr = missing_header(log);
      char *in_sim = hdr ? tt_xasprintf("%s/%s", tc->sim_include, hdr) : NULL;
      if (hdr && access(in_sim, F_OK) != 0)
        *note = tt_xasprintf("reference not compiled with nvcc: the file includes <%s>, which is not installed "
                             "here (a host library the kernel does not need)",
                             hdr);
      else
        msg = tt_xasprintf("reference (nvcc -arch=sm_90) does not build: %s", log);
      free(in_sim);
      free(hdr);
    }
    free(text);
    free(log);
  }
  if (!msg && tc->hipcc && cand_text) {
    /* a translated candidate lives in the cache: its includes are the source's */
    char *ref_dir = ref_path ? dir_of(ref_path) : NULL;
    char *log = NULL;
    int cached;
    if (tt_check_realcc_compile(tc, TT_CHECK_REALCC_HIPCC, cand_path, ref_dir, fl, cand_text, cand_len, &cached,
                                &log) == 1)
      msg = tt_xasprintf("candidate (hipcc --offload-arch=gfx90a) does not build: %s", log);
    free(ref_dir);
    free(log);
  }
  return msg;
}
