/**
 * `convert openapi` on operations whose document declares no security
 * scheme, but whose words say the request is authorised by HTTP Basic or
 * Digest auth with the path's own user and password (httpbin's
 * `GET /basic-auth/{user}/{passwd}`, "Prompts the user for authorization
 * using HTTP Basic Auth.", and `/digest-auth/{qop}/{user}/{passwd}`): the
 * server accepts the credentials the path names. The step sends them both
 * ways: the path's user and password are the run's own (`${vars.username}`,
 * `${vars.password}`, made per run: no literal credential, no variable to
 * ask for), and its `auth:` block is the said kind with the same two. They
 * were placeholders (`string`) and no `auth:` (401). An operation whose
 * words say nothing of auth keeps its placeholders. The stand-in runs on
 * 127.0.0.1 and checks Basic and Digest (MD5, `qop=auth`) against the path.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { runCli } from "../support/cli.ts";

const credentials = [
  { in: "path", name: "user", type: "string", required: true },
  { in: "path", name: "passwd", type: "string", required: true },
];
const answers = {
  200: { description: "Sucessful authentication." },
  401: { description: "Unsuccessful authentication." },
};

const DOCUMENT = {
  swagger: "2.0",
  info: { title: "auth", version: "1" },
  paths: {
    "/basic-auth/{user}/{passwd}": {
      get: {
        summary: "Prompts the user for authorization using HTTP Basic Auth.",
        parameters: credentials,
        responses: answers,
      },
    },
    "/digest-auth/{qop}/{user}/{passwd}": {
      get: {
        summary: "Prompts the user for authorization using Digest Auth.",
        parameters: [
          { in: "path", name: "qop", type: "string", required: true, description: "auth" },
          ...credentials,
        ],
        responses: answers,
      },
    },
    "/echo/{user}/{passwd}": {
      get: { summary: "Echoes the path.", parameters: credentials, responses: answers },
    },
  },
};

const md5 = (text: string) => createHash("md5").update(text).digest("hex");

/** Whether a Digest `Authorization` answers the stand-in's challenge for `user` and `passwd`. */
function digestOk(header: string, method: string, user: string, passwd: string): boolean {
  const fields = new Map(
    [...header.matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g)].map((m) => [m[1], m[2] ?? m[3]]),
  );
  if (fields.get("username") !== user) return false;
  const ha1 = md5(`${user}:stand-in:${passwd}`);
  const ha2 = md5(`${method}:${fields.get("uri")}`);
  const tail = `${fields.get("nc")}:${fields.get("cnonce")}:auth:${ha2}`;
  return fields.get("response") === md5(`${ha1}:n0nce:${tail}`);
}

/** Basic and Digest against the path's user and password; /echo answers 200 to anyone. */
function standIn(seen: string[]) {
  return serveStandIn((req) => {
    const url = new URL(req.url);
    const parts = url.pathname.split("/").map(decodeURIComponent);
    const [user, passwd] = parts.slice(-2);
    const given = req.headers.get("authorization") ?? "";
    seen.push(`${parts[1]} ${given.split(" ")[0]} ${user}`);
    if (parts[1] === "echo") return Response.json({ user });
    if (parts[1] === "basic-auth" && given === `Basic ${btoa(`${user}:${passwd}`)}`) {
      return Response.json({ authenticated: true });
    }
    if (parts[1] === "digest-auth" && digestOk(given, req.method, user, passwd)) {
      return Response.json({ authenticated: true });
    }
    const challenge = parts[1] === "digest-auth"
      ? 'Digest realm="stand-in", nonce="n0nce", qop="auth", algorithm=MD5'
      : 'Basic realm="stand-in"';
    return new Response("", { status: 401, headers: { "www-authenticate": challenge } });
  });
}

