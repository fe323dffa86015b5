/**
 * Names a careful person would write: step names from the method and path
 * (`create_order`, `get_order`, `list_orders`, `login`), capture names from
 * the JSON key and its resource (`order_id`), environment variable names
 * (`LOGIN_PASSWORD`, `API_TOKEN`). All snake_case (or upper snake case) and
 * unique within their scope.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { parseBody } from "./json.ts";

/**
 * snake_case: camelCase boundaries and anything not a letter or digit become
 * `_`, runs collapse, the result starts with a letter.
 *
 * @example
 * ```ts
 * import { snake } from "./names.ts";
 * if (snake("getCurrentUser") !== "get_current_user" || snake("X-Api-Key") !== "x_api_key") {
 *   throw new Error();
 * }
 * ```
 */
export function snake(text: string): string {
  const out = text
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return out === "" ? "" : /^[a-z]/.test(out) ? out : `n_${out}`;
}

/**
 * The singular of a plural the "-ies" → "-y" rule would misspell, or
 * undefined for any other word: one the plural is (`series`), or one ending
 * "ie" (`movies`, whose noun is no "movy"). Read by {@linkcode singular} and
 * by the OpenAPI converter's item nouns (`openapi/noun_id.ts`), so a step's
 * name and the id it searches for spell the noun alike.
 *
 * @example
 * ```ts
 * import { listedSingular } from "./names.ts";
 * if (listedSingular("movies") !== "movie" || listedSingular("series") !== "series") throw new Error();
 * if (listedSingular("categories") !== undefined) throw new Error();
 * ```
 */
export function listedSingular(word: string): string | undefined {
  // Words whose singular is the plural, or ends "ie" (Datadog's /v2/series was "create_sery").
  if (/(^|_)(series|species)$/.test(word)) return word;
  if (/(^|_)(movie|cookie|zombie|calorie|pie|tie|smoothie|selfie|rookie|goalie)s$/.test(word)) {
    return word.slice(0, -1);
  }
  return undefined;
}

/**
 * English singular of a snake_case resource name, good enough for REST paths.
 *
 * @example
 * ```ts
 * import { singular } from "./names.ts";
 * if (singular("categories") !== "category" || singular("orders") !== "order") throw new Error();
 * if (singular("status") !== "status" || singular("boxes") !== "box") throw new Error();
 * if (singular("series") !== "series" || singular("movies") !== "movie") throw new Error();
 * ```
 */
export function singular(word: string): string {
  const listed = listedSingular(word);
  if (listed !== undefined) return listed;
  if (/ies$/.test(word) && word.length > 4) return word.slice(0, -3) + "y";
  if (/(sses|xes|ches|shes|zzes)$/.test(word)) return word.slice(0, -2);
  if (/(ss|us|is|ps)$/.test(word)) return word;
  if (/s$/.test(word) && word.length > 2) return word.slice(0, -1);
  return word;
}

const isPlural = (word: string) => singular(word) !== word;

/** Verbs that RPC-style endpoints start with (`getSkills`, `createProject`). */
const RPC_VERB =
  /^(get|list|create|add|update|edit|set|delete|remove|search|find|fetch|query|upsert|cancel|submit|check|send|start|stop)(_|$)/;

/** Path segments that carry no meaning for a name. */
const FILLER = /^(api|rest|rpc|v\d+(\.\d+)?|queries|mutations|public|private|internal|json)$/i;

/** Paths of authentication endpoints. */
const AUTH_PATH =
  /(^|\/)(login|log-in|signin|sign-in|sign_in|authenticate|auth|session|sessions|token|tokens|oauth2?)(\/|$)/i;

/**
 * Whether a POST to this path is a login.
 *
 * @example
 * ```ts
 * import { isAuthPath } from "./names.ts";
 * if (!isAuthPath("/api/v1/auth/token") || isAuthPath("/api/authors")) throw new Error();
 * ```
 */
