/**
 * `flowrun convert har --verify [BASE_URL]`: the converted flow replayed step
 * by step against a live instance, repaired from what the live responses
 * show. The proof is a deliberately weakened conversion (`--no-correlate`:
 * no value is taken from a response): it fails on a fresh instance, `--verify`
 * against another fresh instance repairs it and lists each repair, and the
 * repaired flow passes on a third fresh instance. Verification never sends a
 * request to a host that is not the API's, and its attempts are bounded.
 */
import assert from "node:assert/strict";
import { EMAIL, PASSWORD, startFormapp } from "../apps/formapp/server.ts";
import { MAX_TRIES_PER_STEP } from "../../lib/convert/verify.ts";
import { runCli } from "../support/cli.ts";
import {
  type AppInstance,
  PROJECTLY_PASSWORD,
  runAsUser,
  startProjectly,
} from "../support/convert_apps.ts";

function startFormappInstance(): Promise<AppInstance> {
  const app = startFormapp();
  return Promise.resolve({
    origin: app.origin,
    telemetry: () => Promise.resolve(app.events),
    close: () => app.close(),
  });
}

const SHAPES = [
  {
    name: "formapp (server-rendered form login)",
    har: new URL("../apps/formapp/recordings/journey.pw.har", import.meta.url).pathname,
    start: startFormappInstance,
    password: PASSWORD,
  },
  {
    name: "projectly (bearer SPA)",
    har: new URL("../apps/projectly/full.pw.har", import.meta.url).pathname,
    start: () => startProjectly({ jobMs: 300 }),
    password: PROJECTLY_PASSWORD,
  },
];

