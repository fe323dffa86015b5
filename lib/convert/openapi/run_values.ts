/**
 * Request body values a real server accepts more than once: a password is
 * never a literal in the flow (the flow var `password`, generated per run,
 * its confirmation the same),
 * an email, a user name and the password are the flow's vars (so the user
 * who registers is the user who logs in, and a second run registers
 * another), and a title, name or slug the generator could only call
 * `string` becomes `<field>-<random>` (a title a slug is made from, a name
 * a server keeps unique). So does one the document shows only as a form in
 * its description (`samples`: PowerDNS's zone `name`, “example.com.”), the
 * suffix before its closing punctuation (`example.com-${RANDOM.HEX_8}.`) so
 * the form holds. Any other field of a body the generator could only call
 * `string` is made per run too (Platformatic DB's `isbn`, a UNIQUE column
 * no schema says is one: a second create of `string` was refused 500); a
 * query's is not (it is read, not kept). The vars are made per flow run
 * from `${RANDOM…}`: flows that run at once do not collide. A window's
 * times are the run's (`time_window.ts`).
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import type { YNode } from "../yaml_out.ts";
import { isPasswordField } from "./password_field.ts";
import { queryEntries } from "./params.ts";
import { plainName } from "./producers.ts";
import { windowTimes } from "./time_window.ts";
import { withinLimit } from "./length_limits.ts";
import { MADE_PASSWORD } from "./own_account_guard.ts";

/** The flow vars a body may read, and the value each is generated with per run. */
export const RUN_VARS: Record<"email" | "username" | "password", string> = {
  email: "user-${RANDOM.HEX_8}@example.com",
  username: "user${RANDOM.HEX_8}",
  password: "${RANDOM.PASSWORD}",
};

/**
 * The names of the vars `runVarsOf` makes, which no other var of a flow takes.
 *
 * @example
 * ```ts
 * import { RUN_VAR_NAMES } from "./run_values.ts";
 * if (!RUN_VAR_NAMES.includes("password") || !RUN_VAR_NAMES.includes("made_password")) {
 *   throw new Error(RUN_VAR_NAMES.join());
 * }
 * ```
 */
export const RUN_VAR_NAMES: readonly string[] = [...Object.keys(RUN_VARS), "pin", MADE_PASSWORD];

/** The vars of an account apart from the run's (second_signup.ts's `apartVars`), and their values. */
export const APART_VARS: Record<string, string> = {
  own_email: RUN_VARS.email,
  own_username: RUN_VARS.username,
};

/**
 * The run vars `used` names, each with its value: those of `RUN_VARS` (the
 * password `password` when given: plain_password.ts), and a
 * numeric secret (`pin:<n>`, a passcode the schema types as a number) as
 * `pin`, `n` fresh digits (the first not 0), as many as the value the body
 * was filled with has: a number alone, never a literal credential.
 *
 * @example
 * ```ts
 * import { runVarsOf } from "./run_values.ts";
 * const got = runVarsOf(new Set(["email", "pin:4"]));
 * if (JSON.stringify(got) !== '[["email","user-${RANDOM.HEX_8}@example.com"],["pin","${RANDOM.DIGITS_4}"]]') {
 *   throw new Error(JSON.stringify(got));
 * }
 * ```
 */
export function runVarsOf(used: ReadonlySet<string>, password?: string): [string, string][] {
  const made: [string, string][] = Object.entries(RUN_VARS).filter(([k]) => used.has(k))
    .flatMap(([k, v]) => k === "password" ? passwordVars(used, password ?? v) : [[k, v]]);
  // An account apart from the run's, in vars of its own (second_signup.ts).
  for (const [k, v] of Object.entries(APART_VARS)) if (used.has(k)) made.push([k, v]);
  const pin = [...used].find((k) => k.startsWith("pin:"));
  if (pin) made.push(["pin", `\${RANDOM.DIGITS_${pin.slice(4)}}`]);
  return made;
}

/**
 * The password's var, or where the setup's sign-up runs for the run's own account only
 * (own_account_guard.ts), the made password's var and `password` reading it.
 */
function passwordVars(used: ReadonlySet<string>, value: string): [string, string][] {
  if (!used.has(MADE_PASSWORD)) return [["password", value]];
  return [[MADE_PASSWORD, value], ["password", `\${vars.${MADE_PASSWORD}}`]];
}

/** A numeric secret's per-run var (`runVarsOf`): as many digits as `value`, 1 to 15. */
function numericSecret(value: number, used: Set<string>): string {
  const digits = Math.min(15, Math.max(1, String(Math.trunc(Math.abs(value))).length));
  used.add(`pin:${digits}`);
  return "${vars.pin}";
}

/**
 * Plain names (`plainName`) of a field holding a user name; `identifier` is a
 * user name or an email (Strapi's `POST /auth/local`, Ory Kratos's login).
 */
export const USER_NAMES = new Set([
  "username",
  "identifier",
  "login",
  "loginname",
  "handle",
  "nickname",
  "screenname",
]);

