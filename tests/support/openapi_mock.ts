/**
 * A mock server generated from a parsed OpenAPI document, for running a
 * converted suite where the real API cannot run. Each request is matched to
 * its operation as `openapi:` checks and coverage match it
 * (`matchOperation`: method, path under the first server's base path), and
 * answered with the operation's first documented 2xx status and, for a JSON
 * response, a body: the media type's `example` or first of `examples`, else
 * one the converter's own generator (`ExampleMaker`, response direction)
 * makes from the response's schema — the top object with its optional
 * properties too, as a server answers (a create's id), nested objects with
 * their required ones — `$ref`s resolved as the converter
 * resolves them (local to the document, so give it a bundled document). A
 * request that no operation serves gets 404 and is recorded apart.
 *
 * Credentials are checked as the operation's `security` (else the
 * document's) asks, by their shape: its first alternative's schemes each
 * need theirs (http basic an `Authorization: Basic …`; http bearer, oauth2
 * and openIdConnect an `Authorization: Bearer …`; apiKey its header, query
 * parameter or cookie), else 401, recorded in `refused`. A request to an
 * operation that asks for none (`security: []`) but carries an
 * `Authorization` is recorded in `unasked`; every bearer token is in
 * `tokens`. A POST to the path of an oauth2 flow's `tokenUrl` is answered
 * with a token (`tokenRequests`), as the authorization server would.
 *
 * What it does not do: keep state (a created resource is not stored; a read
 * answers the same example whatever id it names), check whether a
 * credential is right, check parameters or the request body against the document, answer a non-2xx
 * status (an operation documenting only `2XX` or no success gets 200), tell
 * apart operations whose path keys differ only after a `#` (a URL's fragment
 * is never sent: the request reaches the one without it), or make a body
 * for a non-JSON media type (it sends an empty body with that Content-Type).
 */
import { isNode, matchOperation, type Node } from "../../lib/check/openapi_operations.ts";
import { responseKey } from "../../lib/check/openapi_operations.ts";
import { deref, ExampleMaker } from "../../lib/convert/openapi/examples.ts";
import { givenExample } from "../../lib/convert/openapi/params.ts";
import { successes } from "../../lib/convert/openapi/responses.ts";

/** A running mock. */
export interface OpenApiMock {
  base: string;
  /** Every request an operation served, as `METHOD /path` (the query left out). */
  seen: string[];
  /** Requests no operation serves (answered 404). */
  unmatched: string[];
  /** Requests without the credentials their operation's security asks for (answered 401). */
  refused: string[];
  /** Requests with an `Authorization` to an operation whose security is `[]`. */
  unasked: string[];
  /** Every bearer token sent. */
  tokens: Set<string>;
  /** The token requests (POSTs to an oauth2 flow's `tokenUrl` path), answered with "mock-token". */
  tokenRequests: string[];
  /** The last request body each `METHOD /path` an operation served was sent, as text. */
  bodies: Map<string, string>;
  close(): Promise<void>;
}

/** The status and body the mock answers an operation with. */
export interface MockAnswer {
  status: number;
  /** The Content-Type, when the response documents a body. */
  type?: string;
  /** The JSON body, when the response's media type is JSON. */
  body?: unknown;
}

/**
 * What the mock answers for an operation: its first documented 2xx status
 * (200 for `2XX` or no success at all), and the JSON body its response
 * documents or the generator makes.
 */
export function mockAnswer(doc: unknown, operation: Node): MockAnswer {
  const keys = isNode(operation.responses) ? Object.keys(operation.responses) : [];
  const status = successes(doc, operation).statuses[0] ?? 200;
  const key = responseKey(keys, status);
  const response = key === undefined ? undefined : deref(doc, (operation.responses as Node)[key]);
  const content = isNode(response) && isNode(response.content) ? response.content : {};
  const types = Object.keys(content);
  const type = types.find((t) => /json/i.test(t)) ?? types[0];
  if (type === undefined || status === 204) return { status };
  if (!/json/i.test(type)) return { status, type };
  const media = isNode(content[type]) ? content[type] as Node : {};
  const own = givenExample(doc, media);
  const body = own.given ? own.value : new ExampleMaker(doc, "response", 1).make(media.schema);
  return { status, type, body: body ?? null };
}