for (const shape of SHAPES) {
  Deno.test(`--verify turns a conversion without correlation green on ${shape.name}`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-verify-" });
    const known = (name: string) => name === "LOGIN_PASSWORD" ? shape.password : undefined;
    try {
      // The weakened conversion fails on a fresh instance.
      const weak = await runCli([
        "convert",
        "har",
        shape.har,
        "--no-correlate",
        "-o",
        `${dir}/weak.yaml`,
      ]);
      assert.equal(weak.code, 0, weak.stderr);
      const first = await shape.start();
      try {
        const { run, steps } = await runAsUser(`${dir}/weak.yaml`, first.origin, known);
        assert.notEqual(run.code, 0, "the weakened flow passed: it tests nothing here");
        assert.ok(steps.some((s) => s.status !== "passed"), `${run.stdout}\n${run.stderr}`);
      } finally {
        await first.close();
      }

      // --verify against another fresh instance repairs it and lists every repair.
      const second = await shape.start();
      let verified;
      try {
        verified = await runCli(
          [
            "convert",
            "har",
            shape.har,
            "--no-correlate",
            "--verify",
            second.origin,
            "-o",
            `${dir}/repaired.yaml`,
          ],
          { env: { LOGIN_PASSWORD: shape.password } },
        );
        assert.equal(await second.telemetry(), 0, "verification called the telemetry host");
      } finally {
        await second.close();
      }
      assert.equal(verified.code, 0, verified.stderr);
      const repaired = await Deno.readTextFile(`${dir}/repaired.yaml`);
      const listed = verified.stderr.split("\n").filter((l) => /^verify: repaired /.test(l));
      assert.ok(listed.length >= 3, verified.stderr);
      assert.match(
        verified.stderr,
        /^Verified \d+ steps against http:\/\/127\.0\.0\.1:\d+: all pass/m,
      );
      // Each repair is also a comment over its step in the flow.
      const comments = repaired.split("\n").filter((l) => /^\s*# verify: /.test(l));
      assert.equal(comments.length, listed.length, `${verified.stderr}\n${repaired}`);
      assert.ok(!repaired.includes(shape.password), "the password was written");
      assert.ok(!verified.stderr.includes(shape.password), "the password was printed");

      // The repaired flow passes on a third fresh instance, as a new user runs it.
      const third = await shape.start();
      try {
        const { run, steps } = await runAsUser(`${dir}/repaired.yaml`, third.origin, known);
        const failed = steps.filter((s) => s.status !== "passed").map((s) => s.name);
        assert.ok(
          run.code === 0 && failed.length === 0,
          `${failed}\n${run.stdout}\n${run.stderr}\n${repaired}`,
        );
        assert.equal(await third.telemetry(), 0);
      } finally {
        await third.close();
      }
      if (shape.password === PASSWORD) assert.match(repaired, new RegExp(`email: ${EMAIL}`));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

/** A tiny API: a login handing out a fresh token, tickets fresh on every call, a broken write. */
function startApi() {
  const hits = new Map<string, number>();
  let token = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === "/api/login") {
      token = `tok_${crypto.randomUUID()}`;
      return Response.json({ token });
    }
    if (req.headers.get("authorization") !== `Bearer ${token}`) {
      return Response.json({ error: "unauthorised" }, { status: 401 });
    }
    if (path.startsWith("/api/ticket")) {
      return Response.json({ ticket: `tkt_${crypto.randomUUID()}` });
    }
    if (path === "/api/broken") {
      await req.body?.cancel();
      return Response.json({ error: "always" }, { status: 500 });
    }
    return Response.json({ ok: true });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    hits: (path: string) => hits.get(path) ?? 0,
    close: () => server.shutdown(),
  };
}

/** A telemetry server that counts every request it gets. */
function startCounter() {
  let count = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    count++;
    await req.body?.cancel();
    return Response.json({ ok: true });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    count: () => count,
    close: () => server.shutdown(),
  };
}

const RECORDED_TOKEN = "tok_recorded_5f1c0e2a9b7d";
const RECORDED_TICKET = "tkt_recorded_8a2b4c6d";

function entry(
  method: string,
  url: string,
  response: unknown,
  options: { token?: boolean; body?: unknown } = {},
) {
  const headers = [{ name: "accept", value: "application/json" }];
  if (options.token) headers.push({ name: "authorization", value: `Bearer ${RECORDED_TOKEN}` });
  if (options.body) headers.push({ name: "content-type", value: "application/json" });
  return {
    startedDateTime: "2026-11-21T10:00:00.000Z",
    request: {
      method,
      url,
      headers,
      ...(options.body
        ? { postData: { mimeType: "application/json", text: JSON.stringify(options.body) } }
        : {}),
    },
    response: {
      status: 200,
      headers: [{ name: "content-type", value: "application/json" }],
      content: { mimeType: "application/json", text: JSON.stringify(response) },
    },
    _resourceType: "fetch",
  };
}

Deno.test("--verify never sends to a host other than the API's and bounds its tries", async () => {
  const api = startApi();
  const telemetry = startCounter();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-verify-" });
  try {
    const tickets = Array.from(
      { length: 8 },
      (_, i) =>
        entry("GET", `${api.origin}/api/ticket/${i + 1}`, { ticket: RECORDED_TICKET }, {
          token: true,
        }),
    );
    const har = {
      log: {
        entries: [
          entry("POST", `${api.origin}/api/login`, { token: RECORDED_TOKEN }, {
            body: { user: "ann" },
          }),
          entry("POST", `${telemetry.origin}/v1/flags`, { flags: {} }, { body: { app: "x" } }),
          ...tickets,
          entry("POST", `${api.origin}/api/broken`, { ok: true }, {
            token: true,
            body: { ticket: RECORDED_TICKET },
          }),
          entry("GET", `${api.origin}/api/after`, { ok: true }, { token: true }),
        ],
      },
    };
    await Deno.writeTextFile(`${dir}/s.har`, JSON.stringify(har));
    const args = [
      "convert",
      "har",
      `${dir}/s.har`,
      "--include-host",
      new URL(api.origin).host,
      "--include-host",
      new URL(telemetry.origin).host,
      "--no-correlate",
      "--verify",
      api.origin,
      "-o",
      `${dir}/flow.yaml`,
    ];
    const verified = await runCli(args);
    // Something could not be made to pass: exit 1, and the flow is still written.
    assert.equal(verified.code, 1, verified.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.equal(telemetry.count(), 0, "verification called a host that is not the API's");
    assert.match(
      verified.stderr,
      /^verify: not sent "create_flag": its host 127\.0\.0\.1:\d+ is not the API's/m,
    );
    // The broken write was tried a bounded number of times, with the candidates it had.
    const sent = api.hits("/api/broken");
    assert.ok(sent >= 2 && sent <= 1 + MAX_TRIES_PER_STEP, `sent ${sent} times`);
    assert.match(verified.stderr, /^verify: could not make "broken" pass \(\d+ tries\)/m);
    assert.match(flow, /# verify: could not make this step pass/);
    // The steps after it were still verified, with the live token.
    assert.equal(api.hits("/api/after"), 1);
    assert.match(verified.stderr, /^verify: repaired "get_ticket": /m);
    for (const text of [flow, verified.stderr]) {
      assert.ok(!text.includes(RECORDED_TOKEN), "a recorded token was written");
    }
  } finally {
    await api.close();
    await telemetry.close();
    await Deno.remove(dir, { recursive: true });
  }
});
