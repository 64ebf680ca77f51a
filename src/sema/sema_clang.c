/* The semantic layer on libclang: a run's session (options, compile databases, the
 * shim PCH) and each file's views (see tt_sema.h for what is parsed when). */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sema/clang_api.h"
#include "sema/sema_internal.h"
#include "util/fs.h"
#include "util/relocate.h"
#include "util/util.h"

#ifndef TT_SIM_INCLUDE_DIR
#error "TT_SIM_INCLUDE_DIR must name src/sim/include (set by CMake)"
#endif

/* --- the session ---------------------------------------------------------------------- */

typedef struct db_entry {
  char *dir;                 /* a folder that was searched */
  CXCompilationDatabase db;  /* NULL: none there */
} db_entry;

struct tt_sema {
  char **includes, **defines, **hip_defines; /* NULL-terminated copies */
  char *cc_dir;              /* --compile-commands's folder, or NULL */
  char *shim_dir;
  const char *why;           /* non-NULL: unavailable */
  pthread_mutex_t lock;      /* guards dbs and the pch fields */
  db_entry *dbs;
  size_t n_dbs, dbs_cap;
  char *tmpdir, *pch;        /* the CUDA shim's PCH, built on first typed parse */
  int pch_state;             /* 0 not tried, 1 built, -1 failed: -include the shim instead */
};

/* The sim's CUDA headers clang parses against, found as the checker finds them: an
 * install whose source tree is gone has no compiled-in path, and without
 * <cooperative_groups.h> a call on a tile is a recovery expression with no types. */
static char *default_shim_dir(void) {
  return tt_relocate_path("TILETRANS_SIM_INCLUDE_DIR", TT_INSTALL_DATADIR "/tiletrans/sim/include", TT_SIM_INCLUDE_DIR);
}

tt_sema *tt_sema_new(const tt_sema_options *o) {
  tt_sema *s = tt_xcalloc(1, sizeof *s);
  static const tt_sema_options none = {0};
  if (!o) o = &none;
  s->includes = tt_sema_copy_strings(o->includes, o->n_includes);
  s->defines = tt_sema_copy_strings(o->defines, o->n_defines);
  s->hip_defines = tt_sema_copy_strings(o->hip_defines, o->n_hip_defines);
  s->cc_dir = o->compile_commands ? tt_fs_dirname(o->compile_commands) : NULL;
  s->shim_dir = o->shim_dir ? tt_xstrdup(o->shim_dir) : default_shim_dir();
  if (o->off) s->why = "the semantic layer is off (--no-sema)";
  pthread_mutex_init(&s->lock, NULL);
  return s;
}

void tt_sema_free(tt_sema *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n_dbs; i++) {
    if (s->dbs[i].db) LC(CompilationDatabase_dispose)(s->dbs[i].db);
    free(s->dbs[i].dir);
  }
  free(s->dbs);
  if (s->pch) unlink(s->pch);
  if (s->tmpdir) rmdir(s->tmpdir);
  free(s->pch);
  free(s->tmpdir);
  tt_sema_free_strings(s->includes);
  tt_sema_free_strings(s->defines);
  tt_sema_free_strings(s->hip_defines);
  free(s->cc_dir);
  free(s->shim_dir);
  pthread_mutex_destroy(&s->lock);
  free(s);
}

/* Why the session cannot parse: off, or libclang does not load (tried here, on the
 * first question that needs a parse, so that runs which never parse never load it). */
static const char *session_why(const tt_sema *s) {
  const char *why = s->why;
  if (!why) tt_clang_api_load(&why);
  return why;
}

const char *tt_sema_unavailable(const tt_sema *s) { return session_why(s); }

const char *tt_sema_library(void) { return tt_clang_api_path(); }

/* The compile database in `dir` (cached; NULL when there is none). Caller holds lock. */
static CXCompilationDatabase db_in(tt_sema *s, const char *dir) {
  for (size_t i = 0; i < s->n_dbs; i++)
    if (strcmp(s->dbs[i].dir, dir) == 0) return s->dbs[i].db;
  char *file = tt_xasprintf("%s/compile_commands.json", dir);
  CXCompilationDatabase db = NULL;
  if (access(file, R_OK) == 0) {
    CXCompilationDatabase_Error e;
    db = LC(CompilationDatabase_fromDirectory)(dir, &e);
    if (e != CXCompilationDatabase_NoError) db = NULL;
  }
  free(file);
  TT_PUSH(s->dbs, s->n_dbs, s->dbs_cap, ((db_entry){tt_xstrdup(dir), db}));
  return db;
}

/* The database for `abs` (an absolute path): --compile-commands, else the nearest
 * compile_commands.json in its folder, a build/ below it, or any folder above. */
