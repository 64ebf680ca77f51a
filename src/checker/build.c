/* build.c — harness compilation and the build cache (see build.h). */
#include "checker/build.h"
#include "checker/proc.h"
#include "checker/realcc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/fs.h"
#include "util/sha256.h"
#include "util/relocate.h"
#include "util/util.h"

#ifndef TT_CHECK_SIM_INCLUDE_DIR
#define TT_CHECK_SIM_INCLUDE_DIR ""
#endif
#ifndef TT_CHECK_SIM_LIB
#define TT_CHECK_SIM_LIB ""
#endif
#ifndef TT_CHECK_SIM_PCH
#define TT_CHECK_SIM_PCH "" /* a build that precompiles none (cmake/SimPch.cmake) */
#endif

/* Flags every harness is built with. -O1 keeps compiles quick while letting the
 * fibers' code run at a useful speed. Line tables let the sim name the kernel line of
 * a crash (addr2line -i); -g1 has them and their inlined frames, and compiles a third
 * faster than -g (vector_add's reference: 1.33 -> 0.87 s CPU) with a tenth of the
 * debug info. DWARF 4 because binutils 2.40's addr2line ignores the `#line` file names
 * of GCC 12's DWARF 5 and names the harness instead; -g1 after it, which sets the
 * level. */
static const char *const k_cxx_flags[] = {"-O1", "-gdwarf-4", "-g1", "-DTILETRANS_CHECK", NULL};
static const char *const k_nvcc_flags[] = {"-O1", "-std=c++17", "-DTILETRANS_CHECK", NULL};
/* The sim's language levels, tried in order: C++20 lets prepared kernels run as
 * coroutines (src/sim/include/tt_sim_co.hpp) and region kernels; a kernel file
 * that C++20 rejects (a name that became a keyword, code a coroutine cannot hold)
 * is built again without region forms and then as C++17, where the same prepared
 * text is an ordinary kernel.  gnu rather than c:
 * the shims (and much CUDA code) use `, ##__VA_ARGS__`, whose comma strict ISO
 * mode keeps, so `__syncwarp()` would not compile. */
static const char *const k_cxx_std[] = {"-std=gnu++20", "-std=gnu++17", NULL};
/* Before C++17, C++20 once more without the kernels' region forms
 * (TT_SIM_NO_REGIONS, src/xform/prep_rg.c), in case a form is what C++20
 * rejected: the coroutines then still run. */
static const char *const k_no_regions = "-DTT_SIM_NO_REGIONS";
/* CPU seconds for a compile with the precompiled shim: ~0.5 s is usual, the heaviest
 * corpus harness takes a few; past this it is GCC's endless loop, not a kernel. */
static const unsigned k_pch_attempt_cpu_s = 60;


int tt_check_mkdirs(const char *path) { return tt_fs_mkdirs(path, NULL); }

static int hash_file(tt_sha256 *h, const char *path) {
  size_t len;
  char *data = tt_check_read_file(path, &len, 0);
  if (!data) return -1;
  tt_sha256_field(h, path, strlen(path));
  tt_sha256_field(h, data, len);
  free(data);
  return 0;
}

static int has_ext(const char *name, const char *const *exts) {
  const char *dot = strrchr(name, '.');
  if (!dot) return 0;
  for (; *exts; exts++)
    if (!strcmp(dot + 1, *exts)) return 1;
  return 0;
}

/* Hashes the regular files of dir (sorted, so the key does not depend on readdir
 * order); recursive when `recurse`; only the given extensions when exts != NULL. */
static void hash_dir(tt_sha256 *h, const char *dir, const char *const *exts, int recurse) {
  size_t n;
  char **names = tt_fs_list(dir, &n);
  for (size_t i = 0; i < n; i++) {
    char *p = names[i][0] == '.' ? NULL : tt_xasprintf("%s/%s", dir, names[i]);
    struct stat st;
    if (p && stat(p, &st) == 0) {
      if (S_ISDIR(st.st_mode) && recurse) hash_dir(h, p, exts, recurse);
      else if (S_ISREG(st.st_mode) && (!exts || has_ext(names[i], exts))) hash_file(h, p);
    }
    free(p);
    free(names[i]);
  }
  free(names);
}

