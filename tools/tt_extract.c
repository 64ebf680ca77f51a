/* tt-extract — prints what `tiletrans check` builds of a program: the kernel taken
 * out of it (src/xform), then its signature and notes on stderr.
 * Usage: tt-extract FILE KERNEL [-I DIR]... [-D NAME[=VALUE]]... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fs.h"
#include "xform/xform.h"

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: tt-extract FILE KERNEL [-I DIR]... [-D NAME[=VALUE]]...\n");
    return 2;
  }
  const char *inc[64], *def[64];
  size_t ni = 0, nd = 0;
  for (int i = 3; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-I") && ni < 64) inc[ni++] = argv[i + 1];
    else if (!strcmp(argv[i], "-D") && nd < 64) def[nd++] = argv[i + 1];
  }
  char *text = NULL, *err = NULL;
  size_t len = 0;
  if (tt_fs_read(argv[1], &text, &len, &err) != 0) {
    fprintf(stderr, "tt-extract: %s\n", err ? err : argv[1]);
    return 3;
  }
  tt_xf_options o = {.include_dirs = inc, .n_include_dirs = ni, .defines = def, .n_defines = nd};
  tt_xf_result r;
  const char *kernels[] = {argv[2]};
  int rc = tt_xf_extract(argv[1], text, len, kernels, 1, &o, &r, &err);
  free(text);
  if (rc != 0) {
    fprintf(stderr, "tt-extract: %s\n", err);
    free(err);
    return 1;
  }
  fwrite(r.text, 1, r.len, stdout);
  fprintf(stderr, "kernel %s at %s:%d, launched as %s\n", r.sigs[0].base_name, r.sigs[0].file, r.sigs[0].line, r.sigs[0].launch_name);
  for (size_t i = 0; i < r.sigs[0].nparams; i++) {
    const tt_xf_param *p = &r.sigs[0].params[i];
    fprintf(stderr, "  param %zu: %s -> base '%s' ptrs %d%s%s%s\n", i, p->decl, p->base, p->pointers,
            p->resolved ? "" : " (unresolved)", p->is_struct ? " struct" : "", p->is_enum ? " enum" : "");
    for (size_t k = 0; k < p->nfields; k++) fprintf(stderr, "    field %s: %s\n", p->fields[k], p->field_types[k]);
  }
  for (size_t i = 0; i < r.nnotes; i++) fprintf(stderr, "note: %s\n", r.notes[i]);
  tt_xf_result_free(&r);
  return 0;
}
