/**
 * `convert curl` with an API's documented examples whose credentials are ordinary words
 * (`password`, `token`, `key`, `admin`, `id`, `true`): a value the user typed is replaced only
 * where it is a credential (the credential field's value, `-u`'s password, an Authorization or
 * API-key header, a secret query parameter), never in keys, grant types or other fields that
 * happen to equal it. Proven end to end: converted, validated, and run against a server that
 * checks every form, JSON body, multipart part, query and header it receives and answers 400
 * (or 401) on any difference.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** The real credentials the run is given: none equals what the commands wrote. */
const REAL = {
  password: "run-pass-7",
  admin: "run-admin-3",
  token: "run-token-1",
  key: "run-key-9",
  id: "run-id-5",
  true: "run-true-2",
  shaped: "run-shaped-4",
};

/** A token shaped like one (random text): kept out of the flow wherever it is. */
const SHAPED = "tok-9f8e7d6c5b4a";

/** The commands, as docs print them, each credential an ordinary word. */
const commands = (base: string) =>
  [
    `curl -X POST ${base}/oauth/token -d grant_type=password -d username=admin -d password=password -d client_id=app`,
    `curl -X POST ${base}/login -H 'Content-Type: application/json' -d '{"username":"admin","password":"password","remember":"password"}'`,
    `curl -u admin:admin '${base}/admin?role=admin' -H 'X-Role: admin'`,
    `curl -u user:password '${base}/basic?grant_type=password' -d grant_type=password`,
    `curl -H 'Authorization: Bearer token' '${base}/items?kind=token' -H 'content-type: application/json' -d '{"type":"token"}'`,
    `curl '${base}/search?api_key=key&sort=key'`,
    `curl -F password=password -F kind=password ${base}/upload`,
    `curl -H 'X-API-Key: true' '${base}/flags?active=true' -H 'content-type: application/json' -d '{"active":true,"flag":"true"}'`,
    `curl -H 'Authorization: Bearer id' '${base}/things?id=id' -H 'content-type: application/json' -d '{"id":"id"}'`,
    `curl -H 'Authorization: Bearer ${SHAPED}' ${base}/echo -d 'echo=${SHAPED}&kind=token'`,
    `curl -b 'session=admin; theme=admin' '${base}/cookie?user=admin'`,
    `curl --oauth2-bearer token '${base}/oauth2?type=token'`,
    `curl '${base.replace("//", "//admin:password@")}/userinfo?grant_type=password'`,
    `curl ${base}/urlencoded --data-urlencode password=password --data-urlencode grant_type=password`,
    `curl -G ${base}/query -d password=password -d grant_type=password`,
  ].join("\n") + "\n";

const basic = (user: string, pass: string) => `Basic ${btoa(`${user}:${pass}`)}`;

/** What each path must receive; a difference is named in the 400's body. */
async function check(req: Request): Promise<string | undefined> {
  const url = new URL(req.url);
  const q = Object.fromEntries(url.searchParams);
  const h = (name: string) => req.headers.get(name) ?? "";
  const same = (what: string, got: unknown, want: unknown) =>
    JSON.stringify(got) === JSON.stringify(want)
      ? undefined
      : `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`;
  switch (url.pathname) {
    case "/oauth/token":
      return same("form", Object.fromEntries(new URLSearchParams(await req.text())), {
        grant_type: "password",
        username: "admin",
        password: REAL.password,
        client_id: "app",
      });
    case "/login":
      return same("json", await req.json(), {
        username: "admin",
        password: REAL.password,
        remember: "password",
      });
    case "/admin":
      return same("admin", [q, h("x-role"), h("authorization")], [
        { role: "admin" },
        "admin",
        basic("admin", REAL.admin),
      ]);
    case "/basic":
      return same("basic", [q, await req.text(), h("authorization")], [
        { grant_type: "password" },
        "grant_type=password",
        basic("user", REAL.password),
      ]);
    case "/items":
      return same("items", [q, await req.json(), h("authorization")], [
        { kind: "token" },
        { type: "token" },
        `Bearer ${REAL.token}`,
      ]);
    case "/search":
      return same("search", q, { api_key: REAL.key, sort: "key" });
    case "/upload": {
      const form = await req.formData();
      return same("multipart", [...form].map(([k, v]) => [k, String(v)]), [
        ["password", REAL.password],
        ["kind", "password"],
      ]);
    }
    case "/flags":
      return same("flags", [q, await req.json(), h("x-api-key")], [
        { active: "true" },
        { active: true, flag: "true" },
        REAL.true,
      ]);
    case "/things":
      return same("things", [q, await req.json(), h("authorization")], [
        { id: "id" },
        { id: "id" },
        `Bearer ${REAL.id}`,
      ]);
    case "/echo":
      return same("echo", [await req.text(), h("authorization")], [
        `echo=${REAL.shaped}&kind=token`,
        `Bearer ${REAL.shaped}`,
      ]);
    case "/cookie":
      return same("cookie", [q, h("cookie")], [
        { user: "admin" },
        `theme=admin; session=${REAL.admin}`,
      ]);
    case "/oauth2":
      return same("oauth2", [q, h("authorization")], [{ type: "token" }, `Bearer ${REAL.token}`]);
    case "/userinfo":
      return same("userinfo", [q, h("authorization")], [
        { grant_type: "password" },
        basic("admin", REAL.password),
      ]);
    case "/urlencoded":
      return same("urlencoded", await req.text(), `password=${REAL.password}&grant_type=password`);
    case "/query":
      return same("query", q, { password: REAL.password, grant_type: "password" });
  }
  return `no route ${url.pathname}`;
}

