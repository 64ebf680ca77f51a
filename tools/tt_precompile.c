/* tt-precompile — the build step that precompiles the sim's shim header for `tiletrans
 * check` (tt_check_precompile_shims): run once by the build into ROOT, which is
 * installed as share/tiletrans/sim/pch. Not installed itself.
 * Usage: tt-precompile ROOT */
#include <stdio.h>
#include <stdlib.h>

#include "checker/build.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: tt-precompile ROOT\n");
    return 2;
  }
  tt_check_toolchain tc;
  char *err = NULL;
  int rc = tt_check_toolchain_init(&tc, &err) == 0 ? tt_check_precompile_shims(&tc, argv[1], &err) : -1;
  if (rc < 0) fprintf(stderr, "tt-precompile: %s\n", err ? err : "failed");
  free(err);
  tt_check_toolchain_free(&tc);
  return rc < 0 ? 1 : 0;
}
