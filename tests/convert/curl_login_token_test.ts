/**
 * `convertCurl`: docs print a login command (a POST sending a typed password, as JSON, a form or
 * `-u`) and then `-H "Authorization: Bearer YOUR_ACCESS_TOKEN"` (or `<token>`, `$TOKEN` never
 * assigned, `{{token}}`, `xxxxx.yyyyy.zzzzz`) without printing what the login answers. The token
 * was asked of the user, who has none before the login runs. It is the login's answer's token,
 * found at run time by what the answer holds: its one JWT-shaped string, else its member named
 * `access_token`, else `token`/`jwt`. Where the docs print the answer, the path the answer shows
 * wins. Commands written here in the shapes such docs print, run against a server started here
 * whose login hands the token out under a path the commands never name.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const JWT = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.${"s1g-".repeat(5)}`;
const OPAQUE = "op4que-t0ken-0f-f0rty-characters-1234567";
const UUID = "3f1c2d9e-7a4b-4e21-9c55-0b8d6e4f2a17";

/** The login's answer, in three servers' shapes; the token each protected call wants. */
const SHAPES: Record<string, { answer: unknown; token: string }> = {
  directus: {
    answer: { data: { access_token: JWT, expires: 900000, refresh_token: "r3fr35h-0paque" } },
    token: JWT,
  },
  strapi: {
    answer: { jwt: JWT, user: { id: 1, username: "ann", email: "ann@example.com" } },
    token: JWT,
  },
  opaque: { answer: { token: OPAQUE, refresh_token: "r3fr35h-0paque" }, token: OPAQUE },
  dotnet: { answer: { AccessToken: OPAQUE, ExpiresIn: 3600, User: { Id: 1 } }, token: OPAQUE },
  djrestauth: { answer: { key: OPAQUE }, token: OPAQUE },
  // A Flask demo's login answers the token as its whole text body, with no JSON around it.
  text: { answer: `${UUID}\n`, token: UUID },
  keycloak: {
    answer: { access_token: JWT, expires_in: 300, refresh_token: `${JWT}x`, token_type: "Bearer" },
    token: JWT,
  },
};

const LOGIN_JSON =
  `curl -X POST http://HOST/auth/login \\\n  -H 'Content-Type: application/json' \\\n  -d '{"email": "admin@example.com", "password": "d0cs-pa55"}'`;
const LOGIN_FORM =
  `curl -X POST http://HOST/auth/login -d "username=admin" -d "password=d0cs-pa55" -d "grant_type=password"`;
const LOGIN_USER = `curl -X POST -u admin:d0cs-pa55 http://HOST/auth/login`;

const use = (placeholder: string) =>
  `curl http://HOST/items/articles \\\n  -H "Authorization: Bearer ${placeholder}"`;

Deno.test("a placeholder after a login whose answer is not printed is the login's token", () => {
  for (
    const placeholder of [
      "YOUR_ACCESS_TOKEN",
      "<token>",
      "$TOKEN",
      "{{token}}",
      "xxxxx.yyyyy.zzzzz",
    ]
  ) {
    const { yaml, summary } = convertCurl(`${LOGIN_JSON}\n\n${use(placeholder)}\n`);
    assert.ok(!summary.env.some((n) => /TOKEN/.test(n)), `${summary.env}\n${yaml}`);
    assert.match(yaml, /Bearer \$\{steps\.login\.capture\.\w+\}/, yaml);
    assert.match(yaml, /regex: /, yaml);
    assert.ok(
      summary.notes.some((n) => n.includes("login") && n.includes("JWT")),
      summary.notes.join("\n"),
    );
  }
});

Deno.test("an example token after a login is the login's token too: docs print one (a JWT cut with ...)", () => {
  for (const example of [`${JWT.slice(0, 24)}...`, JWT, "hyr5dmb1mbb49c44qmx4whniso"]) {
    const { yaml, summary } = convertCurl(`${LOGIN_JSON}\n\n${use(example)}\n`);
    assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], yaml);
    assert.match(yaml, /Bearer \$\{steps\.login\.capture\.token\}/, yaml);
    assert.ok(!yaml.includes(example), yaml);
    assert.ok(!summary.notes.join("\n").includes(example), summary.notes.join("\n"));
    const alone = convertCurl(`${use(example)}\n`);
    assert.deepEqual(alone.summary.env, ["API_TOKEN"], alone.yaml);
  }
  // An ordinary word or a short value is the user's own credential, asked as before.
  for (const own of ["token", "id", "s3cr3t-k3y", "abcdefghijklmnopqrstuvwxyz"]) {
    const { yaml, summary } = convertCurl(`${LOGIN_JSON}\n\n${use(own)}\n`);
    assert.deepEqual(summary.env, ["LOGIN_PASSWORD", "API_TOKEN"], yaml);
  }
});

