/* Exercises the C ABI of kruise-core: generic call, errors, NULLs, invalid UTF-8, NUL bytes,
 * fn ids, matches, the input-size and nesting limits, and compiled expressions (with
 * -DKRUISE_TEST_EXPR=1). Built and run by
 * scripts/test-all against the release static library (see docs/c.md). Exit 0 = all passed. */
#include "kruise_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static int checks = 0;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    checks++;                                                                  \
    if (!(cond)) {                                                             \
      failures++;                                                              \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);          \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
    }                                                                          \
  } while (0)

static const uint8_t *u(const char *s) { return (const uint8_t *)s; }

/* Whether buf holds exactly the text `want`. */
static int buf_is(kruise_buf b, const char *want) {
  size_t n = strlen(want);
  return b.len == n && (n == 0 || memcmp(b.ptr, want, n) == 0);
}

/* Whether buf contains the text `needle`. */
static int buf_has(kruise_buf b, const char *needle) {
  size_t n = strlen(needle);
  if (b.ptr == NULL || b.len < n) return 0;
  for (size_t i = 0; i + n <= b.len; i++)
    if (memcmp(b.ptr + i, needle, n) == 0) return 1;
  return 0;
}

static kruise_status call(const char *fn, const char *input, kruise_buf *out) {
  return kruise_call(u(fn), strlen(fn), u(input), strlen(input), out);
}

static void test_call_ok(void) {
  kruise_buf out = {0};
  kruise_status st = call("rollout.scale_int_or_percent",
                          "{\"value\":\"90%\",\"total\":95,\"roundUp\":true,\"mode\":\"scaled\"}", &out);
  CHECK(st == KRUISE_OK, "status %u", (unsigned)st);
  CHECK(buf_is(out, "86"), "got %.*s", (int)out.len, (const char *)out.ptr);
  kruise_buf_free(out);
}

static void test_call_errors(void) {
  kruise_buf out = {0};
  /* decision error: the kind travels in the JSON */
  kruise_status st = call("rollout.scale_int_or_percent",
                          "{\"value\":\"90\",\"total\":0,\"roundUp\":false,\"mode\":\"scaled\"}", &out);
  CHECK(st == KRUISE_DECISION_ERROR, "status %u", (unsigned)st);
  CHECK(buf_has(out, "\"kind\":\"not_a_percentage\""), "got %.*s", (int)out.len, (const char *)out.ptr);
  kruise_buf_free(out);

  /* wrong JSON shape: invalid_input naming the field */
  st = call("rollout.scale_int_or_percent", "{\"value\":\"9%\",\"total\":\"x\",\"roundUp\":false,\"mode\":\"scaled\"}", &out);
  CHECK(st == KRUISE_DECISION_ERROR, "status %u", (unsigned)st);
  CHECK(buf_has(out, "\"kind\":\"invalid_input\"") && buf_has(out, "total"), "got %.*s", (int)out.len, (const char *)out.ptr);
  kruise_buf_free(out);

  st = call("no.such_fn", "{}", &out);
  CHECK(st == KRUISE_UNKNOWN_FN, "status %u", (unsigned)st);
  CHECK(buf_has(out, "\"kind\":\"unknown_fn\""), "got %.*s", (int)out.len, (const char *)out.ptr);
  kruise_buf_free(out);

  st = call("rollout.scale_int_or_percent", "{\"value\": ", &out);
  CHECK(st == KRUISE_INVALID_JSON, "status %u", (unsigned)st);
  CHECK(buf_has(out, "\"kind\":\"invalid_json\""), "got %.*s", (int)out.len, (const char *)out.ptr);
  kruise_buf_free(out);

  /* invalid UTF-8 in the fn id and in the input */
  const uint8_t bad[] = {'r', 0xff, 0xfe};
  st = kruise_call(bad, sizeof bad, u("{}"), 2, &out);
  CHECK(st == KRUISE_INVALID_UTF8, "status %u", (unsigned)st);
  CHECK(buf_has(out, "\"kind\":\"invalid_utf8\"") && buf_has(out, "fn"), "got %.*s", (int)out.len, (const char *)out.ptr);
  kruise_buf_free(out);
  const uint8_t bad_input[] = {'"', 0xc3, '"'};
  st = kruise_call(u("rollout.scale_int_or_percent"), 28, bad_input, sizeof bad_input, &out);
  CHECK(st == KRUISE_INVALID_UTF8, "status %u", (unsigned)st);
  kruise_buf_free(out);

  /* NUL bytes: inside a fn id it is simply not registered; raw NUL in JSON is invalid JSON */
  st = kruise_call(u("rollout.scale_int_or_percent\0x"), 30, u("{}"), 2, &out);
  CHECK(st == KRUISE_UNKNOWN_FN, "status %u", (unsigned)st);
  kruise_buf_free(out);
  st = kruise_call(u("rollout.scale_int_or_percent"), 28, u("{\"a\":\0}"), 7, &out);
  CHECK(st == KRUISE_INVALID_JSON, "status %u", (unsigned)st);
  kruise_buf_free(out);
}

