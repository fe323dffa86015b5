/**
 * A path parameter an earlier answer hands over inside a link: a text
 * member of a POST's answer whose example the document writes as a path
 * of the parameter's operation, under the server's base path or as a full
 * URL. Signal K's `POST /access/requests` answers `{state, href}`, `href`
 * "Path where the status of the request can be checked.", example
 * `/signalk/v1/requests/358b5f32-…`: the path of `GET /requests/{id}` under
 * the server's `/signalk/v1`, so `{id}` is read from `href` at its place.
 * The example is the document's own word for where the value is; a
 * template of parameters only (`/{id}`) matches any path and is never read
 * so, nor an example with other than the server's base path before the
 * operation's path, nor a full URL on another host than the server's
 * (GitHub's `html_url`, a page of `github.com`, names no item of
 * `api.github.com`). Tried last, where nothing else gives the parameter.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { ParamLink } from "./document_links.ts";
import type { OpenApiOperation } from "./operations.ts";
import { responseSchemas } from "./response_paths.ts";

/** How deep in an answer a link is looked for: `{href}`, `{links: {status}}`, `{data: {links: {self}}}`. */
const DEPTH = 3;

/**
 * The regular expression of `template`'s path at the end of a link, the
 * value of `param` its group; undefined for a template of no literal segment.
 *
 * @example
 * ```ts
 * import { linkPattern } from "./href_link.ts";
 * const re = new RegExp(linkPattern("/jobs/{jobId}/result", "jobId")!);
 * if (re.exec("https://h.test/v1/jobs/7/result?wait=1")?.[1] !== "7") throw new Error();
 * if (linkPattern("/{id}", "id") !== undefined) throw new Error();
 * ```
 */
export function linkPattern(template: string, param: string): string | undefined {
  const segments = template.replace(/\/$/, "").split("/").filter((s) => s !== "");
  if (!segments.some((s) => !s.includes("{"))) return undefined;
  const parts = segments.map((s) =>
    s.split(/(\{[^}]+\})/).map((p) =>
      p === `{${param}}`
        ? "([^/?#]+)"
        : /^\{[^}]+\}$/.test(p)
        ? "[^/?#]+"
        : p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    ).join("")
  );
  return `/${parts.join("/")}/?(?:[?#].*)?$`;
}

/**
 * The link to `param` of `op` a POST's answer holds (see the module doc):
 * its member's path, and the pattern reading the value at its place.
 *
 * @example
 * ```ts
 * import { hrefLink } from "./href_link.ts";
 * import { operationsOf } from "./operations.ts";
 * const href = { type: "string", example: "/v1/requests/358b" };
 * const answer = { "202": { content: { "application/json": { schema: { properties: { href } } } } } };
 * const doc = { servers: [{ url: "/v1" }], paths: { "/access/requests": { post: { responses: answer } },
 *   "/requests/{id}": { get: {} } } };
 * const ops = operationsOf(doc);
 * const link = hrefLink(doc, ops, ops[1], "id");
 * if (link?.producer !== ops[0] || link.path.join() !== "href" || link.from !== "href") throw new Error();
 * ```
 */
export function hrefLink(
  doc: Node,
  ops: OpenApiOperation[],
  op: OpenApiOperation,
  param: string,
): ParamLink | undefined {
  const pattern = linkPattern(op.template, param);
  if (!pattern) return undefined;
  const re = new RegExp(pattern);
  const server = serverOf(doc);
  const held = server.base !== "" && op.template.startsWith(`${server.base}/`);
  const names = (link: Link) => {
    if (link.host && server.host && link.host !== server.host) return false;
    const found = re.exec(link.path);
    const before = found === null ? undefined : link.path.slice(0, found.index);
    // A document whose paths already begin with the server's path (paths_hold_base.ts) has none.
    return before === server.base || (before === "" && held);
  };
  for (const { producer, path, link } of linksOf(doc, ops)) {
    if (producer === op || producer.template.includes(`{${param}}`)) continue;
    if (names(link)) return { param, producer, path, from: "href", pattern };
  }
  return undefined;
}

/** A link a POST's answer documents: the producer, the member's path, what its example writes. */
interface Held {
  producer: OpenApiOperation;
  path: string[];
  link: Link;
}

/**
 * Every link the POSTs of `ops` answer, in the order they are tried (producer, answer, then
 * members depth first, a member before those under it), read once per conversion: walked anew
 * for each parameter nothing else gives, GitHub's 1,223 operations cost four times as much.
 */
const HELD = new WeakMap<OpenApiOperation[], Held[]>();

function linksOf(doc: Node, ops: OpenApiOperation[]): Held[] {
  let held = HELD.get(ops);
  if (held) return held;
  held = [];
  for (const producer of ops) {
    if (producer.method !== "POST") continue;
    for (const schema of responseSchemas(doc, producer)) {
      for (const [path, link] of membersLinking(doc, schema, DEPTH)) {
        held.push({ producer, path, link });
      }
    }
  }
  HELD.set(ops, held);
  return held;
}

/** Each text member's path and the link its example writes, depth first, in order. */
function membersLinking(doc: unknown, schema: unknown, depth: number): [string[], Link][] {
  const s = deref(doc, schema);
  if (!isNode(s) || depth === 0 || !isNode(s.properties)) return [];
  const found: [string[], Link][] = [];
  for (const [name, raw] of Object.entries(s.properties)) {
    const member = deref(doc, raw);
    if (!isNode(member)) continue;
    const said = [member.example, ...(Array.isArray(member.examples) ? member.examples : [])];
    for (const example of said) {
      const link = typeof example === "string" ? linkOf(example) : undefined;
      if (link) found.push([[name], link]);
    }
    for (const [below, link] of membersLinking(doc, member, depth - 1)) {
      found.push([[name, ...below], link]);
    }
  }
  return found;
}

/** A link's host (of a full URL) and path. */
type Link = { host?: string; path: string };

/** The host (of a full URL) and path of a link written as a path or a full URL; none for other text. */
function linkOf(example: string): Link | undefined {
  if (example.startsWith("/")) return { path: example.replace(/[?#].*$/, "") };
  if (!/^https?:\/\//i.test(example)) return undefined;
  try {
    const url = new URL(example);
    return { host: url.host, path: url.pathname };
  } catch {
    return undefined;
  }
}

/**
 * The first server's host (none for a relative URL) and path (`/signalk/v1`; "" for the root),
 * its variables at their defaults (`{protocol}://{hostname}/api/v3`).
 */
function serverOf(doc: Node): { host?: string; base: string } {
  const server = Array.isArray(doc.servers) && isNode(doc.servers[0]) ? doc.servers[0] : {};
  const vars = isNode(server.variables) ? server.variables : {};
  const url = (typeof server.url === "string" ? server.url : "/").replace(
    /\{([^}]+)\}/g,
    (_, name: string) => {
      const v = vars[name];
      return isNode(v) && typeof v.default === "string" ? v.default : "x";
    },
  );
  try {
    const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(url);
    const parsed = new URL(url, "http://host.invalid");
    return { ...(absolute ? { host: parsed.host } : {}), base: parsed.pathname.replace(/\/$/, "") };
  } catch {
    return { base: "" };
  }
}