Deno.test("a POST with a password that sends the token itself creates an account; it is no login", () => {
  const create =
    `curl -X POST http://HOST/users -H "Authorization: Bearer YOUR_ACCESS_TOKEN" -H 'Content-Type: application/json' -d '{"email": "bo@example.com", "password": "n3w-us3r-pw"}'`;
  const { yaml } = convertCurl(`${LOGIN_JSON}\n${create}\n${use("YOUR_ACCESS_TOKEN")}\n`);
  assert.equal(
    [...yaml.matchAll(/Bearer \$\{steps\.login\.capture\.YOUR_ACCESS_TOKEN\}/g)].length,
    2,
    yaml,
  );
});

Deno.test("a header whose name says auth or token, under any scheme, is read the same", () => {
  for (
    const header of [
      "xc-auth: YOUR_AUTH_TOKEN",
      "X-Access-Token: <token>",
      "Authorization: Token <token>",
    ]
  ) {
    const { yaml, summary } = convertCurl(
      `${LOGIN_JSON}\ncurl http://HOST/api/tables -H "${header}"\n`,
    );
    assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], yaml);
    assert.match(yaml, /\$\{steps\.login\.capture\.\w+\}/, yaml);
  }
});

Deno.test("an API key, and a -u call that sends a message, are no login's token", () => {
  const send =
    `curl -X POST http://HOST/v3/mail/messages -u 'api:key-3ax6xnjp29jd6fds4gc373sgvjxteol0' -F from=bob@example.com -F text=Hi`;
  const key = convertCurl(
    `${send}\ncurl http://HOST/v3/mail -H "Authorization: Bearer $SENDGRID_API_KEY"\n`,
  );
  assert.ok(key.summary.env.includes("SENDGRID_API_KEY"), key.yaml);
  const token = convertCurl(`${send}\n${use("YOUR_ACCESS_TOKEN")}\n`);
  assert.ok(token.summary.env.includes("API_TOKEN"), token.yaml);
  const named = convertCurl(
    `${LOGIN_JSON}\ncurl http://HOST/v3/mail -H "Authorization: Bearer <your-api-key>"\n`,
  );
  assert.ok(named.summary.env.includes("API_TOKEN"), named.yaml);
});

Deno.test("spelling B reads the login's token too", () => {
  const { yaml, summary } = convertCurl(`${LOGIN_JSON}\n${use("<token>")}\n`, { spelling: "b" });
  assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], yaml);
  assert.match(yaml, /Bearer \$\{steps\.login\.token\}/, yaml);
});

Deno.test("without a login before it, or with the answer printed, the placeholder stays as it was", () => {
  const alone = convertCurl(`${use("YOUR_ACCESS_TOKEN")}\n`);
  assert.deepEqual(alone.summary.env, ["API_TOKEN"]);
  const get = convertCurl(`curl http://HOST/auth/me\n${use("YOUR_ACCESS_TOKEN")}\n`);
  assert.deepEqual(get.summary.env, ["API_TOKEN"]);
  const other = convertCurl(`${LOGIN_JSON.replace("HOST", "login.test")}\n${use("<token>")}\n`);
  assert.ok(other.summary.env.includes("API_TOKEN"), other.yaml);
  const printed = convertCurl(
    `${LOGIN_JSON}\n# {"data": {"access_token": "${JWT}"}}\n${use(JWT)}\n`,
  );
  assert.match(printed.yaml, /access_token: \$\.json\.data\.access_token\n/, printed.yaml);
  assert.doesNotMatch(printed.yaml, /regex: /, printed.yaml);
});

Deno.test("a printed answer that holds the token says where, for the placeholder too", () => {
  const answer = `# {"data": {"access_token": "${JWT}", "refresh_token": "r3fr35h"}}`;
  const { yaml, summary } = convertCurl(`${LOGIN_JSON}\n${answer}\n${use("YOUR_ACCESS_TOKEN")}\n`);
  assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], yaml);
  assert.match(yaml, /YOUR_ACCESS_TOKEN: \$\.json\.data\.access_token\n/, yaml);
  assert.doesNotMatch(yaml, /regex: /, yaml);
  assert.ok(
    summary.notes.some((n) => n.includes("$.json.data.access_token")),
    summary.notes.join("\n"),
  );
});

