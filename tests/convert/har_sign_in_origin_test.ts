/**
 * `convert har` on an app whose sign-in service answers on an origin of its own: the page and its
 * API on one port, the auth service on another, taking one JSON request (`POST /session`) and
 * answering the token every later API call sends. One JSON call to another origin looked like a
 * widget's, so the sign-in was dropped as another site's and its token was asked of the user, or
 * sent as recorded and refused. Evidence, not names: a call to another origin whose answer produced
 * a value the app's API later receives is part of the journey. Third-party noise on a third
 * origin (an analytics beacon answered JSON, a font's stylesheet) feeds nothing and stays out.
 *
 * Each server is the recording's (the HAR is built with their live origins, as a recording made on
 * this instance would be); the flow runs twice, with only what the summary asks for.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";

const PASSWORD = "harbour-Pw-7731";

function serve(handler: (req: Request, body: Record<string, unknown>) => Response) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const text = req.method === "POST" ? await req.text() : "";
    return handler(req, text.startsWith("{") ? JSON.parse(text) : {});
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** Where the token is in the sign-in's answer, and how the app's calls send it back. */
const SHAPES = {
  bearer: {
    answer: (t: string) => ({ access_token: t }),
    header: (t: string) => `Bearer ${t}`,
    cookie: false,
  },
  nested: {
    answer: (t: string) => ({ data: { session: { jwt: t } } }),
    header: (t: string) => t,
    cookie: false,
  },
  query: { answer: (t: string) => ({ token: t }), header: undefined, cookie: false },
  // A cookie ignores the port: the auth service's cookie goes to the app's port too.
  cookie: { answer: () => ({ ok: true }), header: undefined, cookie: true },
} as const;
type Shape = keyof typeof SHAPES;

/** The app (page and notes API), its auth service, and an analytics host, each on its own port. */
function startApp() {
  const tokens = new Set<string>();
  const notes: string[] = [];
  const auth = serve((req, body) => {
    if (new URL(req.url).pathname !== "/session" || body.password !== PASSWORD) {
      return Response.json({ error: "bad credentials" }, { status: 401 });
    }
    const token = `${crypto.randomUUID()}.${crypto.randomUUID()}`;
    tokens.add(token);
    const shape = SHAPES[body.shape as Shape];
    const headers = shape.cookie ? { "set-cookie": `sid=${token}; Path=/; HttpOnly` } : undefined;
    return Response.json(shape.answer(token), { headers });
  });
  const app = serve((req, body) => {
    const path = new URL(req.url).pathname;
    if (path === "/") {
      return new Response("<!doctype html><script src=/app.js></script>", {
        headers: { "content-type": "text/html" },
      });
    }
    const sent = req.headers.get("authorization")?.replace(/^Bearer /, "") ??
      new URL(req.url).searchParams.get("token") ??
      /(?:^|; )sid=([^;]*)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    if (!tokens.has(sent)) return Response.json({ error: "sign in" }, { status: 401 });
    if (req.method === "POST") notes.push(String(body.text));
    return Response.json({ notes });
  });
  const beacon = serve(() => Response.json({ ok: true, visitor: "v_8c1f93a0d7" }));
  return { auth, app, beacon, notes, close: () => [auth, app, beacon].map((s) => s.close()) };
}

/** One fetch answered JSON; `sent` its JSON body, `headers` more request or answer headers. */
function entry(
  method: string,
  url: string,
  answer: unknown,
  sent?: unknown,
  headers: { request?: [string, string][]; answer?: [string, string][] } = {},
) {
  const nameValues = (pairs: [string, string][]) =>
    [["Content-Type", "application/json"], ...pairs].map(([name, value]) => ({ name, value }));
  return {
    startedDateTime: "2026-01-01T00:00:00.000Z",
    _resourceType: "fetch",
    request: {
      method,
      url,
      headers: nameValues(headers.request ?? []),
      ...(sent === undefined
        ? {}
        : { postData: { mimeType: "application/json", text: JSON.stringify(sent) } }),
    },
    response: {
      status: 200,
      headers: nameValues(headers.answer ?? []),
      content: { mimeType: "application/json", text: JSON.stringify(answer) },
    },
  };
}

