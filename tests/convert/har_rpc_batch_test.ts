/**
 * `convert har` on a JSON-RPC 2.0 client that sends batches: a request body that is a list of
 * calls (`{jsonrpc, method, params, id}`), answered by a list matched by `id`, which a server may
 * send in any order. A batch must convert as its single calls do: a value a member's answer
 * produced and a later request sends is captured by the member's `id` (a filter, never the
 * list's position), each member's answer is checked for an `error`, and the password typed into
 * a login member is asked for as `LOGIN_PASSWORD`, never written. The stand-in server answers
 * every batch in reversed order, so a position recorded in order picks the wrong member.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const PASSWORD = "Tide-Gauge-481";

interface Call {
  jsonrpc?: string;
  method?: string;
  params?: unknown;
  id?: unknown;
}

/** A notes service over JSON-RPC 2.0 with a cookie session; batches answered back to front. */
function notesServer() {
  const sessions = new Set<string>();
  const notes = new Map<string, string>();
  const call = (c: Call, session: () => string | undefined, grant: () => void): unknown => {
    const ok = (result: unknown) => ({ jsonrpc: "2.0", result, id: c.id });
    const fail = (code: number, message: string) => ({
      jsonrpc: "2.0",
      error: { code, message },
      id: c.id,
    });
    const params = (c.params ?? {}) as Record<string, unknown> & unknown[];
    if (c.method === "auth.login") {
      if (params[1] !== PASSWORD) return fail(1, "wrong password");
      grant();
      return ok(true);
    }
    const sid = session();
    if (!sid || !sessions.has(sid)) return fail(-32001, "not logged in");
    if (c.method === "system.version") return ok("1.4.2");
    if (c.method === "notes.count") return ok(notes.size);
    if (c.method === "notes.create") {
      const id = `n-${crypto.randomUUID().slice(0, 8)}`;
      notes.set(id, String(params.title));
      return ok({ note_id: id });
    }
    const id = String(params.note_id);
    if (!notes.has(id)) return fail(-32004, `no note ${id}`);
    if (c.method === "notes.get") return ok({ note_id: id, title: notes.get(id) });
    if (c.method === "notes.delete") return ok(notes.delete(id));
    return fail(-32601, "method not found");
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    let granted: string | undefined;
    // A login member's session holds for the members after it.
    const session = () => granted ?? req.headers.get("cookie")?.match(/sid=(\w+)/)?.[1];
    const grant = () => {
      granted = crypto.randomUUID().replaceAll("-", "");
      sessions.add(granted);
    };
    const answer = Array.isArray(body)
      ? body.map((c) => call(c, session, grant)).reverse()
      : call(body, session, grant);
    const headers = new Headers({ "content-type": "application/json" });
    if (granted) headers.set("set-cookie", `sid=${granted}; Path=/; HttpOnly`);
    return new Response(JSON.stringify(answer), { headers });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

const URL = "http://127.0.0.1:8080/rpc";
const NOTE = "n-7f3a9c2e";

/** One recorded exchange, answered in order as the recording's server did. */
function exchange(calls: Call[] | Call, answer: unknown, cookie = true) {
  return {
    method: "POST",
    url: URL,
    body: JSON.stringify(calls),
    json: answer,
    headers: cookie
      ? [["Cookie", "sid=5b1e0c2a9d7f4e3b8a6c1d0e2f3a4b5c"]] as [string, string][]
      : [],
  };
}

const v2 = (id: number, method: string, params: unknown) => ({
  jsonrpc: "2.0",
  method,
  params,
  id,
});
const ok = (id: number, result: unknown) => ({ jsonrpc: "2.0", result, id });

function recording(): string {
  const login = {
    ...exchange([v2(1, "auth.login", ["ann", PASSWORD]), v2(2, "system.version", [])], [
      ok(1, true),
      ok(2, "1.4.2"),
    ], false),
    setCookies: [["sid", "5b1e0c2a9d7f4e3b8a6c1d0e2f3a4b5c"]] as [string, string][],
  };
  return harOf([
    login,
    exchange([v2(3, "notes.count", []), v2(4, "notes.create", { title: "Groceries" })], [
      ok(3, 0),
      ok(4, { note_id: NOTE }),
    ]),
    exchange(v2(5, "notes.get", { note_id: NOTE }), ok(5, { note_id: NOTE, title: "Groceries" })),
    exchange([v2(6, "notes.delete", { note_id: NOTE }), v2(7, "notes.count", [])], [
      ok(6, true),
      ok(7, 0),
    ]),
  ]);
}

Deno.test("convert har: a JSON-RPC batch captures by member id, checks each member's error and asks a login member's password; it passes against a server that reorders its answers", async () => {
  const dir = await Deno.makeTempDir();
  const server = notesServer();
  try {
    await Deno.writeTextFile(`${dir}/in.har`, recording());
    const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.ok(!flow.includes(PASSWORD), flow);
    assert.match(flow, /LOGIN_PASSWORD/);
    assert.match(flow, /\$\.json\[\?@\.id == 4\]\.result\.note_id/, flow);
    assert.ok(!/\$\.json\[\d+\]/.test(flow), `no member read by position:\n${flow}`);
    assert.match(flow, /\$\.json\[\?@\.id == 6\]\.error/, flow);
    const env = { BASE_URL: server.origin, LOGIN_PASSWORD: PASSWORD };
    for (const time of ["first", "second"]) {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env });
      assert.equal(run.code, 0, `${time} run:\n${run.stdout}\n${flow}`);
    }
    // A member refused with HTTP 200 fails its step.
    const refused = await runCli(["run", `${dir}/flow.yaml`], {
      env: { ...env, LOGIN_PASSWORD: "wrong" },
    });
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(refused.stdout, /error/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
