/**
 * `convert har` on a session id the page made itself, as Jupyter Notebook's
 * kernel socket has it (tests/real/notebook_har_test.ts): the page opens
 * `/api/kernels/{id}/channels?session_id=<32 hex digits>` and sends the same
 * value as each message's `header.session`. No answer ever held it: the
 * client made it (a random UUID, written without dashes). The conversion
 * asked the user for it, twice (`SESSION_ID`, `CHANNELS_SESSION`), as if it
 * were a credential the user typed; a new user cannot know what to set.
 *
 * What the converter does: a session id no answer issued, shaped as a random
 * (version 4) UUID with or without dashes, is made fresh once per run (a var
 * of `${RANDOM.HEX_32}` or `${RANDOM.UUID}`) and sent wherever the recording
 * sent it, nothing asked. Widened: the dashed form in an HTTP JSON body; a
 * session id an answer gave is still captured from it; an API key shaped so
 * is still asked for (a user does type keys).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const COMPACT = "b71e82bdf53a40d58b3dc6ed065f4041";
const DASHED = "6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912";
const KEY = "0d4c1a2b-3e4f-4a5b-8c6d-7e8f9a0b1c2d";
const ISSUED = "c3a9e1f2-4b5d-4e6f-8a7b-9c0d1e2f3a4b";

/** A stand-in: a socket that answers each message naming the socket's session, and an HTTP API. */
function standIn() {
  const sessions: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/channels") {
      const session = url.searchParams.get("session_id") ?? "";
      sessions.push(session);
      const { socket, response } = Deno.upgradeWebSocket(req);
      socket.onmessage = (e) => {
        const said = JSON.parse(String(e.data)).header?.session;
        socket.send(JSON.stringify({ ok: said === session && session !== "", session: said }));
      };
      return response;
    }
    if (url.pathname === "/login") return Response.json({ session: crypto.randomUUID() });
    const body = await req.json().catch(() => ({}));
    if (body.sessionId) sessions.push(body.sessionId);
    if (req.headers.get("x-api-key") !== KEY) return Response.json({}, { status: 401 });
    return Response.json({ ok: true });
  });
  return { origin: `127.0.0.1:${server.addr.port}`, sessions, close: () => server.shutdown() };
}

function recording(): string {
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();
  const json = (text: unknown, status = 200) => ({
    status,
    headers: [],
    cookies: [],
    content: { mimeType: "application/json", text: JSON.stringify(text) },
  });
  const post = (ms: number, path: string, body: unknown, answer: unknown) => ({
    startedDateTime: at(ms),
    time: 1,
    request: {
      method: "POST",
      url: `http://127.0.0.1:8888${path}`,
      headers: [{ name: "X-Api-Key", value: KEY }],
      cookies: [],
      postData: { mimeType: "application/json", text: JSON.stringify(body) },
    },
    response: json(answer),
    _resourceType: "xhr",
  });
  const message = (type: string, data: unknown, ms: number) => ({
    type,
    opcode: 1,
    time: Date.UTC(2026, 0, 1, 0, 0, 0, ms) / 1000,
    data: JSON.stringify(data),
  });
  const socket = {
    startedDateTime: at(100),
    time: 1,
    request: { method: "GET", url: `ws://127.0.0.1:8888/channels?session_id=${COMPACT}` },
    response: { status: 101, headers: [], cookies: [], content: {} },
    _resourceType: "websocket",
    _webSocketMessages: [
      message("send", { header: { session: COMPACT, msg_type: "hello" } }, 110),
      message("receive", { ok: true, session: COMPACT }, 120),
    ],
  };
  return JSON.stringify({
    log: {
      entries: [
        post(0, "/login", {}, { session: ISSUED }),
        socket,
        post(200, "/api/visits", { sessionId: DASHED, page: "home" }, { ok: true }),
        post(300, "/api/visits", { sessionId: DASHED, page: "tree" }, { ok: true }),
        post(400, "/api/events", { session: ISSUED }, { ok: true }),
      ],
    },
  });
}

Deno.test("convert har: a session id the client made (no answer held it) is made fresh once per run, wherever the recording sent it, and nothing is asked but the key", async () => {
  const dir = await Deno.makeTempDir();
  const fresh = standIn();
  try {
    await Deno.writeTextFile(`${dir}/in.har`, recording());
    const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/f.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/f.yaml`);
    // Only the API key the user typed is asked for.
    assert.match(converted.stderr, /Set before running: API_KEY\./, converted.stderr);
    assert.match(flow, /: \$\{RANDOM\.HEX_32\}/, flow);
    assert.ok(!flow.includes(COMPACT) && !flow.includes(DASHED), flow);
    // The session an answer issued is still its capture.
    assert.match(flow, /session: \$\{steps\.\w+\.capture\.session\}/, flow);
    const env = {
      BASE_URL: `http://${fresh.origin}`,
      WS_BASE_URL: `ws://${fresh.origin}`,
      API_KEY: KEY,
    };
    for (const _ of [1, 2]) {
      const run = await runCli(["run", `${dir}/f.yaml`, "--report-json", `${dir}/r.json`], { env });
      assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
      const report = await Deno.readTextFile(`${dir}/r.json`);
      assert.ok(!report.includes('"ok":false'), report);
    }
    // Each run made its own ids, the same at every place within a run.
    const [s1, v1, v2, s2, w1, w2] = fresh.sessions;
    assert.equal(fresh.sessions.length, 6, fresh.sessions.join(" "));
    assert.match(s1, /^[0-9a-f]{32}$/);
    assert.ok(s1 !== s2 && s1 !== COMPACT, fresh.sessions.join(" "));
    assert.ok(v1 === v2 && w1 === w2 && v1 !== w1 && v1 !== DASHED, fresh.sessions.join(" "));
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});
