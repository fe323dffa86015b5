/**
 * `flowrun convert openapi` infers what a real server needs to accept a
 * suite converted with default options and run with only what the summary
 * asks for (issue 52, class 9): a path parameter comes from the response of
 * the operation that creates it (the POST on its parent collection, any
 * create returning a property of its name, or the document's `links`); a
 * security scheme's credential from a login operation whose response holds a
 * token, sent as the scheme says (`Token …` from its description); bodies
 * valid for their schema and unique per run; the user who registers is the
 * one who logs in; passwords from generated vars, never literals. Proven
 * with a document written here for the blogging API the in-memory server of
 * tests/apps/conduit serves (tests/fixtures/openapi/inferred/blog.yaml, 3.1,
 * 19 operations; blog-3.0.yaml its 3.0 form: tags in two cases, no token in
 * the sign-in's schema) run against that server, and a second shape (tests/fixtures/openapi/inferred/shelter.yaml:
 * bearer token from `/auth/token`, `{petId}` from `id`, `{who}` only from
 * `links`, an email format checked) against a server written here: at
 * least 90 % of the operations are answered 2xx.
 */
import assert from "node:assert/strict";
import { root, runCli } from "../support/cli.ts";
import { startConduit } from "../apps/conduit/server.ts";

const FIXTURES = `${root}tests/fixtures/openapi/inferred`;

/** `METHOD /path/{param}` templates of a document's operations (under a base path). */
function matcher(templates: string[], base: string) {
  const compiled = templates.map((t) => {
    const [method, path] = t.split(" ");
    const re = new RegExp(`^${base}${path.replace(/\{[^}]+\}/g, "[^/]+")}$`);
    return { t, method, re };
  });
  return (method: string, path: string) =>
    compiled.find((c) => c.method === method && c.re.test(path))?.t;
}

/** A proxy in front of `origin` that records each answer's operation and status. */
function recorder(origin: string, match: (method: string, path: string) => string | undefined) {
  const answers: { op?: string; status: number; auth: string | null }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.text();
    const res = await fetch(`${origin}${url.pathname}${url.search}`, {
      method: req.method,
      headers: req.headers,
      body,
      redirect: "manual",
    });
    const text = await res.arrayBuffer();
    answers.push({
      op: match(req.method, url.pathname),
      status: res.status,
      auth: req.headers.get("authorization"),
    });
    return new Response(res.status === 204 ? null : text, {
      status: res.status,
      headers: res.headers,
    });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    answers,
    accepted: () =>
      new Set(answers.filter((a) => a.op && a.status >= 200 && a.status < 300).map((a) => a.op!)),
    close: () => server.shutdown(),
  };
}

/**
 * Converts a fixture as a user keeps it: the document beside the flows
 * (`DIR/api.yaml`, flows in `DIR/flows`), inside the folder a run may read.
 */
async function convert(name: string, dir: string) {
  await Deno.copyFile(`${FIXTURES}/${name}`, `${dir}/${name}`);
  const converted = await runCli(["convert", "openapi", `${dir}/${name}`, "-o", `${dir}/flows`]);
  return { ...converted, flows: `${dir}/flows` };
}

/** The setup flow the summary's command passes, when the suite signs in once (its `--setup`). */
function setupOf(flows: string): string[] {
  try {
    return Deno.statSync(`${flows}/.sign_in.yaml`).isFile
      ? ["--setup", `${flows}/.sign_in.yaml`]
      : [];
  } catch {
    return [];
  }
}

/** Runs the suite in `flows` as its summary says (with its setup flow), `BASE_URL` at `origin`. */
function runSuite(flows: string, origin: string, ...extra: string[]) {
  return runCli(["run", flows, ...setupOf(flows), ...extra], { env: { BASE_URL: origin } });
}

/** Every flow file written, by name. */
async function flows(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".yaml")) {
      out.set(e.name, await Deno.readTextFile(`${dir}/${e.name}`));
    }
  }
  return out;
}

