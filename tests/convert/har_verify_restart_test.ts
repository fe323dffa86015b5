/**
 * `--verify` against an API that restarts its listener when a config write
 * changes the part it listens by, as Syncthing's GUI does when a
 * `PUT /rest/config` changes the `gui` section: the next request gets no
 * answer. (Syncthing, issue 52: a fresh instance whose `syncthing generate`
 * found 127.0.0.1:8384 taken wrote another GUI address into its config; the
 * recording's config writes sent 8384 back.)
 *
 * - The live config's address is not the recorded one: the converted flow
 *   sends the recorded one back and the step after the write gets no
 *   answer; `--verify` makes every write send the address the config read
 *   handed out live, and the flow it writes passes on a fresh server.
 * - A write that changes that part by design (the journey changed it): the
 *   step after it gets no answer on its first send and passes when sent
 *   again unchanged. That is no repair and no failure: `--verify` sends it
 *   again before trying another candidate, and says so.
 *
 * The server is raw TCP so that "no answer" is a connection closed without
 * a byte, as a listener going down does; every response closes its
 * connection, so no pooled connection is reused.
 */
import assert from "node:assert/strict";
import { harOf } from "../support/har_records.ts";
import { runCli } from "../support/cli.ts";

const RECORDED_ADDRESS = "127.0.0.1:8384";
const LIVE_ADDRESS = "127.0.0.1:41789";

/** The API: tokens from `/session` and `/me`, a config whose `gui` change loses the next `lost` requests. */
function startApi(address = LIVE_ADDRESS, lost = 1) {
  const tokens = new Set<string>();
  let config: Record<string, unknown> = { gui: { address, theme: "default" } };
  let dropNext = 0;
  const dropped: string[] = [];
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const token = () => {
    const t = `tok_${crypto.randomUUID().replaceAll("-", "")}`;
    tokens.add(t);
    return t;
  };
  const route = (method: string, path: string, headers: Headers, body: string) => {
    if (path === "/session") return { token: token() };
    if (path === "/me") return { token: token(), name: "ada" };
    if (path === "/health") return { ok: true };
    if (!tokens.has(headers.get("x-token") ?? "")) return undefined;
    if (method === "GET" && path === "/config") return config;
    if (method === "PUT" && path === "/config") {
      const next = JSON.parse(body);
      // The listener restarts when the part it listens by changed: the next request is lost.
      dropNext = JSON.stringify(next.gui) !== JSON.stringify(config.gui) ? lost : 0;
      config = next;
      return {};
    }
    return { ok: true };
  };
  const serve = async (conn: Deno.Conn) => {
    try {
      const { method, path, headers, body } = await readRequest(conn);
      if (dropNext > 0) {
        dropNext--;
        dropped.push(`${method} ${path}`);
        return;
      }
      const answer = route(method, path, headers, body);
      const text = JSON.stringify(answer ?? { error: "bad token" });
      const head = `HTTP/1.1 ${answer ? "200 OK" : "403 Forbidden"}\r\n` +
        `content-type: application/json\r\ncontent-length: ${text.length}\r\n` +
        `connection: close\r\n\r\n`;
      await writeAll(conn, new TextEncoder().encode(head + text));
    } catch {
      // A client that went away: nothing to answer.
    } finally {
      conn.close();
    }
  };
  const accepting = (async () => {
    for await (const conn of listener) serve(conn);
  })().catch(() => {});
  return {
    origin: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    dropped,
    config: () => config,
    close: async () => {
      listener.close();
      await accepting;
    },
  };
}

/** One request's method, path, headers and body (by its content-length), at most 64 KiB. */
async function readRequest(conn: Deno.Conn) {
  const buf = new Uint8Array(65536);
  let n = 0;
  let text = "";
  for (let reads = 0; reads < 1000 && n < buf.length; reads++) {
    const got = await conn.read(buf.subarray(n));
    if (got === null) break;
    n += got;
    text = new TextDecoder().decode(buf.subarray(0, n));
    const end = text.indexOf("\r\n\r\n");
    if (end === -1) continue;
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1] ?? 0);
    if (n >= end + 4 + length) break;
  }
  const [head, body = ""] = text.split("\r\n\r\n", 2);
  const [first, ...lines] = head.split("\r\n");
  const [method, path] = first.split(" ");
  const headers = new Headers();
  for (const line of lines) {
    const at = line.indexOf(":");
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return { method, path, headers, body };
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array) {
  for (let at = 0, writes = 0; at < bytes.length && writes < 1000; writes++) {
    at += await conn.write(bytes.subarray(at));
  }
}

const RECORDED_TOKEN = "tok_5b1e0c7a9d2f4e38a6c1";
const json = (v: unknown) => JSON.stringify(v);