Deno.test("convert curl: a credential that is an ordinary word is replaced only where it is a credential", async () => {
  const problems: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const problem = await check(req).catch((e) => `unreadable body: ${e}`);
    if (problem) problems.push(problem);
    return problem ? new Response(problem, { status: 400 }) : Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir();
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    await Deno.writeTextFile(`${dir}/cmds.sh`, commands(base));
    const converted = await runCli(["convert", "curl", "cmds.sh", "-o", "flow.yaml"], { cwd: dir });
    assert.equal(converted.code, 0, converted.stderr);
    const yaml = await Deno.readTextFile(`${dir}/flow.yaml`);
    // Nothing masked or replaced past the credentials (a comment may show a secret query as ***).
    const flow = yaml.split("\n").filter((line) => !/^\s*#/.test(line)).join("\n");
    assert.doesNotMatch(flow, /\*\*\*/, yaml);
    assert.doesNotMatch(yaml, /"\*\*\*"|the \*\*\* of/, yaml);
    assert.ok(!yaml.includes(SHAPED), yaml);
    assert.equal(flow.match(/\$\{ENV\.RECORDED_SECRET\}/g)?.length, 1, yaml);
    assert.match(yaml, /^ {8}echo: \$\{ENV\.RECORDED_SECRET\}$/m, yaml);
    // Keys, grant types and other fields that equal a credential are written as typed.
    assert.match(yaml, /^ {8}grant_type: password$/m, yaml);
    assert.match(yaml, /^ {8}remember: password$/m, yaml);
    assert.match(yaml, /^ {8}kind: password$/m, yaml);
    assert.match(yaml, /^ {8}username: admin$/m, yaml);
    const set = /^Set before running: (.*)\.$/m.exec(converted.stderr)?.[1].split(", ") ?? [];
    // The password typed in several commands is one variable, the first (correlate/typed_once.ts).
    const env: Record<string, string> = {
      LOGIN_PASSWORD: REAL.password,
      BASIC_PASSWORD: REAL.admin,
      API_TOKEN: REAL.token,
      API_KEY: REAL.key,
      API_KEY_2: REAL.true,
      API_TOKEN_2: REAL.id,
      // The token sent again in a plain field: a variable too, never the token itself.
      API_TOKEN_3: REAL.shaped,
      RECORDED_SECRET: REAL.shaped,
      SESSION_COOKIE: `session=${REAL.admin}`,
    };
    assert.deepEqual(set.toSorted(), Object.keys(env).toSorted(), converted.stderr + yaml);
    const validated = await runCli(["validate", "flow.yaml"], { cwd: dir, env });
    assert.equal(validated.code, 0, validated.stdout + validated.stderr + yaml);
    const run = await runCli(["run", "flow.yaml", "--report-json", "r.json"], { cwd: dir, env });
    assert.deepEqual(problems, [], yaml);
    assert.equal(run.code, 0, run.stdout + run.stderr + yaml);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const statuses = report.flows[0].steps.map((s: { response: { status: number } }) =>
      s.response.status
    );
    assert.deepEqual(statuses, Array(15).fill(200));
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