static CXCompilationDatabase db_for(tt_sema *s, const char *abs) {
  pthread_mutex_lock(&s->lock);
  CXCompilationDatabase db = NULL;
  if (s->cc_dir) {
    db = db_in(s, s->cc_dir);
  } else {
    char *dir = tt_fs_dirname(abs);
    for (;;) {
      char *build = tt_xasprintf("%s/build", dir);
      db = db_in(s, dir);
      if (!db) db = db_in(s, build);
      free(build);
      char *up = tt_fs_dirname(dir);
      bool top = strcmp(up, dir) == 0;
      free(dir);
      dir = up;
      if (db || top) break;
    }
    free(dir);
  }
  pthread_mutex_unlock(&s->lock);
  return db;
}

static size_t common_prefix(const char *a, const char *b) {
  size_t i = 0;
  while (a[i] && a[i] == b[i]) i++;
  return i;
}

/* The target a compile command builds for: HIP when its compiler is hipcc/amdclang or
 * it compiles `-x hip` / with --offload-arch; CUDA when its compiler is nvcc or it
 * compiles `-x cuda`; else TT_SEMA_SIDES (both). Its -D and -U then belong to that
 * target's view only: a HIP build's -DGGML_USE_HIP is not what the CUDA build sees. */
static tt_sema_side command_side(CXCompileCommand cmd) {
  unsigned argc = LC(CompileCommand_getNumArgs)(cmd);
  tt_sema_side side = TT_SEMA_SIDES;
  for (unsigned i = 0; i < argc && side == TT_SEMA_SIDES; i++) {
    CXString a_s = LC(CompileCommand_getArg)(cmd, i);
    const char *a = LC(getCString)(a_s);
    const char *base = strrchr(a, '/') ? strrchr(a, '/') + 1 : a;
    if ((i == 0 && (strstr(base, "hipcc") || strstr(base, "amdclang"))) || !strncmp(a, "--offload-arch", 14) ||
        !strcmp(a, "-xhip"))
      side = TT_SEMA_HIP;
    else if ((i == 0 && strstr(base, "nvcc")) || !strcmp(a, "-xcuda"))
      side = TT_SEMA_CUDA;
    else if (!strcmp(a, "-x") && i + 1 < argc) {
      CXString v_s = LC(CompileCommand_getArg)(cmd, i + 1);
      const char *v = LC(getCString)(v_s);
      if (!strcmp(v, "hip")) side = TT_SEMA_HIP;
      else if (!strcmp(v, "cuda") || !strcmp(v, "cu")) side = TT_SEMA_CUDA;
      LC(disposeString)(v_s);
    }
    LC(disposeString)(a_s);
  }
  return side;
}

/* A file's flags: `both` for every view, `side[s]` for the view of target s only. */
typedef struct flag_sets {
  char **both, **side[TT_SEMA_SIDES];
  size_t n_both, n_side[TT_SEMA_SIDES];
  size_t cap_both, cap_side[TT_SEMA_SIDES];
} flag_sets;

static void add_flag(flag_sets *fs, tt_sema_side side, char *flag) {
  if (side == TT_SEMA_SIDES) TT_PUSH(fs->both, fs->n_both, fs->cap_both, flag);
  else TT_PUSH(fs->side[side], fs->n_side[side], fs->cap_side[side], flag);
}

/* The flags of a compile command that change what the preprocessor sees (-I, -D, -U,
 * -isystem, -iquote, -include), with relative folders made absolute. */
static void keep_pp_flags(CXCompileCommand cmd, flag_sets *fs) {
  tt_sema_side side = command_side(cmd);
  CXString cwd_s = LC(CompileCommand_getDirectory)(cmd);
  const char *cwd = LC(getCString)(cwd_s);
  static const char *const with_value[] = {"-I", "-D", "-U", "-isystem", "-iquote", "-include"};
  unsigned argc = LC(CompileCommand_getNumArgs)(cmd);
  for (unsigned i = 1; i < argc; i++) {
    CXString a_s = LC(CompileCommand_getArg)(cmd, i);
    const char *a = LC(getCString)(a_s);
    for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++) {
      size_t fl = strlen(with_value[k]);
      if (strncmp(a, with_value[k], fl) != 0) continue;
      char *value;
      if (a[fl]) {
        value = tt_xstrdup(a + fl);
      } else if (i + 1 < argc) {
        CXString v_s = LC(CompileCommand_getArg)(cmd, ++i);
        value = tt_xstrdup(LC(getCString)(v_s));
        LC(disposeString)(v_s);
      } else {
        break;
      }
      bool is_path = k != 1 && k != 2;
      tt_sema_side to = is_path ? TT_SEMA_SIDES : side;
      char *flag = is_path && value[0] != '/' ? tt_xasprintf("%s%s/%s", with_value[k], cwd, value)
                                              : tt_xasprintf("%s%s", with_value[k], value);
      if (k == 5) { /* -include takes its file as the next argument */
        free(flag);
        add_flag(fs, to, tt_xstrdup("-include"));
        flag = is_path && value[0] != '/' ? tt_xasprintf("%s/%s", cwd, value) : tt_xstrdup(value);
      }
      add_flag(fs, to, flag);
      free(value);
      break;
    }
    LC(disposeString)(a_s);
  }
  LC(disposeString)(cwd_s);
}

