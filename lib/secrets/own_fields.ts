/**
 * Which fields of what flowrun writes are its own words, not values: in a
 * run's results, log records and HAR entries, a step's `status` (`passed`),
 * the `name` the flow gave it, a file, a time, a count. A short secret (a
 * password `pass`, `step`, a PIN `1234`) is masked in values only: masking
 * it in these made `***ed` of every `passed` and `***` of every duration of
 * 1234 ms (then a report no longer read as its schema says). A long secret
 * is still masked in them too (a foreach iteration's name can quote a token).
 *
 * Own fields are only those of flowrun's own records: the top of a value
 * handed to `Redactor.redactValue`, and the records under the keys that hold
 * them (`flows`, `steps`, `assertions`, HAR `entries`, `headers` lists of
 * `{name, value}`, …); a record under any other key (a check's `expected`,
 * a request's `headers` map) is data, whatever its keys are named.
 *
 * @module
 */

/** Keys whose string is flowrun's own text or a name the flow gave (a list of them: `captures`). */
const OWN_TEXT = new Set([
  "name",
  "file",
  "step",
  "flow",
  "status",
  "phase",
  "path",
  "operator",
  "event",
  "failure_kind",
  "kind",
  "role",
  "ts",
  "started_at",
  "startedDateTime",
  "run_id",
  "runner_version",
  "trace_id",
  "span_id",
  "method",
  "httpVersion",
  "captures",
  "percentiles",
  "_step",
  "_flow",
  "_file",
  "title",
  "pageref",
  // A HAR entry's note of a request no response answered: its values masked where it is made.
  "_error",
]);

/**
 * Keys whose text is flowrun's in a run's load problems (`problems`): what
 * it says of the flow file, before anything was sent (`Define it under vars,
 * pass --var …`); elsewhere a message quotes values and is masked as one.
 */
const PROBLEM_TEXT = new Set(["message", "hint", "code"]);

/**
 * How a step ended when its `message` was masked where it was made, value
 * by value, so what is left is flowrun's text (see {@linkcode ownField}):
 * its checks' messages (`status: expected 201, got 200 (and 1 more).`), a
 * request's error (`Request failed: connection refused.`, the URL it quotes
 * masked), the reason it was skipped (`Skipped because step "login" failed.`:
 * names the flow gave, or built with their values masked), why its captures
 * found nothing (`capture "id": $.json.id matched nothing`: the values a
 * reason quotes, a key of the response or a value of the wrong type, masked),
 * an expression that has no value (`Flow var "user" is not defined`: the
 * flow's names and text as written, what a value held masked), a condition
 * that does not hold (`Skipped: its condition ${vars.a} equals "x" does not
 * hold (expected "x", got "y")`: the condition as written, the values it
 * compared masked as a check's are), a flow file's problem in a run that sent nothing
 * (`a.yaml:5:12 <message> Hint: <hint>`: its message and hint masked where the problems are told,
 * then kept as the JSON report's `problems` keeps them, its file and position flowrun's).
 */
const OWN_MESSAGES = new Set([
  "invalid",
  "assertion",
  "until",
  "request",
  "skipped",
  "interrupted",
  "capture",
  "expression",
  "condition",
]);

/** Keys whose number (or list of numbers) is flowrun's: a time, a count, a size, a position. */
const OWN_NUMBERS = new Set([
  "duration_ms",
  "start_ms",
  "attempt_starts_ms",
  "attempt_statuses",
  "attempts",
  "attempt",
  "_attempt",
  "line",
  "column",
  "status",
  "total",
  "passed",
  "failed",
  "error",
  "skipped",
  "flaky",
  "retries",
  "workers",
  "files",
  "body_truncated",
  "size",
  "bodySize",
  "headersSize",
  "compression",
  "time",
  "blocked",
  "dns",
  "connect",
  "ssl",
  "send",
  "wait",
  "receive",
  "requests",
  "p50_ms",
  "p95_ms",
  "p99_ms",
  "max_ms",
  "repeat",
  "concurrency",
  "listed",
  "not_run",
]);

/** The HAR's lists of `{name, value}` pairs: their names are what was sent or answered. */
const PAIRS = new Set(["headers", "queryString", "cookies", "params"]);

/** Keys under which a list holds own records. */
const OWN_LISTS = new Set([
  "flows",
  "steps",
  "attempts",
  "assertions",
  "capture_failures",
  "problems",
  "entries",
  "pages",
  "headers",
  "queryString",
  "cookies",
  "params",
]);

/** Keys under which a record is an own record. */
const OWN_RECORDS = new Set([
  "log",
  "creator",
  "browser",
  "request",
  "response",
  "postData",
  "content",
  "timings",
  "cache",
  "totals",
  "flows",
  "steps",
  "assertions",
  "trace",
  "latency",
]);

