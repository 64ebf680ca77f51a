/* side.c — build and run one side of a check (see side.h). */
#include "checker/side.h"
#include "checker/harness.h"
#include "checker/proc.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"
#include "xform/prep.h"

void tt_check_side_init(tt_check_side_ctx *c, const tt_check_toolchain *tc, const tt_check_spec *spec,
                        const tt_check_options *o, const char *workdir, const char *role,
                        const char *path, const char *text, size_t len, tt_check_side_kind kind,
                        int warp) {
  memset(c, 0, sizeof *c);
  c->tc = tc;
  c->spec = spec;
  c->o = o;
  c->workdir = workdir;
  c->role = role;
  c->path = path;
  c->text = text;
  c->len = len;
  c->kind = kind;
  c->warp = warp;
}

int tt_check_side_build(tt_check_side_ctx *c, char **err) {
  *err = NULL;
  if (c->kind == TT_CHECK_SIDE_HIPCC) {
    *err = strdup("the hip backend (hipcc on an AMD GPU) is not implemented by this build");
    return -1;
  }
  char *owned = NULL;
  const char *text = c->text;
  size_t len = c->len;
  if (!text) {
    owned = tt_check_read_file(c->path, &len, 0);
    if (!owned) {
      *err = tt_xasprintf("cannot read %s: %s", c->path, strerror(errno));
      return -1;
    }
    text = owned;
  }
  char *prepared = NULL;
  size_t plen = len;
  if (c->kind == TT_CHECK_SIDE_NVCC) {
    /* A real GPU needs no preparation: __shared__ stays what it is. */
    prepared = malloc(len + 1);
    if (prepared) { memcpy(prepared, text, len); prepared[len] = 0; }
  } else {
    char perr[512] = "";
    if (tt_xf_prepare_source(text, len, &prepared, perr, sizeof perr) != 0) {
      free(owned);
      *err = tt_xasprintf("%s: preparing the source for the SIMT executor failed: %s", c->path, perr);
      return -1;
    }
    plen = strlen(prepared);
  }
  free(owned);
  if (!prepared) { *err = strdup("out of memory"); return -1; }
  char *staged = tt_check_stage_source(c->tc, c->path, prepared, plen, err);
  free(prepared);
  if (!staged) return -1;

  char *harness = c->kind == TT_CHECK_SIDE_NVCC
                      ? tt_check_harness_text_cuda(c->spec, staged)
                      : tt_check_harness_text(c->spec, c->kind == TT_CHECK_SIDE_SIM_CUDA ? TT_CHECK_SEM_CUDA : TT_CHECK_SEM_HIP,
                                              c->warp, staged);
  free(staged);
  if (!harness) { *err = strdup("out of memory"); return -1; }
  char *kpath = tt_check_abspath(c->path);
  char *log = NULL;
  int rc = tt_check_build_harness(c->tc, harness, kpath, c->o->keep ? c->workdir : NULL, c->role,
                                  c->kind == TT_CHECK_SIDE_NVCC, &c->exe, &c->cached, &log);
  free(kpath);
  free(harness);
  if (rc != 0) {
    *err = log ? log : strdup("build failed");
    return -1;
  }
  free(log);
  return 0;
}

static const char *sched_name(int s) {
  switch (s) {
  case 0: return "forward";
  case 1: return "reverse";
  case 2: return "random";
  default: return "?";
  }
}

/* At most max_lines lines of text, trimmed (sim messages can list many threads). */
static char *first_lines(const char *text, int max_lines) {
  const char *end = text;
  int n = 0;
  while (*end && n < max_lines) {
    const char *nl = strchr(end, '\n');
    end = nl ? nl + 1 : end + strlen(end);
    n++;
  }
  size_t len = (size_t)(end - text);
  while (len && (text[len - 1] == '\n' || text[len - 1] == ' ')) len--;
  int more = *end != 0;
  char *s = malloc(len + 32);
  if (!s) return NULL;
  memcpy(s, text, len);
  s[len] = 0;
  if (more) strcat(s, "\n...");
  return s;
}