/* The preprocessor flags the compile database gives `abs`: its own command, or for a
 * file it does not list (a header), the command of the listed file nearest to it.
 */
static void db_flags(tt_sema *s, const char *abs, flag_sets *fs) {
  CXCompilationDatabase db = db_for(s, abs);
  if (!db) return;
  pthread_mutex_lock(&s->lock); /* libclang's database objects are not documented thread-safe */
  CXCompileCommands cmds = LC(CompilationDatabase_getCompileCommands)(db, abs);
  if (!cmds || LC(CompileCommands_getSize)(cmds) == 0) {
    if (cmds) LC(CompileCommands_dispose)(cmds);
    cmds = LC(CompilationDatabase_getAllCompileCommands)(db);
    unsigned best = UINT_MAX;
    size_t best_len = 0;
    for (unsigned i = 0; cmds && i < LC(CompileCommands_getSize)(cmds); i++) {
      CXString f = LC(CompileCommand_getFilename)(LC(CompileCommands_getCommand)(cmds, i));
      size_t l = common_prefix(LC(getCString)(f), abs);
      if (best == UINT_MAX || l > best_len) best = i, best_len = l;
      LC(disposeString)(f);
    }
    if (best != UINT_MAX) keep_pp_flags(LC(CompileCommands_getCommand)(cmds, best), fs);
  } else {
    keep_pp_flags(LC(CompileCommands_getCommand)(cmds, 0), fs);
  }
  if (cmds) LC(CompileCommands_dispose)(cmds);
  pthread_mutex_unlock(&s->lock);
}

static void push_defines(char ***out, size_t *n, size_t *cap, const char *const *defs) {
  for (size_t i = 0; defs && defs[i]; i++) TT_PUSH(*out, *n, *cap, tt_xasprintf("-D%s", defs[i]));
}

/* Builds the CUDA shim's PCH once per run (caller holds lock). */
static void build_pch(tt_sema *s, CXIndex idx) {
  char tmpl[] = "/tmp/tiletrans-sema-XXXXXX";
  s->pch_state = -1;
  if (!mkdtemp(tmpl)) return;
  s->tmpdir = tt_xstrdup(tmpl);
  s->pch = tt_xasprintf("%s/cuda.pch", tmpl);
  char *header = tt_xasprintf("%s/tt_sim_cuda.h", s->shim_dir);
  char *inc = tt_xasprintf("-I%s", s->shim_dir);
  char **args = NULL;
  size_t n = 0, cap = 0;
  const char *fixed[] = {"-x", "c++-header", "-std=c++20", "-w", inc};
  for (size_t i = 0; i < 5; i++) TT_PUSH(args, n, cap, tt_xstrdup(fixed[i]));
  push_defines(&args, &n, &cap, tt_sema_side_defines(TT_SEMA_CUDA));
  CXTranslationUnit tu = NULL;
  enum CXErrorCode e = LC(parseTranslationUnit2)(idx, header, (const char *const *)args, (int)n, NULL, 0,
                                                   CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization,
                                                   &tu);
  if (e == CXError_Success && tu && LC(saveTranslationUnit)(tu, s->pch, LC(defaultSaveOptions)(tu)) == 0)
    s->pch_state = 1;
  if (tu) LC(disposeTranslationUnit)(tu);
  for (size_t i = 0; i < n; i++) free(args[i]);
  free(args);
  free(header);
  free(inc);
}

/* --- a file's views -------------------------------------------------------------------- */

typedef struct macro_use {
  uint32_t at;       /* byte where the macro's name starts in the file */
  tt_sema_macro m;   /* strings owned */
} macro_use;

typedef struct view {
  bool tried;
  CXTranslationUnit tu;
  CXFile file;            /* the main file in tu */
  char *why;              /* non-NULL: this view answers UNKNOWN */
  uint32_t *skipped;      /* pairs */
  size_t n_skipped;
  macro_use *macros;      /* sorted by at (preprocessor views only) */
  size_t n_macros, macros_cap;
} view;

