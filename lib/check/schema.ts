/**
 * Schema checks: a response body against a JSON Schema (inline or a file)
 * or against an OpenAPI 3 document (the operation found by the request's
 * method and path, the response by its status), every violation listed by
 * its JSON pointer. Schemas are compiled at load time, before anything is
 * sent (`lib/load/schema_compile.ts`); this is the validating side.
 *
 * @module
 */
import type { SchemaCheck, Validate } from "../model/flow.ts";
import { GuardError, MATCH_TIME_LIMIT_MS } from "../_util/time_guard.ts";
import { plural } from "../_util/plural.ts";
import { SLOW_REGEX } from "../_util/regex_problem.ts";
import type { AssertionResult } from "../model/result.ts";
import { MAX_SCHEMA_DEPTH } from "../load/schema_problem.ts";
import { operationSchema } from "./openapi.ts";
import { thousands } from "../_util/thousands.ts";

const MAX_LISTED = 10;

/** Whether a value nests deeper than {@linkcode MAX_SCHEMA_DEPTH}, found without recursion. */
function tooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth >= MAX_SCHEMA_DEPTH) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Responses whose schema check ran out of time: the next checks on them are not tried. */
const spent = new WeakSet<object>();

/**
 * Evaluates a schema check on a response (the JSON body); `requestUrl` and
 * `method` find the OpenAPI operation.
 *
 * @example
 * ```ts
 * import { checkSchema } from "./schema.ts";
 * const check = { kind: "schema" as const, source: "inline schema", schema: {}, file: "f.yaml",
 *   line: 3, column: 5, validate: (v: unknown) => typeof v === "object" ? [] : [{ at: "", message: "must be object" }] };
 * const response = { status: 200, json: { ok: true as const, value: 5 } };
 * const result = checkSchema(check, response, "GET", "http://x.test/", "assert");
 * if (result.message !== "$.json: 1 violation of inline schema: / must be object") throw new Error(result.message);
 * ```
 */
export function checkSchema(
  check: SchemaCheck,
  response: {
    status: number;
    json: { ok: true; value: unknown } | { ok: false };
    spilled?: { reason: string };
  },
  method: string,
  requestUrl: string,
  phase: AssertionResult["phase"],
): AssertionResult {
  const base = {
    phase,
    path: "$.json",
    operator: check.kind,
    expected: check.source,
    line: check.line,
    column: check.column,
  };
  const json = response.json;
  const fail = (message: string, actual: unknown = null): AssertionResult => ({
    ...base,
    actual,
    found: json.ok,
    passed: false,
    message: `$.json: ${message}`,
  });
  if (response.spilled) return fail(response.spilled.reason);
  const bodiless = json.ok || check.kind === "schema" ? undefined : noBody(method, response.status);
  if (!json.ok && bodiless === undefined) {
    return fail("the response body is not JSON, so it cannot match a schema");
  }
  const schema = schemaOf(check, method, requestUrl, response.status);
  if ("missing" in schema) return fail(schema.missing);
  // An answer HTTP gives no body has nothing to match its document's schema (aiohttp-apispec
  // writes its GET's under every HEAD, and one under a 204); its status was still looked up.
  if (!json.ok) {
    const message = `$.json: ${bodiless} has no body, so ${schema.what} is not matched`;
    return { ...base, actual: null, found: false, passed: true, message };
  }
  const unchecked = whyUnchecked(json.value, response);
  if (unchecked !== undefined) return fail(unchecked);
  const violations = validateBody(schema, json.value, response);
  if (typeof violations === "string") return fail(violations);
  if (violations.length === 0) {
    return {
      ...base,
      actual: null,
      found: true,
      passed: true,
      message: `$.json matches ${schema.what}`,
    };
  }
  return fail(violationsMessage(violations, schema.what), violations);
}

/**
 * Which answer HTTP gives no body, as a message names it: one to HEAD (RFC 9110, 9.3.2), a 204
 * No Content, a 205 Reset Content or a 304 Not Modified (15.3.5, 15.3.6, 15.4.5).
 */
function noBody(method: string, status: number): string | undefined {
  if (method.toUpperCase() === "HEAD") return "a response to HEAD";
  return [204, 205, 304].includes(status) ? `a ${status} response` : undefined;
}

const NOT_COMPILED = "the schema was not compiled (run flows with runFlows or the CLI)";

/** A compiled schema and how messages name it. */
interface Schema {
  validate: Validate;
  /** The source, and for OpenAPI the operation and response (`GET /items 200`). */
  what: string;
}

/** The schema a response is checked against, or why there is none. */
function schemaOf(
  check: SchemaCheck,
  method: string,
  requestUrl: string,
  status: number,
): Schema | { missing: string } {
  if (check.kind === "schema") {
    return check.validate
      ? { validate: check.validate, what: check.source }
      : { missing: NOT_COMPILED };
  }
  if (!check.ajv) return { missing: NOT_COMPILED };
  const found = operationSchema(check, method, requestUrl, status);
  if ("missing" in found) return found;
  return { validate: found.validate, what: `${check.source} (${found.where})` };
}

/** Why a body is not validated at all: nested too deep, or an earlier check of it ran out of time. */
function whyUnchecked(value: unknown, response: object): string | undefined {
  if (tooDeep(value)) {
    return `the body is nested deeper than ${
      thousands(MAX_SCHEMA_DEPTH)
    } levels, the limit for a schema check`;
  }
  if (spent.has(response)) {
    return `not checked: an earlier schema check of the same body did not finish within ${LIMIT}`;
  }
  return undefined;
}

/** How long a validation may take, as messages say it. */
const LIMIT = `${MATCH_TIME_LIMIT_MS / 1000} s`;

/** The violations of the body, or why validating it failed or did not finish. */
function validateBody(
  schema: Schema,
  value: unknown,
  response: object,
): ReturnType<Validate> | string {
  try {
    return schema.validate(value);
  } catch (error) {
    if (!(error instanceof GuardError)) throw error;
    if (error.code === "check-failed") {
      return `checking it against ${schema.what} failed: ${error.message}`;
    }
    spent.add(response);
    return `checking it against ${schema.what} did not finish within ${LIMIT} (${SLOW_REGEX})`;
  }
}

/** The first {@linkcode MAX_LISTED} violations by their JSON pointers, the rest counted. */
function violationsMessage(violations: ReturnType<Validate>, what: string): string {
  const listed = violations.slice(0, MAX_LISTED).map((v) => `${v.at || "/"} ${v.message}`);
  const more = violations.length > MAX_LISTED ? `; and ${violations.length - MAX_LISTED} more` : "";
  return `${plural(violations.length, "violation")} of ${what}: ${listed.join("; ")}${more}`;
}
