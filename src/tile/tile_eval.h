/* tile_eval.h — the evaluator core shared by the dialects (cuTile Python, Triton,
 * and cuTile.jl through its Julia front end, tile_jl.c), internal to src/tile.
 *
 * The evaluator walks the tree-sitter-python tree of a kernel file directly (a
 * dialect in another syntax brings a tt_front that walks its own grammar's tree and
 * calls back into the core for values, frames, operators and builtins):
 * statements and expressions are evaluated node by node, and everything a dialect
 * adds (its module's functions, dtypes, methods on tiles and arrays, the integer
 * division it means) comes from a tt_lib table, so the core knows no library by name.
 *
 * Errors unwind: tt_ev_fail formats "FILE:LINE:COL: message" for a node and
 * longjmps to the run's entry, which frees every tile and tuple still alive (they
 * are all on the interpreter's lists). Values are passed by value; a value holding
 * a tile or a tuple owns one reference to it. */
#ifndef TT_TILE_EVAL_H
#define TT_TILE_EVAL_H

#include <setjmp.h>
#include <stdbool.h>
#include <tree_sitter/api.h>

#include "tile/tile_ops.h"

typedef struct tt_interp tt_interp;
typedef struct tt_val tt_val;
typedef struct tt_builtin tt_builtin;

typedef enum tt_vk {
  TV_NONE, TV_BOOL, TV_INT, TV_FLOAT, TV_STR, TV_TUPLE, TV_TILE, TV_ARRAY, TV_DTYPE,
  TV_ENUM, TV_FUNC, TV_BUILTIN, TV_MODULE,
  TV_LAUNCH, /* kernel[grid]: u.tu is the tuple (function, grid) */
  TV_LAMBDA, /* a lambda expression and the frame it was made in */
  TV_DICT,   /* u.tu holds key, value, key, value, ...; keys are strings */
  TV_BLOCKPTR /* Triton block pointer: u.tu holds (pointer, shape, strides, offsets, block_shape) */
} tt_vk;

typedef struct tt_frame tt_frame;

typedef struct tt_tuple {
  int refs;
  int n;
  struct tt_tuple *prev, *next; /* the interpreter's list of live tuples */
  tt_interp *owner;
  struct tt_val *items;
} tt_tuple;

struct tt_val {
  tt_vk k;
  union {
    int64_t i;                 /* TV_BOOL, TV_INT */
    double f;                  /* TV_FLOAT */
    tt_tile_t *t;              /* TV_TILE: one reference */
    tt_tuple *tu;              /* TV_TUPLE: one reference */
    int arr;                   /* TV_ARRAY: index into the run's arguments */
    tt_tile_dtype dt;          /* TV_DTYPE */
    struct { int type, v; } en;/* TV_ENUM: a library's enum type and value */
    int fn;                    /* TV_FUNC: index into the program's functions */
    const tt_builtin *b;       /* TV_BUILTIN */
    int mod;                   /* TV_MODULE: a library's module id */
    struct { uint32_t s, e; } str; /* TV_STR: the literal's bytes in the source, unquoted */
    struct { uint32_t node_id; tt_frame *frame; } lam; /* TV_LAMBDA: see tt_interp.lambdas */
  } u;
};

/* A call's arguments, evaluated: positional then keyword (names point into the
 * source). The caller of a builtin owns the values and drops them after the call. */
#define TT_MAX_ARGS 12
typedef struct tt_args {
  int n, nkw;
  tt_val pos[TT_MAX_ARGS];
  struct { const char *name; uint32_t len; tt_val v; TSNode node; } kw[TT_MAX_ARGS];
  TSNode posnode[TT_MAX_ARGS];
  TSNode call;
} tt_args;

typedef tt_val (*tt_builtin_fn)(tt_interp *I, tt_args *a);

struct tt_builtin {
  const char *name;
  tt_builtin_fn fn;
  bool kernel_decorator;               /* @ct.kernel, @triton.jit */
};

/* A front end for a syntax other than Python (cuTile.jl): the core parses the file
 * with its grammar and runs the kernel through these hooks; values, frames, calls of
 * builtins, errors and the run loop stay the core's. NULL in a tt_lib: Python. */
