/**
 * `convert har` on a session id the page made from the clock: DbGate 7.2's
 * page makes a time-based (version 1) UUID per page load and sends it in
 * `x-api-session-id` on every call (docs/real-servers-har.md). No answer held
 * it, yet the summary asked the user for four `API_SESSION_ID…` variables
 * nobody can know: only random (version 4) UUIDs were taken for made ones.
 *
 * A time-based UUID (version 1, 6 or 7) carries when it was made: one whose
 * time is within a day of the request that sent it was made by the page
 * then, so it is made fresh once per run like a random one. Widened: each of
 * versions 1, 6 and 7, in a header and in a JSON body; one made long before
 * the recording (an id the user could have kept) is still asked for.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const RECORDED_AT = Date.UTC(2026, 10, 29, 14, 58, 47);

const hex = (n: bigint, width: number) => n.toString(16).padStart(width, "0");

/** A UUID of `version` made at `ms` (ms since the epoch), as a page's generator makes it. */
function timeUuid(version: 1 | 6 | 7, ms: number): string {
  const tail = "89e2-09a69e381118";
  if (version === 7) {
    const t = hex(BigInt(ms), 12);
    return `${t.slice(0, 8)}-${t.slice(8)}-7a3c-${tail}`;
  }
  // 100 ns ticks since 1582-10-15.
  const ticks = BigInt(ms) * 10000n + 122192928000000000n;
  if (version === 6) {
    const t = hex(ticks >> 12n, 12);
    return `${t.slice(0, 8)}-${t.slice(8)}-6${hex(ticks & 0xfffn, 3)}-${tail}`;
  }
  const low = hex(ticks & 0xffffffffn, 8);
  const mid = hex((ticks >> 32n) & 0xffffn, 4);
  const high = hex((ticks >> 48n) & 0xfffn, 3);
  return `${low}-${mid}-1${high}-${tail}`;
}

function standIn() {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json().catch(() => ({}));
    const session = req.headers.get("x-api-session-id") ?? body.sessionId ?? "";
    seen.push(session);
    // Any session the page makes will do; none at all will not.
    if (!/^[0-9a-f-]{36}$/.test(session)) {
      return Response.json({ error: "no session" }, { status: 400 });
    }
    return Response.json({ ok: true });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

function recording(value: string, inBody: boolean): string {
  const entry = (i: number, path: string) => ({
    startedDateTime: new Date(RECORDED_AT + i * 1000).toISOString(),
    time: 1,
    request: {
      method: "POST",
      url: `http://127.0.0.1:8888${path}`,
      headers: inBody ? [] : [{ name: "x-api-session-id", value }],
      cookies: [],
      postData: {
        mimeType: "application/json",
        text: JSON.stringify(inBody ? { sessionId: value } : {}),
      },
    },
    response: {
      status: 200,
      headers: [],
      cookies: [],
      content: { mimeType: "application/json", text: '{"ok":true}' },
    },
  });
  return JSON.stringify({
    log: { entries: [entry(0, "/config/get"), entry(1, "/connections/list")] },
  });
}

async function convertAndRun(value: string, inBody: boolean) {
  const dir = await Deno.makeTempDir();
  const fresh = standIn();
  try {
    await Deno.writeTextFile(`${dir}/in.har`, recording(value, inBody));
    const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/f.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/f.yaml`);
    const run = await runCli(["run", `${dir}/f.yaml`], { env: { BASE_URL: fresh.origin } });
    return { converted, flow, run, seen: fresh.seen };
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
}

for (const version of [1, 6, 7] as const) {
  for (const inBody of [false, true]) {
    const where = inBody ? "a JSON body" : "a header";
    Deno.test(`convert har: a version ${version} UUID the page made when it sent it in ${where} is made fresh per run, nothing asked`, async () => {
      // Made the second before the request.
      const made = timeUuid(version, RECORDED_AT - 1000);
      const { converted, flow, run, seen } = await convertAndRun(made, inBody);
      assert.doesNotMatch(converted.stderr, /Set before running/, converted.stderr);
      assert.ok(!flow.includes(made), flow);
      assert.match(flow, /\$\{RANDOM\.UUID\}/, flow);
      assert.equal(run.code, 0, run.stdout + flow);
      assert.ok(seen.length === 2 && seen[0] === seen[1] && seen[0] !== made, seen.join(" "));
    });
  }
}

Deno.test("convert har: a version 1 UUID made years before the recording is still asked for", async () => {
  const kept = timeUuid(1, Date.UTC(2016, 0, 1));
  const { converted } = await convertAndRun(kept, false);
  assert.match(converted.stderr, /Set before running: API_SESSION_ID\./, converted.stderr);
});