export function isAuthPath(path: string): boolean {
  return AUTH_PATH.test(path);
}

/**
 * A step name from the method and the path's segments, where `isId(i)` says
 * whether segment i is an identifier (it is left out of the name).
 *
 * @example
 * ```ts
 * import { stepName } from "./names.ts";
 * const ids = (s: string) => /^\d+$/.test(s);
 * if (stepName("POST", ["orders"], ids) !== "create_order") throw new Error();
 * if (stepName("GET", ["orders", "42"], ids) !== "get_order") throw new Error();
 * if (stepName("GET", ["api", "v1", "orders"], ids) !== "list_orders") throw new Error();
 * if (stepName("PATCH", ["orders", "42"], ids) !== "update_order") throw new Error();
 * if (stepName("POST", ["api", "skills", "queries", "getSkills"], ids) !== "get_skills") {
 *   throw new Error();
 * }
 * ```
 */
export function stepName(method: string, segments: string[], isId: (s: string) => boolean): string {
  const m = method.toLowerCase();
  const parts = segments.map((s) => ({ id: isId(s), word: snake(s) }))
    .filter((p) => p.id || (p.word !== "" && !FILLER.test(p.word)));
  if (parts.length === 0) return m === "get" ? "get_root" : `${m}_root`;
  const last = parts[parts.length - 1];
  const words = parts.filter((p) => !p.id).map((p) => p.word);
  const noun = words.length > 0 ? words[words.length - 1] : "item";
  const one = singular(noun);
  if (last.id) return `${ID_VERB.get(m) ?? m}_${one}`;
  // A sub-resource or action of an identified resource: /jobs/{id}/cancel, /jobs/{id}/result.
  const before = parts.length > 1 ? parts[parts.length - 2] : undefined;
  const owner = before?.id && words.length > 1 ? singular(words[words.length - 2]) : undefined;
  return actionName(m, last.word, one, owner);
}

/** The verb of a request to one identified resource (`/orders/{id}`), by method. */
const ID_VERB = new Map([
  ["get", "get"],
  ["put", "update"],
  ["patch", "update"],
  ["delete", "delete"],
]);

/** A step on a collection or an action (`word`, the last segment), of `owner` if identified. */
function actionName(m: string, word: string, one: string, owner: string | undefined): string {
  const suffix = owner ? `_${owner}` : "";
  if (RPC_VERB.test(word)) return word + suffix;
  switch (m) {
    case "get":
      return isPlural(word) && !owner ? `list_${word}` : `get${suffix}_${word}`;
    case "post":
      return isPlural(word) ? `create${suffix}_${one}` : `${word}${suffix}`;
    case "put":
    case "patch":
      return `update${suffix}_${one}`;
    case "delete":
      return `delete${suffix}_${one}`;
    default:
      return `${m}${suffix}_${word}`;
  }
}

/**
 * The resource noun of a path (singular), for capture names.
 *
 * @example
 * ```ts
 * import { resourceNoun } from "./names.ts";
 * const isId = (s: string) => /^\d+$/.test(s);
 * if (resourceNoun(["api", "orders"], isId) !== "order") throw new Error();
 * if (resourceNoun(["api", "projects", "mutations", "createProject"], isId) !== "project") {
 *   throw new Error();
 * }
 * ```
 */
export function resourceNoun(segments: string[], isId: (s: string) => boolean): string {
  const words = segments.filter((s) => !isId(s)).map(snake)
    .filter((w) => w !== "" && !FILLER.test(w))
    .map((w) => w.replace(RPC_VERB, ""))
    .filter((w) => w !== "");
  return words.length > 0 ? singular(words[words.length - 1]) : "";
}

/** JSON keys that wrap the real object and name nothing. */
const WRAPPER =
  /^(data|result|results|items|records|payload|response|body|content|value|values|list|rows|entries|objects|nodes|node|edges|attributes|page|hits)$/;