/** The recording: a session, its config read and write(s), and the calls after each write. */
function recording(origin: string, writes: { theme: string; then: string }[]): string {
  const h: [string, string][] = [["x-token", RECORDED_TOKEN], ["accept", "application/json"]];
  const recorded = { gui: { address: RECORDED_ADDRESS, theme: "default" } };
  return harOf([
    { url: `${origin}/session`, json: { token: RECORDED_TOKEN } },
    // The app's profile hands the same token out again (live, each answer is a new one).
    { url: `${origin}/me`, json: { token: RECORDED_TOKEN, name: "ada" } },
    { url: `${origin}/config`, headers: h, json: recorded },
    ...writes.flatMap(({ theme, then }) => [
      {
        method: "PUT",
        url: `${origin}/config`,
        headers: [...h, ["content-type", "application/json"]] as [string, string][],
        body: json({ gui: { address: RECORDED_ADDRESS, theme } }),
        json: {},
      },
      { url: `${origin}${then}`, headers: then === "/health" ? [] : h, json: { ok: true } },
    ]),
  ]);
}

async function convert(dir: string, har: string, args: string[]) {
  await Deno.writeTextFile(`${dir}/rec.har`, har);
  const out = await runCli(["convert", "har", `${dir}/rec.har`, "-o", `${dir}/flow.yaml`, ...args]);
  return { ...out, flow: await Deno.readTextFile(`${dir}/flow.yaml`).catch(() => "") };
}

Deno.test("convert har --verify: a config write sends back the address the live config read handed out, not the recorded one a restart follows", async () => {
  const dir = await Deno.makeTempDir();
  const recorder = startApi();
  const har = recording(recorder.origin, [{ theme: "default", then: "/items" }]);
  await recorder.close();
  try {
    // The converted flow as it stands: its write moves the listener, the next step gets no answer.
    const plainApi = startApi();
    try {
      const plain = await convert(dir, har, []);
      assert.equal(plain.code, 0, plain.stderr);
      const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: plainApi.origin } });
      assert.notEqual(run.code, 0, run.stdout);
      assert.deepEqual(plainApi.dropped, ["GET /items"]);
    } finally {
      await plainApi.close();
    }
    const live = startApi();
    try {
      const verified = await convert(dir, har, ["--no-correlate", "--verify", live.origin]);
      assert.equal(verified.code, 0, verified.stderr);
      assert.match(verified.stderr, /Verified 5 steps against \S+: all pass after \d+ repairs?\./);
      assert.match(
        verified.stderr,
        /verify: repaired "update_config": sends \$\{steps\.get_config\.capture\.address\}: "address" in the JSON body of step "get_config" changed live/,
      );
      assert.deepEqual(live.dropped, [], "the verified write moved the listener");
      assert.equal((live.config().gui as { address: string }).address, LIVE_ADDRESS);
    } finally {
      await live.close();
    }
    const next = startApi();
    try {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: next.origin } });
      assert.equal(run.code, 0, run.stdout);
      assert.deepEqual(next.dropped, []);
      assert.equal((next.config().gui as { address: string }).address, LIVE_ADDRESS);
    } finally {
      await next.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har --verify: a step that got no answer and passes when sent again unchanged is neither repaired nor failed, and that is said", async () => {
  const dir = await Deno.makeTempDir();
  const recorder = startApi();
  // Each write changes the theme, as the journey did: every replay restarts the listener.
  const har = recording(recorder.origin, [
    { theme: "dark", then: "/items" },
    { theme: "light", then: "/health" },
  ]);
  await recorder.close();
  // Its config listens where the recorded one did: only the theme's change moves the listener.
  const live = startApi(RECORDED_ADDRESS);
  try {
    const verified = await convert(dir, har, ["--no-correlate", "--verify", live.origin]);
    assert.equal(verified.code, 0, verified.stderr);
    assert.deepEqual(live.dropped, ["GET /items", "GET /health"]);
    assert.match(verified.stderr, /Verified 7 steps against \S+: all pass after \d+ repairs?\./);
    // The items' token stays the session's: the profile's, another live token, is no repair.
    assert.doesNotMatch(verified.stderr, /get_me\.capture/);
    assert.doesNotMatch(verified.flow, /get_me\.capture/);
    assert.doesNotMatch(verified.stderr, /could not make/);
    for (const step of ["list_items", "get_health"]) {
      assert.match(
        verified.stderr,
        new RegExp(
          `verify: "${step}" passed when sent again unchanged: its first send got no answer \\([^)]+\\)\\.`,
        ),
      );
    }
    assert.match(
      verified.flow,
      /# verify: passed when sent again unchanged: its first send got no answer/,
    );
  } finally {
    await live.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har --verify: a step that gets no answer when sent again too is not sent a third time, and fails with why", async () => {
  const dir = await Deno.makeTempDir();
  const recorder = startApi();
  const har = recording(recorder.origin, [{ theme: "dark", then: "/health" }]);
  await recorder.close();
  // The listener stays down for two requests: the first send and the one more.
  const live = startApi(RECORDED_ADDRESS, 2);
  try {
    const verified = await convert(dir, har, ["--no-correlate", "--verify", live.origin]);
    assert.equal(verified.code, 1, verified.stderr);
    assert.deepEqual(live.dropped, ["GET /health", "GET /health"]);
    assert.match(
      verified.stderr,
      /verify: could not make "get_health" pass \(0 tries: nothing to try: [^)]*\): Request failed: /,
    );
    assert.doesNotMatch(verified.stderr, /passed when sent again/);
  } finally {
    await live.close();
    await Deno.remove(dir, { recursive: true });
  }
});
