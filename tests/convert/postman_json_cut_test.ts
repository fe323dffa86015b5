/**
 * A token cut from a JSON member, as ServeRest's testers write it:
 * `pm.environment.set("token", pm.response.json()['authorization'].split(' ')[1])` where the
 * server answers `{"authorization": "Bearer eyJ…"}`. A flow captured a pattern of a header or
 * of the body's text only, so the set was named and the token sent as `{{token}}`; now it is a
 * `{path, regex}` capture. And the collection's first request logs in with `{{email}}` before a
 * later folder's pre-request script makes the e-mail: Newman sends the environment's empty
 * value there (400), so that read keeps its own variable and only reads after the script take
 * the made one. A server answers a login only for an e-mail it registered and products only
 * with the last token; Newman and the flow must both pass, for every spelling of the cut.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** Each spelling of "the part after `Bearer `" a tester writes. */
const CUTS = [
  "pm.response.json()['authorization'].split(' ')[1]",
  'pm.response.json().authorization.split(" ").pop()',
  "pm.response.json().authorization.replace('Bearer ', '')",
  "pm.response.json().authorization.substring(7)",
  "pm.response.json()['authorization'].slice(7)",
];

/** A status test, then (as ServeRest's testers do) a script that keeps the token. */
const status = (code: number, more: string[] = []) => ({
  listen: "test",
  script: { exec: [`pm.test('${code}', () => pm.response.to.have.status(${code}));`, ...more] },
});

const post = (path: string) => ({
  method: "POST",
  url: `{{baseURL}}/${path}`,
  header: [{ key: "Content-Type", value: "application/json" }],
  body: { mode: "raw", raw: '{ "email": "{{email}}", "password": "teste" }' },
});

/** Login (refused: no e-mail yet), Users registers a made e-mail, logs in, posts a product. */
function collection(cut: string) {
  const keep = [`const token = ${cut};`, 'pm.environment.set("token", token);'];
  const made = [
    "const n = Math.floor(Math.random() * 9000);",
    "pm.environment.set('email', `name.${n}@qa.com`);",
  ];
  return {
    info: { name: "Json cut", schema: V21 },
    item: [
      // Refused: its cut throws in Newman (no member), so the token stays as it was, empty,
      // and a bearer auth of it sends no header at all (401 here; `Bearer ` would be 400).
      {
        name: "Login",
        item: [
          { name: "Login", event: [status(400, keep)], request: post("login") },
          {
            name: "Me",
            event: [status(401)],
            request: {
              method: "GET",
              url: "{{baseURL}}/me",
              auth: { type: "bearer", bearer: [{ key: "token", value: "{{token}}" }] },
            },
          },
        ],
      },
      {
        name: "Users",
        item: [
          {
            name: "Register User",
            event: [{ listen: "prerequest", script: { exec: made } }, status(201)],
            request: post("usuarios"),
          },
          { name: "Login Again", event: [status(200, keep)], request: post("login") },
          {
            name: "Register Product",
            event: [status(201)],
            request: {
              method: "POST",
              url: "{{baseURL}}/produtos",
              header: [{ key: "Authorization", value: "Bearer {{token}}" }],
            },
          },
        ],
      },
    ],
  };
}

Deno.test("postman: a token cut from a JSON member is captured; a read before the script makes a value sends what Newman sends", async () => {
  const registered = new Set<string>();
  let issued = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/me") {
      return new Response(null, { status: req.headers.has("authorization") ? 400 : 401 });
    }
    if (path === "/produtos") {
      const ok = req.headers.get("authorization") === `Bearer t.${issued}`;
      return Response.json({ ok }, { status: ok ? 201 : 401 });
    }
    const { email } = await req.json();
    if (!email) return Response.json({ email: "must not be empty" }, { status: 400 });
    if (path === "/usuarios") {
      const fresh = !registered.has(email);
      registered.add(email);
      return Response.json({ ok: fresh }, { status: fresh ? 201 : 400 });
    }
    if (!registered.has(email)) return Response.json({ message: "unknown" }, { status: 401 });
    return Response.json({ authorization: `Bearer t.${++issued}` });
  });
  const dir = await Deno.makeTempDir();
  const origin = `http://127.0.0.1:${server.addr.port}`;
  try {
    const values = [{ key: "baseURL", value: origin }, { key: "email", value: "" }, {
      key: "token",
      value: "",
    }];
    await Deno.writeTextFile(`${dir}/env.json`, JSON.stringify({ name: "local", values }));
    for (const [i, cut] of CUTS.entries()) {
      const file = `${dir}/c${i}.json`;
      await Deno.writeTextFile(file, JSON.stringify(collection(cut)));
      const counts = await runNewman(file, { baseURL: origin, email: "", token: "" });
      assert.equal(counts.failedAssertions, 0, `Newman: ${cut}`);
      const out = `${dir}/flows-${i}`;
      const converted = await runCli(
        ["convert", "postman", file, "-e", `${dir}/env.json`, "-o", out],
      );
      assert.equal(converted.code, 0, converted.stderr);
      assert.doesNotMatch(converted.stderr, /token/, `${cut}: named as not translated`);
      const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)![1];
      const run = await runCli(line.split(" "), { env: { BASE_URL: origin } });
      assert.equal(run.code, 0, `${cut}\n${run.stdout}${run.stderr}`);
    }
    assert.equal(registered.size, CUTS.length * 2);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
