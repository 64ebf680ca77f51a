/* test_source.c — the line index of tt_source: LF, CRLF, tabs, BOM, invalid UTF-8,
 * empty files, missing final newline, very large files and binary search boundaries. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "parser/source.h"
#include "parser/tree.h"
#include "rules/finding.h"
#include "support.h"
#include "util/util.h"

static void expect_pos(const tt_source *s, uint32_t byte, uint32_t line, uint32_t col) {
  tt_pos p = tt_source_pos(s, byte);
  cr_expect_eq(p.line, line, "byte %u: line %u, expected %u", byte, p.line, line);
  cr_expect_eq(p.column, col, "byte %u: column %u, expected %u", byte, p.column, col);
}

static void expect_line(const tt_source *s, uint32_t line, const char *want) {
  uint32_t n = 12345;
  const char *l = tt_source_line(s, line, &n);
  cr_expect_eq(n, strlen(want), "line %u: length %u, expected %zu", line, n, strlen(want));
  if (n == strlen(want)) cr_expect(memcmp(l, want, n) == 0, "line %u: got `%.*s`, expected `%s`", line, (int)n, l, want);
}

Test(source, lf_lines_and_positions) {
  tt_source *s = tts_source("a.cu", "ab\ncde\n\nf\n", TT_LANG_CUDA);
  cr_assert_eq(s->n_lines, 4);
  cr_expect_eq(s->bom, 0u);
  cr_expect_eq(tt_source_line_start(s, 1), 0u);
  cr_expect_eq(tt_source_line_start(s, 2), 3u);
  cr_expect_eq(tt_source_line_start(s, 3), 7u);
  cr_expect_eq(tt_source_line_start(s, 4), 8u);
  cr_expect_eq(tt_source_line_start(s, 5), s->len, "past the end: len");
  expect_pos(s, 0, 1, 1);
  expect_pos(s, 1, 1, 2);
  expect_pos(s, 2, 1, 3); /* the '\n' itself belongs to line 1 */
  expect_pos(s, 3, 2, 1);
  expect_pos(s, 6, 2, 4);
  expect_pos(s, 7, 3, 1);
  expect_pos(s, 8, 4, 1);
  expect_pos(s, 10, 4, 3); /* len: just past the last '\n' still on the last line */
  expect_pos(s, 1000, 4, 3); /* clamped to len */
  expect_line(s, 1, "ab");
  expect_line(s, 2, "cde");
  expect_line(s, 3, "");
  expect_line(s, 4, "f");
  expect_line(s, 5, "");
  tt_source_free(s);
}

Test(source, crlf_lines_strip_cr) {
  tt_source *s = tts_source("a.cu", "int a;\r\nint bb;\r\n\r\nx\r\n", TT_LANG_CUDA);
  cr_assert_eq(s->n_lines, 4);
  cr_expect_eq(tt_source_line_start(s, 2), 8u);
  cr_expect_eq(tt_source_line_start(s, 3), 17u);
  cr_expect_eq(tt_source_line_start(s, 4), 19u);
  expect_pos(s, 4, 1, 5);  /* 'a' */
  expect_pos(s, 6, 1, 7);  /* '\r' still on line 1 */
  expect_pos(s, 7, 1, 8);  /* '\n' */
  expect_pos(s, 8, 2, 1);
  expect_pos(s, 12, 2, 5); /* 'b' */
  expect_pos(s, 19, 4, 1);
  expect_line(s, 1, "int a;");
  expect_line(s, 2, "int bb;");
  expect_line(s, 3, "");
  expect_line(s, 4, "x");
  tt_source_free(s);
}

Test(source, lone_cr_is_not_a_line_break) {
  /* Lines split on '\n' only: an old-Mac '\r' is part of the line's text, except a
   * final '\r' right before the '\n'. */
  tt_source *s = tts_source("a.cu", "a\rb\r\nc", TT_LANG_CUDA);
  cr_assert_eq(s->n_lines, 2);
  expect_line(s, 1, "a\rb");
  expect_line(s, 2, "c");
  expect_pos(s, 2, 1, 3);
  tt_source_free(s);
}