const BLOG_OPS = [
  "POST /users/login",
  "POST /users",
  "GET /user",
  "PUT /user",
  "GET /profiles/{username}",
  "POST /profiles/{username}/follow",
  "DELETE /profiles/{username}/follow",
  "GET /articles/feed",
  "GET /articles",
  "POST /articles",
  "GET /articles/{slug}",
  "PUT /articles/{slug}",
  "DELETE /articles/{slug}",
  "GET /articles/{slug}/comments",
  "POST /articles/{slug}/comments",
  "DELETE /articles/{slug}/comments/{id}",
  "POST /articles/{slug}/favorite",
  "DELETE /articles/{slug}/favorite",
  "GET /tags",
];

Deno.test("the blog document converts into a suite its server accepts: links, login token, unique users", async () => {
  const dir = await Deno.makeTempDir();
  const conduit = await startConduit();
  const proxy = recorder(conduit.origin, matcher(BLOG_OPS, "/api"));
  try {
    const converted = await convert("blog.yaml", dir);
    assert.equal(converted.code, 0, converted.stderr);
    const summary = converted.stderr;
    assert.match(summary, /19 operations/);
    assert.ok(!/API_KEY/.test(summary), `no credential is asked for: ${summary}`);
    assert.match(summary, /Set these environment variables:\n {2}BASE_URL: /);
    assert.match(summary, /No placeholders to fill in\./);
    assert.match(
      summary,
      /\{slug\} of GET \/articles\/\{slug\} ← POST \/articles \$\.json\.article\.slug/,
    );
    assert.match(
      summary,
      /\{id\} of DELETE \/articles\/\{slug\}\/comments\/\{id\} ← POST \/articles\/\{slug\}\/comments \$\.json\.comment\.id/,
    );
    assert.match(
      summary,
      /\{username\} of GET \/profiles\/\{username\} ← POST \/users(\/login)? \$\.json\.user\.username/,
    );
    assert.match(
      summary,
      /"writerToken" \(apiKey header Authorization\) ← POST \/users\/login \$\.json\.user\.token, sent "Token <token>"/,
    );

    const files = await flows(converted.flows);
    const all = [...files.values()].join("\n");
    assert.ok(!/password: password\b/.test(all), "no literal password");
    assert.ok(
      !/(email|username|title): string\n/.test(all),
      "no email, user name or title as string",
    );
    assert.match(all, /password: \$\{vars\.password\}/);
    assert.match(all, /email: \$\{vars\.email\}/);
    // A flow that signs in sends the sign-in's token; the others the one the sign-up answers,
    // which the run's one sign-in (a setup flow) hands out.
    assert.match(files.get("people.yaml")!, /value: Token \$\{steps\.sign_in\.capture\.token\}/);
    assert.match(files.get("posts.yaml")!, /value: Token \$\{setup\.token\}/);
    assert.match(files.get(".sign_in.yaml")!, /token: \$\{steps\.sign_up\.capture\.token\}/);

    const valid = await runCli(["validate", converted.flows, ...setupOf(converted.flows)], {
      env: { BASE_URL: proxy.origin },
    });
    assert.equal(valid.code, 0, valid.stdout + valid.stderr);
    const run = await runSuite(
      converted.flows,
      proxy.origin,
      "--report-json",
      `${dir}/report.json`,
    );
    const accepted = proxy.accepted();
    const missing = BLOG_OPS.filter((op) => !accepted.has(op));
    assert.ok(
      accepted.size >= Math.ceil(BLOG_OPS.length * 0.9),
      `${accepted.size} of ${BLOG_OPS.length} accepted; not: ${missing.join(", ")}\n${run.stdout}`,
    );
    assert.deepEqual(missing, [], run.stdout);
    // The document says what the server does (a comment's create answers 201, a bio may be
    // null), so every check the suite derived from it holds as well.
    assert.equal(run.code, 0, run.stdout + run.stderr);
    for (const a of proxy.answers) {
      assert.ok(a.auth === null || /^Token [\w-]+\.[\w-]+\.[\w-]+$/.test(a.auth), String(a.auth));
    }
  } finally {
    await proxy.close();
    await conduit.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the blog document's 3.0 form (tags in two cases, no token in its schema) runs too", async () => {
  const dir = await Deno.makeTempDir();
  const conduit = await startConduit();
  const proxy = recorder(conduit.origin, matcher(BLOG_OPS, "/api"));
  try {
    const converted = await convert("blog-3.0.yaml", dir);
    assert.equal(converted.code, 0, converted.stderr);
    assert.ok(!/API_KEY/.test(converted.stderr), converted.stderr);
    // `people` and `People` are one flow, not two (the unfollow would run without its follow).
    assert.match(converted.stderr, /19 operations into 6 flows/);
    assert.match(converted.stderr, /← POST \/users\/login a member named like a token/);
    const run = await runSuite(converted.flows, proxy.origin);
    const accepted = proxy.accepted();
    assert.deepEqual(BLOG_OPS.filter((op) => !accepted.has(op)), [], run.stdout);
    for (const a of proxy.answers) {
      assert.ok(a.auth === null || /^Token [\w-]+\.[\w-]+\.[\w-]+$/.test(a.auth), String(a.auth));
    }
  } finally {
    await proxy.close();
    await conduit.close();
    await Deno.remove(dir, { recursive: true });
  }
});

const SHELTER_OPS = [
  "POST /accounts",
  "POST /auth/token",
  "POST /pets",
  "GET /pets/{petId}",
  "DELETE /pets/{petId}",
  "POST /shelters",
  "GET /shelters/{shelterId}",
  "POST /owners",
  "GET /owners/{who}",
  "PUT /owners/{who}/pets/{petId}",
];

/** The Shelter API of tests/fixtures/openapi/inferred/shelter.yaml, strict about what it accepts. */
function startShelter(options: { refusePets?: boolean } = {}) {
  const shelters = new Set<string>();
  const accounts = new Map<string, { email: string; password: string }>();
  const tokens = new Set<string>();
  const pets = new Map<string, unknown>();
  const owners = new Set<string>();
  const json = (status: number, body?: unknown, headers: Record<string, string> = {}) =>
    new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json", ...headers },
    });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname.replace(/^\/v2/, "");
    const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    if (req.method === "POST" && path === "/accounts") {
      const { username, email, password } = body;
      if (typeof username !== "string" || username.length < 3 || username.length > 30) {
        return json(422);
      }
      if (!/^[^@\s]+@[^@\s]+\.[a-z]+$/.test(email) || typeof password !== "string") {
        return json(422);
      }
      if (password.length < 8) return json(422);
      if (accounts.has(username) || [...accounts.values()].some((a) => a.email === email)) {
        return json(409);
      }
      accounts.set(username, { email, password });
      return json(201, { username, email });
    }
    if (req.method === "POST" && path === "/auth/token") {
      if (accounts.get(body.username)?.password !== body.password) return json(401);
      const token = crypto.randomUUID();
      tokens.add(token);
      return json(200, { access_token: token, token_type: "bearer" });
    }
    const auth = req.headers.get("authorization") ?? "";
    if (!tokens.has(auth.replace(/^Bearer /, ""))) return json(401);
    let m;
    if (req.method === "POST" && path === "/shelters") {
      const id = `s${shelters.size + 1}`;
      shelters.add(id);
      return new Response(null, { status: 201, headers: { location: `/v2/shelters/${id}` } });
    }
    if (req.method === "GET" && (m = path.match(/^\/shelters\/([^/]+)$/))) {
      return json(shelters.has(m[1]) ? 200 : 404, {});
    }
    if (req.method === "POST" && path === "/pets") {
      if (options.refusePets) return json(503);
      if (!["cat", "dog"].includes(body.kind) || isNaN(Date.parse(body.born))) return json(422);
      const id = crypto.randomUUID();
      pets.set(id, { id, name: body.name, kind: body.kind });
      return json(201, pets.get(id), { location: `/v2/pets/${id}` });
    }
    if ((m = path.match(/^\/pets\/([^/]+)$/))) {
      if (!pets.has(m[1])) return json(404);
      if (req.method === "GET") return json(200, pets.get(m[1]));
      if (req.method === "DELETE") return pets.delete(m[1]), json(204);
    }
    if (req.method === "POST" && path === "/owners") {
      if (!/@/.test(body.email)) return json(422);
      const ref = `o-${owners.size + 1}`;
      owners.add(ref);
      return json(201, { ref });
    }
    if (req.method === "GET" && (m = path.match(/^\/owners\/([^/]+)$/))) {
      return json(owners.has(m[1]) ? 200 : 404, {});
    }
    if (req.method === "PUT" && (m = path.match(/^\/owners\/([^/]+)\/pets\/([^/]+)$/))) {
      return json(owners.has(m[1]) && pets.has(m[2]) ? 200 : 404, {});
    }
    return json(404);
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("a second shape: bearer token from a token operation, an id named unlike its parameter, a parameter only links name", async () => {
  const dir = await Deno.makeTempDir();
  const shelter = startShelter();
  const proxy = recorder(shelter.origin, matcher(SHELTER_OPS, "/v2"));
  try {
    const converted = await convert("shelter.yaml", dir);
    assert.equal(converted.code, 0, converted.stderr);
    const summary = converted.stderr;
    assert.ok(!/API_TOKEN/.test(summary), `no token is asked for: ${summary}`);
    assert.match(summary, /No placeholders to fill in\./);
    assert.match(
      summary,
      /\{who\} of GET \/owners\/\{who\} ← POST \/owners \$\.json\.ref \(the document's links\)/,
    );
    assert.match(summary, /\{petId\} of GET \/pets\/\{petId\} ← POST \/pets \$\.json\.id/);
    assert.match(
      summary,
      /\{shelterId\} of GET \/shelters\/\{shelterId\} ← POST \/shelters its Location header/,
    );
    const all = [...(await flows(converted.flows)).values()].join("\n");
    assert.ok(!/password: password\b/.test(all), "no literal password");
    const run = await runSuite(converted.flows, proxy.origin);
    const accepted = proxy.accepted();
    const missing = SHELTER_OPS.filter((op) => !accepted.has(op));
    assert.deepEqual(missing, [], run.stdout + run.stderr);
    assert.equal(run.code, 0, run.stdout + run.stderr);
  } finally {
    await proxy.close();
    await shelter.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a step whose producer failed is skipped, saying why; the others still run", async () => {
  const dir = await Deno.makeTempDir();
  const shelter = startShelter({ refusePets: true });
  try {
    const converted = await convert("shelter.yaml", dir);
    assert.equal(converted.code, 0, converted.stderr);
    const run = await runSuite(
      converted.flows,
      shelter.origin,
      "--report-json",
      `${dir}/report.json`,
    );
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    const steps: { name: string; status: string; message?: string }[] = report.flows.flatMap((
      f: { steps: unknown[] },
    ) => f.steps);
    const status = (name: string) => steps.filter((s) => s.name === name).map((s) => s.status);
    assert.deepEqual(status("add_pet"), ["failed", "failed"], "its own flow and the owners' copy");
    for (const name of ["get_pet", "delete_pet", "adopt"]) {
      assert.deepEqual(status(name), ["skipped"], name);
    }
    assert.match(
      run.stdout,
      /get_pet +skipped: its condition \$\{steps\.add_pet\.capture\.petId\} exists true does not hold/,
    );
    for (const name of ["open_shelter", "get_shelter", "add_owner", "get_owner", "register"]) {
      assert.ok(status(name).every((s) => s === "passed"), `${name}: ${status(name)}`);
    }
  } finally {
    await shelter.close();
    await Deno.remove(dir, { recursive: true });
  }
});
