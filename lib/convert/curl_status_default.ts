/**
 * A command with no pasted answer checks that its status is below 400, as
 * `curl --fail` would: with no status check a sign-up refused 409 or a create
 * answered 500 "passed", and a CI user trusts a green run. A pasted answer's
 * status (or one the prose shows, a refusal included) stays the step's own,
 * but a PUT's pasted 201: a PUT creates or replaces what its URL names, and
 * run 2 on one instance answers 204 (a broker's vhost), so it checks a 2xx.
 *
 * Both spellings write it `status: {lt: 400}`. The summary says it once,
 * with the count; a command whose JSON answer was pasted without a status
 * line (a guide's `{"ok":true}` under it) is counted apart: it has an answer.
 *
 * @module
 */
import type { Correlator } from "./correlate/mod.ts";
import type { Step } from "./model.ts";
import { plural } from "../_util/plural.ts";
import { yflow } from "./yaml_out.ts";
import { isCodedError } from "./curl_error_code.ts";

/** The members an error object holds: what went wrong, never data. */
const ERROR_MEMBERS = new Set([
  "detail",
  "details",
  "error",
  "errors",
  "error_description",
  "message",
  "reason",
  "code",
  "status",
  "statuscode",
  "status_code",
  "title",
  "type",
  // RFC 7807's problem details name the request; Spring Boot's error adds when and where.
  "instance",
  "timestamp",
  "path",
]);

/**
 * Whether a pasted answer is an error object: every member one of {@linkcode ERROR_MEMBERS},
 * one of them a non-empty `detail`, `error` or `errors` (djoser's `{"detail": "Invalid
 * token"}`, Parse's `{"code": 209, "error": "invalid session token"}`), or a non-zero error
 * code with its message among plain facts (curl_error_code.ts).
 */
function isErrorAnswer(json: unknown): boolean {
  if (!json || typeof json !== "object" || Array.isArray(json)) return false;
  if (isCodedError(json)) return true;
  const entries = Object.entries(json);
  if (!entries.every(([k]) => ERROR_MEMBERS.has(k.toLowerCase()))) return false;
  return entries.some(([k, v]) => /^(?:detail|errors?)$/i.test(k) && !!v && v !== "");
}

/**
 * The error objects a pasted answer is: itself, or every item of its one member, a list of them
 * (a monitoring API's `{"results": [{"code": 500.0, "errors": […], "status": "…"}]}`); none for
 * an answer that is no error.
 */
function errorObjects(json: unknown): object[] {
  if (isErrorAnswer(json)) return [json as object];
  const members = json && typeof json === "object" ? Object.values(json) : [];
  const items = members.length === 1 && Array.isArray(members[0]) ? members[0] : [];
  return items.length > 0 && items.every(isErrorAnswer) ? items : [];
}

/**
 * The HTTP status an error object states in its own body: a whole number from 400 to 599 under
 * `code`, `status`, `statusCode` or `status_code` (`"code": 500.0`, NestJS's `"statusCode": 503`,
 * Spring Boot's `"status": 404`); Parse's `"code": 209` is its own, no HTTP status.
 */
function statedStatus(error: object): number | undefined {
  return Object.entries(error).map(([k, v]) =>
    /^(?:code|status|status_?code)$/i.test(k) && Number.isInteger(v) && v >= 400 && v < 600
      ? v as number
      : undefined
  ).find((v) => v !== undefined);
}

/** The statuses each range a step may check allows. */
const RANGES = {
  success: [["gte", 200], ["lt", 300]],
  refusal: [["gte", 400], ["lt", 500]],
  failure: [["gte", 500]],
  failed: [["gte", 400]],
  below: [["lt", 400]],
} as const satisfies Record<string, [string, number][]>;

/**
 * The range a step checks instead of its pasted status, if any: a PUT's 201 any 2xx (a PUT
 * creates or replaces what its URL names: the docs' 201 is a 204 once it exists); with no
 * status pasted, a printed error object a refusal (one a condition introduces is another
 * case's: "If the token is not valid…"), or a server's failure when its body states a 5xx;
 * anything else below 400.
 */
function ownRange(step: Step): keyof typeof RANGES | undefined {
  if (step.method === "PUT" && step.last.status === 201) return "success";
  if (step.last.status !== undefined || step.grpc || step.websocket || step.sse) return undefined;
  // A failure the docs say in words, naming no status (curl_announced.ts): a refusal or a failure.
  if (step.last.failureAnnounced) return "failed";
  const errors = step.last.hasJson && !step.last.answerIntroduced
    ? errorObjects(step.last.json)
    : [];
  if (errors.length === 0) return "below";
  // The status the body states, when every error states a 5xx: a server's failure the docs show.
  const stated = errors.map(statedStatus);
  return stated.every((v) => v !== undefined && v >= 500) ? "failure" : "refusal";
}

/**
 * Gives each step whose answer's status was not pasted the below-400 check;
 * returns how many it gave one, the notes in `c.notes` when any.
 *
 * @example
 * ```ts
 * import { belowFourHundred } from "./curl_status_default.ts";
 * const step = { last: {}, checks: [] } as any;
 * const c = { steps: [step, { last: { status: 401 }, checks: [] }], sp: { name: "a" }, notes: [] } as any;
 * if (belowFourHundred(c) !== 1 || JSON.stringify(step.ownStatus.entries) !== '[["lt",400]]' || c.notes.length !== 1) throw new Error();
 * ```
 */
export function belowFourHundred(c: Correlator): number {
  let count = 0;
  let unstated = 0;
  let refusals = 0;
  for (const step of c.steps) {
    const range = ownRange(step);
    if (range === undefined) continue;
    if (range === "refusal" || range === "failure") refusals++;
    if (range === "below") step.last.hasJson ? unstated++ : count++;
    step.ownStatus = yflow(RANGES[range]);
  }
  if (refusals > 0) {
    c.notes.push(
      `${plural(refusals, "command")} whose pasted answer is an error (${
        refusals === 1 ? "its" : "their"
      } only members detail, error, message, code…) ${
        refusals === 1 ? "checks" : "check"
      } that the status is a refusal (4xx), or the 5xx the body states, as the docs show.`,
    );
  }
  if (count > 0) {
    c.notes.push(
      `${plural(count, "command")} with no pasted answer ${
        count === 1 ? "checks" : "check"
      } only that the status is below 400 (as curl --fail): paste an answer (curl -i's status line) under a command to check its own status.`,
    );
  }
  if (unstated > 0) {
    c.notes.push(
      `${plural(unstated, "command")} whose pasted answer shows no status line ${
        unstated === 1 ? "checks" : "check"
      } only that the status is below 400 (as curl --fail): paste curl -i's status line above ${
        unstated === 1 ? "the answer" : "each answer"
      } to check its own status.`,
    );
  }
  return count + unstated;
}