/**
 * The capture name for a value at `keys` (object keys from the root, array
 * indexes left out) in a response of a resource: `id` under `skills` is
 * `skill_id`, a top-level `id` of an order is `order_id`, `ownerId` is
 * `owner_id`.
 *
 * @example
 * ```ts
 * import { captureName } from "./names.ts";
 * if (captureName(["id"], "order") !== "order_id") throw new Error();
 * if (captureName(["result", "skills", "id"], "project") !== "skill_id") throw new Error();
 * if (captureName(["accessToken"], "login") !== "access_token") throw new Error();
 * if (captureName(["data", "createList", "id"], "graphql") !== "list_id") throw new Error();
 * if (captureName([], "file") !== "file") throw new Error();
 * ```
 */
export function captureName(keys: string[], noun: string): string {
  // A member of a bare list (`["notes.txt"]` from `GET /files`) is named for the resource.
  if (keys.length === 0) return snake(noun) || "value";
  const key = keys[keys.length - 1];
  if (/^(_?id|uuid|guid|ID|Id)$/.test(key)) {
    // A GraphQL mutation's field names its resource after a verb: createList → list.
    const owner = keys.slice(0, -1).map(snake).filter((k) => k !== "" && !WRAPPER.test(k))
      .map((k) => k.replace(RPC_VERB, "") || k).pop();
    const base = owner ? singular(owner) : noun;
    return base ? `${base}_id` : "id";
  }
  return snake(key) || "value";
}

/**
 * Upper snake case for an environment variable.
 *
 * @example
 * ```ts
 * import { envName } from "./names.ts";
 * if (envName("clientSecret") !== "CLIENT_SECRET") throw new Error();
 * ```
 */
export function envName(text: string): string {
  return snake(text).toUpperCase();
}

/**
 * Hands out unique names: the base, then `base_2`, `base_3`, ….
 *
 * @example
 * ```ts
 * import { UniqueNames } from "./names.ts";
 * const names = new UniqueNames();
 * if (names.take("get_item") !== "get_item" || names.take("get_item") !== "get_item_2") {
 *   throw new Error();
 * }
 * ```
 */
export class UniqueNames {
  #taken = new Set<string>();
  /** The next suffix to try for each base: counting from 2 each time made 20,000 steps quadratic. */
  #next = new Map<string, number>();

  /**
   * Whether a name is taken.
   *
   * @example
   * ```ts
   * import { UniqueNames } from "./names.ts";
   * const names = new UniqueNames();
   * names.take("login");
   * if (!names.has("login") || names.has("logout")) throw new Error();
   * ```
   */
  has(name: string): boolean {
    return this.#taken.has(name);
  }

