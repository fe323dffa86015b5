/**
 * The runner's last level, pure: what happened to a step (its attempts,
 * their outcome, the checks and captures on the last response) → the step's
 * result, with its status, failure kind and one-line message. A step that did
 * not pass gets its request and response attached by {@linkcode withDetails}.
 *
 * @module
 */
import type { Step } from "../model/flow.ts";
import type { Redactor } from "../secrets/mod.ts";
import type { AssertionResult, CaptureFailure, StepResult } from "../model/result.ts";
import type { Attempt } from "./attempt.ts";
import { curlCommand, type CurlVia } from "../http/curl.ts";
import { EXCERPT, MAX_BODY } from "./context.ts";
import { shownCurl } from "./request_shown.ts";
import { requestMessage } from "./request_message.ts";
import { type Masking, PLAIN } from "../model/masking.ts";

/**
 * The attempts of a step: the last, whether its `until` held, how many were sent.
 *
 * @example
 * ```ts
 * import type { Outcome } from "./step_result.ts";
 * const outcome: Outcome = { last: { request: { method: "GET", url: "http://x.test/", headers: [] }, until: [] }, satisfied: true, attempts: 1 };
 * if (outcome.attempts !== 1) throw new Error();
 * ```
 */
export interface Outcome {
  last: Attempt;
  satisfied: boolean;
  attempts: number;
}

/**
 * The checks and captures on the last response.
 *
 * @example
 * ```ts
 * import type { Evaluation } from "./step_result.ts";
 * const evaluation: Evaluation = { assertions: [], captured: ["id"], problems: [] };
 * if (evaluation.captured[0] !== "id") throw new Error();
 * ```
 */
export interface Evaluation {
  assertions: AssertionResult[];
  /** Names of the values captured. */
  captured: string[];
  /** Each capture that found nothing, why, and where it is written. */
  problems: CaptureFailure[];
}

/**
 * When the step ran, relative to its flow and to itself.
 *
 * @example
 * ```ts
 * import type { Timing } from "./step_result.ts";
 * const timing: Timing = { start_ms: 0, duration_ms: 1.5 };
 * if (timing.duration_ms !== 1.5) throw new Error();
 * ```
 */
export interface Timing {
  start_ms: number;
  duration_ms: number;
  /** Start of each attempt, ms after the step started (polling steps). */
  attempt_starts_ms?: number[];
  /** Each attempt's response status, `null` when none arrived (polling steps). */
  attempt_statuses?: (number | null)[];
}

/**
 * A step result before anything happened.
 *
 * @example
 * ```ts
 * import { emptyResult } from "./step_result.ts";
 * // deno-lint-ignore no-explicit-any
 * const r = emptyResult({ name: "s", line: 3, column: 5 } as any, 12);
 * if (r.status !== "passed" || r.start_ms !== 12 || r.attempts !== 0) throw new Error();
 * ```
 */
export function emptyResult(step: Step, start_ms = 0): StepResult {
  return timed(step, { start_ms, duration_ms: 0 }, 0, undefined);
}

/**
 * A step that did not run (or ended without an outcome), with the reason.
 *
 * @example
 * ```ts
 * import { failedBefore } from "./step_result.ts";
 * // deno-lint-ignore no-explicit-any
 * const r = failedBefore({ name: "s", line: 1, column: 1 } as any, { start_ms: 0, duration_ms: 1 }, "error", "expression", "Unknown var.");
 * if (r.status !== "error" || r.failure_kind !== "expression") throw new Error();
 * ```
 */
export function failedBefore(
  step: Step,
  timing: Timing,
  status: StepResult["status"],
  kind: StepResult["failure_kind"],
  message: string,
  attempts = 0,
  request: Attempt["request"] | undefined = undefined,
): StepResult {
  return Object.assign(timed(step, timing, attempts, request), {
    status,
    message,
    failure_kind: kind,
  });
}

