/**
 * The processor file an exported script names (`config.processor`): the
 * JavaScript Artillery runs for each virtual user. `flowrunStart`, the
 * first item of every scenario, sets the user's flow vars and environment
 * fallbacks once, as `flowrun run` evaluates them once per flow run;
 * `flowrunBefore`, before a request that reads `${RANDOM.…}` or puts a
 * value into its URL, makes its random values anew (so parallel users
 * never share one) and percent-encodes the URL's values as run does. Plain CommonJS
 * with Node's own modules only, so Artillery's distributed runners bundle
 * it as it is.
 *
 * @module
 */
import { OAUTH2_SOURCE, tokenFunctions } from "./oauth2.ts";
import { CHECKS_SOURCE } from "./processor_checks.ts";
import { kindFunctions } from "./processor_kinds.ts";
import type { ExportScope, Fresh } from "./scope.ts";

/** The processor's functions every export has; each step's condition adds one. */
const EXPORTED = [
  "flowrunStart",
  "flowrunOutputs",
  "flowrunBefore",
  "flowrunCollect",
  "flowrunCapture",
  "flowrunChecks",
  "flowrunUntil",
  "flowrunPolling",
];

/** The processor's file name, beside the script. */
export const PROCESSOR_FILE = "flowrun-processor.js";

const HEAD = `"use strict";
// Written by flowrun export artillery; written again on each export.
const { randomBytes, randomUUID } = require("node:crypto");

const uuid = () => randomUUID();
const hex = (n) => randomBytes(Math.ceil(n / 2)).toString("hex").slice(0, n);
// As flowrun's \${RANDOM.ALPHA_<n>}: n letters a to z.
const alpha = (n) => Array.from(randomBytes(n), (b) => String.fromCharCode(97 + (b % 26))).join("");
// As flowrun's \${RANDOM.UPPER_<n>}: n letters A to Z.
const upper = (n) => alpha(n).toUpperCase();
// As flowrun's \${RANDOM.DIGITS_<n>} (a number of n digits) and \${RANDOM.BOOL}.
const digits = (n) => 10 ** (n - 1) + Math.floor(Math.random() * 9 * 10 ** (n - 1));
const bool = () => Math.random() < 0.5;
// As flowrun's \${RANDOM.PASSWORD}: 16 characters, the four classes in turn (no repeat, no run).
const password = () => {
  const classes = ["ABCDEFGHJKLMNPQRSTUVWXYZ", "abcdefghijkmnpqrstuvwxyz", "23456789", "!-_"];
  const start = randomBytes(1)[0];
  return Array.from({ length: 16 }, (_, i) => {
    const chars = classes[(start + i) % 4];
    return chars[randomBytes(1)[0] % chars.length];
  }).join("");
};
// As flowrun's \${NOW.UNIX}, \${NOW.UNIX_MS}, \${NOW.ISO}, \${NOW.DATE} and \${NOW.DATETIME}
// (\${NOW.DATETIME_MS}: to the millisecond), shifted by offsetMs.
const now = (format, offsetMs) => {
  const ms = Date.now() + offsetMs;
  const cut = { date: 10, datetime: 19, "datetime-ms": 23 }[format];
  if (cut) return new Date(ms).toISOString().slice(0, cut);
  return format === "iso" ? new Date(ms).toISOString() : format === "unix" ? Math.floor(ms / 1000) : ms;
};
// A value as text, as flowrun puts it into a URL: strings as they are, the rest as JSON.
const text = (value) => typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
// As flowrun's \${ENV.NAME:-fallback}: the fallback when unset or empty.
const env = (name, fallback) => {
  const value = process.env[name];
  return value === undefined || value === "" ? fallback : value;
};
`;

/**
 * The processor's source for what the export gathered in `scope`.
 *
 * @example
 * ```ts
 * import { processorSource } from "./processor.ts";
 * import { newScope } from "./scope.ts";
 * const scope = newScope();
 * scope.fresh.set("f0_fresh_1", { kind: "uuid" });
 * if (!processorSource(scope).includes('v["f0_fresh_1"] = uuid();')) throw new Error();
 * ```
 */
export function processorSource(scope: ExportScope): string {
  const ifs = [...scope.conditions].map(([name, code]) =>
    `/** Artillery's ifTrue of a step: whether it is sent. */\nfunction ${name}(v) {\n  return when(${code});\n}\n`
  );
  const kinds = kindFunctions(scope);
  const names = [
    ...EXPORTED,
    ...scope.conditions.keys(),
    ...scope.tokenCode.keys(),
    ...kinds.names,
  ];
  return `${HEAD}${valueFunctions(scope)}
/** After each iteration of a foreach step: its captures added to their lists. */
function flowrunCollect(req, _res, context, _events, next) {
  const v = context.vars;
  for (const { from, to, index } of req.flowrunCollect) {
    if (v[index] === 0 || !Array.isArray(v[to])) v[to] = [];
    v[to].push(v[from]);
  }
  return next();
}
${CHECKS_SOURCE}${OAUTH2_SOURCE}
${tokenFunctions(scope).join("\n")}
/** Whether a step's if: conditions all hold, as flowrun evaluates them. */
const when = (conditions) => conditions.every((c) =>
  c.op === "exists"
    ? (c.value !== undefined && c.value !== null) === (c.expected !== false)
    : c.value !== undefined && OPERATORS[c.op](c.value, c.expected)
);
${ifs.join("\n")}${kinds.source}
module.exports = {
${names.map((name) => `  ${name},`).join("\n")}
};
`;
}

/** Assignments of the user's variables, one a line. */
function assigned(entries: Iterable<[string, string]>): string {
  return [...entries].map(([name, code]) => `  v[${JSON.stringify(name)}] = ${code};`).join("\n");
}

/** The processor's call that makes a fresh value. */
function freshCode(how: Fresh): string {
  switch (how.kind) {
    case "uuid":
      return "uuid()";
    case "hex":
      return `hex(${how.length})`;
    case "alpha":
      return `alpha(${how.length})`;
    case "upper":
      return `upper(${how.length})`;
    case "digits":
      return `digits(${how.length})`;
    case "bool":
      return "bool()";
    case "password":
      return "password()";
    case "now":
      return `now(${JSON.stringify(how.format)}, ${how.offsetMs})`;
  }
}

/** The functions that set the user's variables: setup outputs, flow vars, fresh and URL values. */
function valueFunctions(scope: ExportScope): string {
  const fresh = [...scope.fresh].map(([name, how]): [string, string] => [
    name,
    freshCode(how),
  ]);
  return `
/** At the end of before: (the setup flows): their outputs, which every user reads. */
function flowrunOutputs(context, _events, done) {
  const v = context.vars;
${assigned(scope.outputs)}
  return done();
}

/** Once per virtual user: its flow vars and environment fallbacks. */
function flowrunStart(context, _events, done) {
  const v = context.vars;
${assigned(scope.perUser)}
  return done();
}

/** Before each request that reads a random value or puts a value into its URL. */
function flowrunBefore(context, _events, done) {
  const v = context.vars;
${assigned([...fresh, ...scope.encoded])}
  return done();
}
`;
}