typedef struct tt_front {
  const char *language;                /* "Julia", for messages */
  int lang;                            /* the tt_lang of the grammar (parser/lang.h) */
  /* the top level: imports, functions, module constants; fails through tt_ev_fail */
  void (*scan)(tt_interp *I, TSNode root);
  /* the kernel's parameter names (and default nodes or null); negative: unsupported form */
  int (*params)(tt_interp *I, TSNode def, TSNode *names, TSNode *defaults, int max);
  /* runs function `fi` over frame f, its parameters already bound */
  void (*run_body)(tt_interp *I, tt_frame *f, int fi, tt_val *ret);
} tt_front;

/* What a dialect plugs into the core. */
typedef struct tt_lib {
  const char *dialect;                 /* for messages: "cuTile Python" */
  /* the module an import binds: "cuda.tile" -> a module id, or -1 */
  int (*module_for_import)(const char *dotted, uint32_t len);
  /* attribute `name` of module `mod` (a builtin, dtype, enum, submodule); false if none */
  bool (*module_attr)(tt_interp *I, int mod, const char *name, uint32_t len, tt_val *out);
  /* attribute of a tile or array (`.shape`, `.dtype`); false if none */
  bool (*value_attr)(tt_interp *I, TSNode at, const tt_val *recv, const char *name, uint32_t len,
                     tt_val *out);
  /* method call recv.name(args); false if the receiver has no such method */
  bool (*method)(tt_interp *I, const tt_val *recv, const char *name, uint32_t len, tt_args *a,
                 tt_val *out);
  /* C (truncating) or Python (flooring) integer // and % */
  bool trunc_int_div;
  /* integer tiles narrower than 64 bits that overflow are an error (Triton's offsets) */
  bool int_overflow_is_error;
  /* a kernel launch kernel[grid](...): the value parameter `param` (its annotation
   * node may be null) receives for argument `v` (taken); NULL: launches unsupported */
  tt_val (*launch_arg)(tt_interp *I, TSNode param, TSNode annotation, tt_val v);
  /* run the entry once as a host function (Triton) instead of per block (cuTile) */
  bool entry_is_host;
  /* the syntax it is written in; NULL: Python */
  const tt_front *front;
} tt_lib;

/* A function of the program: its definition node and its decorators' verdict. */
typedef struct tt_func {
  const char *name;
  uint32_t name_len;
  TSNode def;                          /* function_definition */
  bool kernel;                         /* decorated as a kernel by the dialect */
} tt_func;

typedef struct tt_binding {
  const char *name;
  uint32_t len;
  tt_val v;
} tt_binding;

struct tt_frame {
  tt_binding *vars;
  int n, cap;
  struct tt_frame *up;                 /* the enclosing frame: globals, or a lambda's maker */
};

#define TT_EV_MAX_FIELDS 24

struct tt_interp {
  const char *path;
  const char *text;
  uint32_t len;
  const tt_lib *lib;
  TSTree *tree;
  TSFieldId field_ids[TT_EV_MAX_FIELDS]; /* the grammar's ids of the fields the evaluator reads */
  tt_func *funcs;
  int nfuncs;
  tt_frame globals;
  /* per run */
  const struct tt_tile_arg *args;
  size_t nargs;
  int64_t grid[3], bid[3];
  tt_tpool pool;
  tt_tuple *tuples;
  uint64_t ops;
  struct tt_kids *kids;                /* tt_ev_kids' cache: open addressing on node id */
  uint32_t cap_kids, nkids;
  TSNode *lambdas;                     /* lambda nodes seen, by TV_LAMBDA node_id */
  uint32_t nlambdas, cap_lambdas;
  int depth;                           /* call depth, against runaway recursion */
  jmp_buf *on_error;
  char *err;                           /* set before the longjmp */
  bool err_runtime;                    /* the error is the running kernel's */
};

/* The named children of `n`, *count of them, in order (owned by I, valid until
 * tt_ev_unload). tree-sitter's ts_node_next_named_sibling finds the parent by walking
 * down from the root, so a block iterated that way costs O(depth) per statement every
 * time a kernel body runs (once per program of the grid); this walks each node's
 * children once, with a tree cursor, and keeps them. */
const TSNode *tt_ev_kids(tt_interp *I, TSNode n, uint32_t *count);