/* The result file: key=value lines, then "message:" and the message. */
static int parse_result(const char *text, char *status, size_t ssz, int *sched, char **message) {
  const char *p = text;
  status[0] = 0;
  *sched = 0;
  *message = NULL;
  while (*p) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    if (n >= 7 && !strncmp(p, "status=", 7)) snprintf(status, ssz, "%.*s", (int)(n - 7), p + 7);
    else if (n >= 9 && !strncmp(p, "schedule=", 9)) *sched = atoi(p + 9);
    else if (n == 8 && !strncmp(p, "message:", 8)) {
      const char *m = nl ? nl + 1 : p + n;
      size_t ml = strlen(m);
      while (ml && (m[ml - 1] == '\n' || m[ml - 1] == ' ')) ml--;
      *message = strndup(m, ml);
      break;
    }
    if (!nl) break;
    p = nl + 1;
  }
  return status[0] ? 0 : -1;
}

static char *tail_lines(const char *text, int max_lines) {
  size_t len = strlen(text);
  while (len && (text[len - 1] == '\n' || text[len - 1] == ' ')) len--;
  size_t start = len;
  int n = 0;
  while (start > 0) {
    if (text[start - 1] == '\n' && ++n == max_lines) break;
    start--;
  }
  return strndup(text + start, len - start);
}

/* The distinct "tt_sim: note: " / "tt_sim: warning: " lines of the harness's stderr
 * (one per schedule's launch), NULL when none. */
static char *sim_notes(const char *err) {
  char *out = NULL;
  size_t n = 0;
  for (const char *p = err ? err : ""; *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    if ((!strncmp(p, "tt_sim: note: ", 14) || !strncmp(p, "tt_sim: warning: ", 17))) {
      char *line = strndup(p, len);
      if (line && (!out || !strstr(out, line))) {
        char *grown = realloc(out, n + len + 2);
        if (grown) {
          out = grown;
          memcpy(out + n, line, len);
          n += len;
          out[n++] = '\n';
          out[n] = 0;
        }
      }
      free(line);
    }
    p += len;
    if (*p == '\n') p++;
  }
  if (out && n) out[n - 1] = 0;
  return out;
}