/**
 * A result with the step's timing and request, its keys in the order the
 * reports write them: a report then serialises it as it is instead of
 * copying it, and no key is ever deleted (that turns a V8 object into a
 * slow dictionary for the rest of its life).
 */
function timed(
  step: Step,
  timing: Timing,
  attempts: number,
  request: Attempt["request"] | undefined,
  shownUrl?: string,
): StepResult {
  return {
    name: step.name,
    status: "passed",
    duration_ms: timing.duration_ms,
    start_ms: timing.start_ms,
    ...(timing.attempt_starts_ms ? { attempt_starts_ms: timing.attempt_starts_ms } : {}),
    ...(timing.attempt_statuses ? { attempt_statuses: timing.attempt_statuses } : {}),
    attempts,
    line: step.line,
    column: step.column,
    request: request ? { method: request.method, url: shownUrl ?? request.url } : null,
    response: null,
    assertions: [],
    captures: [],
  };
}

/**
 * The result of a step that sent at least one request. `interrupted` is the
 * signal's name when the run was stopped before the step finished. A request
 * error's message is masked by `display` where it is made, each value it
 * quotes as a value (see `request_message.ts`).
 *
 * @example
 * ```ts
 * import { stepResult } from "./step_result.ts";
 * const last = { request: { method: "GET", url: "http://x.test", headers: [] }, until: [],
 *   error: new Error("connection refused") };
 * // deno-lint-ignore no-explicit-any
 * const r = stepResult({ name: "s", line: 1, column: 1 } as any, { start_ms: 0, duration_ms: 5 },
 *   // deno-lint-ignore no-explicit-any
 *   { last: last as any, satisfied: true, attempts: 3 }, undefined);
 * if (r.status !== "error" || r.message !== "connection refused (after 3 attempts).") throw new Error(r.message);
 * ```
 */
export function stepResult(
  step: Step,
  timing: Timing,
  outcome: Outcome,
  evaluation: Evaluation | undefined,
  interrupted?: string,
  display: Pick<Masking, "redact"> = PLAIN,
): StepResult {
  const { last } = outcome;
  const result = timed(step, timing, outcome.attempts, last.request, last.shown?.url);
  if (last.trace) result.trace = last.trace;
  const end = (status: StepResult["status"], kind: StepResult["failure_kind"], message: string) =>
    Object.assign(result, { status, message, failure_kind: kind });
  if (interrupted !== undefined) {
    return end("skipped", "interrupted", `Interrupted (${interrupted}) before the step finished.`);
  }
  const response = last.response;
  if (!response || !evaluation) {
    const tries = outcome.attempts > 1 ? ` (after ${outcome.attempts} attempts)` : "";
    // Masked here, value by value: the reports keep a request's message as flowrun's words.
    const message = requestMessage(last.error!, display);
    return end("error", "request", `${message.replace(/\.$/, "")}${tries}.`);
  }
  result.response = { status: response.status, content_type: response.contentType };
  result.assertions = evaluation.assertions;
  result.captures = evaluation.captured;
  const unmet = last.until.filter((r) => !r.passed);
  const failed = evaluation.assertions.filter((r) => r.phase === "assert" && !r.passed);
  const { problems } = evaluation;
  if (unmet.length === 0 && failed.length === 0 && problems.length === 0) return result;
  if (!outcome.satisfied) {
    const more = unmet.length > 1 ? ` (and ${unmet.length - 1} more)` : "";
    return end(
      "failed",
      "until",
      `Still unmet after ${outcome.attempts} attempts: ${unmet[0].message}${more}.`,
    );
  }
  if (failed.length > 0) {
    const more = failed.length > 1 ? ` (and ${failed.length - 1} more)` : "";
    return end("failed", "assertion", `${failed[0].message}${more}.`);
  }
  result.capture_failures = problems;
  return end(
    "failed",
    "capture",
    `${problems.map((p) => `capture "${p.name}": ${p.message}`).join("; ")}.`,
  );
}

