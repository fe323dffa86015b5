/**
 * Credentials over followed redirects, through the CLI, for each auth kind:
 * a hop at the step's origin is authorised anew for its own method, URL and
 * body (the server checks a SigV4 signature and a Digest answer on both
 * hops, with the demo API's own checkers), and a hop to another origin, or
 * back from one, carries nothing the auth added.
 */
import assert from "node:assert/strict";
import {
  AWS_ACCESS_KEY_ID,
  AWS_SECRET_ACCESS_KEY,
  DIGEST_PASSWORD,
  DIGEST_USER,
  digestRoute,
  sigv4Route,
} from "../../examples/demo_signed_auth.ts";
import { runCli } from "../support/cli.ts";

const ENV = {
  TOKEN: "bearer-SECRET-1",
  PW: "basic-SECRET-2",
  KEY: "key-SECRET-3",
  CLIENT_SECRET: "client-SECRET-4",
  DIGEST_USER,
  DIGEST_PASSWORD,
  AWS_ACCESS_KEY_ID,
  AWS_SECRET_ACCESS_KEY,
  AWS_SESSION_TOKEN: "",
  AWS_SHARED_CREDENTIALS_FILE: "/nonexistent/credentials",
  AWS_PROFILE: "",
};
const OAUTH_TOKEN = "oauth-SECRET-5";
const SECRETS = [ENV.TOKEN, ENV.PW, ENV.KEY, ENV.CLIENT_SECRET, OAUTH_TOKEN, AWS_SECRET_ACCESS_KEY];

/** Whether a request carries the credential `kind` adds. */
function holds(kind: string, req: Request): boolean {
  const url = new URL(req.url);
  const authorization = req.headers.get("authorization");
  switch (kind) {
    case "bearer":
      return authorization === `Bearer ${ENV.TOKEN}`;
    case "oauth2":
      return authorization === `Bearer ${OAUTH_TOKEN}`;
    case "basic":
      return authorization === `Basic ${btoa(`u:${ENV.PW}`)}`;
    case "header":
      return req.headers.get("x-api-key") === ENV.KEY;
    case "query":
      return url.searchParams.get("key") === ENV.KEY;
    case "cookie":
      return (req.headers.get("cookie") ?? "").split("; ").includes(`k=${ENV.KEY}`);
  }
  return false;
}