struct tt_sema_file {
  tt_sema *s;
  int trivial;            /* -1 not yet known; 1: no conditional directive and no quoted
                             include, so both targets compile every byte the same way */
  CXIndex idx;
  char *path;             /* absolute */
  const char *text;
  size_t len;
  flag_sets flags;        /* from the compile database, then -I/-D of the run */
  bool flags_done;
  view pp[TT_SEMA_SIDES];
  view typed;             /* CUDA side, full parse */
  CXCursor *tops;         /* typed: the top-level cursors of the main file */
  size_t n_tops;
  bool tops_done;
  const char *why;        /* last UNKNOWN's reason (points into a view or the session) */
  char *spelled, *canonical;
  char **insts;
  size_t n_insts;
  bool insts_done;
  uint32_t *idents;
  size_t n_idents;
};

tt_sema_file *tt_sema_file_new(tt_sema *s, const char *path, const char *text, size_t len) {
  tt_sema_file *f = tt_xcalloc(1, sizeof *f);
  f->s = s;
  f->text = text;
  f->len = len;
  f->trivial = -1;
  char *abs = realpath(path, NULL);
  if (!abs) {
    /* Standard input or a file not on disk: a name in the current folder, so that
     * quoted includes resolve against it. */
    char cwd[PATH_MAX];
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, "/");
    abs = tt_xasprintf("%s/%s%s", cwd, strcmp(path, "<stdin>") ? base : "stdin",
                       strcmp(path, "<stdin>") ? "" : ".cu");
  }
  f->path = abs;
  return f;
}

static void view_free(view *v) {
  if (v->tu) LC(disposeTranslationUnit)(v->tu);
  free(v->why);
  free(v->skipped);
  for (size_t i = 0; i < v->n_macros; i++) {
    free((char *)v->macros[i].m.name);
    free((char *)v->macros[i].m.def_file);
  }
  free(v->macros);
}

void tt_sema_file_free(tt_sema_file *f) {
  if (!f) return;
  for (int i = 0; i < TT_SEMA_SIDES; i++) view_free(&f->pp[i]);
  view_free(&f->typed);
  if (f->idx) LC(disposeIndex)(f->idx);
  for (size_t i = 0; i < f->flags.n_both; i++) free(f->flags.both[i]);
  free(f->flags.both);
  for (int k = 0; k < TT_SEMA_SIDES; k++) {
    for (size_t i = 0; i < f->flags.n_side[k]; i++) free(f->flags.side[k][i]);
    free(f->flags.side[k]);
  }
  for (size_t i = 0; i < f->n_insts; i++) free(f->insts[i]);
  free(f->insts);
  free(f->idents);
  free(f->tops);
  free(f->spelled);
  free(f->canonical);
  free(f->path);
  free(f);
}

const char *tt_sema_why(const tt_sema_file *f) { return f->why; }

static void file_flags(tt_sema_file *f) {
  if (f->flags_done) return;
  f->flags_done = true;
  db_flags(f->s, f->path, &f->flags);
  for (size_t i = 0; f->s->includes[i]; i++) add_flag(&f->flags, TT_SEMA_SIDES, tt_xasprintf("-I%s", f->s->includes[i]));
  for (size_t i = 0; f->s->defines[i]; i++) add_flag(&f->flags, TT_SEMA_SIDES, tt_xasprintf("-D%s", f->s->defines[i]));
}

/* Byte offset of `loc` in the main file of `v`, or -1 when it lies elsewhere. Macro
 * locations count at their expansion. */
static int64_t main_offset(const view *v, CXSourceLocation loc) {
  CXFile file;
  unsigned off;
  LC(getExpansionLocation)(loc, &file, NULL, NULL, &off);
  if (!file || !LC(File_isEqual)(file, v->file)) return -1;
  return off;
}

/* True when the quoted include name at `s` (up to its closing quote) is a system
 * header (`#include "stdlib.h"`): found in /usr/include or /usr/local/include. */
static bool system_header(const char *s, size_t n) {
  size_t len = 0;
  while (len < n && s[len] != '"' && s[len] != '\n') len++;
  static const char *const dirs[] = {"/usr/include", "/usr/local/include"};
  for (size_t i = 0; i < 2; i++) {
    char *p = tt_xasprintf("%s/%.*s", dirs[i], (int)len, s);
    bool found = access(p, R_OK) == 0;
    free(p);
    if (found) return true;
  }
  return false;
}

/* The first "file not found" of a quoted include: the answers of this view may be
 * wrong without it (an angle-bracket one is a system header, which the preprocessor
 * views do not read on purpose). */