static void test_nulls(void) {
  kruise_buf out = {0};
  CHECK(kruise_call(NULL, 3, u("{}"), 2, &out) == KRUISE_NULL_PARAMETER, "NULL fn");
  CHECK(buf_has(out, "\"kind\":\"null_parameter\""), "got %.*s", (int)out.len, (const char *)out.ptr);
  kruise_buf_free(out);
  CHECK(kruise_call(u("x"), 1, NULL, 5, &out) == KRUISE_NULL_PARAMETER, "NULL input");
  kruise_buf_free(out);
  /* NULL with length 0 is the empty string: here an unknown (empty) fn id */
  CHECK(kruise_call(NULL, 0, u("{}"), 2, &out) == KRUISE_UNKNOWN_FN, "empty fn");
  kruise_buf_free(out);
  CHECK(kruise_call(u("x"), 1, u("{}"), 2, NULL) == KRUISE_NULL_PARAMETER, "NULL out");
  CHECK(kruise_fn_ids(NULL) == KRUISE_NULL_PARAMETER, "NULL out");
  kruise_buf_free((kruise_buf){NULL, 0}); /* freeing the empty buffer is fine */
  kruise_expr_free(NULL);
  CHECK(kruise_expr_eval(NULL, NULL, 0, &out) == KRUISE_NULL_PARAMETER, "NULL expr");
  kruise_buf_free(out);
  CHECK(kruise_expr_compile(u("1"), 1, NULL, NULL) == KRUISE_NULL_PARAMETER, "NULL out_expr");
}

static void test_fn_ids_and_matches(void) {
  kruise_buf out = {0};
  CHECK(kruise_fn_ids(&out) == KRUISE_OK, "fn_ids");
  CHECK(out.len > 2 && out.ptr[0] == '[' && buf_has(out, "\"rollout.scale_int_or_percent\""),
        "got %.*s", (int)out.len, (const char *)out.ptr);
  kruise_buf_free(out);

  uint8_t m = 7;
  kruise_buf err = {0};
  const char *fn = "rollout.scale_int_or_percent";
  CHECK(kruise_matches(u(fn), strlen(fn), u("{\"a\":1,\"b\":[2]}"), 15, u("{\"b\":[2.0],\"a\":1}"), 17, &m, &err) == KRUISE_OK, "matches");
  CHECK(m == 1, "key order and 2 == 2.0 must match, got %u", m);
  CHECK(kruise_matches(u(fn), strlen(fn), u("1"), 1, u("2"), 1, &m, &err) == KRUISE_OK && m == 0, "1 != 2");
  CHECK(kruise_matches(u(fn), strlen(fn), u("1"), 1, u("{"), 1, &m, &err) == KRUISE_INVALID_JSON, "bad json");
  kruise_buf_free(err);
  CHECK(kruise_matches(u(fn), strlen(fn), u("1"), 1, u("1"), 1, NULL, NULL) == KRUISE_NULL_PARAMETER, "NULL result");
}

static void test_version(void) {
  const char *v = kruise_version();
  CHECK(v != NULL && strcmp(v, KRUISE_CORE_VERSION) == 0, "version %s vs header %s", v, KRUISE_CORE_VERSION);
}