/** The API at the step's origin: `/go/<status>/<rest>` checks the credentials, then redirects. */
async function origin(req: Request, other: () => string): Promise<Response> {
  const url = new URL(req.url);
  if (url.pathname === "/token") return Response.json({ access_token: OAUTH_TOKEN });
  const go = /^\/go\/(\d{3})\/(.*)$/.exec(url.pathname);
  const path = go ? `/${go[2]}` : url.pathname;
  // `/go/302/back/check/bearer` checks as /check/bearer, then goes away and back there.
  const checked = await check(path.replace(/^\/back\//, "/"), req);
  if (!go || checked.status !== 200) return checked;
  const to = url.searchParams.get("to") === "other" ? other() : "";
  return new Response(null, { status: Number(go[1]), headers: { location: `${to}${path}` } });
}

/** The checker of a path: the demo API's SigV4 and Digest routes, or `holds`. */
async function check(path: string, req: Request): Promise<Response> {
  if (path.startsWith("/aws/")) return await sigv4Route(req);
  if (path === "/digest/md5") return await digestRoute(req, "md5");
  const kind = /^\/check\/(\w+)$/.exec(path)?.[1] ?? "";
  return holds(kind, req)
    ? Response.json({ ok: true, path, method: req.method, body: await req.text() })
    : Response.json({ error: "unauthorized", path }, { status: 401 });
}

/** Another origin: records what reaches it; `/back/<rest>` redirects to the step's origin. */
function stranger(seen: { url: string; headers: [string, string][] }[], home: () => string) {
  return (req: Request): Response => {
    const url = new URL(req.url);
    seen.push({ url: req.url, headers: [...req.headers] });
    const back = /^\/back(\/.*)$/.exec(url.pathname);
    if (back) return new Response(null, { status: 302, headers: { location: home() + back[1] } });
    return Response.json({ reached: "other", path: url.pathname });
  };
}

/** A step with its own auth block, following redirects. */
function step(name: string, auth: string, url: string, extra = "", status = 200): string {
  // always: each step runs whatever the one before it did, so every kind is judged.
  return `  - name: ${name}
    always: true
    auth: ${auth}
    options: {follow_redirects: true}
    request: {url: "\${ENV.BASE}${url}"${extra}}
    assert: {status: ${status}}
`;
}

const AUTHS: [string, string, string][] = [
  ["bearer", '{bearer: {token: "${ENV.TOKEN}"}}', "/check/bearer"],
  ["basic", '{basic: {username: u, password: "${ENV.PW}"}}', "/check/basic"],
  ["header", '{api_key: {name: X-Api-Key, value: "${ENV.KEY}"}}', "/check/header"],
  ["query", '{api_key: {name: key, value: "${ENV.KEY}", in: query}}', "/check/query"],
  ["cookie", '{api_key: {name: k, value: "${ENV.KEY}", in: cookie}}', "/check/cookie"],
  [
    "oauth2",
    '{oauth2: {grant_type: client_credentials, token_url: "${ENV.BASE}/token", client_id: c, ' +
    'client_secret: "${ENV.CLIENT_SECRET}"}}',
    "/check/oauth2",
  ],
  [
    "digest",
    '{digest: {username: "${ENV.DIGEST_USER}", password: "${ENV.DIGEST_PASSWORD}"}}',
    "/digest/md5",
  ],
  ["sigv4", "{aws_sigv4: {region: us-east-1, service: execute-api}}", "/aws/things?a=1"],
];

async function run(flow: string) {
  const seen: { url: string; headers: [string, string][] }[] = [];
  let homeBase = "";
  let otherBase = "";
  const home = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => origin(req, () => otherBase),
  );
  const other = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    stranger(seen, () => homeBase),
  );
  homeBase = `http://127.0.0.1:${home.addr.port}`;
  otherBase = `http://127.0.0.1:${other.addr.port}`;
  const dir = await Deno.makeTempDir({ prefix: "flowrun-redirect-auth-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, flow);
    const cli = await runCli([
      "run",
      `${dir}/f.yaml`,
      "-vv",
      ...["--report-json", `${dir}/r.json`, "--report-junit", `${dir}/r.xml`],
    ], { env: { ...ENV, BASE: homeBase } });
    const json = await Deno.readTextFile(`${dir}/r.json`);
    const junit = await Deno.readTextFile(`${dir}/r.xml`);
    for (const text of [cli.stdout, cli.stderr, json, junit]) {
      for (const secret of SECRETS) assert.ok(!text.includes(secret), `${secret} in output`);
    }
    return { ...cli, report: JSON.parse(json), seen };
  } finally {
    await Deno.remove(dir, { recursive: true });
    await home.shutdown();
    await other.shutdown();
  }
}

/** The steps that did not pass, with why, for an assertion message. */
function failures(
  report: {
    flows: { steps: { name: string; status: string; message?: string; response?: unknown }[] }[];
  },
) {
  return report.flows[0].steps.filter((s) => s.status !== "passed").map((s) =>
    `${s.name}: ${s.message ?? JSON.stringify(s.response)}`
  );
}

Deno.test("a same-origin redirect hop is authorised anew: SigV4 and Digest checked on both hops, every kind", async () => {
  let flow = "name: same origin\nsteps:\n";
  for (const [name, auth, path] of AUTHS) {
    flow += step(`${name}_302`, auth, `/go/302${path}`);
  }
  // 307 repeats a POST with its body: the signature covers the hop's body hash, path and query.
  const sigv4 = AUTHS.find(([name]) => name === "sigv4")![1];
  flow += step("sigv4_307_post", sigv4, "/go/307/aws/things?b=2", ', method: POST, body: {a: "é"}');
  flow += step("sigv4_303_post", sigv4, "/go/303/aws/other", ", method: POST, body: {a: 1}");
  flow += step("basic_307_post", AUTHS[1][1], "/go/307/check/basic", ", method: PUT, body: {a: 1}");
  const r = await run(flow);
  assert.deepEqual(failures(r.report), []);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  // Two requests each, three for Digest (its challenge); each final response is the target's.
  const steps = r.report.flows[0].steps;
  assert.equal(steps.find((s: { name: string }) => s.name === "digest_302").attempts, 2);
  assert.equal(r.seen.length, 0);
});

Deno.test("a hop to another origin carries nothing the auth added, nor does a hop back from it", async () => {
  let flow = "name: cross origin\nsteps:\n";
  for (const [name, auth, path] of AUTHS) {
    const sep = path.includes("?") ? "&" : "?";
    flow += step(`${name}_away`, auth, `/go/302${path}${sep}to=other`);
  }
  const sigv4 = AUTHS.find(([name]) => name === "sigv4")![1];
  flow += step(
    "sigv4_307_away",
    sigv4,
    "/go/307/aws/things?to=other",
    ", method: POST, body: {a: 1}",
  );
  // Away and back: the other origin chose the way back, so the step's origin gets no credentials.
  flow += step("bearer_back", AUTHS[0][1], "/go/302/back/check/bearer?to=other", "", 401);
  flow += step("sigv4_back", sigv4, "/go/302/back/aws/x?to=other", "", 403);
  const r = await run(flow);
  assert.deepEqual(failures(r.report), []);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(r.seen.length, AUTHS.length + 3);
  for (const { url, headers } of r.seen) {
    const names = headers.map(([name]) => name);
    for (
      const name of ["authorization", "x-api-key", "cookie", "x-amz-date", "x-amz-content-sha256"]
    ) {
      assert.ok(!names.includes(name), `${name} sent to ${url}`);
    }
    assert.ok(!url.includes("key="), url);
    for (const [, value] of headers) {
      for (const secret of SECRETS) assert.ok(!value.includes(secret), `${secret} sent to ${url}`);
    }
  }
});
