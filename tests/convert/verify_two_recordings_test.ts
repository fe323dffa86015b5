/**
 * Two recordings (`convert har a.har b.har`) never report a value as
 * differing where it is equal in both: the evidence is per place (a query
 * or form key, a header, a cookie, a JSON key), so `aggregate[count]=id`,
 * sent alike in both sessions, stays `id` even though the word `id` differs
 * at another place (the user sorted by `id` once and by `email` once). Both
 * recordings are made against a live server the test starts; the flow then
 * runs on a fresh instance with nothing set.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHars } from "./har_convert.ts";

/** A Directus-shaped API: a login token, bracketed query keys it checks. */
function startApi() {
  const tokens = new Set<string>();
  const refused: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    await req.body?.cancel();
    if (url.pathname === "/auth/login") {
      const token = `tok_${crypto.randomUUID()}`;
      tokens.add(token);
      return Response.json({ data: { access_token: token } });
    }
    if (!tokens.has((req.headers.get("authorization") ?? "").slice(7))) {
      return Response.json({ errors: [{ message: "forbidden" }] }, { status: 403 });
    }
    const q = url.searchParams;
    if (url.pathname === "/items/articles" && q.has("aggregate[count]")) {
      if (q.get("aggregate[count]") !== "id" || q.get("filter[status][_eq]") !== "published") {
        refused.push(url.search);
        return Response.json({ errors: [{ message: "bad aggregate" }] }, { status: 400 });
      }
      return Response.json({ data: [{ count: { id: 3 } }] });
    }
    return Response.json({ data: [] });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    refused,
    close: () => server.shutdown(),
  };
}

/** One session, sorted by `sort`, recorded as a HAR (Chromium's encoded brackets when `encoded`). */
async function record(origin: string, sort: string, encoded: boolean): Promise<string> {
  const entries: unknown[] = [];
  let token = "";
  const send = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { accept: "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body) headers["content-type"] = "application/json";
    const text = body ? JSON.stringify(body) : undefined;
    const res = await fetch(`${origin}${path}`, { method, headers, body: text });
    const json = await res.json();
    const url = encoded
      ? `${origin}${path.replaceAll("[", "%5B").replaceAll("]", "%5D")}`
      : `${origin}${path}`;
    entries.push({
      startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, entries.length)).toISOString(),
      request: {
        method,
        url,
        headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
        ...(text ? { postData: { mimeType: "application/json", text } } : {}),
      },
      response: {
        status: res.status,
        headers: [{ name: "content-type", value: "application/json" }],
        content: { mimeType: "application/json", text: JSON.stringify(json) },
      },
      _resourceType: "fetch",
    });
    return json;
  };
  const login = await send("POST", "/auth/login", { email: "ann@example.test" });
  token = login.data.access_token;
  await send("GET", "/items/articles?aggregate[count]=id&filter[status][_eq]=published");
  await send("GET", `/users?sort=${sort}&fields[]=id&fields[]=email`);
  // The same in a JSON body (Directus's SEARCH): the count's field equal, the sort not.
  await send("POST", "/items/articles/search", {
    query: { aggregate: { count: ["id"] }, groupBy: "id", sort: [sort] },
  });
  await send("POST", "/items/articles/find", { field: "id", by: sort });
  return JSON.stringify({ log: { entries } });
}

Deno.test("two recordings: a bracketed query value equal in both is not called differing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-two-" });
  const api = startApi();
  try {
    const recordings = [
      await record(api.origin, "id", false),
      await record(api.origin, "email", true),
    ];
    const { flow } = await convertHars(dir, recordings);
    // Equal in both recordings: sent as recorded, never a variable "that differs".
    assert.match(flow, /aggregate\[count\]=id&filter\[status\]\[_eq\]=published/, flow);
    assert.match(flow, /fields\[\]=id&fields\[\]=email/, flow);
    assert.match(flow, /count: \[id\]/, flow);
    assert.match(flow, /groupBy: id\n/, flow);
    assert.match(flow, /field: id\n/, flow);
    assert.doesNotMatch(flow, /"(aggregate\[count\]|fields\[\])" differs/, flow);
    // What the user chose differently is still told apart.
    assert.match(flow, /"sort" differs between the two recordings/, flow);
    const fresh = startApi();
    try {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: fresh.origin } });
      assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}\n${flow}`);
      assert.deepEqual(fresh.refused, []);
    } finally {
      await fresh.close();
    }
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});
