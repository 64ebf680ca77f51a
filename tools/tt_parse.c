/* tt-parse FILE [--language L] — print the tree-sitter syntax tree of a file, for rule
 * authors writing queries (`(call_expression function: (identifier) …)`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser/tree.h"
#include "util/fs.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: tt-parse FILE [--language cuda|python|julia]\n");
    return 2;
  }
  tt_lang lang = argc >= 4 && !strcmp(argv[2], "--language") ? tt_lang_from_name(argv[3]) : tt_lang_from_path(argv[1]);
  char *text, *err;
  size_t len;
  if (tt_fs_read(argv[1], &text, &len, &err) < 0) {
    fprintf(stderr, "%s\n", err);
    return 3;
  }
  tt_source *src = tt_source_new(argv[1], text, len, lang);
  tt_tree *tree = src ? tt_tree_parse(src) : NULL;
  if (!tree) {
    fprintf(stderr, "%s: unknown language\n", argv[1]);
    return 2;
  }
  char *s = ts_node_string(ts_tree_root_node(tree->ts));
  puts(s);
  free(s);
  tt_tree_free(tree);
  tt_source_free(src);
  return 0;
}
