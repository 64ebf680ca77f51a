/* test_template.c — `{{name}}` rendering, escapes, filters, and load-time checking. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "rules/template.h"

static const tt_binding B[] = {
    {"fn", "__shfl_xor_sync", 15, 10, 25},
    {"mask", "0xffffffff", 10, 26, 36},
    {"x", "", 0, 0, 0},
    {"braces", "{{mask}}", 8, 0, 8},
};
#define NB (sizeof B / sizeof *B)

static void expect_render(const char *tmpl, const char *want) {
  char *got = tt_template_render(tmpl, B, NB);
  cr_expect_str_eq(got, want, "render `%s`: got `%s`, want `%s`", tmpl, got, want);
  free(got);
}

Test(template, substitution) {
  expect_render("{{mask}}", "0xffffffff");
  expect_render("mask `{{mask}}` is 32-bit", "mask `0xffffffff` is 32-bit");
  expect_render("no placeholders", "no placeholders");
  expect_render("", "");
  expect_render("{{ mask }}", "0xffffffff"); /* spaces around the name */
}

Test(template, multiple_placeholders) {
  expect_render("{{fn}}({{mask}}, v) / {{fn}}", "__shfl_xor_sync(0xffffffff, v) / __shfl_xor_sync");
  expect_render("{{fn}}{{mask}}", "__shfl_xor_sync0xffffffff");
  expect_render("[{{x}}]", "[]");
}

Test(template, values_are_not_re_expanded) {
  expect_render("{{braces}}", "{{mask}}");
}

Test(template, escape) {
  expect_render("{{{{", "{{");
  expect_render("a {{{{mask}} b", "a {{mask}} b");
  expect_render("{{{{{{mask}}", "{{0xffffffff");
  expect_render("}} alone", "}} alone");
}

Test(template, unterminated_is_literal) {
  expect_render("x {{mask", "x {{mask");
  expect_render("{{mask}} {{fn", "0xffffffff {{fn");
}

Test(template, trim_suffix_and_prefix) {
  expect_render("{{fn|trim_suffix:_sync}}", "__shfl_xor");
  expect_render("{{fn|trim_suffix:_async}}", "__shfl_xor_sync"); /* absent: unchanged */
  expect_render("{{fn|trim_suffix:__shfl_xor_sync}}", "");
  expect_render("{{fn|trim_suffix:x__shfl_xor_sync}}", "__shfl_xor_sync"); /* longer than the value */
  expect_render("{{fn|trim_prefix:__}}", "shfl_xor_sync");
  expect_render("{{fn|trim_prefix:shfl}}", "__shfl_xor_sync"); /* not at the start */
  expect_render("{{mask|trim_prefix:0x}}u", "ffffffffu");
  expect_render("{{x|trim_suffix:a}}", "");
  /* Only the one occurrence at the end is dropped. */
  static const tt_binding rep[] = {{"v", "abab", 4, 0, 4}};
  char *got = tt_template_render("{{v|trim_suffix:ab}}", rep, 1);
  cr_expect_str_eq(got, "ab");
  free(got);
}

Test(template, unknown_name_renders_empty) {
  expect_render("<{{nope}}>", "<>");
}

Test(template, unknown_names) {
  const char *names[] = {"fn", "mask", NULL};
  cr_expect_null(tt_template_unknown("{{fn}} {{mask}} {{{{ plain", names, 2));
  cr_expect_null(tt_template_unknown("{{fn}} {{ mask }}", names, (size_t)-1));
  cr_expect_null(tt_template_unknown("{{fn|trim_suffix:_sync}}", names, 2));
  cr_expect_null(tt_template_unknown("{{mask|trim_prefix:0x}}", names, 2));
  char *u = tt_template_unknown("{{fn}} {{val}} {{other}}", names, 2);
  cr_expect_str_eq(u, "val");
  free(u);
  u = tt_template_unknown("{{mask}} {{fnx}}", names, (size_t)-1);
  cr_expect_str_eq(u, "fnx");
  free(u);
  /* The name count limits the table. */
  u = tt_template_unknown("{{mask}}", names, 1);
  cr_expect_str_eq(u, "mask");
  free(u);
  /* A filter on an unknown name: the name is reported. */
  u = tt_template_unknown("{{nope|trim_suffix:_sync}}", names, 2);
  cr_expect_str_eq(u, "nope");
  free(u);
}

Test(template, unterminated_is_reported) {
  const char *names[] = {"fn", NULL};
  char *u = tt_template_unknown("{{fn}} then {{fn", names, (size_t)-1);
  cr_expect_str_eq(u, "{{");
  free(u);
  /* An escape is not unterminated. */
  cr_expect_null(tt_template_unknown("{{{{fn", names, (size_t)-1));
}

Test(template, unknown_filter_reported) {
  const char *names[] = {"fn", NULL};
  char *u = tt_template_unknown("{{fn|upper}}", names, (size_t)-1);
  cr_assert_not_null(u);
  cr_expect(strstr(u, "unknown filter") != NULL, "%s", u);
  free(u);
  u = tt_template_unknown("{{fn|trim_suffix:}}", names, (size_t)-1);
  cr_expect_not_null(u, "an empty filter argument is not a filter");
  free(u);
  u = tt_template_unknown("{{fn|}}", names, (size_t)-1);
  cr_expect_not_null(u);
  free(u);
}

Test(template, empty_placeholder_is_not_a_valid_name) {
  /* `{{}}` names nothing: it must be caught at load time rather than render as `{{`. */
  const char *names[] = {"fn", NULL};
  char *u = tt_template_unknown("a {{}} b", names, (size_t)-1);
  char *r = tt_template_render("a {{}} b", B, NB);
  cr_expect(u != NULL || strcmp(r, "a {{}} b") == 0,
            "`{{}}` passes validation (unknown -> NULL) and renders as `%s`", r);
  free(u);
  free(r);
}

Test(template, binding_find) {
  cr_expect_eq(tt_binding_find(B, NB, "mask", 4), &B[1]);
  cr_expect_eq(tt_binding_find(B, NB, "masks", 4), &B[1], "only the first name_len bytes count");
  cr_expect_null(tt_binding_find(B, NB, "mas", 3));
  cr_expect_null(tt_binding_find(B, 0, "fn", 2));
}
