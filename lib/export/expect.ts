/**
 * A step's checks as expectations of Artillery's bundled expect plugin:
 * the status as `statusCode` (bounds, `lt: 400`, go to the processor),
 * headers as `hasHeader`/`headerEquals`, and
 * checks on the JSON body as `jmespath` expressions (`"a"."b" == \`5\``),
 * which compare typed values as flowrun does. A check whose expected value
 * comes from the run (a capture) is compared as text with `equals`, over a
 * capture of the checked value. What the plugin cannot express (`matches`,
 * `integer`, schemas, XPath, `each`, conditional groups) is noted.
 *
 * @module
 */
import type { Checks, PathCheck, StatusCheck } from "../model/checks.ts";
import type { ArtilleryCapture } from "./captures.ts";
import { jmesPathOf, jsonPathOf, type Target, targetOf } from "./response_path.ts";
import { type ProcessorCheck, processorCheck } from "./processor_checks.ts";
import { note, type Place } from "./scope.ts";
import { templateValue } from "./template.ts";

/** The expectations of a step, and the captures that feed its `equals`. */
export interface Expectations {
  expect: Record<string, unknown>[];
  captures: ArtilleryCapture[];
  /** Checks the processor's `flowrunChecks` hook makes. */
  checks: ProcessorCheck[];
}

/** A JSON value as a JMESPath literal. */
const literal = (value: unknown): string => `\`${JSON.stringify(value).replaceAll("`", "\\`")}\``;

const COMPARE: Record<string, string> = {
  equals: "==",
  notEquals: "!=",
  gt: ">",
  gte: ">=",
  lt: "<",
  lte: "<=",
};

const TYPES = new Set(["string", "number", "boolean", "object", "array", "null"]);

/** A JMESPath test of `at` against a constant, or undefined for an operator it cannot express. */
function jmesTest(at: string, operator: string, expected: unknown): string | undefined {
  if (operator in COMPARE) return `${at} ${COMPARE[operator]} ${literal(expected)}`;
  if (operator === "exists") return `${at} ${expected === false ? "==" : "!="} null`;
  if (operator === "contains") return `contains(${at}, ${literal(expected)})`;
  if (operator === "anyOf" && Array.isArray(expected)) {
    return `contains(${literal(expected)}, ${at})`;
  }
  if (operator === "length") return `length(${at}) == ${literal(expected)}`;
  if (operator === "type" && TYPES.has(String(expected))) return `type(${at}) == '${expected}'`;
  if (operator === "containsAll" && Array.isArray(expected) && expected.length > 0) {
    return expected.map((item) => `contains(${at}, ${literal(item)})`).join(" && ");
  }
  return undefined;
}

/** The expectation of a check against a constant, or undefined when the plugin has none. */
function constantExpectation(
  target: Target,
  check: PathCheck,
): Record<string, unknown> | undefined {
  const expected = (check.expected as { value: unknown }).value;
  const operator = check.operator;
  switch (target.kind) {
    case "status":
      return operator === "equals" || operator === "anyOf" ? { statusCode: expected } : undefined;
    case "header":
      if (operator === "exists" && expected === true) return { hasHeader: target.name };
      return operator === "equals" ? { headerEquals: [target.name, String(expected)] } : undefined;
    case "json": {
      const test = jmesTest(jmesPathOf(target.chain), operator, expected);
      const description = `${check.path.source} ${operator} ${JSON.stringify(expected)}`;
      return test === undefined ? undefined : { jmespath: test, description };
    }
  }
  return undefined;
}

/** An `equals` whose expected value comes from the run: compared as text, over a capture. */
function capturedEquals(target: Target, check: PathCheck, place: Place, out: Expectations) {
  if (target.kind !== "json" || check.operator !== "equals") return undefined;
  const as = `f${place.flowIndex}_check_${++place.scope.checkCaptures}`;
  out.captures.push({ json: jsonPathOf(target.chain), as, strict: false });
  return { equals: [`{{ ${as} }}`, templateValue(check.expected, place)] };
}

/** Adds the expectation of one path check; false when there is none (the caller notes it). */
function pathExpectation(check: PathCheck, place: Place, out: Expectations): boolean {
  if (check.each || check.groups?.length || check.base?.length) return false;
  const target = targetOf(check.path);
  if (!target) return false;
  const found = check.expected.kind === "const"
    ? constantExpectation(target, check)
    : capturedEquals(target, check, place, out);
  if (found) out.expect.push(found);
  return found !== undefined;
}
/** A path check as an expectation, else as a processor check, else noted. */
function addPathCheck(
  check: PathCheck,
  place: Place,
  out: Expectations,
  processorOnly: boolean,
): void {
  if (!processorOnly && pathExpectation(check, place, out)) return;
  const grouped = check.each || check.groups?.length || check.base?.length;
  const made = grouped ? undefined : processorCheck(check, targetOf(check.path), place);
  if (made) {
    out.checks.push(made);
    return;
  }
  const why = grouped
    ? "each and conditional check groups are not expressed"
    : "its path is not one Artillery or the processor can read";
  note(
    place,
    `check ${check.path.source} ${check.operator} ${describe(check)} is not expressed (${why})`,
  );
}

