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
 * What it does not do: keep state (a created resource is not stored; a read
 * answers the same example whatever id it names), check credentials, check
 * parameters or the request body against the document, answer a non-2xx
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

/** Starts the mock for a parsed, bundled document on 127.0.0.1 with an ephemeral port. */
export function startOpenApiMock(doc: unknown): OpenApiMock {
  const seen: string[] = [];
  const unmatched: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.body?.cancel();
    const url = new URL(req.url);
    const found = matchOperation(doc, req.method, req.url);
    if ("path" in found) {
      unmatched.push(`${req.method} ${url.pathname}`);
      return Response.json({ message: `no operation for ${req.method} ${url.pathname}` }, {
        status: 404,
      });
    }
    seen.push(`${req.method} ${url.pathname}`);
    const answer = mockAnswer(doc, found.operation);
    const headers = answer.type === undefined ? undefined : { "Content-Type": answer.type };
    const text = answer.body === undefined ? null : JSON.stringify(answer.body);
    return new Response(req.method === "HEAD" ? null : text, { status: answer.status, headers });
  });
  const { port } = server.addr as Deno.NetAddr;
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    unmatched,
    close: () => server.shutdown(),
  };
}
