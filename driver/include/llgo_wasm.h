/*
 * llgo_wasm.h: the C API of the llgo-wasm driver.
 *
 * Requests and results are JSON text (UTF-8, NUL-terminated). Every call returns a
 * llgo_wasm_status; on success *result holds JSON, on failure *error holds a message
 * (the same text the CLI prints). Both are allocated by the library and released
 * with llgo_wasm_string_free. No C++ exception ever leaves these functions.
 *
 * A driver handle holds the loaded built-in descriptors; it is immutable and may be
 * shared between threads. The API does not read the process environment: pass the
 * values that matter (GOOS, GOARCH, LLGO_WASI_THREADS, LLGO_WASM_CONTEXT,
 * LLGO_WASM_STACKS, LLGO_WASM_STACK_SIZE) in the query's "env" object.
 *
 * Query JSON:  {"target": "wasm" | "path/to/custom.json" | null,
 *               "goos": "js" | null, "goarch": "wasm" | null, "context": null,
 *               "stacks": "shared" | "separate" | null,
 *               "stack_size": "8M" | "8388608" | null,   (as --stack-size)
 *               "env": {"LLGO_WASI_THREADS": "1", ...},
 *               "descriptor_path": ["dir", ...]}   (directories a custom descriptor's
 *               "inherits" may also name files in; default: only its own directory tree)
 *
 * Inputs are bounded (docs/reliability.md): descriptors up to 1 MiB, JSON nested up to 64
 * levels (requests too), 32 levels of inheritance, //llgo:build lines up to 4096 characters;
 * beyond a limit the call fails with LLGO_WASM_BAD_REQUEST and a message naming it. No
 * call recurses deeper than these bounds, so a caller's thread needs no large stack.
 */
#ifndef LLGO_WASM_H
#define LLGO_WASM_H

#if defined(_WIN32)
#define LLGO_WASM_API __declspec(dllexport)
#else
#define LLGO_WASM_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum llgo_wasm_status {
  LLGO_WASM_OK = 0,
  /* The request is wrong (bad JSON, unknown target, bad descriptor, ...): fix the input. */
  LLGO_WASM_BAD_REQUEST = 1,
  /* A file could not be read or another failure outside the request. */
  LLGO_WASM_FAILED = 2,
  /* A required pointer argument was NULL. */
  LLGO_WASM_NULL_ARGUMENT = 3
} llgo_wasm_status;

typedef struct llgo_wasm_driver llgo_wasm_driver;

/* The library version, e.g. "0.1.0". Static storage: do not free. */
LLGO_WASM_API const char* llgo_wasm_version(void);

/* Loads the built-in descriptors. On failure *driver is NULL and *error is set. */
LLGO_WASM_API llgo_wasm_status llgo_wasm_driver_new(llgo_wasm_driver** driver, char** error);
LLGO_WASM_API void llgo_wasm_driver_free(llgo_wasm_driver* driver);

/* The concrete built-in targets: [{"name", "variant", "goos", "goarch", "triple", "platform_default",
 *  "requires_env", "files"}]. */
LLGO_WASM_API llgo_wasm_status llgo_wasm_list_targets(const llgo_wasm_driver* driver, char** result, char** error);

/* Query JSON -> resolved target JSON (the same object as `llgo-wasm resolve --json`). */
LLGO_WASM_API llgo_wasm_status llgo_wasm_resolve(const llgo_wasm_driver* driver, const char* query_json, char** result,
                                                 char** error);

/* {"query": {...}, "output": "hello"} -> {"path": "hello.js", "format": "script"}. */
LLGO_WASM_API llgo_wasm_status llgo_wasm_name_output(const llgo_wasm_driver* driver, const char* request_json,
                                                     char** result, char** error);

/* {"query": {...}, "dir": "runtime/src"} ->
 * {"selected": ["a.c", ...], "decisions": [{"file", "selected", "constraint", "line", "tags": {tag: bool}}]}. */
LLGO_WASM_API llgo_wasm_status llgo_wasm_select_sources(const llgo_wasm_driver* driver, const char* request_json,
                                                        char** result, char** error);

/* {"query": {...}, "package_root": "dir", "files": [...], "dependency_keys": [...],
 *  "toolchain": {"clang": "19.1.7", ...}, "flags": [...]} -> {"key": "<64 hex>", "inputs": [{"path", "sha256"}]}. */
LLGO_WASM_API llgo_wasm_status llgo_wasm_cache_key(const llgo_wasm_driver* driver, const char* request_json,
                                                   char** result, char** error);

/* The package cache (docs/cache.md). No driver handle: every request names its cache,
 *   {"cache_dir": "dir", "max_size": "2G" | null, "shared_cache_dir": false,
 *    "remote": "http://host:port/prefix" | null, "remote_read_only": false, "remote_timeout": 5,
 *    "remote_netrc": "file" | null, "remote_header_file": "file" | null, ...}
 * and the environment is not read. A failing remote, or a local directory that cannot be used
 * (caching is then off), never fails a call: the warnings are returned in the result's
 * "warnings" list. */

/* {..., "key": "<64 hex>", "dest": "dir", "expect": ["name", ...] | absent} -> {"hit": true,
 * "source": "local"|"remote", "entry": {...}, "warnings": [...]} or {"hit": false, "reason": "...",
 * "warnings": [...]}. A miss is LLGO_WASM_OK. With "expect", an entry whose outputs are not
 * exactly those names is a miss. */
LLGO_WASM_API llgo_wasm_status llgo_wasm_cache_get(const char* request_json, char** result, char** error);

/* {..., "key", "outputs": [{"name": "lib/libx.a", "path": "/abs/or/relative"}], "metadata": {...}} ->
 * {"entry": {"format", "key", "outputs": [{"name", "sha256", "size"}], "metadata"}, "warnings": [...]}. */
LLGO_WASM_API llgo_wasm_status llgo_wasm_cache_put(const char* request_json, char** result, char** error);

/* {..., "key"} -> {"hit": bool, "source": "local"|"remote" (on a hit), "warnings": [...]}. */
LLGO_WASM_API llgo_wasm_status llgo_wasm_cache_has(const char* request_json, char** result, char** error);

/* {...} -> {"dir", "entries", "blobs", "temporaries", "bytes", "max-bytes", "remote", "remote-writes"}. */
LLGO_WASM_API llgo_wasm_status llgo_wasm_cache_stats(const char* request_json, char** result, char** error);

/* {..., "max_size": "2G"} -> {"removed-entries", "removed-blobs", "bytes"}. */
LLGO_WASM_API llgo_wasm_status llgo_wasm_cache_trim(const char* request_json, char** result, char** error);

/* Frees a string returned by this library. NULL is ignored. */
LLGO_WASM_API void llgo_wasm_string_free(char* text);

#ifdef __cplusplus
}
#endif

#endif /* LLGO_WASM_H */