/**
 * The plain name of a field asking for the password a second time, which a
 * server compares with the first (`passwordConfirmation`, Laravel's
 * `password_confirmation`, Django forms' `password2`, djoser's
 * `re_password`, `newPasswordRepeat`): it is sent the same password.
 */
const CONFIRMS_PASSWORD =
  /pass(word|wd)(confirm(ation|ed)?|again|repeat(ed)?|check|2)$|^repass(word|wd)$/;

/** The var a field's value is, if it is one. */
function runVar(key: string, value: string): keyof typeof RUN_VARS | undefined {
  const plain = plainName(key);
  if (isPasswordField(key) || CONFIRMS_PASSWORD.test(plain)) return "password";
  if (/e?mail$/.test(plain) || value === "user@example.com") return "email";
  if (USER_NAMES.has(plain)) return "username";
  return undefined;
}

/**
 * A body (as flow YAML) with its credential, identity and placeholder text
 * made per run; `used` collects the vars it reads. A placeholder name in an
 * item of a list the body holds (`inList`) is kept: the item belongs to what
 * the request makes, new each run, or names something else (Alertmanager's
 * `matchers[].name`, a label name, refused `name-…`). A body that is a list
 * is what the request makes.
 *
 * @example
 * ```ts
 * import { perRun } from "./run_values.ts";
 * import { ymap } from "../yaml_out.ts";
 * const used = new Set<string>();
 * const got = perRun(ymap([["user", ymap([["email", "string"], ["password", "password"], ["title", "string"]])]]), used);
 * const text = JSON.stringify(got);
 * if (!text.includes("${vars.email}") || !text.includes("${vars.password}") || !text.includes("title-${RANDOM.HEX_8}")) {
 *   throw new Error(text);
 * }
 * if ([...used].sort().join() !== "email,password") throw new Error();
 * const listed = perRun(ymap([["rules", [ymap([["name", "string"]])]]]), used);
 * if (JSON.stringify(listed).includes("RANDOM")) throw new Error();
 * ```
 */
export function perRun(
  node: YNode,
  used: Set<string>,
  key = "",
  samples: ReadonlySet<string> = new Set(),
  inList = false,
  stored = true,
  limits: ReadonlyMap<string, number> = new Map(),
): YNode {
  if (Array.isArray(node)) {
    return node.map((n) => perRun(n, used, key, samples, inList || key !== "", stored, limits));
  }
  if (typeof node === "string") {
    const name = runVar(key, node);
    if (!name) return perRunText(node, key, samples, inList, stored, limits.get(key));
    used.add(name);
    return `\${vars.${name}}`;
  }
  if (typeof node === "number" && isPasswordField(key)) return numericSecret(node, used);
  if (node !== null && typeof node === "object" && node.kind === "map") {
    return {
      ...node,
      entries: windowTimes(node.entries).map((
        [k, v],
      ) => [k, perRun(v, used, k, samples, inList, stored, limits)]),
    };
  }
  return node;
}

/**
 * Text a server may keep unique, or make a slug of, made per run: a title, a
 * name; and any field of a body (`stored`) the generator could only call
 * `string` (an ISBN, a code: a column may be UNIQUE, which no schema says),
 * so two flows or two runs never send the same.
 */
function perRunText(
  node: string,
  key: string,
  samples: ReadonlySet<string>,
  inList: boolean,
  stored: boolean,
  limit: number | undefined,
): string {
  const named = /(title|name|slug)$/.test(plainName(key));
  if (!named && !stored) return node;
  if (named && samples.has(node) && !node.includes("${")) {
    const [, stem, end] = /^(.*?)([^A-Za-z0-9]*)$/s.exec(node)!;
    if (stem !== "") return `${stem}-\${RANDOM.HEX_8}${end}`;
  }
  if (node !== "string" || inList || key === "") return node;
  const stem = key.replace(/[^A-Za-z0-9]+/g, "").slice(0, 16).toLowerCase() || "text";
  // Within the schema's `maxLength` (length_limits.ts): a Joi `.max(10)` refused `code-…` 400.
  return withinLimit(stem, limit) ?? node;
}

/**
 * A query parameter's entries (`queryEntries`), each made per run as a
 * body's field is (`perRun`): a password or user name in a query is the
 * run's, as in a body (Petstore's `GET /user/login`).
 *
 * @example
 * ```ts
 * import { ownQuery } from "./run_values.ts";
 * const used = new Set<string>();
 * const got = ownQuery({ name: "password", in: "query" }, "12345", used);
 * if (JSON.stringify(got) !== '[["password","${vars.password}"]]' || !used.has("password")) throw new Error();
 * ```
 */
export function ownQuery(
  p: Node,
  value: unknown,
  used: Set<string>,
  samples: ReadonlySet<string> = new Set(),
): [string, YNode][] {
  // A query is read, not kept: only a name or title in it is made per run.
  return queryEntries(p, value).map(([k, v]) => [k, perRun(v, used, k, samples, false, false)]);
}
