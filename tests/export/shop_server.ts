/**
 * The shop the export tests send to: a server on 127.0.0.1 (a port the
 * system picks) that logs in with one password, creates and reads items,
 * and records every request it receives, so a test can compare what
 * `flowrun run` sent with what each Artillery virtual user sent.
 *
 * @module
 */

/** One request as the shop received it. */
export interface Received {
  method: string;
  path: string;
  /** The query as sent, still encoded. */
  search: string;
  /** The `x-run` header: the run id, one per virtual user. */
  run: string;
  requestId: string | null;
  authorization: string | null;
  /** The \`x-receipt\` header: a cookie value the flow captured and sends back. */
  receipt: string | null;
  body: Record<string, unknown> | null;
  /** What the shop answered with, as JSON. */
  answer: Record<string, unknown>;
}

/** A running shop. */
export interface Shop {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** Starts the shop; the only password it takes is `password`. */
export function startShop(password: string): Shop {
  const received: Received[] = [];
  const items = new Map<number, Record<string, unknown>>();
  let tokens = 0;
  const answer = (
    request: Request,
    body: Record<string, unknown> | null,
  ): [number, Record<string, unknown>] => {
    const path = new URL(request.url).pathname;
    if (request.method === "POST" && path === "/login") {
      return body?.password === password
        ? [200, { token: `tok-${++tokens}` }]
        : [401, { error: "no" }];
    }
    if (!request.headers.get("authorization")?.startsWith("Bearer tok-")) {
      return [401, { error: "no token" }];
    }
    if (request.method === "POST" && path === "/items") {
      const item = { ...body, id: items.size + 1, owner: "ann" };
      items.set(item.id, item);
      return [201, item];
    }
    const id = Number(/^\/items\/(\d+)(?:\/[^/]*)?$/.exec(path)?.[1]);
    if (request.method === "GET" && id) return [200, items.get(id) ?? { id, owner: "ann" }];
    return [404, { error: "not found" }];
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const text = await request.text();
    const body = text ? JSON.parse(text) : null;
    const [status, json] = answer(request, body);
    received.push({
      method: request.method,
      path: new URL(request.url).pathname,
      search: new URL(request.url).search,
      run: request.headers.get("x-run") ?? "",
      requestId: request.headers.get("x-request-id"),
      authorization: request.headers.get("authorization"),
      receipt: request.headers.get("x-receipt"),
      body,
      answer: json,
    });
    // A create sets a cookie: the flow captures it (a capture Artillery makes by the processor).
    const headers = status === 201 ? { "set-cookie": `receipt=r-${json.name}; Path=/` } : undefined;
    return Response.json(json, { status, headers });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    received,
    close: () => server.shutdown(),
  };
}
