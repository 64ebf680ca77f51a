/* Unified diffs for `rewrite --diff`, from a Myers shortest edit script over lines.
 *
 * The forward greedy algorithm keeps, for each edit distance d, the furthest-reaching
 * x per diagonal; only diagonals -d..d exist at step d, so the trace costs O(D^2)
 * memory, which stays small for rewrites (D = lines changed). */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/util.h"

typedef struct lines {
  const char **start;
  size_t *len;     /* including the '\n' when present */
  size_t n;
} lines;

static lines split(const char *s, size_t n) {
  lines L = {0};
  size_t cap = 0, lcap = 0, nl = 0;
  for (size_t i = 0; i < n;) {
    const char *nlp = memchr(s + i, '\n', n - i);
    size_t e = nlp ? (size_t)(nlp - s) + 1 : n;
    TT_PUSH(L.start, L.n, cap, s + i);
    TT_PUSH(L.len, nl, lcap, e - i);
    i = e;
  }
  return L;
}

static bool line_eq(const lines *a, size_t i, const lines *b, size_t j) {
  return a->len[i] == b->len[j] && memcmp(a->start[i], b->start[j], a->len[i]) == 0;
}

typedef enum { OP_KEEP, OP_DEL, OP_INS } op_kind;

/* Returns the edit script (ops) as a sequence of OP_* with *n_ops entries. */
static op_kind *myers(const lines *a, const lines *b, size_t *n_ops) {
  long N = (long)a->n, M = (long)b->n, MAX = N + M;
  long **trace = tt_xcalloc((size_t)MAX + 2, sizeof *trace);
  long *v = tt_xcalloc(2 * (size_t)MAX + 3, sizeof *v);
  long off = MAX + 1, D = 0;
  for (long d = 0; d <= MAX; d++) {
    trace[d] = tt_xmalloc((2 * (size_t)d + 1) * sizeof **trace);
    bool done = false;
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
      long y = x - k;
      while (x < N && y < M && line_eq(a, (size_t)x, b, (size_t)y)) x++, y++;
      v[off + k] = x;
      if (x >= N && y >= M) done = true;
    }
    for (long k = -d; k <= d; k++) trace[d][k + d] = v[off + k];
    if (done) {
      D = d;
      break;
    }
  }
  /* Walk back from (N, M) collecting ops in reverse. */
  op_kind *ops = tt_xmalloc(((size_t)N + (size_t)M + 1) * sizeof *ops);
  size_t n = 0;
  long x = N, y = M;
  for (long d = D; d > 0; d--) {
    long k = x - y;
    long *pv = trace[d - 1];
    bool down = (k == -d || (k != d && pv[k - 1 + (d - 1)] < pv[k + 1 + (d - 1)]));
    long pk = down ? k + 1 : k - 1;
    long px = pv[pk + (d - 1)], py = px - pk;
    while (x > px + (down ? 0 : 1) && y > py + (down ? 1 : 0)) ops[n++] = OP_KEEP, x--, y--;
    ops[n++] = down ? OP_INS : OP_DEL;
    x = px, y = py;
  }
  while (x > 0 && y > 0) ops[n++] = OP_KEEP, x--, y--;
  for (size_t i = 0; i < n / 2; i++) {
    op_kind t = ops[i];
    ops[i] = ops[n - 1 - i];
    ops[n - 1 - i] = t;
  }
  for (long d = 0; d <= D; d++) free(trace[d]);
  free(trace);
  free(v);
  *n_ops = n;
  return ops;
}

static void put_line(FILE *out, char tag, const lines *L, size_t i) {
  fputc(tag, out);
  fwrite(L->start[i], 1, L->len[i], out);
  if (L->len[i] == 0 || L->start[i][L->len[i] - 1] != '\n') fputs("\n\\ No newline at end of file\n", out);
}

void tt_diff_unified(FILE *out, const char *old_label, const char *new_label, const char *a, size_t alen,
                     const char *b, size_t blen) {
  if (alen == blen && memcmp(a, b, alen) == 0) return;
  lines A = split(a, alen), B = split(b, blen);
  size_t n_ops;
  op_kind *ops = myers(&A, &B, &n_ops);
  fprintf(out, "--- %s\n+++ %s\n", old_label, new_label);
  const size_t ctx = 3;
  size_t i = 0;
  /* ai/bi: line index in A/B at op i. */
  size_t *ai = tt_xmalloc((n_ops + 1) * sizeof *ai), *bi = tt_xmalloc((n_ops + 1) * sizeof *bi);
  ai[0] = bi[0] = 0;
  for (size_t k = 0; k < n_ops; k++) {
    ai[k + 1] = ai[k] + (ops[k] != OP_INS);
    bi[k + 1] = bi[k] + (ops[k] != OP_DEL);
  }
  while (i < n_ops) {
    while (i < n_ops && ops[i] == OP_KEEP) i++;
    if (i == n_ops) break;
    size_t start = i > ctx ? i - ctx : 0, end = i;
    /* Extend the hunk while the next change is within 2*ctx kept lines. */
    for (;;) {
      while (end < n_ops && ops[end] != OP_KEEP) end++;
      size_t k = end;
      while (k < n_ops && ops[k] == OP_KEEP && k - end < 2 * ctx) k++;
      if (k < n_ops && ops[k] != OP_KEEP) {
        end = k;
        continue;
      }
      end = end + ctx < n_ops ? end + ctx : n_ops;
      if (end > k) end = k;
      break;
    }
    size_t acount = ai[end] - ai[start], bcount = bi[end] - bi[start];
    fprintf(out, "@@ -%zu,%zu +%zu,%zu @@\n", acount ? ai[start] + 1 : ai[start], acount,
            bcount ? bi[start] + 1 : bi[start], bcount);
    for (size_t k = start; k < end; k++) {
      if (ops[k] == OP_KEEP) put_line(out, ' ', &A, ai[k]);
      else if (ops[k] == OP_DEL) put_line(out, '-', &A, ai[k]);
      else put_line(out, '+', &B, bi[k]);
    }
    i = end;
  }
  free(ai);
  free(bi);
  free(ops);
  free(A.start);
  free(A.len);
  free(B.start);
  free(B.len);
}