static char *missing_include(CXTranslationUnit tu, tt_sema_side side) {
  unsigned n = LC(getNumDiagnostics)(tu);
  char *why = NULL;
  for (unsigned i = 0; i < n && !why; i++) {
    CXDiagnostic d = LC(getDiagnostic)(tu, i);
    CXString sp = LC(getDiagnosticSpelling)(d);
    const char *msg = LC(getCString)(sp);
    if (strstr(msg, "file not found")) {
      CXFile file;
      unsigned line, off;
      LC(getExpansionLocation)(LC(getDiagnosticLocation)(d), &file, &line, NULL, &off);
      size_t size = 0;
      const char *text = file ? LC(getFileContents)(tu, file, &size) : NULL;
      if (text && off < size && text[off] == '"' && !system_header(text + off + 1, size - off - 1)) {
        CXString fn = LC(getFileName)(file);
        why = tt_xasprintf("%s (%s:%u) for the %s target; pass -I or --compile-commands", msg, LC(getCString)(fn),
                           line, side == TT_SEMA_HIP ? "HIP" : "CUDA");
        LC(disposeString)(fn);
      }
    }
    LC(disposeString)(sp);
    LC(disposeDiagnostic)(d);
  }
  return why;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static void collect_skipped(view *v) {
  CXSourceRangeList *rl = LC(getSkippedRanges)(v->tu, v->file);
  if (!rl) return;
  v->skipped = tt_xcalloc(rl->count ? rl->count * 2 : 1, sizeof *v->skipped);
  for (unsigned i = 0; i < rl->count; i++) {
    int64_t a = main_offset(v, LC(getRangeStart)(rl->ranges[i]));
    int64_t b = main_offset(v, LC(getRangeEnd)(rl->ranges[i]));
    if (a < 0 || b < a) continue;
    v->skipped[2 * v->n_skipped] = (uint32_t)a;
    v->skipped[2 * v->n_skipped + 1] = (uint32_t)b;
    v->n_skipped++;
  }
  LC(disposeSourceRangeList)(rl);
  if (v->n_skipped) qsort(v->skipped, v->n_skipped, 2 * sizeof *v->skipped, cmp_u32);
}

static enum CXChildVisitResult visit_macro(CXCursor c, CXCursor parent, CXClientData data) {
  view *v = data;
  if (LC(getCursorKind)(c) != CXCursor_MacroExpansion) return CXChildVisit_Continue;
  CXFile file;
  unsigned off;
  /* Spelled in the main file (an expansion inside another macro's body is not). */
  LC(getFileLocation)(LC(getCursorLocation)(c), &file, NULL, NULL, &off);
  if (!file || !LC(File_isEqual)(file, v->file)) return CXChildVisit_Continue;
  CXString name = LC(getCursorSpelling)(c);
  macro_use u = {off, {tt_xstrdup(LC(getCString)(name)), NULL, 0}};
  LC(disposeString)(name);
  CXCursor def = LC(getCursorReferenced)(c);
  if (!LC(Cursor_isNull)(def)) {
    CXFile dfile;
    unsigned line;
    LC(getFileLocation)(LC(getCursorLocation)(def), &dfile, &line, NULL, NULL);
    if (dfile) {
      CXString fn = LC(getFileName)(dfile);
      u.m.def_file = tt_xstrdup(LC(getCString)(fn));
      u.m.def_line = line;
      LC(disposeString)(fn);
    }
  }
  if (!u.m.def_file) u.m.def_file = tt_xstrdup("<command line>");
  TT_PUSH(v->macros, v->n_macros, v->macros_cap, u);
  return CXChildVisit_Continue;
}

static int cmp_macro(const void *a, const void *b) {
  const macro_use *x = a, *y = b;
  return x->at < y->at ? -1 : x->at > y->at;
}

/* Parses one view of the file. `typed`: the CUDA-side full parse (types); otherwise the
 * preprocessor view of `side`. */
static void parse_view(tt_sema_file *f, view *v, tt_sema_side side, bool typed) {
  v->tried = true;
  if (!f->idx) f->idx = LC(createIndex)(1, 0);
  file_flags(f);
  char **args = NULL;
  size_t n = 0, cap = 0;
  const char *lead[] = {"-x", "c++", typed ? "-std=c++20" : "-std=c++17", "-w"};
  for (size_t i = 0; i < 4; i++) TT_PUSH(args, n, cap, tt_xstrdup(lead[i]));
  push_defines(&args, &n, &cap, tt_sema_side_defines(side));
  if (side == TT_SEMA_HIP) push_defines(&args, &n, &cap, (const char *const *)f->s->hip_defines);
  if (typed) {
    pthread_mutex_lock(&f->s->lock);
    if (f->s->pch_state == 0) build_pch(f->s, f->idx);
    bool pch = f->s->pch_state == 1;
    pthread_mutex_unlock(&f->s->lock);
    TT_PUSH(args, n, cap, tt_xasprintf("-I%s", f->s->shim_dir));
    TT_PUSH(args, n, cap, tt_xstrdup(pch ? "-include-pch" : "-include"));
    TT_PUSH(args, n, cap, pch ? tt_xstrdup(f->s->pch) : tt_xasprintf("%s/tt_sim_cuda.h", f->s->shim_dir));
  } else {
    TT_PUSH(args, n, cap, tt_xstrdup("-nostdinc"));
  }
  for (size_t i = 0; i < f->flags.n_both; i++) TT_PUSH(args, n, cap, tt_xstrdup(f->flags.both[i]));
  for (size_t i = 0; i < f->flags.n_side[side]; i++) TT_PUSH(args, n, cap, tt_xstrdup(f->flags.side[side][i]));
  struct CXUnsavedFile unsaved = {f->path, f->text, (unsigned long)f->len};
  unsigned opts = CXTranslationUnit_KeepGoing | CXTranslationUnit_Incomplete;
  if (!typed)
    opts |= CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_SkipFunctionBodies;
  enum CXErrorCode e =
      LC(parseTranslationUnit2)(f->idx, f->path, (const char *const *)args, (int)n, &unsaved, 1, opts, &v->tu);
  for (size_t i = 0; i < n; i++) free(args[i]);
  free(args);
  if (e != CXError_Success || !v->tu) {
    v->tu = NULL;
    v->why = tt_xasprintf("clang could not parse the file for the %s target (libclang error %d)",
                          side == TT_SEMA_HIP ? "HIP" : "CUDA", (int)e);
    return;
  }
  v->file = LC(getFile)(v->tu, f->path);
  v->why = missing_include(v->tu, side);
  if (typed) return;
  collect_skipped(v);
  LC(visitChildren)(LC(getTranslationUnitCursor)(v->tu), visit_macro, v);
  if (v->n_macros) qsort(v->macros, v->n_macros, sizeof *v->macros, cmp_macro); /* NULL when none */
}

/* The preprocessor view of `side`, or NULL with f->why set. */
static view *pp_view(tt_sema_file *f, tt_sema_side side) {
  if (session_why(f->s)) {
    f->why = session_why(f->s);
    return NULL;
  }
  view *v = &f->pp[side];
  if (!v->tried) parse_view(f, v, side, false);
  if (v->why) {
    f->why = v->why;
    return NULL;
  }
  return v;
}

static view *typed_view(tt_sema_file *f) {
  if (session_why(f->s)) {
    f->why = session_why(f->s);
    return NULL;
  }
  view *v = &f->typed;
  if (!v->tried) parse_view(f, v, TT_SEMA_CUDA, true);
  if (!v->tu) {
    f->why = v->why;
    return NULL;
  }
  /* A missing project include leaves types unresolved ("int" for unknown decls): a
   * type answer is still given, since it names the type clang saw, but the typed
   * view's reason is not an error here. */
  return v;
}

/* True when the file has no #if/#ifdef/#ifndef/#elif/#elifdef and no #include other
 * than <...> (system headers, which the preprocessor views do not read): then every
 * byte is live for both targets and no name means something else for HIP than for CUDA
 * (the command-line macros of a target are no header's doing), so no parse is needed.
 * A directive spelled across a line continuation counts as one (conservatively). */
static bool trivially_preprocessed(tt_sema_file *f) {
  if (f->trivial >= 0) return f->trivial;
  f->trivial = 1;
  const char *s = f->text, *end = f->text + f->len;
  bool line_start = true;
  for (const char *p = s; p < end; p++) {
    if (*p == '\n') {
      line_start = true;
      continue;
    }
    if (*p == ' ' || *p == '\t' || *p == '\r') continue;
    if (line_start && *p == '#') {
      const char *q = p + 1;
      while (q < end && (*q == ' ' || *q == '\t')) q++;
      size_t rest = (size_t)(end - q);
      bool cond = (rest >= 2 && q[0] == 'i' && q[1] == 'f') || (rest >= 4 && !memcmp(q, "elif", 4));
      bool incl = rest >= 7 && !memcmp(q, "include", 7);
      if (incl) {
        const char *r = q + 7;
        while (r < end && (*r == ' ' || *r == '\t')) r++;
        incl = r >= end || *r != '<';
      }
      if (cond || incl || (rest >= 6 && !memcmp(q, "import", 6))) {
        f->trivial = 0;
        break;
      }
    }
    line_start = false;
  }
  return f->trivial;
}

/* --- (a) live branches ---------------------------------------------------------------- */

const uint32_t *tt_sema_skipped(tt_sema_file *f, tt_sema_side side, size_t *n) {
  view *v = pp_view(f, side);
  *n = v ? v->n_skipped : 0;
  return v ? (v->skipped ? v->skipped : (const uint32_t *)"") : NULL;
}

tt_sema_answer tt_sema_live(tt_sema_file *f, tt_sema_side side, uint32_t at) {
  if (!f->s->why && trivially_preprocessed(f)) return TT_SEMA_YES;
  view *v = pp_view(f, side);
  if (!v) return TT_SEMA_UNKNOWN;
  /* The ranges are sorted and disjoint: the last one starting at or before `at`. */
  size_t lo = 0, hi = v->n_skipped;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (v->skipped[2 * mid] <= at) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && at < v->skipped[2 * (lo - 1) + 1]) return TT_SEMA_NO;
  return TT_SEMA_YES;
}

