/**
 * A request kept in a variable and sent again: a login's test script keeps the request
 * itself (`pm.collectionVariables.set("req", pm.request)`), and a pre-request script sends
 * what the variable holds before each later request (`pm.sendRequest(pm.collectionVariables
 * .get("req"), …)`) to keep a token fresh. Its parts are the keeping request's, known here: the
 * side step sends that request again (its method, URL, headers, body and auth), its callback
 * the step's test script. Before any script kept one, the variable holds no request and Newman
 * sends nothing (the call fails): no step, a comment saying so. The set itself is no value a
 * later `{{req}}` reads, so it neither asks for `REQ` nor breaks a chain.
 *
 * @module
 */
import type { PmRequest } from "./model.ts";
import { sideItem, type SideRequest } from "./script/side_request.ts";

/** `…set("name", pm.request)` of any scope (and `postman.setEnvironmentVariable`). */
const KEEP =
  /(?:pm\.(?:collectionVariables|environment|globals|variables)\.set|postman\.set(?:Environment|Global)Variable)\s*\(\s*(["'`])([^"'`]+)\1\s*,\s*pm\.request\s*\)/g;

/** A getter of a variable, any scope: a kept request's is read as `"{{name}}"`, for sendKept. */
const GET =
  /(?:pm\.(?:collectionVariables|environment|globals|variables)\.get|postman\.get(?:Environment|Global)Variable)\s*\(\s*(["'`])([^"'`]+)\1\s*\)/g;

/** The requests kept so far, by variable, and the variables any script keeps one in. */
export interface Kept {
  /** Each variable a script of the collection sets to `pm.request`. */
  names: Set<string>;
  /** The request each holds now: the last one whose script kept it. */
  held: Map<string, PmRequest>;
}

/**
 * The variables the scripts of `requests` keep a request in.
 *
 * @example
 * ```ts
 * import { keptNames } from "./kept_request.ts";
 * const r = { name: "Login", folders: [], method: "POST", url: "{{u}}/auth", headers: [],
 *   scripts: [{ listen: "test" as const, owner: "Login", source: 'pm.collectionVariables.set("req", pm.request)' }] };
 * if ([...keptNames([r])].join() !== "req") throw new Error();
 * ```
 */
export function keptNames(requests: Iterable<PmRequest>): Set<string> {
  const names = new Set<string>();
  for (const r of requests) {
    for (const s of r.scripts) for (const m of s.source.matchAll(KEEP)) names.add(m[2]);
  }
  return names;
}

/**
 * `source` with each keeping of `pm.request` read (`r` is now what the variable holds) and
 * left out of the script to translate: it sets nothing a `{{x}}` reads; a read of such a
 * variable is the text `{{name}}`, which a `pm.sendRequest` of it sends as the kept request.
 *
 * @example
 * ```ts
 * import { keeping } from "./kept_request.ts";
 * const kept = { names: new Set(["req"]), held: new Map() };
 * const r = { name: "Login", folders: [], method: "POST", url: "{{u}}/auth", headers: [], scripts: [] };
 * const rest = keeping('pm.collectionVariables.set("req", pm.request);', r, kept);
 * if (kept.held.get("req") !== r || rest.includes("pm.request")) throw new Error(rest);
 * ```
 */
export function keeping(source: string, r: PmRequest, kept: Kept | undefined): string {
  if (!kept || kept.names.size === 0) return source;
  return source.replace(KEEP, (_, _q, name: string) => {
    kept.held.set(name, r);
    // A call the translation leaves out as it leaves out logging: the script's syntax stays.
    return "console.log()";
  }).replace(GET, (get, _q, name: string) =>
    // Whatever scope the script reads it from, the variable holds the request kept in it.
    kept.names.has(name) ? JSON.stringify(`{{${name}}}`) : get);
}

/**
 * Sends what a script's `pm.sendRequest` asks: the request kept in the variable it names, sent
 * again as a step (`add`), or nothing yet with a comment (`pending`); any other as its own step.
 *
 * @example
 * ```ts
 * import { sendKept } from "./kept_request.ts";
 * const login = { name: "Login", folders: [], method: "POST", url: "{{u}}/auth", headers: [], scripts: [] };
 * const kept = { names: new Set(["req"]), held: new Map([["req", login]]) };
 * const r = { ...login, name: "Book", method: "GET", url: "{{u}}/booking" };
 * const added: { method: string; url: string }[] = [];
 * sendKept(r, { method: "GET", url: "{{req}}", headers: [], callback: "" }, kept, (i) => added.push(i), []);
 * if (added[0]?.method !== "POST" || added[0].url !== "{{u}}/auth") throw new Error(JSON.stringify(added));
 * ```
 */
export function sendKept(
  r: PmRequest,
  side: SideRequest,
  kept: Kept | undefined,
  add: (item: PmRequest) => void,
  pending: string[],
): void {
  const name = side.url.match(/^\{\{([^{}]+)\}\}$/)?.[1];
  if (name === undefined || !kept?.names.has(name)) return add(sideItem(r, side));
  const held = kept.held.get(name);
  if (!held) {
    pending.push(
      `not sent: {{${name}}}, which a script of ${r.name} sends, holds no request yet (as in Newman)`,
    );
    return;
  }
  const item = sideItem(r, { ...side, method: held.method, url: held.url, headers: [] });
  const { body, auth, authFrom, headers } = held;
  add({ ...item, headers, ...(body ? { body } : {}), ...(auth ? { auth, authFrom } : {}) });
}