int tt_check_toolchain_init(tt_check_toolchain *tc, char **err) {
  memset(tc, 0, sizeof *tc);
  *err = NULL;
  const char *env;
  tc->cache_dir = tt_fs_cache_dir();
  tc->cxx = strdup((env = getenv("CXX")) && *env ? env : "c++");
  tc->sim_include = tt_relocate_path("TILETRANS_SIM_INCLUDE_DIR", TT_INSTALL_DATADIR "/tiletrans/sim/include",
                             TT_CHECK_SIM_INCLUDE_DIR);
  tc->sim_lib = tt_relocate_path("TILETRANS_SIM_LIB", TT_INSTALL_LIBDIR "/tiletrans/libtt_sim_rt.a", TT_CHECK_SIM_LIB);
  tc->prebuilt_pch = tt_relocate_path("TILETRANS_SIM_PCH", TT_INSTALL_DATADIR "/tiletrans/sim/pch", TT_CHECK_SIM_PCH);
  if (tc->prebuilt_pch && !tc->prebuilt_pch[0]) free(tc->prebuilt_pch), tc->prebuilt_pch = NULL;
  tc->timeout_s = 300;
  tc->hipcc = tt_check_realcc_find(TT_CHECK_REALCC_HIPCC);
  tc->nvcc = tt_check_realcc_find(TT_CHECK_REALCC_NVCC);
  if (!tc->cache_dir || !tc->cxx || !tc->sim_include || !tc->sim_lib) {
    *err = strdup("out of memory");
    return -1;
  }
  if (tt_check_mkdirs(tc->cache_dir) != 0) {
    *err = tt_xasprintf("cannot create the build cache %s: %s", tc->cache_dir, strerror(errno));
    return -1;
  }
  char *probe = tt_xasprintf("%s/tt_sim.h", tc->sim_include);
  int have_inc = probe && access(probe, R_OK) == 0;
  free(probe);
  if (!tc->sim_include[0] || !have_inc) {
    *err = tt_xasprintf("the SIMT executor's headers are missing (looked in '%s'); this build of tiletrans "
               "has no sim backend", tc->sim_include);
    return -1;
  }
  if (!tc->sim_lib[0] || access(tc->sim_lib, R_OK) != 0) {
    *err = tt_xasprintf("the SIMT executor's runtime library is missing ('%s')", tc->sim_lib);
    return -1;
  }
  tt_sha256 h;
  tt_sha256_init(&h);
  hash_dir(&h, tc->sim_include, NULL, 1);
  hash_file(&h, tc->sim_lib);
  char hex[65];
  tt_sha256_hex(&h, hex);
  tc->sim_hash = strdup(hex);
  return 0;
}

void tt_check_toolchain_set_hip_support(tt_check_toolchain *tc, const char *rules_dir) {
  char *dir = rules_dir ? tt_xasprintf("%s/hip/support", rules_dir) : NULL;
  struct stat st;
  if (!dir || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    free(dir);
    return;
  }
  free(tc->hip_support);
  tc->hip_support = dir;
  tt_sha256 h;
  tt_sha256_init(&h);
  tt_sha256_field(&h, tc->sim_hash, strlen(tc->sim_hash));
  tt_sha256_field(&h, dir, strlen(dir));
  hash_dir(&h, dir, NULL, 0);
  char hex[65];
  tt_sha256_hex(&h, hex);
  free(tc->sim_hash);
  tc->sim_hash = strdup(hex);
}

void tt_check_toolchain_free(tt_check_toolchain *tc) {
  free(tc->prebuilt_pch);
  free(tc->hip_support);
  free(tc->cache_dir);
  free(tc->cxx);
  free(tc->sim_include);
  free(tc->sim_lib);
  free(tc->sim_hash);
  free(tc->hipcc);
  free(tc->nvcc);
  memset(tc, 0, sizeof *tc);
}