  /**
   * Takes `base`, or the first free `base_<n>`.
   *
   * @example
   * ```ts
   * import { UniqueNames } from "./names.ts";
   * const names = new UniqueNames();
   * names.take("a");
   * names.take("a_2");
   * if (names.take("a") !== "a_3") throw new Error();
   * ```
   */
  take(base: string): string {
    let name = base;
    let n = this.#next.get(base) ?? 2;
    while (this.#taken.has(name)) name = `${base}_${n++}`;
    this.#next.set(base, n);
    this.#taken.add(name);
    return name;
  }
}

/**
 * A page title fit to name a flow: percent-encoding undone, control
 * characters and runs of spaces made one space, at most 80 characters.
 *
 * @example
 * ```ts
 * import { readableTitle } from "./har.ts";
 * if (readableTitle("My%20Shop%20%E2%80%93%20Cart\n\t ") !== "My Shop – Cart") throw new Error();
 * ```
 */
export function readableTitle(title: string): string {
  let text = title;
  if (/%[0-9A-Fa-f]{2}/.test(text)) {
    try {
      text = decodeURIComponent(text);
    } catch {
      // Not percent-encoded after all.
    }
  }
  // deno-lint-ignore no-control-regex -- control characters are what is removed.
  text = text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, " ");
  text = text.replace(/\s+/g, " ").trim();
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * The name of an authentication step: `logout` and `refresh_token` by their
 * paths, `login` for a POST that logs in. A GET that hands out a token (a
 * CSRF fetch) is named by its path like any other step.
 *
 * @example
 * ```ts
 * import { authStepName } from "./names.ts";
 * const r = (method: string, path: string) => ({ method, url: new URL(`https://a.test${path}`) });
 * // deno-lint-ignore no-explicit-any
 * const name = (method: string, path: string, login = false) => authStepName(r(method, path) as any, login);
 * if (name("POST", "/auth/logout") !== "logout" || name("POST", "/token/refresh") !== "refresh_token") throw new Error();
 * if (name("POST", "/session", true) !== "login" || name("GET", "/csrf") !== undefined) throw new Error();
 * ```
 */
export function authStepName(r: HarRecord, login: boolean): string | undefined {
  const path = r.url.pathname;
  if (/(^|\/)(logout|log-out|log_out|signout|sign-out|sign_out)(\/|$)/i.test(path)) return "logout";
  if (/(^|\/|_|-)refresh(\/|$|_|-)/i.test(path) && r.method === "POST") return "refresh_token";
  return login && r.method === "POST" ? "login" : undefined;
}

/**
 * Step names stay readable: at most 40 characters, cut at a word.
 *
 * @example
 * ```ts
 * import { shortName } from "./names.ts";
 * if (shortName("get_order") !== "get_order") throw new Error();
 * if (shortName("update_workspace_project_milestone_settings_page") !== "update_workspace_project_milestone") throw new Error();
 * ```
 */
export function shortName(name: string): string {
  if (name.length <= 40) return name;
  const cut = name.slice(0, 40);
  const at = cut.lastIndexOf("_");
  return at > 10 ? cut.slice(0, at) : cut;
}

/**
 * The operation a GraphQL or JSON-RPC request names in its body
 * (`operationName`, `method`; a batch's first) or, for a GraphQL GET, its query string, for
 * endpoints where the path says nothing.
 *
 * @example
 * ```ts
 * import { operationName } from "./names.ts";
 * const r = { url: new URL("https://a.test/graphql"), bodyText: '{"operationName":"GetProjects","query":"…"}' };
 * // deno-lint-ignore no-explicit-any
 * if (operationName(r as any) !== "get_projects") throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (operationName({ url: new URL("https://a.test/api/items") } as any) !== undefined) throw new Error();
 * const batch = { url: new URL("https://a.test/rpc"), bodyText: '[{"method":"notes.create","id":1}]' };
 * // deno-lint-ignore no-explicit-any
 * if (operationName(batch as any) !== "notes_create") throw new Error();
 * ```
 */
export function operationName(r: HarRecord): string | undefined {
  if (!/(^|\/)(graphql|gql|rpc|jsonrpc|json-rpc)\/?$/i.test(r.url.pathname)) return undefined;
  // A persisted query over GET names its operation in the query string.
  const query = r.url.searchParams.get("operationName");
  if (!r.bodyText) return query && snake(query) !== "" ? snake(query) : undefined;
  try {
    const parsed = parseBody(r.bodyText);
    // A batch (JSON-RPC 2.0, a GraphQL client's) is named by its first operation.
    const body = Array.isArray(parsed) ? parsed[0] : parsed;
    const name = body?.operationName ?? body?.method;
    return typeof name === "string" && snake(name) !== "" ? snake(name) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A var's name for a parameter: its letters, digits, `_` and `-`, other runs as `_`, and `p_`
 * before a first character that cannot open a name.
 *
 * @example
 * ```ts
 * import { varName } from "./names.ts";
 * if (varName("page[size]") !== "page_size_" || varName("2fa") !== "p_2fa") throw new Error();
 * ```
 */
export function varName(param: string): string {
  return param.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^(?![A-Za-z_])/, "p_");
}
