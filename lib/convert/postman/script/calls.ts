/**
 * Calls a script makes on the response, by their dotted name (`pm.response.json()`,
 * `pm.response.headers.get("X")`, `Number.isInteger(x)`): what each gives from its first
 * argument, and the small readers of an argument they share with eval.ts.
 *
 * @module
 */
import { isPseudo, member, type Sym } from "./sym.ts";
import { toText } from "./to_text.ts";

/** A check of one condition. */
export const cond = (path: string, op: string, value: unknown): Sym => ({
  k: "cond",
  conds: [{ path, op, value }],
});
/** The text a value is, when it is literal text. */
export const text = (s: Sym | undefined): string | undefined =>
  s?.k === "lit" && typeof s.value === "string" ? s.value : undefined;
/** A response part's path; none for a pseudo-path (`text:`, `typeof:`), which no call reads. */
export const pathOf = (
  s: Sym | undefined,
): string | undefined => (s?.k === "path" && !isPseudo(s.path) ? s.path : undefined);
const header = (s: Sym | undefined): string | undefined => {
  const name = text(s);
  return name === undefined ? undefined : member("$.headers", name.toLowerCase());
};

/** The value of JSON text known now (the request's own body), or `undefined` when it is none. */
function parsed(json: string | undefined): Sym | undefined {
  if (json === undefined) return undefined;
  try {
    return { k: "lit", value: JSON.parse(json) };
  } catch {
    return undefined;
  }
}

/** A cookie the response sets, by name: `$.cookies.<name>`. */
const cookie = (s: Sym | undefined): string | undefined => {
  const name = text(s);
  return name === undefined ? undefined : member("$.cookies", name);
};

/** A cookie the flow run's jar holds for the response's URL, by name: `$.jar.<name>`. */
const jarred = (s: Sym | undefined): string | undefined => {
  const name = text(s);
  return name === undefined ? undefined : member("$.jar", name);
};

/** Calls by their dotted name: what they give, from their first argument. */
export const CALLS = new Map<string, (first: Sym | undefined) => Sym | undefined>([
  ["JSON.parse", (f) => (pathOf(f) === "$.body" ? { k: "path", path: "$.json" } : parsed(text(f)))],
  ["pm.response.json", () => ({ k: "path", path: "$.json" })],
  ["pm.response.text", () => ({ k: "path", path: "$.body" })],
  ["pm.response.headers.has", (f) => (header(f) ? cond(header(f)!, "exists", true) : undefined)],
  ["pm.response.headers.get", (f) => (header(f) ? { k: "path", path: header(f)! } : undefined)],
  ["postman.getResponseHeader", (f) => (header(f) ? { k: "path", path: header(f)! } : undefined)],
  ["Number.isInteger", (f) => (pathOf(f) ? cond(pathOf(f)!, "type", "integer") : undefined)],
  ["Array.isArray", (f) => (pathOf(f) ? cond(pathOf(f)!, "type", "array") : undefined)],
  // `String(x)` is `x.toString()` where both are known (to_text.ts).
  ["String", (f) => toText("toString", f, 0)],
  // `pm.cookies` is Postman's jar for the request's URL (a redirect's cookie in it): `$.jar`.
  ["pm.cookies.has", (f) => (jarred(f) ? cond(jarred(f)!, "exists", true) : undefined)],
  ["pm.cookies.get", (f) => (jarred(f) ? { k: "path", path: jarred(f)! } : undefined)],
  [
    "postman.getResponseCookie",
    (f) => (cookie(f) ? { k: "path", path: `${cookie(f)}.value` } : undefined),
  ],
]);