/** A server whose login answers `shape`'s answer, and whose articles want its token. */
function server(shape: keyof typeof SHAPES, seen: string[]) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    await req.arrayBuffer();
    seen.push(`${req.method} ${path} ${req.headers.get("authorization") ?? "-"}`);
    const { answer } = SHAPES[shape];
    if (req.method === "POST" && path === "/auth/login") {
      return typeof answer === "string" ? new Response(answer) : Response.json(answer);
    }
    if (req.headers.get("authorization") !== `Bearer ${SHAPES[shape].token}`) {
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    return Response.json({ data: [{ id: 1 }] });
  });
}

/** Converts `text` (its HOST the server's), runs it with the password set; the run and what was sent. */
async function convertAndRun(text: string, shape: keyof typeof SHAPES) {
  const seen: string[] = [];
  await using s = server(shape, seen);
  const docs = text.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  return await withCurlFlow(docs, async ({ converted, runFlow, readFlow }) => {
    const env = { LOGIN_PASSWORD: "pw", BASIC_PASSWORD: "pw" };
    const run = await runFlow(env);
    return { run, seen, converted, flow: await readFlow() };
  });
}

Deno.test("run against a server: the token is found wherever the login answers it", async () => {
  const cases: [string, keyof typeof SHAPES, string][] = [
    [LOGIN_JSON, "directus", "YOUR_ACCESS_TOKEN"],
    [LOGIN_JSON, "strapi", "<token>"],
    [LOGIN_FORM, "keycloak", "$TOKEN"],
    [LOGIN_USER, "opaque", "{{token}}"],
    [LOGIN_JSON, "dotnet", "hyr5dmb1mbb49c44qmx4whniso"],
    [LOGIN_JSON, "djrestauth", `${JWT.slice(0, 24)}...`],
    [LOGIN_JSON, "text", "0cf91d94-2c35-40d4-9adc-bac12d10df0b"],
  ];
  for (const [login, shape, placeholder] of cases) {
    const { run, seen, converted, flow } = await convertAndRun(
      `${login}\n\n${use(placeholder)}\n`,
      shape,
    );
    const why = `${shape}: ${converted.stderr}\n${flow}\n${run.stdout}${run.stderr}\n${
      seen.join("\n")
    }`;
    assert.equal(run.code, 0, why);
    assert.equal(seen.length, 2, why);
    assert.ok(!flow.includes("d0cs-pa55"), flow);
  }
});

Deno.test("run against a server: an answer with no token fails the login, naming the placeholder", async () => {
  SHAPES.none = { answer: { ok: true, user: { id: 1 } }, token: "never" };
  const { run, seen } = await convertAndRun(`${LOGIN_JSON}\n${use("YOUR_ACCESS_TOKEN")}\n`, "none");
  assert.notEqual(run.code, 0);
  assert.equal(seen.length, 1, seen.join("\n"));
  const out = run.stdout + run.stderr;
  assert.match(out, /login/, out);
  assert.match(out, /YOUR_ACCESS_TOKEN/i, out);
});

Deno.test("a PUT that sends a user's password (npm adduser's) is a login: the token after it is its answer's", () => {
  const adduser =
    `curl -X PUT http://HOST/-/user/org.couchdb.user:ann -H 'Content-Type: application/json' -d '{"name": "ann", "password": "d0cs-pa55"}'`;
  const { yaml, summary } = convertCurl(`${adduser}\n${use("$NPM_TOKEN")}\n`);
  assert.equal(summary.env.length, 1, yaml);
  assert.match(summary.env[0], /PASSWORD/, yaml);
  assert.match(yaml, /Bearer \$\{steps\.\w+\.capture\.NPM_TOKEN\}/, yaml);
  // A PUT that sends a token of its own changes a password; it is no login.
  const change =
    `curl -X PUT http://HOST/users/me -H "Authorization: Bearer $NPM_TOKEN" -d '{"password": "n3w-pa55"}'`;
  assert.ok(convertCurl(`${change}\n${use("$NPM_TOKEN")}\n`).summary.env.includes("NPM_TOKEN"));
});
