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
]);

/**
 * Whether a pasted answer is an error object: every member one of {@linkcode ERROR_MEMBERS},
 * one of them a non-empty `detail`, `error` or `errors` (djoser's `{"detail": "Invalid
 * token"}`, Parse's `{"code": 209, "error": "invalid session token"}`).
 */
function isErrorAnswer(json: unknown): boolean {
  if (!json || typeof json !== "object" || Array.isArray(json)) return false;
  const entries = Object.entries(json);
  if (!entries.every(([k]) => ERROR_MEMBERS.has(k.toLowerCase()))) return false;
  return entries.some(([k, v]) => /^(?:detail|errors?)$/i.test(k) && !!v && v !== "");
}

/** The statuses each range a step may check allows. */
const RANGES = {
  success: [["gte", 200], ["lt", 300]],
  refusal: [["gte", 400], ["lt", 500]],
  below: [["lt", 400]],
} as const satisfies Record<string, [string, number][]>;

/**
 * The range a step checks instead of its pasted status, if any: a PUT's 201 any 2xx (a PUT
 * creates or replaces what its URL names: the docs' 201 is a 204 once it exists); with no
 * status pasted, a printed error object a refusal (one a condition introduces is another
 * case's: "If the token is not valid…"), anything else below 400.
 */
function ownRange(step: Step): keyof typeof RANGES | undefined {
  if (step.method === "PUT" && step.last.status === 201) return "success";
  if (step.last.status !== undefined || step.grpc || step.websocket || step.sse) return undefined;
  const refused = step.last.hasJson && !step.last.answerIntroduced &&
    isErrorAnswer(step.last.json);
  return refused ? "refusal" : "below";
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
    if (range === "refusal") refusals++;
    if (range === "below") step.last.hasJson ? unstated++ : count++;
    step.ownStatus = yflow(RANGES[range]);
  }
  if (refusals > 0) {
    c.notes.push(
      `${plural(refusals, "command")} whose pasted answer is an error (${
        refusals === 1 ? "its" : "their"
      } only members detail, error, message, code…) ${
        refusals === 1 ? "checks" : "check"
      } that the status is a refusal (4xx), as the docs show.`,
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