/** The journey: the page, a beacon, the sign-in on the auth origin, then the app's API. */
function journey(s: ReturnType<typeof startApp>, shape: Shape): string {
  const token = `${crypto.randomUUID()}.${crypto.randomUUID()}`;
  const { header, cookie } = SHAPES[shape];
  const query = header === undefined && !cookie ? `?token=${token}` : "";
  const request: [string, string][] = header
    ? [["Authorization", header(token)]]
    : cookie
    ? [["Cookie", `sid=${token}`]]
    : [];
  const answer: [string, string][] = cookie
    ? [["Set-Cookie", `sid=${token}; Path=/; HttpOnly`]]
    : [];
  const page = {
    ...entry("GET", `${s.app.origin}/`, {}),
    _resourceType: "document",
    response: {
      status: 200,
      headers: [{ name: "Content-Type", value: "text/html" }],
      content: { mimeType: "text/html", text: "<!doctype html><script src=/app.js></script>" },
    },
  };
  const entries = [
    page,
    entry("POST", `${s.beacon.origin}/collect`, { ok: true, visitor: "v_8c1f93a0d7" }, {
      event: "page_view",
    }),
    entry("POST", `${s.auth.origin}/session`, SHAPES[shape].answer(token), {
      email: "ann@example.com",
      password: PASSWORD,
      shape,
    }, { answer }),
    entry("POST", `${s.app.origin}/api/notes${query}`, { notes: ["tide table"] }, {
      text: "tide table",
    }, { request }),
    entry("GET", `${s.app.origin}/api/notes${query}`, { notes: ["tide table"] }, undefined, {
      request,
    }),
  ];
  return JSON.stringify({ log: { version: "1.2", entries } });
}

for (const shape of Object.keys(SHAPES) as Shape[]) {
  Deno.test(`convert har: a sign-in on its own origin whose token the app's API receives is kept (${shape}); a beacon feeding nothing is not`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-sign-in-origin-" });
    const s = startApp();
    try {
      const { converted, flow } = await convertHar(dir, journey(s, shape));
      assert.match(flow, /\/session/, flow);
      assert.doesNotMatch(flow, /\/collect/, flow);
      assert.ok(!flow.includes(PASSWORD), flow);
      const asked = /Set before running: ([^.]*)\./.exec(converted.stderr)?.[1].split(", ") ?? [];
      assert.deepEqual(asked, ["LOGIN_PASSWORD"], converted.stderr);
      for (const n of [1, 2]) {
        const out = await runCli(["run", `${dir}/flow.yaml`], {
          env: { LOGIN_PASSWORD: PASSWORD },
        });
        assert.equal(out.code, 0, `run ${n}\n${out.stdout}\n${flow}\n${converted.stderr}`);
      }
      assert.deepEqual(s.notes, ["tide table", "tide table"]);
    } finally {
      await Promise.all(s.close());
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("convert har --verify: the sign-in's origin is verified with the app's, the token read live; the beacon is not sent", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-sign-in-origin-" });
  const s = startApp();
  try {
    await Deno.writeTextFile(`${dir}/r.har`, journey(s, "bearer"));
    const env = { LOGIN_PASSWORD: PASSWORD };
    const verified = await runCli(
      ["convert", "har", `${dir}/r.har`, "--verify", "-o", `${dir}/flow.yaml`],
      { env },
    );
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.equal(verified.code, 0, `${verified.stderr}\n${flow}`);
    assert.doesNotMatch(verified.stderr, /not sent|0 tries/, verified.stderr);
    assert.doesNotMatch(flow, /\/collect/, flow);
    const run = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.equal(s.notes.length, 2, flow);
  } finally {
    await Promise.all(s.close());
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a recording that starts at the sign-in's origin still names the app's origin BASE_URL, which --verify URL replaces", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-sign-in-origin-" });
  const s = startApp();
  try {
    // No page first: the recording starts at the sign-in, then three calls to the app.
    const har = JSON.parse(journey(s, "bearer"));
    har.log.entries = har.log.entries.slice(2);
    har.log.entries.push(har.log.entries.at(-1));
    await Deno.writeTextFile(`${dir}/r.har`, JSON.stringify(har));
    const env = { LOGIN_PASSWORD: PASSWORD };
    const converted = await runCli(["convert", "har", `${dir}/r.har`, "-o", `${dir}/flow.yaml`], {
      env,
    });
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.equal(converted.code, 0, converted.stderr);
    const base = (env: string) => new RegExp(`\\$\\{ENV\\.${env}:-([^}]*)\\}`).exec(flow)?.[1];
    assert.equal(base("BASE_URL"), s.app.origin, flow);
    assert.equal(base("BASE_URL_2"), s.auth.origin, flow);
    // The sign-in service of the instance verified against is the one BASE_URL_2 names.
    const verified = await runCli(
      ["convert", "har", `${dir}/r.har`, "--verify", s.app.origin, "-o", `${dir}/v.yaml`],
      { env: { ...env, BASE_URL_2: s.auth.origin } },
    );
    assert.equal(
      verified.code,
      0,
      `${verified.stderr}\n${await Deno.readTextFile(`${dir}/v.yaml`)}`,
    );
    const run = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await Promise.all(s.close());
    await Deno.remove(dir, { recursive: true });
  }
});
