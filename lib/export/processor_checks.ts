/**
 * The checks the expect plugin cannot express (`matches`, `type: integer`,
 * a comparison with a value from the run, a check on the response time),
 * made by the processor instead: the request carries them as data
 * (`flowrunChecks`), and its
 * `afterResponse` hook `flowrunChecks` applies flowrun's operators to the
 * response. A failed one ends the virtual user as a failed expectation
 * does. Artillery does not render fields it does not know, so the hook
 * renders the `{{ … }}` of an expected value itself, as Artillery renders
 * templates (one whole `{{ x }}` keeps the value's type). Only plain paths into the status, a header, the JSON body, the
 * body text or the duration can be read there.
 *
 * @module
 */
import type { PathCheck } from "../model/checks.ts";
import type { Place } from "./scope.ts";
import { templateValue } from "./template.ts";
import type { Target } from "./response_path.ts";

/** One check as the processor's hook reads it. */
export interface ProcessorCheck {
  /** The check's path as written, for messages. */
  path: string;
  /** Where it reads: `["json", "a", 0]`, `["headers", "etag"]`, `["status"]`, `["body"]`, `["duration_ms"]`. */
  at: (string | number)[];
  op: string;
  expected: unknown;
}

/**
 * The processor's form of a check, or undefined when the hook cannot read
 * its target (then the caller notes it).
 *
 * @example
 * ```ts
 * import { processorCheck } from "./processor_checks.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>() };
 * const check = { path: { source: "$.json.n", root: "response" as const, singular: true, chain: ["json", "n"] },
 *   operator: "type" as const, expected: { kind: "const" as const, value: "integer" }, line: 1, column: 1 };
 * const c = processorCheck(check, { kind: "json", chain: ["n"] }, place);
 * if (JSON.stringify(c?.at) !== '["json","n"]' || c?.op !== "type") throw new Error();
 * ```
 */
export function processorCheck(
  check: PathCheck,
  target: Target | undefined,
  place: Place,
): ProcessorCheck | undefined {
  const at = target === undefined
    ? (check.path.source === "$.duration_ms" && check.path.root === "response"
      ? ["duration_ms"]
      : undefined)
    : target.kind === "json"
    ? ["json", ...target.chain]
    : target.kind === "header"
    ? ["headers", target.name]
    : [target.kind];
  if (!at) return undefined;
  return {
    path: check.path.source,
    at,
    op: check.operator,
    expected: templateValue(check.expected, place),
  };
}

/**
 * The processor's hooks: `flowrunChecks` reads what each check names and
 * applies flowrun's operators (the same meanings as lib/check/operators.ts);
 * `flowrunUntil` and `flowrunPolling` repeat a polling step's request
 * until its `until` checks hold, at most `max_attempts` times, sleeping
 * `sleep_ms` between attempts (poll.ts writes the loop).
 *
 * @example
 * ```ts
 * import { CHECKS_SOURCE } from "./processor_checks.ts";
 * if (!CHECKS_SOURCE.includes("function flowrunPolling(context, next)")) throw new Error();
 * ```
 */