char *tt_check_abspath(const char *path) {
  char *abs = realpath(path, NULL);
  return abs ? abs : strdup(path);
}

char *tt_check_stage_source(const tt_check_toolchain *tc, const char *orig_path,
                            const char *prepared, size_t len, char **err) {
  *err = NULL;
  /* The #line path is what messages show: make it absolute so it is unambiguous. */
  char *abs = tt_check_abspath(orig_path);
  const char *shown = abs ? abs : orig_path;
  char *head = tt_xasprintf("#line 1 \"%s\"\n", shown);
  free(abs);
  if (!head) { *err = strdup("out of memory"); return NULL; }
  size_t hlen = strlen(head);
  char *text = malloc(hlen + len);
  if (!text) { free(head); *err = strdup("out of memory"); return NULL; }
  memcpy(text, head, hlen);
  memcpy(text + hlen, prepared, len);
  free(head);
  tt_sha256 h;
  tt_sha256_init(&h);
  tt_sha256_field(&h, text, hlen + len);
  char hex[65];
  tt_sha256_hex(&h, hex);
  const char *base = strrchr(orig_path, '/');
  base = base ? base + 1 : orig_path;
  char *dir = tt_xasprintf("%s/src/%.24s", tc->cache_dir, hex);
  char *path = dir ? tt_xasprintf("%s/%s", dir, base) : NULL;
  if (!path || tt_check_mkdirs(dir) != 0 ||
      (access(path, R_OK) != 0 && tt_check_write_file(path, text, hlen + len) != 0)) {
    *err = tt_xasprintf("cannot write %s: %s", path ? path : "the staged source", strerror(errno));
    free(path);
    path = NULL;
  }
  free(dir);
  free(text);
  return path;
}

/* The line of text that starts at p (without its newline). */
static size_t line_len(const char *p) {
  const char *nl = strchr(p, '\n');
  return nl ? (size_t)(nl - p) : strlen(p);
}

/* Where a compiler's "error:" (or "fatal error:") starts in the line of n bytes, or
 * NULL: the word after a blank or at the line's start, as compilers write it, so that a
 * quoted source line that names `hipGetErrorString` or prints "error" is not taken. */
static const char *diagnostic_in(const char *line, size_t n) {
  for (size_t i = 0; i + 6 <= n; i++)
    if (line[i] == 'e' && !memcmp(line + i, "error:", 6) && (i == 0 || line[i - 1] == ' ')) return line + i;
  return NULL;
}

char *tt_check_first_errors(const char *text, const char *kernel_path, int max_lines) {
  const char *start = NULL, *kernel_line = NULL;
  size_t klen = kernel_path ? strlen(kernel_path) : 0;
  for (const char *line = text; *line;) {
    size_t n = line_len(line);
    /* Linker failures name the missing symbol in "undefined reference" lines that come
     * before collect2's "error" summary. */
    const char *hit = diagnostic_in(line, n);
    if (!hit) hit = strstr(line, "undefined reference");
    if (!kernel_line && klen && n > klen && !strncmp(line, kernel_path, klen) && line[klen] == ':')
      kernel_line = line;
    if (hit && (size_t)(hit - line) < n && !start) start = line;
    if (start && kernel_line) break;
    line += n;
    if (*line == '\n') line++;
  }
  if (!start) start = text;
  const char *end = start;
  for (int i = 0; i < max_lines && *end; i++) {
    end += line_len(end);
    if (*end == '\n') end++;
  }
  /* An error inside a shim header (a static_assert, a macro) says little on its own:
   * put the kernel line that led to it ("required from here") first. */
  int lead = kernel_line && (kernel_line < start || kernel_line >= end);
  size_t kl = lead ? line_len(kernel_line) : 0;
  size_t n = (size_t)(end - start);
  while (n && (start[n - 1] == '\n' || start[n - 1] == ' ')) n--;
  char *out = malloc(kl + 1 + n + 1);
  if (!out) return NULL;
  size_t o = 0;
  if (lead) {
    memcpy(out, kernel_line, kl);
    o = kl;
    out[o++] = '\n';
  }
  memcpy(out + o, start, n);
  out[o + n] = 0;
  return out;
}

