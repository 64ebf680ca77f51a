/* tt-sema FILE [-I DIR] [-D NAME[=V]] [--hip-define NAME[=V]] [--compile-commands FILE]
 *        [--type START END]
 * Prints what the semantic layer (src/sema) sees in a file: the line ranges each target
 * skips, the names a header redefines for HIP, the explicit template instantiations,
 * and optionally the type of the expression at bytes [START, END). For rule authors and
 * for trying the layer on real code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser/source.h"
#include "sema/tt_sema.h"
#include "util/fs.h"
#include "util/util.h"

static void print_skipped(tt_sema_file *f, const tt_source *src, tt_sema_side side) {
  size_t n;
  const uint32_t *r = tt_sema_skipped(f, side, &n);
  const char *name = side == TT_SEMA_HIP ? "hip" : "cuda";
  if (!r) {
    printf("%s: unknown: %s\n", name, tt_sema_why(f));
    return;
  }
  printf("%s: %zu skipped range(s)\n", name, n);
  for (size_t i = 0; i < n; i++)
    printf("  %s: skipped lines %u-%u\n", name, tt_source_pos(src, r[2 * i]).line, tt_source_pos(src, r[2 * i + 1]).line);
}

static void print_redefined(tt_sema_file *f, const tt_source *src) {
  /* Each identifier of the file, as clang's lexer sees it. */
  size_t n;
  const uint32_t *ids = tt_sema_identifiers(f, 0, src->len, &n);
  size_t shown = 0;
  for (size_t i = 0; ids && i < n; i++) {
    if (tt_sema_hip_redefined(f, ids[2 * i]) != TT_SEMA_YES) continue;
    tt_sema_macro m;
    tt_sema_macro_at(f, TT_SEMA_HIP, ids[2 * i], &m);
    tt_pos p = tt_source_pos(src, ids[2 * i]);
    printf("  redefined for hip: %s at %u:%u (macro at %s:%u)\n", m.name, p.line, p.column, m.def_file, m.def_line);
    shown++;
  }
  printf("redefined for hip: %zu use(s)\n", shown);
}

int main(int argc, char **argv) {
  const char *path = NULL, *cc = NULL;
  const char **inc = NULL, **def = NULL, **hip = NULL;
  size_t ni = 0, nd = 0, nh = 0, ci = 0, cd = 0, ch = 0;
  long t0 = -1, t1 = -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-I") && i + 1 < argc) TT_PUSH(inc, ni, ci, argv[++i]);
    else if (!strncmp(a, "-I", 2) && a[2]) TT_PUSH(inc, ni, ci, a + 2);
    else if (!strcmp(a, "-D") && i + 1 < argc) TT_PUSH(def, nd, cd, argv[++i]);
    else if (!strncmp(a, "-D", 2) && a[2]) TT_PUSH(def, nd, cd, a + 2);
    else if (!strcmp(a, "--hip-define") && i + 1 < argc) TT_PUSH(hip, nh, ch, argv[++i]);
    else if (!strcmp(a, "--compile-commands") && i + 1 < argc) cc = argv[++i];
    else if (!strcmp(a, "--type") && i + 2 < argc) t0 = atol(argv[++i]), t1 = atol(argv[++i]);
    else if (!path && a[0] != '-') path = a;
    else {
      fprintf(stderr, "usage: tt-sema FILE [-I DIR] [-D N[=V]] [--hip-define N[=V]] [--compile-commands F] "
                      "[--type START END]\n");
      return 2;
    }
  }
  if (!path) {
    fprintf(stderr, "tt-sema: no FILE\n");
    return 2;
  }
  char *text, *err;
  size_t len;
  if (tt_fs_read(path, &text, &len, &err) < 0) {
    fprintf(stderr, "%s\n", err);
    return 3;
  }
  tt_source *src = tt_source_new(path, text, len, TT_LANG_CUDA);
  tt_sema_options o = {inc, ni, def, nd, hip, nh, cc, NULL, false};
  tt_sema *s = tt_sema_new(&o);
  tt_sema_file *f = tt_sema_file_new(s, path, src->text, src->len);
  if (tt_sema_unavailable(s)) printf("semantic layer unavailable: %s\n", tt_sema_unavailable(s));
  print_skipped(f, src, TT_SEMA_CUDA);
  print_skipped(f, src, TT_SEMA_HIP);
  print_redefined(f, src);
  size_t n;
  const char *const *insts = tt_sema_instantiations(f, &n);
  printf("instantiations: %zu\n", n);
  for (size_t i = 0; insts && i < n; i++) printf("  %s\n", insts[i]);
  if (t0 >= 0) {
    const char *sp, *cn;
    if (tt_sema_type_at(f, (uint32_t)t0, (uint32_t)t1, &sp, &cn) == TT_SEMA_YES) printf("type: %s (%s)\n", sp, cn);
    else printf("type: unknown: %s\n", tt_sema_why(f));
  }
  tt_sema_file_free(f);
  tt_sema_free(s);
  tt_source_free(src);
  free(inc);
  free(def);
  free(hip);
  return 0;
}
