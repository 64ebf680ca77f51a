/* tiletrans rules — the rulebook as a table, JSON, or the markdown of docs/rules.md. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/rewrite_jl.h"
#include "report/json_util.h"
#include "rules/analyzer.h"

static void help(FILE *out) {
  fputs("usage: tiletrans rules [--target T] [--format text|json|markdown] [--rules DIR]\n"
        "\nLists the rules of the rulebook (generated from the rule files).\n",
        out);
}

json_t *tt_cli_rule_json(const tt_rule *r) {
  json_t *refs = json_array(), *examples = json_array();
  for (size_t i = 0; i < r->n_references; i++) json_array_append_new(refs, tt_json_cstr(r->references[i]));
  for (size_t i = 0; i < r->n_examples; i++) {
    const tt_rule_example *x = &r->examples[i];
    json_t *e = json_pack("{s:s, s:o}", "kind", x->must_match ? "match" : "no_match", "code", tt_json_cstr(x->code));
    if (x->fixed) json_object_set_new(e, "fixed", tt_json_cstr(x->fixed));
    if (x->count >= 0) json_object_set_new(e, "count", json_integer(x->count));
    json_array_append_new(examples, e);
  }
  json_t *matcher = r->analyzer ? json_pack("{s:s}", "analyzer", r->analyzer->name)
                                : json_pack("{s:o}", "query", tt_json_cstr(r->query_text));
  json_t *fix = r->has_fix ? json_pack("{s:o}", "description", tt_json_cstr(r->fix_description)) : json_null();
  return json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "id", r->id, "target",
                   r->target, "language", tt_lang_name(r->language), "category", tt_category_name(r->category),
                   "severity", tt_severity_name(r->severity), "opt_in", r->opt_in, "summary", tt_json_cstr(r->summary), "message",
                   tt_json_cstr(r->message), "explain", tt_json_cstr(r->explain), "matcher", matcher, "fix", fix,
                   "examples", examples, "references", refs, "file", tt_json_cstr(r->file));
}

static void print_code(FILE *out, const char *lang, const char *code) {
  size_t n = strlen(code);
  fprintf(out, "```%s\n%s%s```\n", lang, code, n && code[n - 1] == '\n' ? "" : "\n");
}

static void rule_markdown(FILE *out, const tt_rule *r) {
  const char *lang = r->language == TT_LANG_CUDA ? "cuda" : tt_lang_name(r->language);
  fprintf(out, "### `%s`\n\n%s\n\n", r->id, r->summary);
  fprintf(out, "| target | language | category | severity | fix |\n|---|---|---|---|---|\n");
  fprintf(out, "| %s | %s | %s | %s%s | %s |\n\n", r->target, tt_lang_name(r->language), tt_category_name(r->category),
          tt_severity_name(r->severity), r->opt_in ? " (opt-in)" : "", r->has_fix ? "yes" : "no");
  fprintf(out, "%s\n", r->explain);
  if (r->explain[0] && r->explain[strlen(r->explain) - 1] != '\n') fputc('\n', out);
  for (size_t i = 0; i < r->n_examples; i++) {
    const tt_rule_example *x = &r->examples[i];
    if (!x->must_match) continue;
    fprintf(out, "Flagged:\n\n");
    print_code(out, lang, x->code);
    if (x->fixed) {
      fprintf(out, "\nAfter the fix:\n\n");
      print_code(out, lang, x->fixed);
    }
    fputc('\n', out);
    break; /* one example is enough for the reference; all are in the rule file */
  }
  if (r->n_references) {
    fprintf(out, "References:\n");
    for (size_t i = 0; i < r->n_references; i++) fprintf(out, "- %s\n", r->references[i]);
    fputc('\n', out);
  }
  fprintf(out, "Source: `%s`\n\n", r->file);
}

int tt_cmd_rules(int argc, char **argv) {
  static const struct option longopts[] = {{"target", required_argument, 0, 't'},
                                           {"format", required_argument, 0, 'f'},
                                           {"rules", required_argument, 0, 'r'},
                                           {"help", no_argument, 0, 'h'},
                                           {0, 0, 0, 0}};
  const char *target = NULL, *format = "text";
  const char *dirs[16];
  size_t n_dirs = 0;
  int c;
  if (tt_cli_check_longopts(argc, argv, longopts) < 0) return TT_EXIT_USAGE;
  optind = 1;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    if (c == 'h') {
      help(stdout);
      return TT_EXIT_OK;
    }
    if (c == 't') {
      if (tt_cli_parse_target(optarg) < 0) return TT_EXIT_USAGE;
      target = optarg;
    } else if (c == 'f') {
      format = optarg;
    } else if (c == 'r' && n_dirs < 16) {
      dirs[n_dirs++] = optarg;
    } else if (c == 'r') {
      fprintf(stderr, "tiletrans: at most 16 --rules folders\n");
      return TT_EXIT_USAGE;
    } else {
      return TT_EXIT_USAGE;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "tiletrans: rules takes no arguments (got `%s`)\n", argv[optind]);
    return TT_EXIT_USAGE;
  }
  if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "markdown")) {
    fprintf(stderr, "tiletrans: rules --format expects text, json or markdown, not `%s`\n", format);
    return TT_EXIT_USAGE;
  }
  tt_rulebook *book = tt_cli_load_rules(dirs, n_dirs, NULL, 0);
  if (!book) return TT_EXIT_USAGE;
  json_t *arr = json_array();
  if (!strcmp(format, "markdown"))
    printf("# tiletrans rule reference\n\nGenerated by `tiletrans rules --format markdown` from the rule files in "
           "`rules/`; do not edit by hand.\n\n");
  const char *last_target = "";
  for (size_t i = 0; i < book->n_rules; i++) {
    const tt_rule *r = book->rules[i];
    if (target && strcmp(target, r->target)) continue;
    if (!strcmp(format, "json")) {
      json_array_append_new(arr, tt_cli_rule_json(r));
    } else if (!strcmp(format, "markdown")) {
      if (strcmp(last_target, r->target)) printf("## Target `%s`\n\n", r->target);
      last_target = r->target;
      rule_markdown(stdout, r);
    } else {
      printf("%-28s %-7s %-18s %-8s %s%s\n", r->id, r->target, tt_category_name(r->category),
             tt_severity_name(r->severity), r->opt_in ? "(opt-in) " : "", r->summary);
    }
  }
  if (!strcmp(format, "json")) {
    json_t *doc = json_pack("{s:{s:s, s:s}, s:o}", "tool", "name", "tiletrans", "version", TT_VERSION, "rules", arr);
    /* --target julia: the API map that `rewrite --target julia` translates with, for agents. */
    if (target && !strcmp(target, "julia")) {
      tt_pj_map *m = tt_cli_load_pj_map(dirs, n_dirs);
      if (!m) {
        json_decref(doc);
        tt_rulebook_free(book);
        return TT_EXIT_USAGE;
      }
      char *text = tt_pj_map_json(m);
      json_error_t jerr;
      json_t *api = text ? json_loads(text, 0, &jerr) : NULL;
      if (api) json_object_set_new(doc, "api_map", api);
      free(text);
      tt_pj_map_free(m);
    }
    tt_json_dump(stdout, doc);
  } else
    json_decref(arr);
  tt_rulebook_free(book);
  return TT_EXIT_OK;
}
