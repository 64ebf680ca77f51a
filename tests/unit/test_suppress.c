/* tiletrans-ignore directives (rules/suppress.h): forms, coverage, comments only. */
#include <criterion/criterion.h>
#include <string.h>

#include "parser/tree.h"
#include "rules/suppress.h"
#include "support.h"

typedef struct sx {
  tt_source *src;
  tt_tree *tree;
  tt_suppressions s;
} sx;

static void scan(sx *x, const char *code, tt_lang lang) {
  x->src = tts_source(lang == TT_LANG_PYTHON ? "t.py" : "t.cu", code, lang);
  x->tree = tt_tree_parse(x->src);
  tt_suppressions_scan(x->tree, &x->s);
}

static void done(sx *x) {
  tt_suppressions_free(&x->s);
  tt_tree_free(x->tree);
  tt_source_free(x->src);
}

Test(suppress, trailing_alone_block_and_next_line) {
  sx x;
  scan(&x,
       "int a; // tiletrans-ignore: r1\n"          /* 1: covers 1 */
       "// tiletrans-ignore: r2, r3 -- reason\n"   /* 2: alone: covers 2 and 3 */
       "int b;\n"
       "/* tiletrans-ignore-next-line: r4 */\n"    /* 4: covers 5 only */
       "int c;\n"
       "int d; /* tiletrans-ignore: r5 */ int e;\n" /* 6: covers 6 */
       "/* tiletrans-ignore: r6,\n"                 /* 7-8: alone: covers 7..9 */
       " * r7 */\n"
       "int f;\n",
       TT_LANG_CUDA);
  cr_expect_not_null(tt_suppressions_find(&x.s, 1, "r1"));
  cr_expect_null(tt_suppressions_find(&x.s, 2, "r1"), "a trailing comment covers its own line only");
  cr_expect_not_null(tt_suppressions_find(&x.s, 3, "r2"));
  cr_expect_not_null(tt_suppressions_find(&x.s, 3, "r3"));
  cr_expect_null(tt_suppressions_find(&x.s, 3, "reason"), "text after the last id is a reason");
  cr_expect_null(tt_suppressions_find(&x.s, 4, "r4"), "next-line: not its own line");
  cr_expect_not_null(tt_suppressions_find(&x.s, 5, "r4"));
  cr_expect_null(tt_suppressions_find(&x.s, 6, "r4"));
  cr_expect_not_null(tt_suppressions_find(&x.s, 6, "r5"));
  cr_expect_null(tt_suppressions_find(&x.s, 7, "r5"), "code after the block comment: not alone");
  cr_expect_not_null(tt_suppressions_find(&x.s, 9, "r6"));
  cr_expect_not_null(tt_suppressions_find(&x.s, 9, "r7"), "the list goes on after a comma on the next line");
  cr_expect_eq(x.s.n, 7u);
  cr_expect_eq(x.s.n_bad, 0u);
  done(&x);
}

Test(suppress, only_in_comments_and_malformed_reported) {
  sx x;
  scan(&x,
       "const char *s = \"// tiletrans-ignore: r1\"; int a;\n"
       "int b; // tiletrans-ignore:\n"
       "int c; // tiletrans-ignored r2\n",
       TT_LANG_CUDA);
  cr_expect_null(tt_suppressions_find(&x.s, 1, "r1"), "a string is not a comment");
  cr_expect_eq(x.s.n, 0u);
  cr_expect_eq(x.s.n_bad, 2u, "no id, and no colon, are reported");
  cr_expect_eq(x.s.bad[0].line, 2u);
  done(&x);
}

Test(suppress, python_hash_comments) {
  sx x;
  scan(&x, "x = 1  # tiletrans-ignore: r1\n# tiletrans-ignore-next-line: r2\ny = 2\n", TT_LANG_PYTHON);
  cr_expect_not_null(tt_suppressions_find(&x.s, 1, "r1"));
  cr_expect_not_null(tt_suppressions_find(&x.s, 3, "r2"));
  cr_expect_null(tt_suppressions_find(&x.s, 2, "r2"));
  done(&x);
}

Test(suppress, many_on_one_line_is_linear) {
  /* 30,000 ids on one line: the index holds each once; lookups walk that line's list. */
  size_t n = 30000;
  char *code = malloc(n * 8 + 64);
  char *p = code + sprintf(code, "int a; // tiletrans-ignore: ");
  for (size_t i = 0; i < n; i++) p += sprintf(p, "r%zu,", i);
  strcpy(p - 1, "\n");
  sx x;
  scan(&x, code, TT_LANG_CUDA);
  cr_expect_eq(x.s.n, n);
  cr_expect_eq(x.s.n_links, n);
  cr_expect_not_null(tt_suppressions_find(&x.s, 1, "r29999"));
  done(&x);
  free(code);
}