Test(source, tabs_count_as_one_byte) {
  tt_source *s = tts_source("a.cu", "\t\tx = 1;\n\ty\n", TT_LANG_CUDA);
  expect_pos(s, 2, 1, 3); /* x after two tabs: column 3, not 17 */
  expect_pos(s, 10, 2, 2);
  expect_line(s, 1, "\t\tx = 1;");
  tt_source_free(s);
}

Test(source, bom_is_kept_and_counted) {
  const char *text = "\xEF\xBB\xBFint x;\nint y;\n";
  tt_source *s = tts_source("a.cu", text, TT_LANG_CUDA);
  cr_expect_eq(s->bom, 3u);
  cr_expect_eq(s->len, strlen(text), "the BOM stays in the text");
  cr_expect(memcmp(s->text, "\xEF\xBB\xBF", 3) == 0);
  expect_pos(s, 3, 1, 4); /* 'i' of int: byte 3, column 4 (columns are bytes) */
  expect_pos(s, 9, 1, 10); /* the '\n' */
  expect_pos(s, 10, 2, 1);
  tt_source_free(s);

  /* Two bytes of a BOM are not a BOM; neither is one later in the file. */
  s = tts_source("a.cu", "\xEF\xBBx", TT_LANG_CUDA);
  cr_expect_eq(s->bom, 0u);
  tt_source_free(s);
  s = tts_source("a.cu", "x\xEF\xBB\xBF", TT_LANG_CUDA);
  cr_expect_eq(s->bom, 0u);
  tt_source_free(s);
}

Test(source, bom_file_parses_and_findings_use_file_offsets) {
  const char *text = "\xEF\xBB\xBF__global__ void k(float v) {\n  v += __shfl_xor_sync(0xffffffff, v, 1);\n}\n";
  tt_rule *r = tts_rule_of("cuda", "mask {{mask}}",
                           "query: |\n"
                           "  (call_expression\n"
                           "    function: (identifier) @fn\n"
                           "    arguments: (argument_list . (number_literal) @mask))\n"
                           "range: mask\n");
  tt_source *s = tts_source("bom.cu", text, TT_LANG_CUDA);
  tt_tree *t = tt_tree_parse(s);
  cr_assert_not_null(t);
  cr_expect_eq(t->n_errors, 0u, "a BOM must not produce ERROR regions");
  cr_expect(!ts_node_has_error(ts_tree_root_node(t->ts)));
  tt_tree_free(t);
  tt_source_free(s);

  tt_findings fs = {0};
  cr_assert_eq(tts_match(r, TT_LANG_CUDA, text, &fs), 1u);
  const char *mask = strstr(text, "0xffffffff");
  uint32_t off = (uint32_t)(mask - text);
  cr_expect_eq(fs.items[0].start, off, "start %u: byte offsets must be file offsets (BOM included), expected %u",
               fs.items[0].start, off);
  cr_expect_eq(fs.items[0].end, off + 10);
  cr_expect_eq(fs.items[0].start_pos.line, 2u);
  cr_expect_eq(fs.items[0].start_pos.column, 24u);
  cr_expect_str_eq(fs.items[0].message, "mask 0xffffffff");
  tt_findings_free(&fs);
  tt_rule_free(r);
}

Test(source, bom_on_first_line_column) {
  /* A finding on line 1 of a BOM file: its column counts the BOM's bytes too. */
  const char *text = "\xEF\xBB\xBFint x = 7;\n";
  tt_rule *r = tts_rule_of("cuda", "n", "query: \"(number_literal) @n\"\n");
  tt_findings fs = {0};
  cr_assert_eq(tts_match(r, TT_LANG_CUDA, text, &fs), 1u);
  cr_expect_eq(fs.items[0].start, 11u);
  cr_expect_eq(fs.items[0].start_pos.line, 1u);
  cr_expect_eq(fs.items[0].start_pos.column, 12u);
  tt_findings_free(&fs);
  tt_rule_free(r);
}

