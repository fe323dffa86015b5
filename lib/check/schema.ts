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
import { show } from "./json_value.ts";
import { GuardError, MATCH_TIME_LIMIT_MS } from "../_util/time_guard.ts";
import type { AssertionResult } from "../model/result.ts";
import { guardedValidator } from "../load/schema_compile.ts";
import { MAX_SCHEMA_DEPTH } from "../load/schema_problem.ts";

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
  if (!json.ok) return fail("the response body is not JSON, so it cannot match a schema");
  if (check.kind === "openapi" && !check.ajv) {
    return fail("the schema was not compiled (run flows with runFlows or the CLI)");
  }
  let validate: Validate | undefined = check.kind === "schema" ? check.validate : undefined;
  let what = check.source;
  if (check.kind === "openapi") {
    const found = operationSchema(check, method, requestUrl, response.status);
    if ("missing" in found) return fail(found.missing);
    validate = found.validate;
    what = `${check.source} (${found.where})`;
  }
  if (!validate) return fail("the schema was not compiled (run flows with runFlows or the CLI)");
  if (tooDeep(json.value)) {
    return fail(
      `the body is nested deeper than ${
        MAX_SCHEMA_DEPTH.toLocaleString("en-US")
      } levels, the limit for a schema check`,
    );
  }
  const limit = `${MATCH_TIME_LIMIT_MS / 1000} s`;
  if (spent.has(response)) {
    return fail(
      `not checked: an earlier schema check of the same body did not finish within ${limit}`,
    );
  }
  let violations: ReturnType<Validate>;
  try {
    violations = validate(json.value);
  } catch (error) {
    if (!(error instanceof GuardError)) throw error;
    if (error.code === "check-failed") {
      return fail(`checking it against ${what} failed: ${error.message}`);
    }
    spent.add(response);
    return fail(
      `checking it against ${what} did not finish within ${limit} (a pattern with nested ` +
        "quantifiers such as (a+)+ can take exponential time)",
    );
  }
  if (violations.length === 0) {
    return { ...base, actual: null, found: true, passed: true, message: `$.json matches ${what}` };
  }
  const listed = violations.slice(0, MAX_LISTED).map((v) => `${v.at || "/"} ${v.message}`);
  const more = violations.length > MAX_LISTED ? `; and ${violations.length - MAX_LISTED} more` : "";
  return fail(
    `${violations.length} violation${violations.length === 1 ? "" : "s"} of ${what}: ${
      listed.join("; ")
    }${more}`,
    violations,
  );
}

/** The response schema of the OpenAPI operation for a request and a status. */
function operationSchema(
  check: Extract<SchemaCheck, { kind: "openapi" }>,
  method: string,
  requestUrl: string,
  status: number,
): { validate: Validate; where: string } | { missing: string } {
  // The document is the user's (or the API vendor's) JSON: every member is read as what it
  // may be, own members only, so a null path item or a "constructor" method is "no operation".
  const doc = check.document as Node;
  const member = (node: unknown, key: string): unknown =>
    isNode(node) && Object.hasOwn(node, key) ? node[key] : undefined;
  const servers = member(doc, "servers");
  const path = requestPath(requestUrl, Array.isArray(servers) ? servers : undefined);
  const paths = isNode(member(doc, "paths")) ? member(doc, "paths") as Node : {};
  const match = Object.keys(paths)
    .map((template) => ({ template, score: pathScore(template, path) }))
    .filter((m) => m.score >= 0)
    .sort((a, b) => b.score - a.score)[0];
  const operation = match && member(paths[match.template], method.toLowerCase());
  if (!match || !isNode(operation)) {
    return { missing: `${check.source} has no operation for ${method} ${path}` };
  }
  const responses = isNode(operation.responses) ? operation.responses : {};
  const code = [String(status), `${String(status)[0]}XX`, `${String(status)[0]}xx`, "default"]
    .find((c) => Object.hasOwn(responses, c));
  if (!code) {
    return {
      missing:
        `${check.source} documents no response ${status} for ${method} ${match.template} (it has ${
          show(Object.keys(responses))
        })`,
    };
  }
  const pointer = ["paths", match.template, method.toLowerCase(), "responses", code];
  let response = responses[code];
  const target = member(response, "$ref");
  if (typeof target === "string" && target.startsWith("#/")) {
    const parts = target.slice(2).split("/").map(unescape);
    response = parts.reduce<unknown>((node, p) => member(node, p), check.document);
    pointer.splice(0, pointer.length, ...parts);
  }
  const content = member(response, "content");
  const type = Object.keys(isNode(content) ? content : {}).find((t) =>
    /json/i.test(t) && isNode(member(content, t))
  );
  if (!type) {
    return {
      missing: `${check.source} gives no JSON body for ${method} ${match.template} ${code}`,
    };
  }
  pointer.push("content", type, "schema");
  const ref = `openapi#/${
    pointer.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")
  }`;
  const cache = check.compiled ??= new Map();
  let validate = cache.get(ref);
  if (!validate) cache.set(ref, validate = guardedValidator(check, ref));
  return { validate, where: `${method.toUpperCase()} ${match.template} ${code}` };
}

function unescape(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** The request's path, without the base path of the document's first server. */
function requestPath(url: string, servers: unknown[] | undefined): string {
  const path = new URL(url).pathname;
  for (const server of servers ?? []) {
    let base = "";
    try {
      const url = isNode(server) && typeof server.url === "string" ? server.url : "";
      base = new URL(url, "http://x").pathname.replace(/\/$/, "");
    } catch {
      continue;
    }
    if (base && path.startsWith(`${base}/`)) return path.slice(base.length);
  }
  return path;
}

/** How well a path template matches a path: -1 for no match, more for more literal segments. */
function pathScore(template: string, path: string): number {
  const t = template.split("/");
  const p = path.split("/");
  if (t.length !== p.length) return -1;
  let score = 0;
  for (let i = 0; i < t.length; i++) {
    if (/^\{[^}]+\}$/.test(t[i])) {
      if (p[i] === "") return -1;
    } else if (t[i] === p[i]) score++;
    else return -1;
  }
  return score;
}

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
