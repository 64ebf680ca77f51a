/* tt_sim_prep IN OUT — runs tt_xf_prepare_source() (src/xform/prep.h) on a file and writes it
 * with a leading `#line 1 "IN"` (used by the tests to prepare kernel sources
 * at build time; a harness generator should do the same). */
#include "xform/prep.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: tt_sim_prep IN OUT\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 3;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *t = malloc((size_t)n + 1);
    if (!t || fread(t, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        return 3;
    }
    fclose(f);
    char *out, err[256];
    if (tt_xf_prepare_source(t, (size_t)n, &out, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", argv[1], err);
        return 1;
    }
    FILE *o = fopen(argv[2], "wb");
    /* #line keeps reports pointing at the original file */
    if (!o || fprintf(o, "#line 1 \"%s\"\n", argv[1]) < 0 || fputs(out, o) < 0 ||
        fclose(o) != 0) {
        perror(argv[2]);
        return 3;
    }
    free(out);
    free(t);
    return 0;
}