Test(source, invalid_utf8_bytes_kept) {
  const char text[] = "a\xff\xfe\n\x80z\n";
  tt_source *s = tts_source("a.cu", text, TT_LANG_CUDA);
  cr_assert_eq(s->n_lines, 2);
  cr_expect_eq(s->len, 7u);
  expect_line(s, 1, "a\xff\xfe");
  expect_line(s, 2, "\x80z");
  expect_pos(s, 5, 2, 2);
  tt_source_free(s);
}

Test(source, embedded_nul_bytes) {
  char *text = tt_xmalloc(8);
  memcpy(text, "a\0b\nc\0d", 8); /* 7 bytes + NUL */
  tt_source *s = tt_source_new("a.cu", text, 7, TT_LANG_CUDA);
  cr_assert_eq(s->n_lines, 2);
  cr_expect_eq(s->len, 7u);
  expect_pos(s, 6, 2, 3);
  uint32_t n;
  tt_source_line(s, 1, &n);
  cr_expect_eq(n, 3u);
  tt_source_free(s);
}

Test(source, empty_file) {
  tt_source *s = tts_source("e.cu", "", TT_LANG_CUDA);
  cr_expect_eq(s->len, 0u);
  cr_expect_eq(s->n_lines, 1u);
  cr_expect_eq(s->bom, 0u);
  expect_pos(s, 0, 1, 1);
  expect_pos(s, 5, 1, 1);
  expect_line(s, 1, "");
  expect_line(s, 2, "");
  cr_expect_eq(tt_source_line_start(s, 1), 0u);
  tt_tree *t = tt_tree_parse(s);
  cr_assert_not_null(t);
  cr_expect_eq(t->n_errors, 0u);
  tt_tree_free(t);
  tt_source_free(s);
}

Test(source, no_trailing_newline) {
  tt_source *s = tts_source("a.py", "x = 1\ny = 2", TT_LANG_PYTHON);
  cr_assert_eq(s->n_lines, 2);
  expect_line(s, 2, "y = 2");
  expect_pos(s, 10, 2, 5);
  expect_pos(s, 11, 2, 6); /* len: one past the last byte */
  tt_source_free(s);

  /* Only a newline: one line, empty. */
  s = tts_source("a.py", "\n", TT_LANG_PYTHON);
  cr_expect_eq(s->n_lines, 1u);
  expect_line(s, 1, "");
  expect_pos(s, 1, 1, 2);
  tt_source_free(s);
}

Test(source, binary_search_at_line_boundaries) {
  /* Lines of varying lengths; check every byte against a linear scan. */
  tt_buf b = {0};
  for (int i = 0; i < 257; i++) {
    for (int k = 0; k < i % 7; k++) tt_buf_putc(&b, (char)('a' + k));
    tt_buf_putc(&b, '\n');
  }
  tt_source *s = tt_source_new("a.cu", tt_xstrndup(b.data, b.len), b.len, TT_LANG_CUDA);
  cr_assert_eq(s->n_lines, 257u);
  uint32_t line = 1, col = 1;
  for (uint32_t i = 0; i <= s->len; i++) {
    tt_pos p = tt_source_pos(s, i);
    if (p.line != line || p.column != col) {
      cr_assert_fail("byte %u: got %u:%u, expected %u:%u", i, p.line, p.column, line, col);
    }
    if (i < s->len && s->text[i] == '\n' && i + 1 < s->len) line++, col = 1;
    else col++;
  }
  /* line_start/pos agree for every line start and the byte before it. */
  for (uint32_t l = 1; l <= s->n_lines; l++) {
    uint32_t st = tt_source_line_start(s, l);
    tt_pos p = tt_source_pos(s, st);
    cr_expect_eq(p.line, l);
    cr_expect_eq(p.column, 1u);
    if (st > 0) cr_expect_eq(tt_source_pos(s, st - 1).line, l - 1);
  }
  tt_source_free(s);
  tt_buf_free(&b);
}