export const CHECKS_SOURCE = `
// flowrun's operators, as lib/check/operators.ts defines them.
const canon = (v) => Array.isArray(v) ? v.map(canon) : v !== null && typeof v === "object"
  ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v;
const same = (a, b) => JSON.stringify(canon(a)) === JSON.stringify(canon(b));
const num = (v) => typeof v === "number" ? v
  : typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : undefined;
const typeOf = (v) => v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
const compare = (holds) => (a, e) => typeof a === "number" && num(e) !== undefined && holds(a, num(e));
const sizeOf = (v) => typeof v === "string" || Array.isArray(v) ? v.length
  : v !== null && typeof v === "object" ? Object.keys(v).length : undefined;
const OPERATORS = {
  exists: () => true,
  truthy: (a, e) => !(a === false || a === null || a === 0 || a === "") === (e !== false),
  type: (a, e) => e === "integer" ? Number.isInteger(a) : typeOf(a) === e,
  equals: same,
  notEquals: (a, e) => !same(a, e),
  matches: (a, e) => typeof a === "string" && new RegExp(String(e)).test(a),
  anyOf: (a, e) => Array.isArray(e) && e.some((x) => same(a, x)),
  gt: compare((a, b) => a > b),
  gte: compare((a, b) => a >= b),
  lt: compare((a, b) => a < b),
  lte: compare((a, b) => a <= b),
  contains: (a, e) => typeof a === "string" && typeof e === "string" ? a.includes(e)
    : Array.isArray(a) && a.some((x) => same(x, e)),
  containsAll: (a, e) => Array.isArray(a) && Array.isArray(e) && e.every((x) => a.some((y) => same(x, y))),
  length: (a, e) => sizeOf(a) !== undefined && sizeOf(a) === num(e),
};

/** The user's variable at a dotted path (\`$env.X\`, \`f0_var_a.b\`), as Artillery reads one. */
const lookup = (vars, path) => path.split(".").reduce((v, k) => v === null || v === undefined ? v : v[k], vars);
const TEMPLATE = /\\{\\{\\s*([\\w$.-]+)\\s*\\}\\}/g;

/** An expected value with the user's values in place of its \`{{ … }}\`. */
function render(value, vars) {
  if (Array.isArray(value)) return value.map((item) => render(item, vars));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, render(v, vars)]));
  }
  if (typeof value !== "string") return value;
  const whole = /^\\{\\{\\s*([\\w$.-]+)\\s*\\}\\}$/.exec(value);
  if (whole) return lookup(vars, whole[1]);
  return value.replace(TEMPLATE, (_all, name) => {
    const found = lookup(vars, name);
    return typeof found === "string" ? found : JSON.stringify(found) ?? "";
  });
}

/** What a flowrun path reads in a response: [found, value]. */
function readAt(res, at) {
  const [root, ...chain] = at;
  let value;
  if (root === "status") value = res.statusCode;
  else if (root === "headers") value = res.headers[chain.shift()];
  else if (root === "body") value = typeof res.body === "string" ? res.body : JSON.stringify(res.body);
  else if (root === "duration_ms") value = res.timings && res.timings.phases && res.timings.phases.total;
  else {
    try {
      value = typeof res.body === "string" ? JSON.parse(res.body) : res.body;
    } catch {
      return [false];
    }
  }
  for (const key of chain) {
    if (value === null || typeof value !== "object" || !(key in value)) return [false];
    value = value[key];
  }
  return [value !== undefined, value];
}

/** Whether one check holds for a response, and how it reads in a message. */
function verdict(check, res, vars) {
  const [found, value] = readAt(res, check.at);
  const expected = render(check.expected, vars);
  const ok = check.op === "exists"
    ? found === (expected !== false)
    : found && OPERATORS[check.op](value, expected);
  const got = found ? JSON.stringify(value) : "nothing";
  return { ok, text: check.path + " " + check.op + " " + JSON.stringify(expected) + ": got " + got };
}

/** Ends the virtual user as a failed expectation does: counted, printed, exit 21. */
function fail(req, failed, next) {
  if (global.artillery) global.artillery.suggestedExitCode = 21;
  console.log("not ok " + req.name + ": " + failed.join("; "));
  return next(new Error("Failed checks for request " + req.name));
}

/** After each response that has them: the request's checks the expect plugin cannot make. */
function flowrunChecks(req, res, context, events, next) {
  // A polling request's checks read its last response only, as flowrun's do.
  if (req.flowrunUntil && !context.vars.flowrun_poll_last) return next();
  const failed = [];
  for (const check of req.flowrunChecks || []) {
    const { ok, text } = verdict(check, res, context.vars);
    events.emit("counter", "flowrun.checks." + (ok ? "ok" : "failed"), 1);
    if (!ok) failed.push(text);
  }
  return failed.length === 0 ? next() : fail(req, failed, next);
}

/** A cookie the response sets, by name (the last line that sets it wins). */
function cookieOf(res, name) {
  let value;
  for (const line of [].concat(res.headers["set-cookie"] || [])) {
    const pair = String(line).split(";")[0];
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at).trim() === name) value = pair.slice(at + 1).trim();
  }
  return value;
}

/** A header's value, its URL's query parameter or its regex's first group, as flowrun captures it. */
function headerOf(res, capture) {
  const raw = res.headers[capture.header];
  const value = Array.isArray(raw) ? raw.join(",") : raw;
  if (value === undefined) return undefined;
  if (capture.query) {
    const found = new URL(value, "http://x.invalid/").searchParams.get(capture.query);
    return found === null ? undefined : found;
  }
  if (capture.regex) {
    const match = new RegExp(capture.regex).exec(value);
    return match ? (match[1] === undefined ? "" : match[1]) : undefined;
  }
  return value;
}

/** After each response that has them: the captures Artillery cannot make; one that finds nothing fails. */
function flowrunCapture(req, res, context, events, next) {
  const missing = [];
  for (const capture of req.flowrunCaptures || []) {
    const value = capture.cookie !== undefined ? cookieOf(res, capture.cookie) : headerOf(res, capture);
    if (value === undefined) missing.push("capture " + capture.as + ": nothing found");
    else context.vars[capture.as] = value;
  }
  return missing.length === 0 ? next() : fail(req, missing, next);
}

/** After each attempt of a polling request: whether its until checks hold, or attempts ran out. */
function flowrunUntil(req, res, context, events, next) {
  const poll = req.flowrunUntil;
  const v = context.vars;
  v.flowrun_poll_attempts = (v.flowrun_poll_attempts || 0) + 1;
  const verdicts = poll.checks.map((check) => verdict(check, res, v));
  const done = verdicts.every((one) => one.ok);
  v.flowrun_poll_last = done || v.flowrun_poll_attempts >= poll.max;
  v.flowrun_poll_sleep = poll.sleepMs;
  if (done || !v.flowrun_poll_last) return next();
  const unmet = verdicts.filter((one) => !one.ok).map((one) => one.text);
  return fail(req, ["until not met after " + poll.max + " attempts: " + unmet.join("; ")], next);
}

/** Artillery's whileTrue of a polling loop: again after the sleep, unless that was the last attempt. */
function flowrunPolling(context, next) {
  const v = context.vars;
  if (v.flowrun_poll_last) {
    v.flowrun_poll_attempts = 0;
    v.flowrun_poll_last = false;
    return next(false);
  }
  setTimeout(() => next(true), v.flowrun_poll_sleep);
}
`;
