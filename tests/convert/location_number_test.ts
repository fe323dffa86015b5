/**
 * A row number that a `201` names only in its `Location` path, sent back in
 * later paths (as text) and in JSON bodies (as a number, and as a string
 * where the page sent one): the converted flow captures it once per type it
 * is sent as, and passes on a fresh instance whose ids are other numbers.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";
import { runPassesOn } from "../support/run_twice.ts";

/** An orders API whose ids start at `first`; a line must name its order as a JSON number. */
function ordersApi(first: number) {
  let next = first;
  const orders = new Map<number, { lines: number; note?: string }>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const json = () => req.json() as Promise<Record<string, unknown>>;
    if (req.method === "POST" && path === "/api/orders") {
      orders.set(next, { lines: 0 });
      return new Response(null, { status: 201, headers: { location: `/api/orders/${next++}` } });
    }
    const m = /^\/api\/orders\/(\d+)(\/lines|\/notes)?$/.exec(path);
    const order = m && orders.get(Number(m[1]));
    if (!order) return Response.json({ error: "no such order" }, { status: 404 });
    if (m![2] === "/lines") {
      const body = await json();
      if (body.order_id !== Number(m![1])) {
        return Response.json({ error: "order_id" }, { status: 422 });
      }
      order.lines++;
      return Response.json({ lines: order.lines }, { status: 201 });
    }
    if (m![2] === "/notes") {
      const body = await json();
      if (body.ref !== m![1]) return Response.json({ error: "ref" }, { status: 422 });
      order.note = String(body.text);
      return new Response(null, { status: 204 });
    }
    return Response.json({ lines: order.lines, note: order.note ?? null });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, stop: () => server.shutdown() };
}

/** The browser's recording of one session against an instance at `origin`. */
function recording(origin: string): string {
  const entry = (method: string, path: string, status: number, opts: {
    sent?: unknown;
    location?: string;
    answer?: unknown;
  } = {}) => ({
    startedDateTime: "2026-11-25T10:00:00.000Z",
    request: {
      method,
      url: `${origin}${path}`,
      headers: [{ name: "content-type", value: "application/json" }],
      ...(opts.sent === undefined
        ? {}
        : { postData: { mimeType: "application/json", text: JSON.stringify(opts.sent) } }),
    },
    response: {
      status,
      headers: opts.location ? [{ name: "Location", value: opts.location }] : [],
      content: opts.answer === undefined
        ? { mimeType: "", text: "" }
        : { mimeType: "application/json", text: JSON.stringify(opts.answer) },
    },
    _resourceType: "fetch",
  });
  return JSON.stringify({
    log: {
      entries: [
        entry("POST", "/api/orders", 201, { sent: {}, location: "/api/orders/1042" }),
        entry("POST", "/api/orders/1042/lines", 201, {
          sent: { order_id: 1042, sku: "tea" },
          answer: { lines: 1 },
        }),
        entry("POST", "/api/orders/1042/notes", 204, { sent: { ref: "1042", text: "gift" } }),
        entry("GET", "/api/orders/1042", 200, { answer: { lines: 1, note: "gift" } }),
      ],
    },
  });
}

Deno.test("a Location path's row number goes back as text in paths and as a number in JSON", async () => {
  const recorded = ordersApi(1042);
  const fresh = ordersApi(7);
  try {
    const { yaml } = convertHar(recording(recorded.url));
    assert.match(yaml, /regex: .*as: number/, yaml);
    // The number where the page sent a number, the text in paths and where it sent text.
    assert.match(yaml, /order_id_number: \{ header: location, regex: .*, as: number \}/, yaml);
    assert.match(yaml, /order_id: \$\{steps\.create_order\.capture\.order_id_number\}/, yaml);
    assert.match(yaml, /ref: \$\{steps\.create_order\.capture\.order_id\}/, yaml);
    assert.ok(!/1042/.test(yaml.replace(/^\s*#.*$/gm, "")), yaml);
    const flowText = yaml.replace(/\$\{ENV\.BASE_URL[^}]*\}/g, fresh.url);
    await runPassesOn(flowText, "orders.yaml", fresh.url);
  } finally {
    await recorded.stop();
    await fresh.stop();
  }
});