/** What the operation's first security alternative asks for that the request lacks. */
export function missingCredentials(doc: unknown, operation: Node, req: Request): string[] {
  const root = isNode(doc) ? doc : {};
  const security = Array.isArray(operation.security) ? operation.security : root.security;
  const first = Array.isArray(security) && isNode(security[0]) ? security[0] : {};
  const schemes = isNode(root.components) && isNode(root.components.securitySchemes)
    ? root.components.securitySchemes
    : {};
  const authorization = req.headers.get("authorization") ?? "";
  const url = new URL(req.url);
  const cookie = req.headers.get("cookie") ?? "";
  return Object.keys(first).filter((name) => {
    const s = isNode(schemes[name]) ? schemes[name] as Node : {};
    if (s.type === "apiKey") {
      const key = String(s.name);
      if (s.in === "query") return !url.searchParams.has(key);
      if (s.in === "cookie") return !cookie.split(/;\s*/).some((c) => c.startsWith(`${key}=`));
      return !req.headers.has(key);
    }
    if (s.type === "http" && String(s.scheme).toLowerCase() === "basic") {
      return !/^Basic \S+$/.test(authorization);
    }
    return !/^Bearer \S+$/.test(authorization);
  });
}

/**
 * The paths of the oauth2 schemes' `tokenUrl`s (relative ones resolved
 * against the first server), which the mock answers with a token as an
 * authorization server would (Discord's clientCredentials flow).
 */
export function oauth2TokenPaths(doc: unknown): Set<string> {
  const root = isNode(doc) ? doc : {};
  const server = Array.isArray(root.servers) && isNode(root.servers[0]) ? root.servers[0].url : "";
  const base = `${typeof server === "string" && /^https?:/.test(server) ? server : "http://x"}/`;
  const schemes = isNode(root.components) && isNode(root.components.securitySchemes)
    ? Object.values(root.components.securitySchemes)
    : [];
  const paths = new Set<string>();
  for (const scheme of schemes) {
    if (!isNode(scheme) || scheme.type !== "oauth2" || !isNode(scheme.flows)) continue;
    for (const flow of Object.values(scheme.flows)) {
      if (!isNode(flow) || typeof flow.tokenUrl !== "string") continue;
      try {
        paths.add(new URL(flow.tokenUrl, base).pathname);
      } catch {
        // no URL: no token endpoint
      }
    }
  }
  return paths;
}

/** Starts the mock for a parsed, bundled document on 127.0.0.1 with an ephemeral port. */
export function startOpenApiMock(doc: unknown): OpenApiMock {
  const seen: string[] = [];
  const unmatched: string[] = [];
  const refused: string[] = [];
  const unasked: string[] = [];
  const tokens = new Set<string>();
  const tokenRequests: string[] = [];
  const bodies = new Map<string, string>();
  const tokenPaths = oauth2TokenPaths(doc);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const text = await req.text();
    const url = new URL(req.url);
    if (req.method === "POST" && tokenPaths.has(url.pathname)) {
      tokenRequests.push(url.pathname);
      return Response.json({ access_token: "mock-token", token_type: "Bearer", expires_in: 3600 });
    }
    const found = matchOperation(doc, req.method, req.url);
    if ("path" in found) {
      unmatched.push(`${req.method} ${url.pathname}`);
      return Response.json({ message: `no operation for ${req.method} ${url.pathname}` }, {
        status: 404,
      });
    }
    seen.push(`${req.method} ${url.pathname}`);
    const line = `${req.method} ${url.pathname}`;
    if (text !== "") bodies.set(line, text);
    const authorization = req.headers.get("authorization");
    if (authorization?.startsWith("Bearer ")) tokens.add(authorization.slice(7));
    const security = found.operation.security;
    if (Array.isArray(security) && security.length === 0 && authorization !== null) {
      unasked.push(line);
    }
    const missing = missingCredentials(doc, found.operation, req);
    if (missing.length > 0) {
      refused.push(line);
      return Response.json({ message: `no credentials for ${missing.join(", ")}` }, {
        status: 401,
      });
    }
    const answer = mockAnswer(doc, found.operation);
    const headers = answer.type === undefined ? undefined : { "Content-Type": answer.type };
    const out = answer.body === undefined ? null : JSON.stringify(answer.body);
    return new Response(req.method === "HEAD" ? null : out, { status: answer.status, headers });
  });
  const { port } = server.addr as Deno.NetAddr;
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    unmatched,
    refused,
    unasked,
    tokens,
    tokenRequests,
    bodies,
    close: () => server.shutdown(),
  };
}
