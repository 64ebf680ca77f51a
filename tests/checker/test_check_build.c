/* The precompiled shim header: the one the build makes (tt_check_precompile_shims) is
 * found for the harnesses it fits, and only for them. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checker/build.h"
#include "util/util.h"

static const char *HARNESS = "// a harness\n#include \"tt_sim_std.hpp\"\n#define TT_SIM_WARP 32\n";

Test(check_build, the_builds_precompiled_shim_serves_the_harnesses_it_fits, .timeout = 600) {
  char tmpl[] = "/tmp/tt-pch-XXXXXX";
  cr_assert_not_null(mkdtemp(tmpl));
  char *cache = tt_xasprintf("%s/cache", tmpl), *root = tt_xasprintf("%s/prebuilt", tmpl);
  setenv("TILETRANS_CACHE_DIR", cache, 1);
  unsetenv("TILETRANS_SIM_PCH");
  tt_check_toolchain tc;
  char *err = NULL;
  cr_assert_eq(tt_check_toolchain_init(&tc, &err), 0, "%s", err);
  free(tc.prebuilt_pch);
  tc.prebuilt_pch = tt_xstrdup(root);

  /* Nothing made yet, and an empty cache makes none for one check's two harnesses. */
  cr_expect_null(tt_check_shim_pch(&tc, HARNESS));

  cr_assert_eq(tt_check_precompile_shims(&tc, root, &err), 0, "%s", err);
  char *dir = tt_check_shim_pch(&tc, HARNESS);
  cr_assert_not_null(dir, "the prebuilt header was not found");
  cr_expect(strncmp(dir, root, strlen(root)) == 0, "%s is not under %s", dir, root);
  char *gch = tt_xasprintf("%s/tt_sim_std.hpp.gch", dir);
  cr_expect_eq(access(gch, R_OK), 0, "%s", gch);

  /* A harness that does not include the header, or another compiler: not this one. */
  cr_expect_null(tt_check_shim_pch(&tc, "// no shim header\n"));
  char *cxx = tc.cxx;
  tc.cxx = "g++-for-another-abi";
  char *other = tt_check_shim_pch(&tc, HARNESS);
  cr_expect_null(other, "a header precompiled by `%s` was offered to another compiler: %s", cxx, other);
  tc.cxx = cxx;

  free(other);
  free(gch);
  free(dir);
  tt_check_toolchain_free(&tc);
  char *rm = tt_xasprintf("rm -rf '%s'", tmpl);
  cr_expect_eq(system(rm), 0);
  free(rm);
  free(cache);
  free(root);
}