/* --- (b) macros ------------------------------------------------------------------------ */

tt_sema_answer tt_sema_macro_at(tt_sema_file *f, tt_sema_side side, uint32_t at, tt_sema_macro *m) {
  view *v = pp_view(f, side);
  if (!v) return TT_SEMA_UNKNOWN;
  size_t lo = 0, hi = v->n_macros;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (v->macros[mid].at < at) lo = mid + 1;
    else hi = mid;
  }
  if (lo == v->n_macros || v->macros[lo].at != at) return TT_SEMA_NO;
  if (m) *m = v->macros[lo].m;
  return TT_SEMA_YES;
}

tt_sema_answer tt_sema_hip_redefined(tt_sema_file *f, uint32_t at) {
  if (!f->s->why && trivially_preprocessed(f)) return TT_SEMA_NO;
  tt_sema_macro hip, cuda;
  tt_sema_answer h = tt_sema_macro_at(f, TT_SEMA_HIP, at, &hip);
  if (h != TT_SEMA_YES) return h;
  /* A macro of the HIP-side command line (a HIP-side define) is no header's doing. */
  if (strcmp(hip.def_file, "<command line>") == 0) return TT_SEMA_NO;
  tt_sema_answer c = tt_sema_macro_at(f, TT_SEMA_CUDA, at, &cuda);
  if (c == TT_SEMA_UNKNOWN) return c;
  if (c == TT_SEMA_NO) return TT_SEMA_YES;
  return strcmp(hip.def_file, cuda.def_file) || hip.def_line != cuda.def_line ? TT_SEMA_YES : TT_SEMA_NO;
}