/**
 * Attaches what a person needs to see why a step did not pass: the request
 * sent and the response received, bodies masked, then cut at `max`.
 *
 * @example
 * ```ts
 * import { withDetails } from "./step_result.ts";
 * import { Redactor } from "../secrets/mod.ts";
 * const r = { request: { method: "POST", url: "http://x.test" }, response: null };
 * // deno-lint-ignore no-explicit-any
 * withDetails(r as any, { request: { method: "POST", url: "http://x.test", headers: [["a", "1"]], body: "hi" }, until: [] } as any, 100, new Redactor());
 * // deno-lint-ignore no-explicit-any
 * if ((r.request as any).body !== "hi") throw new Error();
 * ```
 */
export function withDetails(
  result: StepResult,
  last: Attempt,
  max: number,
  redactor: Redactor,
  secretVariables?: ReadonlyMap<string, string>,
  via?: CurlVia,
): StepResult {
  const { request, response, shown } = last;
  const headers = Object.fromEntries(
    request.headers.map((
      [name, value],
      i,
    ) => [shown?.names?.[i] ?? name, shown?.headers[i] ?? value]),
  );
  const body = shown?.body ?? request.body;
  result.request = {
    method: request.method,
    url: shown?.url ?? request.url,
    headers,
    ...(body === undefined ? {} : { body: cutBody(body, redactor, max).text }),
  };
  // A curl line reproduces what the HTTP exchange sent, not a kind's own call (gRPC, a WebSocket).
  if (result.status !== "passed" && last.kind === undefined) {
    result.request.curl = curlLine(last, headers, max, { redactor, secretVariables, via });
  }
  if (response && result.response) {
    result.response.body_excerpt = response.excerpt(EXCERPT, redactor);
    result.response.headers = response.headers;
    // A body kept in a temporary file shows its head; the rest is counted as cut (in bytes).
    const spilled = response.spilled;
    const body = cutBody(spilled?.head ?? response.text, redactor, max);
    result.response.body = body.text;
    const cut = spilled ? spilled.bytes - new TextEncoder().encode(body.text).length : body.cut;
    if (cut > 0) result.response.body_truncated = cut;
  }
  return result;
}

/** What a step's `curl` line needs of the run. */
interface CurlAt {
  redactor: Redactor;
  secretVariables?: ReadonlyMap<string, string>;
  via?: CurlVia;
}

/** The `curl` line of a step's last request, masked by provenance where the request was. */
function curlLine(last: Attempt, headers: Record<string, string>, max: number, at: CurlAt) {
  const { request, shown } = last;
  if (shown && !request.bodyKind) {
    return shownCurl(shown, request.headers.slice(shown.headers.length), max, at);
  }
  const { redactor, secretVariables, via } = at;
  const { method, url, bodyKind, payload, parts } = request;
  const sent = bodyKind === undefined
    ? { body: request.body }
    : bodyKind === "file"
    ? { bytes: payload as Uint8Array }
    : { parts };
  // Masked before quoting, inside curlCommand: quoting a `'` hides a secret from the redactor.
  const mask = (text: string) => redactor.redact(text);
  const command = curlCommand({ method, url, headers, via, ...sent }, secretVariables, mask);
  // A body past the cap is left out rather than cut (a cut body would send something else),
  // and the line says so: run as it is, it sends no body.
  return redactor.redact(
    command.length > max + 1024
      ? `${curlCommand({ method, url, headers, via }, secretVariables, mask)} ` +
        `# the body is left out: its line is longer than the report keeps`
      : command,
  );
}

/** Masks a body, then cuts it at `max` characters; `cut` counts the characters left out. */
function cutBody(text: string, redactor: Redactor, max: number): { text: string; cut: number } {
  // Only the part that is kept needs masking, and enough after it that a secret across the cut is seen.
  const window = max + MAX_BODY;
  const masked = redactor.redact(text.length > window ? text.slice(0, window) : text);
  if (masked.length <= max && text.length <= window) return { text: masked, cut: 0 };
  const kept = redactor.head(masked, max).slice(0, -1);
  return { text: kept, cut: text.length - kept.length };
}