/* Reports an error at `node` and unwinds to the run's entry. */
_Noreturn void tt_ev_fail(tt_interp *I, TSNode node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same for an error of the running kernel (TT_TILE_E_RUNTIME) rather than of
 * its text. */
_Noreturn void tt_ev_fail_run(tt_interp *I, TSNode node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reports a tile-op error (e->msg) at `node`; never returns. */
_Noreturn void tt_ev_fail_op(tt_interp *I, TSNode node, const tt_err *e);

/* Values. */
tt_val tt_v_none(void);
tt_val tt_v_int(int64_t i);
tt_val tt_v_bool(bool b);
tt_val tt_v_float(double f);
tt_val tt_v_tile(tt_tile_t *t);      /* takes the reference */
tt_val tt_v_dtype(tt_tile_dtype dt);
tt_val tt_v_tuple(tt_interp *I, int n); /* items set to none; fill u.tu->items */
tt_val tt_v_copy(const tt_val *v);   /* a new reference */
void tt_v_drop(tt_val *v);
const char *tt_v_kind_name(tt_vk k);

/* Conversions that fail at `node` with a message naming what was expected. */
int64_t tt_v_as_int(tt_interp *I, TSNode node, const tt_val *v);
double tt_v_as_float(tt_interp *I, TSNode node, const tt_val *v);
bool tt_v_truthy(tt_interp *I, TSNode node, const tt_val *v);
/* A tile for a tile or a (weakly typed) number: `like` gives the dtype a number takes. */
tt_tile_t *tt_v_as_tile(tt_interp *I, TSNode node, const tt_val *v, tt_tile_dtype like);
/* Shape tuples: an int or a tuple of ints; returns ndim. */
int tt_v_as_shape(tt_interp *I, TSNode node, const tt_val *v, int64_t *shape);

/* Arguments by position or keyword (NULL when absent). */
const tt_val *tt_arg(tt_args *a, int pos, const char *kw);
TSNode tt_arg_node(tt_args *a, int pos, const char *kw);
/* Fails when a keyword outside `allowed` (NULL-terminated) was given. */
void tt_args_check(tt_interp *I, tt_args *a, const char *fn, const char *const *allowed, int maxpos);

/* Elementwise library calls shared by the dialects (NumPy broadcasting; a number
 * takes the other operand's dtype): one operand through a math op, two through a
 * binary op, and where(cond, x, y). */
tt_val tt_ev_unary_call(tt_interp *I, tt_args *a, tt_unop op, const char *arity);
tt_val tt_ev_binary_call(tt_interp *I, tt_args *a, tt_binop op);
tt_val tt_ev_where_call(tt_interp *I, tt_args *a, const char *fn);

/* Text of a node, and name comparisons. */
bool tt_ev_name_is(const char *s, uint32_t len, const char *name);
const char *tt_ev_node_text(tt_interp *I, TSNode n, uint32_t *len);

/* Frames (for front ends): lookup in one frame, bind (taking v), free all. */
tt_binding *tt_ev_frame_find(tt_frame *f, const char *name, uint32_t len);
void tt_ev_frame_set(tt_interp *I, tt_frame *f, const char *name, uint32_t len, tt_val v);
/* Assigns the items of tuple `v` (taken) to the names of `target`, a tuple form of the
 * front end's grammar, each through `assign_one` (the front end's assignment, so nested
 * forms recurse); `verb` names the operation in errors ("unpack", "destructure"). */
void tt_ev_destructure(tt_interp *I, tt_frame *f, TSNode target, tt_val v, const char *verb,
                       void (*assign_one)(tt_interp *, tt_frame *, TSNode, tt_val));
void tt_ev_frame_clear(tt_frame *f);
/* The program's function named so, or -1; front ends add theirs with tt_ev_add_func. */
int tt_ev_func_index(tt_interp *I, const char *name, uint32_t len);
void tt_ev_add_func(tt_interp *I, TSNode def, TSNode name, bool kernel);

/* a op b for any two values: numbers as scalars, tiles elementwise with shapes lined
 * up by `al` (matmul: a @ b), dtype and enum (in)equality. Fails at n. */
tt_val tt_ev_binop(tt_interp *I, TSNode n, tt_binop op, bool matmul, const tt_val *a, const tt_val *b,
                   tt_align al);

/* Program loading and running (tile_eval.c). */
int tt_ev_load(tt_interp *I, const char *path, const char *text, size_t len, const tt_lib *lib,
               char **err);
void tt_ev_unload(tt_interp *I);
int tt_ev_run(tt_interp *I, const char *kernel, const int64_t grid[3],
              const struct tt_tile_arg *args, size_t nargs, char **err);

#endif