int tt_check_side_run(tt_check_side_ctx *c, const char *inputs_path, uint64_t seed, char **err) {
  *err = NULL;
  const tt_check_spec *s = c->spec;
  char *out = tt_xasprintf("%s/%s.out.bin", c->workdir, c->role);
  char *res = tt_xasprintf("%s/%s.result", c->workdir, c->role);
  char *so = tt_xasprintf("%s/%s.stdout", c->workdir, c->role);
  char *se = tt_xasprintf("%s/%s.stderr", c->workdir, c->role);
  char num[2][32];
  /* Each launch dimension as a comma-separated list: one entry per launch. */
  char *dims[7];
  for (int d = 0; d < 7; d++) {
    tt_buf b = {0};
    for (size_t li = 0; li < s->nlaunches; li++) {
      const tt_check_launch *l = &s->launches[li];
      int64_t v = d < 3 ? l->grid[d] : d < 6 ? l->block[d - 3] : l->shared_bytes;
      tt_buf_printf(&b, "%s%lld", li ? "," : "", (long long)v);
    }
    dims[d] = tt_buf_steal(&b);
  }
  snprintf(num[0], sizeof num[0], "%llu", (unsigned long long)seed);
  snprintf(num[1], sizeof num[1], "%g", c->o->timeout_s);
  char *argv[] = {c->exe, (char *)inputs_path, out, res, dims[0], dims[1], dims[2], dims[3], dims[4], dims[5],
                  dims[6], (char *)c->o->schedules, num[0], num[1], NULL};
  int nsched = 1;
  for (const char *q = c->o->schedules; *q; q++) nsched += *q == ',';
  /* The sim enforces timeout_s per schedule with a report of where threads wait;
   * the process limit is only a backstop for a harness that hangs outside it. */
  double limit = c->o->timeout_s > 0 ? c->o->timeout_s * (c->kind == TT_CHECK_SIDE_NVCC ? 1 : nsched) + 10 : 0;
  unlink(res);
  tt_check_proc pr;
  int rc = -1;
  if (!out || !res || !so || !se) { *err = strdup("out of memory"); goto done; }
  /* Harnesses on the sim run under the memory limit and in the sandbox; a GPU side
   * (nvcc) needs the driver's address space and devices, so neither applies to it. */
  tt_check_proc_limits lim = {0};
  if (c->kind != TT_CHECK_SIDE_NVCC) lim = (tt_check_proc_limits){.memory_bytes = c->o->memory_limit, .sandbox = c->o->sandbox};
  if (tt_check_proc_run_limited(argv, c->workdir, so, se, limit, &lim, &pr) != 0) {
    *err = tt_xasprintf("cannot run the harness %s: %s", c->exe, pr.err ? pr.err : "?");
    tt_check_proc_free(&pr);
    goto done;
  }
  c->run_s = pr.wall_s;
  char *rtext = tt_check_read_file(res, NULL, 1 << 20);
  char status[64];
  int sched;
  char *message = NULL;
  if (pr.timed_out) {
    *err = tt_xasprintf("timeout: the harness ran past %.0f s and was killed", limit);
  } else if (!rtext || parse_result(rtext, status, sizeof status, &sched, &message) != 0) {
    char *tail = tail_lines(pr.err, 8);
    if (pr.signaled)
      *err = tt_xasprintf("crashed: killed by signal %d (%s)%s%s", pr.sig, strsignal(pr.sig),
                 tail && *tail ? "\n" : "", tail ? tail : "");
    else
      *err = tt_xasprintf("the harness exited with status %d without a result%s%s", pr.exit_code,
                 tail && *tail ? "\n" : "", tail ? tail : "");
    free(tail);
  } else if (strcmp(status, "ok") != 0) {
    char *m = first_lines(message ? message : "", 12);
    if (c->kind == TT_CHECK_SIDE_NVCC)
      *err = tt_xasprintf("%s: %s", status, m ? m : "");
    else
      *err = tt_xasprintf("%s (schedule %s): %s", status, sched_name(sched), m ? m : "");
    free(m);
  } else {
    size_t want = tt_check_side_output_bytes(s);
    int runs = c->kind == TT_CHECK_SIDE_NVCC ? 1 : nsched;
    rc = 0;
    c->notes = sim_notes(pr.err);
    for (int i = 0; i < runs && i < 4 && rc == 0; i++) {
      char *p = tt_xasprintf("%s.%d", out, i);
      size_t got = 0;
      c->outputs[i] = p ? (unsigned char *)tt_check_read_file(p, &got, 0) : NULL;
      if (!c->outputs[i]) *err = tt_xasprintf("the harness wrote no outputs (%s)", p ? p : out);
      else if (got != want) *err = tt_xasprintf("the harness wrote %zu bytes of outputs, expected %zu", got, want);
      else c->nruns++;
      if (*err) rc = -1;
      free(p);
    }
  }
  free(message);
  free(rtext);
  tt_check_proc_free(&pr);
done:
  for (int d = 0; d < 7; d++) free(dims[d]);
  free(out);
  free(res);
  free(so);
  free(se);
  return rc;
}

void tt_check_side_free(tt_check_side_ctx *c) {
  free(c->exe);
  c->exe = NULL;
  free(c->notes);
  c->notes = NULL;
  for (int i = 0; i < 4; i++) {
    free(c->outputs[i]);
    c->outputs[i] = NULL;
  }
  c->nruns = 0;
}

size_t tt_check_side_output_bytes(const tt_check_spec *spec) {
  size_t n = 0;
  for (size_t i = 0; i < spec->nargs; i++)
    if (spec->args[i].output) n += (size_t)spec->args[i].len * tt_check_dtype_size(spec->args[i].dtype);
  return n;
}

void tt_check_side_rmtree(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      char *p = tt_xasprintf("%s/%s", dir, e->d_name);
      if (p) unlink(p);
      free(p);
    }
    closedir(d);
  }
  rmdir(dir);
}