/* --- (c) types, (d) instantiations ----------------------------------------------------- */

typedef struct tops_ctx {
  tt_sema_file *f;
  size_t cap;
} tops_ctx;

static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent, CXClientData data) {
  tops_ctx *t = data;
  if (main_offset(&t->f->typed, LC(getRangeStart)(LC(getCursorExtent)(c))) >= 0)
    TT_PUSH(t->f->tops, t->f->n_tops, t->cap, c);
  return CXChildVisit_Continue;
}

static bool collect_tops(tt_sema_file *f) {
  view *v = typed_view(f);
  if (!v) return false;
  if (!f->tops_done) {
    tops_ctx t = {f, 0};
    LC(visitChildren)(LC(getTranslationUnitCursor)(v->tu), visit_top, &t);
    f->tops_done = true;
  }
  return true;
}

typedef struct find_ctx {
  const view *v;
  uint32_t start, end;
  CXCursor best;
  uint32_t best_len;
  bool found;
} find_ctx;

static bool cursor_span(const view *v, CXCursor c, uint32_t *a, uint32_t *b) {
  CXSourceRange r = LC(getCursorExtent)(c);
  int64_t s = main_offset(v, LC(getRangeStart)(r)), e = main_offset(v, LC(getRangeEnd)(r));
  if (s < 0 || e < s) return false;
  *a = (uint32_t)s;
  *b = (uint32_t)e;
  return true;
}

/* The tightest cursor covering [start, end); among cursors of the same extent the
 * outermost one that is not an implicit conversion (clang's UnexposedExpr), so that a
 * macro-expanded call answers with the expansion's type and `x` in `u32 y = x;` with
 * x's own. */
static enum CXChildVisitResult visit_find(CXCursor c, CXCursor parent, CXClientData data) {
  find_ctx *k = data;
  uint32_t a, b;
  if (!cursor_span(k->v, c, &a, &b) || a > k->start || b < k->end) return CXChildVisit_Continue;
  uint32_t len = b - a;
  enum CXCursorKind kind = LC(getCursorKind)(c);
  bool usable = (LC(isExpression)(kind) || LC(isDeclaration)(kind)) &&
                LC(getCursorType)(c).kind != CXType_Invalid;
  if (usable && (!k->found || len < k->best_len ||
                 (len == k->best_len && LC(getCursorKind)(k->best) == CXCursor_UnexposedExpr &&
                  kind != CXCursor_UnexposedExpr))) {
    k->best = c;
    k->best_len = len;
    k->found = true;
  }
  return CXChildVisit_Recurse;
}

static char *type_name(CXType t) {
  CXString s = LC(getTypeSpelling)(t);
  char *out = tt_xstrdup(LC(getCString)(s));
  LC(disposeString)(s);
  return out;
}