/* The precompiled header of a harness: it starts with `#include "tt_sim_std.hpp"`,
 * the standard headers the shims build on, whose parse is most of a compile and which
 * depend on no macro. So one .gch per sim build serves every harness, CUDA and HIP,
 * warp 32 and 64 (a shim header precompiled per dialect and warp cost a cold check
 * ~2 s of CPU per variant, three variants for the corpus, for the same saving per
 * harness). It is made with the flags of the first attempt (C++20 with region forms);
 * GCC uses a .gch found in an -I dir before the header's own dir when the flags
 * match, and ignores it else. Returns the dir holding it (malloc'd), or NULL (the
 * compile then goes without). */
static const char k_std_header[] = "tt_sim_std.hpp";

static const char *shim_header(const char *harness_text) {
  return strstr(harness_text, "\n#include \"tt_sim_std.hpp\"\n") ? k_std_header : NULL;
}

/* Making the .gch costs ~1.5-2 s of CPU (GCC writes some 60 MB) and saves ~0.4 s per
 * harness built with it, so it pays only where several harnesses are built: the first
 * check of an empty cache (its reference and its candidate: fewer than k_pch_after
 * harnesses in the cache) builds without it, and a later check of that cache, or the
 * third harness of a run of many, makes it. */
static const size_t k_pch_after = 2;

static int cache_holds_harnesses(const tt_check_toolchain *tc, size_t want) {
  char *bin = tt_xasprintf("%s/bin", tc->cache_dir);
  DIR *d = bin ? opendir(bin) : NULL;
  size_t n = 0;
  for (struct dirent *e; d && n < want && (e = readdir(d));)
    if (e->d_name[0] != '.') n++;
  if (d) closedir(d);
  free(bin);
  return n >= want;
}

/* The name of the precompiled shim's folder: the hash of what the .gch is made of
 * and with (the header's text, which includes only standard headers; the compiler
 * command; the flags). GCC checks a .gch against its own options and ignores one
 * that does not fit, but not against the header's text, which this name covers. */
static char *pch_name(const tt_check_toolchain *tc, const char *hdr) {
  char *path = tt_xasprintf("%s/%s", tc->sim_include, hdr);
  size_t len;
  char *text = tt_check_read_file(path, &len, 0);
  free(path);
  if (!text) return NULL;
  tt_sha256 h;
  tt_sha256_init(&h);
  tt_sha256_field(&h, text, len);
  tt_sha256_field(&h, tc->cxx, strlen(tc->cxx));
  for (const char *const *f = k_cxx_flags; *f; f++) tt_sha256_field(&h, *f, strlen(*f));
  tt_sha256_field(&h, k_cxx_std[0], strlen(k_cxx_std[0]));
  free(text);
  char hex[65];
  tt_sha256_hex(&h, hex);
  return tt_xasprintf("%.16s-%s", hex, hdr);
}

/* Makes `dir`/`hdr`.gch. One builder at a time (threads of this process, other
 * processes on the cache): the checks that start together would each make the same
 * header. The others wait and then use it. Without the lock (a file system without
 * flock) they all build. 0 when the .gch is there. */
