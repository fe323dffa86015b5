/**
 * Postman collection items and collections the Postman tests build from, and what they read back.
 *
 * @module
 */

/**
 * The builder of a collection's JSON posts to `base`: `post(name, path, raw, event)` is the item
 * `name` that POSTs the raw text `raw` to `base` + `path` with `Content-Type: application/json`,
 * its scripts `event` (none unless given).
 *
 * @example
 * ```ts
 * import { jsonPoster } from "./postman_items.ts";
 * const post = jsonPoster("http://127.0.0.1:8080");
 * const item = post("Log in", "/login", '{"email": "{{email}}"}');
 * if (item.request.url !== "http://127.0.0.1:8080/login" || item.event.length !== 0) {
 *   throw new Error(JSON.stringify(item));
 * }
 * ```
 */
export function jsonPoster(base: string) {
  return (name: string, path: string, raw: string, event: object[] = []) => ({
    name,
    event,
    request: {
      method: "POST",
      url: `${base}${path}`,
      header: [{ key: "Content-Type", value: "application/json" }],
      body: { mode: "raw", raw },
    },
  });
}

/**
 * A data-driven search's pre-request script: it adds `firstname` and `lastname` to `/booking`'s
 * query only for the row's non-empty cells, then writes the request's URL (Newman sends each row
 * its own URL).
 *
 * @example
 * ```ts
 * import { ROW_SEARCH } from "./postman_items.ts";
 * if (ROW_SEARCH.at(-1) !== "pm.request.url = url;") throw new Error();
 * ```
 */
export const ROW_SEARCH: string[] = [
  'let url = pm.variables.get("baseUrl") + "/booking";',
  "let params = [];",
  "function addParam(key) {",
  "  let value = pm.iterationData.get(key);",
  '  if (value && value.trim() !== "") params.push(`${key}=${encodeURIComponent(value)}`);',
  "}",
  'addParam("firstname");',
  'addParam("lastname");',
  'if (params.length > 0) { url += "?" + params.join("&"); }',
  "pm.request.url = url;",
];

/**
 * Items that GET `{{baseUrl}}` + `path`, one per `[name, exec]` of `scripts`: `exec` is the item's
 * pre-request script, and its test checks the answer is a 200 (Newman's verdict to compare).
 *
 * @example
 * ```ts
 * import { scriptedGets } from "./postman_items.ts";
 * const [item] = scriptedGets([["one", ['pm.request.url = "x";']]], "/booking");
 * if (item.request.url !== "{{baseUrl}}/booking" || item.event.length !== 2) throw new Error();
 * ```
 */
export function scriptedGets(scripts: [string, string[]][], path: string) {
  return scripts.map(([name, exec]) => ({
    name,
    event: [{ listen: "prerequest", script: { exec } }, {
      listen: "test",
      script: { exec: ['pm.test("found", () => pm.response.to.have.status(200));'] },
    }],
    request: { method: "GET", url: `{{baseUrl}}${path}` },
  }));
}

/**
 * A server on 127.0.0.1 that keeps the path and query of every request in `seen` and answers
 * each with `answer(url)`; `url` is its origin, `close` shuts it down.
 *
 * @example
 * ```ts
 * import { urlRecorder } from "./postman_items.ts";
 * const s = urlRecorder(() => Response.json([]));
 * await (await fetch(`${s.url}/a?b=1`)).body?.cancel();
 * await s.close();
 * if (s.seen.join() !== "/a?b=1") throw new Error(s.seen.join());
 * ```
 */
export function urlRecorder(answer: (url: URL) => Response) {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    seen.push(url.pathname + url.search);
    return answer(url);
  });
  return { seen, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** What `createThenRead` builds: a create whose test script keeps values, then a checked read. */
export interface CreateThenRead {
  /** The collection's name. */
  name: string;
  /** Collection variables besides `baseUrl`. */
  variables: Record<string, string>;
  /** The create's test script: the values it keeps. */
  keep: string[];
  /** The create's path under `{{baseUrl}}`. */
  createPath: string;
  /** The read's name and path under `{{baseUrl}}`. */
  read: [string, string];
  /** The read's test script: the checks compared. */
  checks: string[];
}

/**
 * A v2.1 collection of two items: `Create` POSTs `{"name": "a"}` to `createPath` and keeps what
 * `keep` sets; the read GETs its path, its test script `checks`.
 *
 * @example
 * ```ts
 * import { createThenRead } from "./postman_items.ts";
 * const c = createThenRead("http://127.0.0.1:9", {
 *   name: "Ids", variables: { least: "2" }, keep: [], createPath: "/items",
 *   read: ["Read", "/items/1"], checks: [],
 * });
 * if (c.item[1].request.url !== "{{baseUrl}}/items/1" || c.variable.length !== 2) throw new Error();
 * ```
 */
export function createThenRead(base: string, o: CreateThenRead) {
  return {
    info: {
      name: o.name,
      schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
    },
    variable: Object.entries({ baseUrl: base, ...o.variables }).map(([key, value]) => ({
      key,
      value,
    })),
    item: [{
      name: "Create",
      event: [{ listen: "test", script: { exec: o.keep } }],
      request: {
        method: "POST",
        url: `{{baseUrl}}${o.createPath}`,
        header: [{ key: "Content-Type", value: "application/json" }],
        body: { mode: "raw", raw: '{"name": "a"}' },
      },
    }, {
      name: o.read[0],
      event: [{ listen: "test", script: { exec: o.checks } }],
      request: { method: "GET", url: `{{baseUrl}}${o.read[1]}` },
    }],
  };
}

/**
 * The names of the checks a flowrun run's output reports failing.
 *
 * @example
 * ```ts
 * import { failingChecks } from "./postman_items.ts";
 * const names = failingChecks("  ✘ id Number: $.json.id equals 7\n");
 * if (!names.has("id Number")) throw new Error([...names].join());
 * ```
 */
export function failingChecks(out: string): Set<string> {
  return new Set([...out.matchAll(/✘ ([^:\n]+): \$/g)].map((m) => m[1].trim()));
}
