/* Loading libclang on first use (see clang_api.h). */
#include "sema/clang_api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TT_LIBCLANG_PATH
#error "TT_LIBCLANG_PATH must name the libclang tiletrans was built against (set by CMake)"
#endif

/* Written once under `once`, read-only after. */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static tt_clang_api api;
static const char *load_error; /* NULL: loaded */
static char load_error_buf[512];

static void fail(const char *what, const char *detail) {
  snprintf(load_error_buf, sizeof load_error_buf, "libclang could not be loaded (%s: %s); set TILETRANS_LIBCLANG to a libclang.so",
           what, detail ? detail : "unknown error");
  load_error = load_error_buf;
}

/* The file name of a path: the loader's search path may hold the library elsewhere. */
static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

const char *tt_clang_api_path(void) {
  const char *env = getenv("TILETRANS_LIBCLANG");
  return env && *env ? env : TT_LIBCLANG_PATH;
}

static void *open_library(const char **tried) {
  const char *env = getenv("TILETRANS_LIBCLANG");
  if (env && *env) {
    *tried = env;
    return dlopen(env, RTLD_NOW | RTLD_LOCAL);
  }
  *tried = TT_LIBCLANG_PATH;
  void *h = dlopen(TT_LIBCLANG_PATH, RTLD_NOW | RTLD_LOCAL);
  if (!h) h = dlopen(base_name(TT_LIBCLANG_PATH), RTLD_NOW | RTLD_LOCAL);
  return h;
}

static void load(void) {
  const char *tried;
  void *h = open_library(&tried);
  if (!h) {
    fail(tried, dlerror());
    return;
  }
  /* dlsym returns void *; POSIX guarantees it converts to a function pointer. */
#define TT_CLANG_BIND(name)                                      \
  *(void **)&api.name = dlsym(h, "clang_" #name);                \
  if (!api.name) {                                               \
    fail(tried, "it has no clang_" #name);                       \
    return;                                                      \
  }
  TT_CLANG_FUNCTIONS(TT_CLANG_BIND)
#undef TT_CLANG_BIND
  /* The handle stays open for the life of the process: the table points into it. */
}

const tt_clang_api *tt_clang_api_load(const char **why) {
  pthread_once(&once, load);
  if (load_error) {
    *why = load_error;
    return NULL;
  }
  return &api;
}

const tt_clang_api *tt_clang_loaded(void) { return &api; }