static int make_pch(const tt_check_toolchain *tc, const char *dir, const char *hdr) {
  char *gch = tt_xasprintf("%s/%s.gch", dir, hdr);
  if (tt_check_mkdirs(dir) != 0) { free(gch); return -1; }
  char *lockp = tt_xasprintf("%s/.lock", dir);
  int lock = open(lockp, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  free(lockp);
  if (lock >= 0 && flock(lock, LOCK_EX) != 0) { close(lock); lock = -1; }
  if (access(gch, R_OK) == 0) {
    if (lock >= 0) close(lock);
    free(gch);
    return 0;
  }
  /* A name no other builder shares: checks run on several threads of one process, so
   * a pid is not enough (two compilers writing one .gch made a corrupt header that
   * sent later compiles into an endless loop inside cc1plus). */
  char *tmp = tt_xasprintf("%s.tmp.XXXXXX", gch);
  int fd = mkstemp(tmp);
  if (fd >= 0) close(fd);
  char *src = tt_xasprintf("%s/%s", tc->sim_include, hdr), *inc = tt_xasprintf("-I%s", tc->sim_include);
  char *olog = tt_xasprintf("%s.out", tmp), *elog = tt_xasprintf("%s.err", tmp);
  int ok = 0;
  if (fd >= 0) {
    char *argv[16];
    int n = 0;
    argv[n++] = tc->cxx;
    for (const char *const *f = k_cxx_flags; *f; f++) argv[n++] = (char *)*f;
    argv[n++] = (char *)k_cxx_std[0];
    argv[n++] = inc;
    argv[n++] = "-x";
    argv[n++] = "c++-header";
    argv[n++] = src;
    argv[n++] = "-o";
    argv[n++] = tmp;
    argv[n] = NULL;
    tt_check_proc pr;
    /* mkstemp made it 0600; others may read an installed or shared one. */
    ok = tt_check_proc_run(argv, NULL, olog, elog, tc->timeout_s, &pr) == 0 && pr.exited && pr.exit_code == 0 &&
         chmod(tmp, 0644) == 0 && rename(tmp, gch) == 0;
    tt_check_proc_free(&pr);
    unlink(olog);
    unlink(elog);
  }
  if (!ok && fd >= 0) unlink(tmp);
  if (lock >= 0) close(lock); /* releases the lock */
  free(tmp);
  free(src);
  free(inc);
  free(olog);
  free(elog);
  free(gch);
  return ok ? 0 : -1;
}

char *tt_check_shim_pch(const tt_check_toolchain *tc, const char *harness_text) {
  const char *hdr = shim_header(harness_text);
  char *name = hdr ? pch_name(tc, hdr) : NULL;
  if (!name) return NULL;
  char *dir = NULL, *gch = NULL;
  if (tc->prebuilt_pch) {
    dir = tt_xasprintf("%s/%s", tc->prebuilt_pch, name);
    gch = tt_xasprintf("%s/%s.gch", dir, hdr);
    if (access(gch, R_OK) == 0) goto found;
    free(dir);
    free(gch);
  }
  dir = tt_xasprintf("%s/pch/%s", tc->cache_dir, name);
  gch = tt_xasprintf("%s/%s.gch", dir, hdr);
  if (access(gch, R_OK) == 0 || (cache_holds_harnesses(tc, k_pch_after) && make_pch(tc, dir, hdr) == 0)) goto found;
  free(dir);
  dir = NULL;
found:
  free(gch);
  free(name);
  return dir;
}

int tt_check_precompile_shims(const tt_check_toolchain *tc, const char *root, char **err) {
  char *name = pch_name(tc, k_std_header);
  if (!name) {
    *err = tt_xasprintf("%s/%s: cannot read the shim header", tc->sim_include, k_std_header);
    return -1;
  }
  char *dir = tt_xasprintf("%s/%s", root, name);
  int rc = make_pch(tc, dir, k_std_header);
  if (rc < 0) *err = tt_xasprintf("%s: %s could not precompile %s/%s", dir, tc->cxx, tc->sim_include, k_std_header);
  free(dir);
  free(name);
  return rc;
}

int tt_check_build_harness(const tt_check_toolchain *tc, const char *harness_text,
                           const char *kernel_path, const char *keep_dir, const char *stem,
                           int nvcc, char **exe, int *cached, char **log) {
  const char *const *flags = nvcc ? k_nvcc_flags : k_cxx_flags;
  const char *compiler = nvcc ? "nvcc" : tc->cxx;
  *exe = NULL;
  *log = NULL;
  *cached = 0;
  static const char *const header_exts[] = {"h", "hh", "hpp", "cuh", "inc", "inl", "hip", "cu", "cpp", NULL};
  tt_sha256 h;
  tt_sha256_init(&h);
  tt_sha256_field(&h, tc->sim_hash, strlen(tc->sim_hash));
  tt_sha256_field(&h, compiler, strlen(compiler));
  for (const char *const *f = flags; *f; f++) tt_sha256_field(&h, *f, strlen(*f));
  for (const char *const *f = k_cxx_std; !nvcc && *f; f++) tt_sha256_field(&h, *f, strlen(*f));
  if (!nvcc) tt_sha256_field(&h, k_no_regions, strlen(k_no_regions));
  tt_sha256_field(&h, harness_text, strlen(harness_text));
  char *kernel_dir = NULL;
  if (kernel_path) {
    const char *slash = strrchr(kernel_path, '/');
    kernel_dir = slash ? strndup(kernel_path, (size_t)(slash - kernel_path)) : strdup(".");
    if (kernel_dir && !kernel_dir[0]) { free(kernel_dir); kernel_dir = strdup("/"); }
  }
  if (kernel_dir) hash_dir(&h, kernel_dir, header_exts, 0);
  char hex[65];
  tt_sha256_hex(&h, hex);

  char *bindir = tt_xasprintf("%s/bin", tc->cache_dir);
  char *target = tt_xasprintf("%s/bin/%.32s", tc->cache_dir, hex);
  if (!bindir || !target || tt_check_mkdirs(bindir) != 0) {
    *log = tt_xasprintf("cannot create %s: %s", bindir ? bindir : "the cache", strerror(errno));
    free(bindir);
    free(target);
    free(kernel_dir);
    return -1;
  }
  free(bindir);
  if (keep_dir) {
    char *p = tt_xasprintf("%s/%s.cpp", keep_dir, stem);
    if (p) tt_check_write_file(p, harness_text, strlen(harness_text));
    free(p);
  }
  if (access(target, X_OK) == 0) {
    *exe = target;
    *cached = 1;
    free(kernel_dir);
    return 0;
  }

  /* Build in a private temp dir inside the cache (same filesystem as the target, so
   * the final rename is atomic: parallel checks never run half-written binaries). */
  char *tmpl = tt_xasprintf("%s/tmp-XXXXXX", tc->cache_dir);
  char *tmp = tmpl ? mkdtemp(tmpl) : NULL;
  if (!tmp) {
    *log = tt_xasprintf("cannot create a build dir in %s: %s", tc->cache_dir, strerror(errno));
    free(tmpl);
    free(target);
    free(kernel_dir);
    return -1;
  }
  char *src = tt_xasprintf("%s/harness.%s", tmp, nvcc ? "cu" : "cpp"), *out = tt_xasprintf("%s/harness", tmp);
  char *olog = tt_xasprintf("%s/cc.out", tmp), *elog = tt_xasprintf("%s/cc.err", tmp);
  char *inc1 = tt_xasprintf("-I%s", tc->sim_include), *inc2 = kernel_dir ? tt_xasprintf("-I%s", kernel_dir) : NULL;
  /* after the kernel's own dir: a compat header shipped next to a port wins */
  char *inc3 = !nvcc && tc->hip_support ? tt_xasprintf("-I%s", tc->hip_support) : NULL;
  int rc = -1;
  char *pch = NULL, *pch_inc = NULL;
  int pch_failed = 0;
  if (!src || !out || !olog || !elog || !inc1 || tt_check_write_file(src, harness_text, strlen(harness_text)) != 0) {
    *log = tt_xasprintf("cannot write the harness in %s", tmp);
    goto done;
  }
  pch = nvcc ? NULL : tt_check_shim_pch(tc, harness_text);
  pch_inc = pch ? tt_xasprintf("-I%s", pch) : NULL;
  /* attempts: C++20, C++20 without region forms, C++17 */
  int attempt;
  for (attempt = 0;; attempt++) {
    const char *std = k_cxx_std[attempt < 2 ? 0 : 1];
    int last = attempt == 2;
    char *argv[24];
    int n = 0;
    argv[n++] = (char *)compiler;
    for (const char *const *f = flags; *f; f++) argv[n++] = (char *)*f;
    if (!nvcc) argv[n++] = (char *)std;
    if (!nvcc && attempt == 1) argv[n++] = (char *)k_no_regions;
    if (pch_inc && attempt == 0) argv[n++] = pch_inc; /* same flags as the first attempt */
    if (!nvcc) argv[n++] = inc1;
    if (inc2) argv[n++] = inc2;
    if (inc3) argv[n++] = inc3;
    argv[n++] = src;
    argv[n++] = "-o";
    argv[n++] = out;
    if (!nvcc) {
      argv[n++] = tc->sim_lib;
      argv[n++] = "-lpthread";
      argv[n++] = "-lm";
    }
    argv[n] = NULL;
    tt_check_proc pr;
    /* GCC 12 can crash or loop forever on a precompiled header that does not fit: the
     * attempt with one runs under a CPU limit (load does not stretch it as it does wall
     * time) and any failure of it is tried again without, before it counts. */
    int with_pch = pch_inc && attempt == 0;
    tt_check_proc_limits pch_lim = {.cpu_s = k_pch_attempt_cpu_s};
    if (tt_check_proc_run_limited(argv, NULL, olog, elog, tc->timeout_s, with_pch ? &pch_lim : NULL, &pr) != 0) {
      *log = tt_xasprintf("cannot run the compiler '%s': %s", compiler, pr.err ? pr.err : "?");
      tt_check_proc_free(&pr);
      goto done;
    }
    if (keep_dir) {
      char *p = tt_xasprintf("%s/%s.compile.log", keep_dir, stem);
      if (p) tt_check_write_file(p, pr.err, strlen(pr.err));
      free(p);
    }
    if (with_pch && !(pr.exited && pr.exit_code == 0)) {
      tt_check_proc_free(&pr);
      free(pch_inc);
      pch_inc = NULL;
      pch_failed = 1;
      attempt--;
      continue;
    }
    if (!nvcc && !last && !pr.timed_out && pr.exited && pr.exit_code != 0 && pr.exit_code != 127) {
      tt_check_proc_free(&pr);
      continue; /* the next language level */
    }
    if (pr.timed_out || !pr.exited || pr.exit_code != 0) {
      char *first = tt_check_first_errors(pr.err, kernel_path, 8);
      *log = pr.timed_out ? tt_xasprintf("%s ran past %.0f s", compiler, tc->timeout_s)
             : pr.exited == 0 ? tt_xasprintf("%s died (signal %d)", compiler, pr.sig)
             : first && *first ? strdup(first) : tt_xasprintf("%s failed (exit %d)", compiler, pr.exit_code);
      free(first);
      tt_check_proc_free(&pr);
      rc = pr.exited && pr.exit_code == 127 ? -1 : 1;
      goto done;
    }
    tt_check_proc_free(&pr);
    break;
  }
  /* It built without the precompiled header and failed with it at the same level: the
   * header is at fault (a corrupt file from an older build, say), so the next compile
   * makes a new one. Only the cache's: the build's own is the build's to remake. */
  if (pch_failed && pch && attempt == 0 && strncmp(pch, tc->cache_dir, strlen(tc->cache_dir)) == 0) {
    char *gch = tt_xasprintf("%s/%s.gch", pch, shim_header(harness_text));
    if (gch) unlink(gch);
    free(gch);
  }
  if (rename(out, target) != 0) {
    *log = tt_xasprintf("cannot move the harness into the cache (%s): %s", target, strerror(errno));
    goto done;
  }
  *exe = target;
  target = NULL;
  rc = 0;
done:
  if (src) unlink(src);
  if (out) unlink(out);
  if (olog) unlink(olog);
  if (elog) unlink(elog);
  rmdir(tmp);
  free(tmpl);
  free(src);
  free(out);
  free(olog);
  free(elog);
  free(inc1);
  free(inc2);
  free(inc3);
  free(pch);
  free(pch_inc);
  free(target);
  free(kernel_dir);
  return rc;
}