tt_sema_answer tt_sema_type_at(tt_sema_file *f, uint32_t start, uint32_t end, const char **spelled,
                               const char **canonical) {
  if (!collect_tops(f)) return TT_SEMA_UNKNOWN;
  find_ctx k = {&f->typed, start, end, LC(getNullCursor)(), 0, false};
  for (size_t i = 0; i < f->n_tops; i++) {
    uint32_t a, b;
    if (!cursor_span(&f->typed, f->tops[i], &a, &b) || a > start || b < end) continue;
    visit_find(f->tops[i], LC(getNullCursor)(), &k);
    LC(visitChildren)(f->tops[i], visit_find, &k);
  }
  if (!k.found) {
    f->why = "clang found no expression or declaration there";
    return TT_SEMA_UNKNOWN;
  }
  CXType t = LC(getCursorType)(k.best);
  free(f->spelled);
  free(f->canonical);
  f->spelled = type_name(t);
  f->canonical = type_name(LC(getCanonicalType)(t));
  *spelled = f->spelled;
  *canonical = f->canonical;
  return TT_SEMA_YES;
}

/* "name<args>": libclang's display name leaves a specialisation's arguments out. */
static char *instantiation_name(CXCursor c) {
  tt_buf b = {0};
  CXString sp = LC(getCursorSpelling)(c);
  tt_buf_puts(&b, LC(getCString)(sp));
  LC(disposeString)(sp);
  int n = LC(Cursor_getNumTemplateArguments)(c);
  tt_buf_putc(&b, '<');
  for (int i = 0; i < n; i++) {
    if (i) tt_buf_puts(&b, ", ");
    enum CXTemplateArgumentKind k = LC(Cursor_getTemplateArgumentKind)(c, (unsigned)i);
    if (k == CXTemplateArgumentKind_Integral) {
      tt_buf_printf(&b, "%lld", LC(Cursor_getTemplateArgumentValue)(c, (unsigned)i));
    } else if (k == CXTemplateArgumentKind_Type) {
      char *t = type_name(LC(Cursor_getTemplateArgumentType)(c, (unsigned)i));
      tt_buf_puts(&b, t);
      free(t);
    } else {
      tt_buf_puts(&b, "?");
    }
  }
  tt_buf_putc(&b, '>');
  return tt_buf_steal(&b);
}

const char *const *tt_sema_instantiations(tt_sema_file *f, size_t *n) {
  *n = 0;
  if (!collect_tops(f)) return NULL;
  if (!f->insts_done) {
    size_t cap = 0;
    for (size_t i = 0; i < f->n_tops; i++) {
      enum CXCursorKind k = LC(getCursorKind)(f->tops[i]);
      if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod) continue;
      if (LC(Cursor_isNull)(LC(getSpecializedCursorTemplate)(f->tops[i]))) continue;
      TT_PUSH(f->insts, f->n_insts, cap, instantiation_name(f->tops[i]));
    }
    f->insts_done = true;
  }
  *n = f->n_insts;
  return (const char *const *)(f->insts ? f->insts : (char **)"");
}

/* --- raw identifiers ------------------------------------------------------------------- */

const uint32_t *tt_sema_identifiers(tt_sema_file *f, uint32_t start, uint32_t end, size_t *n) {
  *n = 0;
  view *v = pp_view(f, TT_SEMA_HIP);
  if (!v && f->pp[TT_SEMA_HIP].tu) v = &f->pp[TT_SEMA_HIP]; /* a missing include does not change lexing */
  if (!v) return NULL;
  if (end > f->len) end = (uint32_t)f->len;
  CXSourceRange r = LC(getRange)(LC(getLocationForOffset)(v->tu, v->file, start),
                                   LC(getLocationForOffset)(v->tu, v->file, end));
  CXToken *toks;
  unsigned nt;
  LC(tokenize)(v->tu, r, &toks, &nt);
  free(f->idents);
  f->idents = tt_xcalloc(nt ? 2 * nt : 1, sizeof *f->idents);
  f->n_idents = 0;
  for (unsigned i = 0; i < nt; i++) {
    if (LC(getTokenKind)(toks[i]) != CXToken_Identifier) continue;
    CXSourceRange tr = LC(getTokenExtent)(v->tu, toks[i]);
    int64_t a = main_offset(v, LC(getRangeStart)(tr)), b = main_offset(v, LC(getRangeEnd)(tr));
    if (a < start || b > end) continue;
    f->idents[2 * f->n_idents] = (uint32_t)a;
    f->idents[2 * f->n_idents + 1] = (uint32_t)b;
    f->n_idents++;
  }
  LC(disposeTokens)(v->tu, toks, nt);
  *n = f->n_idents;
  return f->idents;
}
