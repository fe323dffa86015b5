/**
 * A requirement that is the framework's blanket, not a credential: each
 * scheme it names is, on every other operation that names it, only an option
 * beside an empty one (`[{cookieAuth: []}, {basicAuth: []}, {}]`). Django
 * REST framework's drf-spectacular lists the framework's default
 * authentications (a session cookie, HTTP basic) on every view and adds the
 * empty option where the view lets anyone in; DRF's own token view
 * (`ObtainAuthToken`) lets anyone in but gets no empty option, so the
 * document says its login needs the cookie or basic credentials, which no
 * other operation needs and nothing in the API hands out. Evidence, not
 * names: the document itself shows those schemes are nobody's requirement.
 *
 * @module
 */
import { isNode, type Node, OPENAPI_METHODS } from "../../check/openapi_operations.ts";

/** How each operation node of a document states its requirement, worked out once per document. */
const STATED = new WeakMap<Node, Map<Node, Node[]>>();

/**
 * Whether `node`'s requirement names only blanket schemes (see the module
 * doc): it names at least one scheme and has no empty option; each scheme it
 * names is required by no other operation and is an option beside an empty
 * one on at least one.
 *
 * @example
 * ```ts
 * import { namesOnlyBlanket } from "./blanket_requirement.ts";
 * const token = { security: [{ cookie: [] }, { basic: [] }] };
 * const open = { security: [{ cookie: [] }, { basic: [] }, {}] };
 * const notes = { security: [{ key: [] }] };
 * const doc = { paths: { "/token": { post: token }, "/signup": { post: open }, "/notes": { get: notes } } };
 * if (!namesOnlyBlanket(doc, token) || namesOnlyBlanket(doc, notes)) throw new Error();
 * ```
 */
export function namesOnlyBlanket(doc: Node, node: Node): boolean {
  const stated = statedRequirements(doc);
  const own = stated.get(node) ?? [];
  if (own.length === 0 || own.some((o) => Object.keys(o).length === 0)) return false;
  const names = new Set(own.flatMap((o) => Object.keys(o)));
  const others = [...stated].filter(([other]) => other !== node).map(([, options]) => options);
  const optional = others.filter((options) => options.some((o) => Object.keys(o).length === 0));
  const required = others.filter((options) => !optional.includes(options));
  return recurring(names, optional) &&
    [...names].every((name) =>
      !required.some((options) => options.some((o) => name in o)) &&
      optional.some((options) => options.some((o) => name in o))
    );
}

/**
 * Whether `node`'s requirement is optional (it has an empty option) and each
 * scheme it names is the framework's blanket: required by no operation but
 * those in `except` (the login, whose requirement `namesOnlyBlanket` reads),
 * while some operation requires another scheme, the API's own credential.
 * Such an operation is open: asking for the blanket's credential (a session
 * cookie nothing hands out) asks for what no operation needs.
 *
 * @example
 * ```ts
 * import { optionalBlanket } from "./blanket_requirement.ts";
 * const open = { security: [{ cookie: [] }, { basic: [] }, {}] };
 * const notes = { security: [{ token: [] }] };
 * const doc = { paths: { "/status": { get: open }, "/notes": { get: notes } } };
 * if (!optionalBlanket(doc, open, []) || optionalBlanket(doc, notes, [])) throw new Error();
 * // One scheme offered once beside nothing is the API's own optional key: sent.
 * const upload = { security: [{ key: [] }, {}] };
 * const one = { paths: { "/photo": { post: upload }, "/notes": { get: notes } } };
 * if (optionalBlanket(one, upload, [])) throw new Error();
 * ```
 */
export function optionalBlanket(doc: Node, node: Node, except: Node[]): boolean {
  const stated = statedRequirements(doc);
  const own = stated.get(node) ?? [];
  if (!own.some((o) => Object.keys(o).length === 0)) return false;
  const names = new Set(own.flatMap((o) => Object.keys(o)));
  const required = [...stated].filter(([other, options]) =>
    !except.includes(other) && !options.some((o) => Object.keys(o).length === 0)
  ).flatMap(([, options]) => options.flatMap((o) => Object.keys(o)));
  const optional = [...stated.values()].filter((o) => o.some((x) => Object.keys(x).length === 0));
  return names.size > 0 && recurring(names, optional) && required.some((n) => !names.has(n)) &&
    [...names].every((name) => !required.includes(name));
}

/**
 * Whether optional `names` look like a framework's defaults rather than one credential the API
 * lets a caller add: a list of two or more (a session cookie and HTTP basic), or offered on two
 * operations or more. A single scheme offered once beside an empty option (an upload taking an
 * `X-Key` if given) is the API's own, and is sent.
 */
function recurring(names: Set<string>, optional: Node[][]): boolean {
  if (names.size >= 2) return true;
  return optional.filter((options) => options.some((o) => [...names].some((n) => n in o))).length >=
    2;
}

/** Each operation node of `doc` and the options of its requirement (its own, else the root's). */
function statedRequirements(doc: Node): Map<Node, Node[]> {
  const cached = STATED.get(doc);
  if (cached) return cached;
  const stated = new Map<Node, Node[]>();
  const root = Array.isArray(doc.security) ? doc.security : [];
  const paths = isNode(doc.paths) ? doc.paths : {};
  for (const item of Object.values(paths)) {
    if (!isNode(item)) continue;
    for (const method of OPENAPI_METHODS) {
      const node = item[method];
      if (!isNode(node)) continue;
      const security = Array.isArray(node.security) ? node.security : root;
      stated.set(node, security.filter(isNode));
    }
  }
  STATED.set(doc, stated);
  return stated;
}