/**
 * How a field of an own record is masked: `own` (its text is flowrun's:
 * only long secrets), `kept` (a number of flowrun's: never), `name` (a HAR
 * pair's name, what was sent or answered: every secret but an ordinary word,
 * which names HTTP's own things), or `value`.
 * `list` is the key of the list the record stands in (`problems`), `record`
 * the record itself.
 *
 * A check's `message` is own: the check masks each value it quotes (the
 * actual and expected values) where it builds the message, so what is left
 * are flowrun's words (`expected`, `got`, `holds`), which a short secret
 * must not mask. So is a step's when the step failed by its checks, which
 * is the first check's message with a count after it, and when a request's
 * error, a skip, a capture that found nothing or an expression without a
 * value stopped it: those are masked
 * where they are made too, as is a capture failure's own `message`.
 *
 * @example
 * ```ts
 * import { ownField } from "./own_fields.ts";
 * if (ownField("status", "passed") !== "own" || ownField("duration_ms", 1234) !== "kept") throw new Error();
 * if (ownField("actual", 1234) !== "value" || ownField("pin", 1234) !== "value") throw new Error();
 * if (ownField("body", "x") !== "value" || ownField("attempt_starts_ms", [1234]) !== "kept") throw new Error();
 * if (ownField("message", "x") !== "value" || ownField("message", "x", "problems") !== "own") throw new Error();
 * if (ownField("message", "x", "assertions") !== "own") throw new Error();
 * const step = { name: "s", failure_kind: "assertion" };
 * if (ownField("message", "x", "steps", step) !== "own") throw new Error();
 * if (ownField("message", "x", "steps", { ...step, failure_kind: "request" }) !== "own") throw new Error();
 * if (ownField("message", "x", "steps", { ...step, failure_kind: "capture" }) !== "own") throw new Error();
 * if (ownField("message", "x", "capture_failures") !== "own") throw new Error();
 * if (ownField("name", "x-a", "queryString") !== "name" || ownField("name", "s", "steps") !== "own") throw new Error();
 * if (ownField("message", "x", "steps", { ...step, failure_kind: "expression" }) !== "own") throw new Error();
 * if (ownField("message", "x", "steps", { ...step, failure_kind: "condition" }) !== "own") throw new Error();
 * if (ownField("error", "x", "", { event: "request_error" }) !== "own") throw new Error();
 * ```
 */
export function ownField(
  key: string,
  value: unknown,
  list?: string,
  record?: Readonly<Record<string, unknown>>,
): "own" | "kept" | "value" | "name" {
  if (typeof value === "number" || Array.isArray(value) && OWN_NUMBERS.has(key)) {
    return OWN_NUMBERS.has(key) ? "kept" : "value";
  }
  if (typeof value === "string") return textField(key, list, record);
  if (Array.isArray(value) && key === "captures") return "own";
  return "value";
}

/** How a string field of an own record is masked (see {@linkcode ownField}). */
function textField(
  key: string,
  list?: string,
  record?: Readonly<Record<string, unknown>>,
): "own" | "value" | "name" {
  // A name in a HAR's pairs is what was sent or answered (`?${ENV.PIN}=1`, a cookie a server
  // named after what it got): masked as a name, every secret but an ordinary word.
  if (key === "name" && PAIRS.has(list ?? "")) return "name";
  return OWN_TEXT.has(key) || (list === "problems" && PROBLEM_TEXT.has(key)) ||
      (key === "message" && checkMessage(list, record)) ||
      // A log's request_error line: the runner masked the error's values as it made it.
      (key === "error" && record?.event === "request_error")
    ? "own"
    : "value";
}

/** Whether a record's `message` is a check's, or a step's masked where it was made (see `ownField`). */
function checkMessage(list?: string, record?: Readonly<Record<string, unknown>>): boolean {
  // A check's, and a capture's that found nothing: both masked value by value where made.
  if (list === "assertions" || list === "capture_failures") return true;
  // A step: in a flow's (or a re-run's) steps, or handed alone (a log's step record).
  return (list === "steps" || list === "") &&
    OWN_MESSAGES.has(record?.failure_kind as string) && typeof record?.name === "string";
}

/**
 * Whether the value under `key` of an own record holds own records (a list
 * of steps, a HAR entry's request); anything else under it is data.
 *
 * @example
 * ```ts
 * import { holdsOwn } from "./own_fields.ts";
 * if (!holdsOwn("steps", []) || !holdsOwn("request", {}) || !holdsOwn("headers", [])) throw new Error();
 * // A report's request headers are a map of a request's data; the HAR's a list of pairs.
 * if (holdsOwn("headers", {}) || holdsOwn("expected", {})) throw new Error();
 * ```
 */
export function holdsOwn(key: string, value: unknown): boolean {
  if (Array.isArray(value)) return OWN_LISTS.has(key);
  return value !== null && typeof value === "object" && OWN_RECORDS.has(key);
}