Deno.test("convert openapi: Basic or Digest auth said in words with the path's user and password is sent with the run's own", async () => {
  const seen: string[] = [];
  const { runs, flows } = await convertAndRunSuite(DOCUMENT, standIn(seen), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  const text = [...flows.values()].join("\n");
  assert.match(text, /basic:\s+username: \$\{vars\.username\}\s+password: \$\{vars\.password\}/);
  assert.match(text, /digest:\s+username: \$\{vars\.username\}\s+password: \$\{vars\.password\}/);
  assert.match(text, /basic-auth\/\$\{vars\.username\}\/\$\{vars\.password\}/);
  assert.match(text, /password: \$\{RANDOM\.PASSWORD\}/);
  assert.match(
    text,
    /# no security scheme is declared, but its words say digest auth with the path's user and passwd/,
  );
  // The echo says nothing of auth: its path keeps the placeholders, and it sends no credentials.
  assert.match(text, /echo\/\$\{vars\.user\}\/\$\{vars\.passwd\}/);
  const echoes = seen.filter((s) => s.startsWith("echo "));
  assert.deepEqual(echoes, ["echo  string", "echo  string"]);
  // Each run its own user: two runs, two users, each authorised at the first try or the challenge.
  const users = new Set(
    seen.filter((s) => s.startsWith("basic-auth Basic")).map((s) => s.split(" ")[2]),
  );
  assert.equal(users.size, 2, seen.join("\n"));
});

const BEARER = {
  swagger: "2.0",
  info: { title: "bearer", version: "1" },
  paths: {
    "/bearer": {
      get: {
        summary: "Prompts the user for authorization using bearer authentication.",
        parameters: [{ in: "header", name: "Authorization", schema: { type: "string" } }],
        responses: answers,
      },
    },
    "/open": {
      get: {
        summary: "Answers anyone, whatever bearer authentication it is sent.",
        responses: answers,
      },
    },
  },
};

Deno.test("convert openapi: bearer auth said in words for an Authorization header sends the token the summary asks for", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-said-bearer-" });
  const seen: string[] = [];
  const server = serveStandIn((req) => {
    const given = req.headers.get("authorization") ?? "";
    seen.push(`${new URL(req.url).pathname} ${given}`);
    const ok = new URL(req.url).pathname === "/open" || given === "Bearer t0ken";
    return ok ? Response.json({ token: given }) : new Response("", { status: 401 });
  });
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(BEARER));
    const converted = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/out`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /API_TOKEN: the bearer token of "bearer authentication"/);
    const text = await Deno.readTextFile(`${dir}/out/api.yaml`).catch(() =>
      [...Deno.readDirSync(`${dir}/out`)].filter((e) => e.name.endsWith(".yaml"))
        .map((e) => Deno.readTextFileSync(`${dir}/out/${e.name}`)).join("\n")
    );
    assert.match(text, /bearer:\s+token: \$\{ENV\.API_TOKEN\}/);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)![1];
    const run = await runCli(line.split(" "), {
      env: { BASE_URL: server.base, API_TOKEN: "t0ken" },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    // The bearer words of /open name no Authorization header: it is sent nothing.
    assert.deepEqual(seen.sort(), ["/bearer Bearer t0ken", "/open "]);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert openapi: a declared security scheme wins over auth said in words", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-said-declared-" });
  try {
    const declared = {
      ...DOCUMENT,
      securityDefinitions: { basic: { type: "basic" } },
      security: [{ basic: [] }],
      paths: { "/basic-auth/{user}/{passwd}": DOCUMENT.paths["/basic-auth/{user}/{passwd}"] },
    };
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(declared));
    const converted = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/out`]);
    assert.equal(converted.code, 0, converted.stderr);
    const text = [...Deno.readDirSync(`${dir}/out`)].filter((e) => e.name.endsWith(".yaml"))
      .map((e) => Deno.readTextFileSync(`${dir}/out/${e.name}`)).join("\n");
    assert.match(text, /username: \$\{ENV\.API_USERNAME\}/);
    assert.match(text, /basic-auth\/\$\{vars\.user\}\/\$\{vars\.passwd\}/);
    assert.doesNotMatch(text, /\$\{vars\.password\}|RANDOM/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