Test(source, single_line_no_newline) {
  tt_source *s = tts_source("a.cu", "abc", TT_LANG_CUDA);
  cr_expect_eq(s->n_lines, 1u);
  expect_pos(s, 0, 1, 1);
  expect_pos(s, 3, 1, 4);
  tt_source_free(s);
}

Test(source, large_file_over_10mb) {
  /* 300k lines of 40 bytes (12 MB), then a last line without a newline. */
  const uint32_t n_lines = 300000;
  const size_t line_len = 40;
  size_t len = (size_t)n_lines * line_len + 5;
  char *text = tt_xmalloc(len + 1);
  for (uint32_t i = 0; i < n_lines; i++) {
    char *p = text + (size_t)i * line_len;
    int k = snprintf(p, line_len, "int v%u = %u;", i, i);
    memset(p + k, ' ', line_len - 1 - (size_t)k);
    p[line_len - 1] = '\n';
  }
  memcpy(text + (size_t)n_lines * line_len, "tail;", 5);
  text[len] = '\0';
  cr_assert_gt(len, 10u * 1024 * 1024);
  tt_source *s = tt_source_new("big.cu", text, len, TT_LANG_CUDA);
  cr_assert_not_null(s);
  cr_expect_eq(s->n_lines, n_lines + 1);
  expect_pos(s, (uint32_t)(len - 1), n_lines + 1, 5);
  expect_pos(s, (uint32_t)len, n_lines + 1, 6);
  uint32_t last_nl = (uint32_t)((size_t)n_lines * line_len - 1);
  expect_pos(s, last_nl, n_lines, (uint32_t)line_len);
  expect_pos(s, last_nl + 1, n_lines + 1, 1);
  /* Somewhere in the middle. */
  uint32_t mid = 123456;
  expect_pos(s, (uint32_t)((size_t)mid * line_len + 4), mid + 1, 5);
  uint32_t n;
  const char *l = tt_source_line(s, n_lines, &n);
  cr_expect_eq(n, line_len - 1);
  char want[64];
  snprintf(want, sizeof want, "int v%u = %u;", n_lines - 1, n_lines - 1);
  cr_expect(strncmp(l, want, strlen(want)) == 0);
  l = tt_source_line(s, n_lines + 1, &n);
  cr_expect_eq(n, 5u);
  cr_expect(memcmp(l, "tail;", 5) == 0);
  tt_source_free(s);
}

/* Generated byte arrays (as *.cubin.cpp) are data; code, and small arrays, are not. */
static char *repeat_lines(const char *head, const char *line, size_t n, const char *tail) {
  tt_buf b = {0};
  tt_buf_puts(&b, head);
  for (size_t i = 0; i < n; i++) tt_buf_puts(&b, line);
  tt_buf_puts(&b, tail);
  return tt_buf_steal(&b);
}

Test(source, generated_data_files) {
  const char *row = "  0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x33, 0x07, 0x00, 0x00, 0x00,\n";
  char *blob = repeat_lines("// generated\nunsigned char cubin[] = {\n", row, 8000, "};\n");
  tt_source *s = tts_source("k.cubin.cpp", blob, TT_LANG_CUDA);
  cr_expect(tt_source_is_data(s), "a 600 KB byte array is data");
  tt_source_free(s);
  char *small = repeat_lines("unsigned char t[] = {\n", row, 100, "};\n");
  s = tts_source("t.cpp", small, TT_LANG_CUDA);
  cr_expect(!tt_source_is_data(s), "a small table is code");
  tt_source_free(s);
  char *code = repeat_lines("", "__global__ void k(float *p) { p[threadIdx.x] = 0x1f; }\n", 8000, "");
  s = tts_source("k.cu", code, TT_LANG_CUDA);
  cr_expect(!tt_source_is_data(s), "code is never data");
  tt_source_free(s);
  free(blob);
  free(small);
  free(code);
}