/* The input-size limit (default 16 MiB, kruise_set_max_input_bytes) and the JSON nesting limit. */
static void test_limits(void) {
  const char *input = "{\"value\":\"50%\",\"total\":10,\"roundUp\":true,\"mode\":\"scaled\"}";
  size_t n = strlen(input);
  kruise_buf out = {0};
  CHECK(kruise_max_input_bytes() == KRUISE_DEFAULT_MAX_INPUT_BYTES, "default %zu", kruise_max_input_bytes());
  CHECK(KRUISE_DEFAULT_MAX_INPUT_BYTES == 16u * 1024u * 1024u, "16 MiB");
  size_t prev = kruise_set_max_input_bytes(n);
  CHECK(prev == KRUISE_DEFAULT_MAX_INPUT_BYTES, "previous %zu", prev);
  kruise_status st = call("rollout.scale_int_or_percent", input, &out);
  CHECK(st == KRUISE_OK && buf_is(out, "5"), "at the limit: status %u", (unsigned)st);
  kruise_buf_free(out);
  /* one byte over: refused before the bytes are read (the length alone decides) */
  st = kruise_call(u("rollout.scale_int_or_percent"), 28, u(input), n + 1, &out);
  CHECK(st == KRUISE_INPUT_TOO_LARGE && buf_has(out, "\"kind\":\"input_too_large\""),
        "over the limit: status %u got %.*s", (unsigned)st, (int)out.len, (const char *)out.ptr);
  kruise_buf_free(out);
  CHECK(kruise_set_max_input_bytes(prev) == n, "restore");

  /* 128 nested arrays: the JSON parser's recursion limit */
  size_t depth = 128;
  char *deep = malloc(2 * depth + 1);
  for (size_t i = 0; i < depth; i++) {
    deep[i] = '[';
    deep[depth + i] = ']';
  }
  deep[2 * depth] = 0;
  st = call("rollout.scale_int_or_percent", deep, &out);
  CHECK(st == KRUISE_INVALID_JSON && buf_has(out, "recursion limit exceeded"),
        "128 deep: status %u got %.*s", (unsigned)st, (int)out.len, (const char *)out.ptr);
  kruise_buf_free(out);
  /* 127 deep is JSON (the decision then rejects the shape) */
  deep[depth - 1] = ' ';
  deep[depth] = ' ';
  st = call("rollout.scale_int_or_percent", deep, &out);
  CHECK(st == KRUISE_DECISION_ERROR && buf_has(out, "\"kind\":\"invalid_input\""),
        "127 deep: status %u got %.*s", (unsigned)st, (int)out.len, (const char *)out.ptr);
  kruise_buf_free(out);
  free(deep);
}

#ifdef KRUISE_TEST_EXPR
static kruise_var qvar(const char *name, const char *value) {
  kruise_var v = {u(name), strlen(name), KRUISE_VAR_QUANTITY, u(value), strlen(value), 0.0};
  return v;
}