/** Adds the status check: codes as `statusCode`, or the processor's (bounds, codes from the run). */
function addStatus(
  status: StatusCheck,
  place: Place,
  out: Expectations,
  processorOnly: boolean,
): void {
  if (status.operator === "bounds") {
    // The expect plugin's statusCode takes only codes: the processor compares each bound.
    for (const b of status.bounds ?? []) {
      const expected = b.from ? templateValue(b.from, place) : b.value;
      out.checks.push({ path: "$.status", at: ["status"], op: b.op, expected });
    }
  } else if (processorOnly || status.from?.length) {
    // Codes from the run, or a polling step's: the processor compares them.
    const from = (status.from ?? []).map((code) => templateValue(code, place));
    out.checks.push({
      path: "$.status",
      at: ["status"],
      op: "anyOf",
      expected: [...status.expected, ...from],
    });
  } else {
    out.expect.push({
      statusCode: status.expected.length === 1 ? status.expected[0] : status.expected,
    });
  }
}

/**
 * The expectations of a step's checks; each check it cannot express is
 * noted. `processorOnly` gives every check to the processor (a polling
 * step's, which must read only the last response).
 *
 * @example
 * ```ts
 * import { expectationsOf } from "./expect.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>(), step: "s" };
 * const out = expectationsOf({ status: { operator: "equals", expected: [201], line: 1, column: 1 }, paths: [] }, place);
 * if (JSON.stringify(out.expect) !== '[{"statusCode":201}]') throw new Error();
 * ```
 */
export function expectationsOf(checks: Checks, place: Place, processorOnly = false): Expectations {
  const out: Expectations = { expect: [], captures: [], checks: [] };
  if (checks.status) addStatus(checks.status, place, out, processorOnly);
  for (const check of checks.paths) addPathCheck(check, place, out, processorOnly);
  for (const schema of checks.schemas ?? []) {
    note(
      place,
      `the ${schema.kind === "schema" ? "JSON Schema" : "OpenAPI"} check is not expressed`,
    );
  }
  for (const xpath of checks.xpaths ?? []) {
    note(place, `check xpath ${xpath.xpath} is not expressed`);
  }
  return out;
}

/** The expected value of a check as written, for its note. */
function describe(check: PathCheck): string {
  return check.expected.kind === "const"
    ? JSON.stringify(check.expected.value) ?? "null"
    : check.expected.kind === "template"
    ? JSON.stringify(check.expected.template.source)
    : "(a list or map)";
}

/**
 * Adds captures and expectations to a request item, after those it has:
 * the expect plugin's under `expect`, the processor's under
 * `flowrunChecks` and `flowrunCaptures` with the `afterResponse` hooks that
 * make them.
 *
 * @example
 * ```ts
 * import { attachChecks } from "./expect.ts";
 * const request: Record<string, unknown> = { url: "u", expect: [{ statusCode: 200 }] };
 * attachChecks(request, [], { expect: [{ hasHeader: "etag" }], captures: [], checks: [] });
 * if (JSON.stringify(request.expect) !== '[{"statusCode":200},{"hasHeader":"etag"}]') throw new Error();
 * ```
 */
export function attachChecks(
  request: Record<string, unknown>,
  captures: ArtilleryCapture[],
  expected: Expectations,
): void {
  const add = (key: string, items: unknown[]) => {
    if (items.length) request[key] = [...(request[key] as unknown[] ?? []), ...items];
  };
  const viaProcessor = captures.filter((c) => "flowrun" in c);
  add("capture", [...captures.filter((c) => !("flowrun" in c)), ...expected.captures]);
  add("flowrunCaptures", viaProcessor.map(({ as, flowrun }) => ({ as, ...(flowrun as object) })));
  add("expect", expected.expect);
  add("flowrunChecks", expected.checks);
  const hooks = [
    ...(viaProcessor.length ? ["flowrunCapture"] : []),
    ...(expected.checks.length ? ["flowrunChecks"] : []),
  ];
  const before = request.afterResponse === undefined ? [] : [request.afterResponse].flat();
  if (hooks.length) request.afterResponse = [...new Set([...before, ...hooks])];
}
