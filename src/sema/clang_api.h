/* clang_api.h — libclang, loaded on first use rather than linked.
 *
 * Linking libclang makes every run pay for loading it and libLLVM (about 18 ms on
 * the CI machine: most of a one-file lint), while most runs never parse with clang.
 * So the semantic layer dlopen()s it the first time it parses and calls it through
 * this table. The table is written once (pthread_once) and read-only after: like
 * the dynamic linker's own tables, not state a caller can change. */
#ifndef TT_SEMA_CLANG_API_H
#define TT_SEMA_CLANG_API_H

#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>

/* Every libclang function the semantic layer calls. */
#define TT_CLANG_FUNCTIONS(X) \
  X(CompilationDatabase_dispose) \
  X(CompilationDatabase_fromDirectory) \
  X(CompilationDatabase_getAllCompileCommands) \
  X(CompilationDatabase_getCompileCommands) \
  X(CompileCommand_getArg) \
  X(CompileCommand_getDirectory) \
  X(CompileCommand_getFilename) \
  X(CompileCommand_getNumArgs) \
  X(CompileCommands_dispose) \
  X(CompileCommands_getCommand) \
  X(CompileCommands_getSize) \
  X(Cursor_getNumTemplateArguments) \
  X(Cursor_getTemplateArgumentKind) \
  X(Cursor_getTemplateArgumentType) \
  X(Cursor_getTemplateArgumentValue) \
  X(Cursor_isNull) \
  X(File_isEqual) \
  X(createIndex) \
  X(defaultSaveOptions) \
  X(disposeDiagnostic) \
  X(disposeIndex) \
  X(disposeSourceRangeList) \
  X(disposeString) \
  X(disposeTokens) \
  X(disposeTranslationUnit) \
  X(getCString) \
  X(getCanonicalType) \
  X(getCursorExtent) \
  X(getCursorKind) \
  X(getCursorLocation) \
  X(getCursorReferenced) \
  X(getCursorSpelling) \
  X(getCursorType) \
  X(getDiagnostic) \
  X(getDiagnosticLocation) \
  X(getDiagnosticSpelling) \
  X(getExpansionLocation) \
  X(getFile) \
  X(getFileContents) \
  X(getFileLocation) \
  X(getFileName) \
  X(getLocationForOffset) \
  X(getNullCursor) \
  X(getNumDiagnostics) \
  X(getRange) \
  X(getRangeEnd) \
  X(getRangeStart) \
  X(getSkippedRanges) \
  X(getSpecializedCursorTemplate) \
  X(getTokenExtent) \
  X(getTokenKind) \
  X(getTranslationUnitCursor) \
  X(getTypeSpelling) \
  X(isDeclaration) \
  X(isExpression) \
  X(parseTranslationUnit2) \
  X(saveTranslationUnit) \
  X(tokenize) \
  X(visitChildren) \

typedef struct tt_clang_api {
#define TT_CLANG_FIELD(name) __typeof__(clang_##name) *name;
  TT_CLANG_FUNCTIONS(TT_CLANG_FIELD)
#undef TT_CLANG_FIELD
} tt_clang_api;

/* Loads libclang once per process: $TILETRANS_LIBCLANG when set, else the library
 * tiletrans was built against (its absolute path, then its file name on the loader's
 * search path). NULL when it cannot be loaded or lacks a function, with *why set to a
 * static sentence that says which and why. */
const tt_clang_api *tt_clang_api_load(const char **why);

/* The library tt_clang_api_load tries first ($TILETRANS_LIBCLANG, else the build's);
 * static or the environment's. */
const char *tt_clang_api_path(void);

/* The loaded table. Only after tt_clang_api_load succeeded. */
const tt_clang_api *tt_clang_loaded(void);

/* A call through the table: LC(getCString)(s) is clang_getCString(s). */
#define LC(name) (tt_clang_loaded()->name)

#endif