static void test_expr(void) {
  kruise_expr *e = NULL;
  kruise_buf err = {0}, out = {0};
  const char *src = "max(cpu*50%, 50m)";
  kruise_status st = kruise_expr_compile(u(src), strlen(src), &e, &err);
  CHECK(st == KRUISE_OK && e != NULL && err.len == 0, "compile status %u", (unsigned)st);
  kruise_var vars[1] = {qvar("cpu", "200m")};
  st = kruise_expr_eval(e, vars, 1, &out);
  CHECK(st == KRUISE_OK && buf_is(out, "100m"), "status %u got %.*s", (unsigned)st, (int)out.len, (const char *)out.ptr);
  kruise_buf_free(out);
  vars[0] = qvar("cpu", "20m"); /* the floor wins */
  st = kruise_expr_eval(e, vars, 1, &out);
  CHECK(st == KRUISE_OK && buf_is(out, "50m"), "status %u got %.*s", (unsigned)st, (int)out.len, (const char *)out.ptr);
  kruise_buf_free(out);
  /* unknown variable: a decision error with a kind */
  st = kruise_expr_eval(e, NULL, 0, &out);
  CHECK(st == KRUISE_DECISION_ERROR && buf_has(out, "\"kind\":"), "status %u got %.*s", (unsigned)st, (int)out.len, (const char *)out.ptr);
  kruise_buf_free(out);
  /* a number variable */
  kruise_var n = {u("cpu"), 3, KRUISE_VAR_NUMBER, NULL, 0, 3.0};
  st = kruise_expr_eval(e, &n, 1, &out);
  CHECK(st == KRUISE_OK && out.len > 0, "number var status %u", (unsigned)st);
  kruise_buf_free(out);
  /* bad kind, invalid UTF-8 name */
  kruise_var bad = {u("cpu"), 3, 99, NULL, 0, 0.0};
  CHECK(kruise_expr_eval(e, &bad, 1, &out) == KRUISE_INVALID_ARGUMENT, "bad kind");
  kruise_buf_free(out);
  const uint8_t badname[] = {0xff};
  kruise_var bn = {badname, 1, KRUISE_VAR_QUANTITY, u("1"), 1, 0.0};
  CHECK(kruise_expr_eval(e, &bn, 1, &out) == KRUISE_INVALID_UTF8, "bad name");
  kruise_buf_free(out);
  CHECK(kruise_expr_eval(e, NULL, 2, &out) == KRUISE_NULL_PARAMETER, "NULL vars with length");
  kruise_buf_free(out);

  /* variables bound by position, result printed into a caller buffer */
  CHECK(kruise_expr_var_count(e) == 1, "var count");
  CHECK(kruise_expr_var_index(e, u("cpu"), 3) == 0 && kruise_expr_var_index(e, u("mem"), 3) == -1, "var index");
  kruise_expr_vars *bv = kruise_expr_vars_new(e);
  CHECK(bv != NULL, "vars_new");
  uint8_t res[16];
  int64_t n64 = kruise_expr_eval_into(e, bv, res, sizeof res);
  CHECK(n64 == -(int64_t)KRUISE_DECISION_ERROR, "unbound: %lld", (long long)n64);
  CHECK(kruise_expr_vars_error(bv, &out) == KRUISE_DECISION_ERROR && buf_has(out, "undefined_variable"), "vars_error");
  kruise_buf_free(out);
  CHECK(kruise_expr_vars_set_quantity(bv, 0, u("200m"), 4) == KRUISE_OK, "set");
  CHECK(kruise_expr_vars_set_quantity(bv, 1, u("200m"), 4) == KRUISE_INVALID_ARGUMENT, "set out of range");
  n64 = kruise_expr_eval_into(e, bv, res, sizeof res);
  CHECK(n64 == 4 && memcmp(res, "100m", 4) == 0, "eval_into: %lld", (long long)n64);
  CHECK(kruise_expr_eval_into(e, bv, res, 2) == 4, "short buffer reports the length");
  CHECK(kruise_expr_vars_set_number(bv, 0, 3.0) == KRUISE_OK, "set number");
  n64 = kruise_expr_eval_into(e, bv, res, sizeof res);
  st = kruise_expr_eval(e, &n, 1, &out); /* the same as kruise_expr_eval with the number */
  CHECK(st == KRUISE_OK && n64 == (int64_t)out.len && memcmp(res, out.ptr, out.len) == 0,
        "number: %lld %.*s", (long long)n64, (int)(n64 > 0 ? n64 : 0), (const char *)res);
  kruise_buf_free(out);
  CHECK(kruise_expr_vars_set_quantity(bv, 0, u("2x"), 2) == KRUISE_OK, "set bad");
  CHECK(kruise_expr_eval_into(e, bv, res, sizeof res) == -(int64_t)KRUISE_DECISION_ERROR, "bad quantity");
  CHECK(kruise_expr_vars_error(bv, &out) == KRUISE_DECISION_ERROR && buf_has(out, "variables.cpu"), "bad quantity field");
  kruise_buf_free(out);
  kruise_expr_vars_free(bv);
  kruise_expr_free(e);

  /* compile errors */
  e = (kruise_expr *)&err; /* must be reset to NULL on failure */
  st = kruise_expr_compile(u("max(1,"), 6, &e, &err);
  CHECK(st == KRUISE_DECISION_ERROR && e == NULL && buf_has(err, "\"kind\":"), "status %u", (unsigned)st);
  kruise_buf_free(err);
  st = kruise_expr_compile(u("1 +\0 2"), 6, &e, &err);
  CHECK(st == KRUISE_DECISION_ERROR && e == NULL, "NUL byte in expression: status %u", (unsigned)st);
  kruise_buf_free(err);
  /* strict compile reports what the reference silently reads as 0; the default compile accepts it */
  st = kruise_expr_compile_strict(u("1K + 1"), 6, &e, &err);
  CHECK(st == KRUISE_DECISION_ERROR && e == NULL && buf_has(err, "\"kind\":\"suspicious_number\""),
        "strict: status %u got %.*s", (unsigned)st, (int)err.len, (const char *)err.ptr);
  kruise_buf_free(err);
  st = kruise_expr_compile(u("1K + 1"), 6, &e, &err);
  CHECK(st == KRUISE_OK && e != NULL, "lenient: status %u", (unsigned)st);
  st = kruise_expr_eval(e, NULL, 0, &out);
  CHECK(st == KRUISE_OK && buf_is(out, "1"), "1K reads as 0: status %u got %.*s", (unsigned)st, (int)out.len, (const char *)out.ptr);
  kruise_buf_free(out);
  kruise_expr_free(e);
  const uint8_t badsrc[] = {'1', '+', 0xff};
  st = kruise_expr_compile(badsrc, sizeof badsrc, &e, &err);
  CHECK(st == KRUISE_INVALID_UTF8 && e == NULL, "status %u", (unsigned)st);
  kruise_buf_free(err);
}
#else
static void test_expr(void) {
  kruise_expr *e = NULL;
  kruise_buf err = {0};
  CHECK(kruise_expr_compile(u("1"), 1, &e, &err) == KRUISE_UNSUPPORTED && e == NULL, "expr feature off");
  CHECK(buf_has(err, "\"kind\":\"unsupported\""), "got %.*s", (int)err.len, (const char *)err.ptr);
  kruise_buf_free(err);
}
#endif

int main(void) {
  test_call_ok();
  test_call_errors();
  test_nulls();
  test_fn_ids_and_matches();
  test_version();
  test_limits();
  test_expr();
  printf("%d passed, %d failed\n", checks - failures, failures);
  return failures == 0 ? 0 : 1;
}
