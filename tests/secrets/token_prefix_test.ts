/**
 * A token that begins with ordinary words (issue 53, residual). Unleash issues client tokens
 * `<project>:<environment>.<hash>`; the redactor masked every 16 characters of a secret and its
 * first 4, 8 and 16 characters before a cut `…`, so `default:development` was *** wherever a flow
 * or a server wrote it whole (a path, a query, a body, a step name), and `defa…` too. The hash
 * is what is secret: the words are masked only as part of the whole token, and every piece of
 * the hash, cut or whole, in every encoding, still is.
 */
import assert from "node:assert/strict";
import { MASK, Redactor } from "../../lib/secrets/mod.ts";
import { unguessableSpan } from "../../lib/secrets/unguessable.ts";
import { secretsInResponse } from "../../lib/secrets/discover.ts";
import { type Artifacts, assertMasked, runFlow } from "./unleash_artifacts.ts";

const ADMIN_TOKEN = "*:*.flowrun-test-admin-token";
const HASH = "4f1c2e9a7b3d5e8f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5";
const TOKEN = `default:development.${HASH}`;

/** The project and environment a stand-in's token is for: its words. */
interface Scope {
  project: string;
  environment: string;
}

const tokenOf = (s: Scope) => `${s.project}:${s.environment}.${HASH}`;

/** What the server derives from the token, as a server may write it: split, cut, encoded. */
function echo(scope: Scope): Record<string, string> {
  const token = tokenOf(scope);
  // The cut first: a cut masks back to the nearest beginning of the hash, an earlier whole one too.
  return {
    cut: `${token.slice(0, token.length - HASH.length + 6)}…`,
    hash_cut: `${HASH.slice(0, 12)}…`,
    tail: `…${HASH.slice(-20)}`,
    url: `/api/frontend?token=${encodeURIComponent(token)}`,
    basic: `Basic ${btoa(`client:${token}`)}`,
    scope: `${scope.project}:${scope.environment}`,
    hash: HASH,
  };
}

/** A stand-in for Unleash's token API that issues `<project>:<environment>.<hash>`. */
async function route(request: Request, scope: Scope): Promise<Response> {
  const url = new URL(request.url);
  const auth = request.headers.get("authorization");
  const denied = () => Response.json({ error: "no such token" }, { status: 401 });
  const joined = `${scope.project}:${scope.environment}`;
  if (url.pathname === "/api/client/features") {
    if (auth !== tokenOf(scope)) return denied();
    return Response.json({
      features: [{ name: "checkout", project: scope.project }],
      scope: joined,
    });
  }
  if (auth !== ADMIN_TOKEN) return denied();
  if (url.pathname === "/api/admin/api-tokens") {
    const { tokenName } = await request.json();
    const answer = { tokenName, secret: tokenOf(scope), type: "client", ...scope };
    return Response.json(answer, { status: 201 });
  }
  if (url.pathname === `/api/admin/projects/${scope.project}/environments/${scope.environment}`) {
    const body = await request.json();
    return Response.json({ ...body, query: url.searchParams.get("scope") });
  }
  if (url.pathname === "/api/admin/echo") return Response.json(echo(scope));
  return Response.json({ error: "not found" }, { status: 404 });
}

/** Every stretch of `n` characters of `text`. */
function stretches(text: string, n: number): string[] {
  return Array.from({ length: text.length - n + 1 }, (_, i) => text.slice(i, i + n));
}

/** No 8 characters of the hash, nor the token in any form, stand in any artifact. */
function assertHashMasked(artifacts: Artifacts, token: string): void {
  assertMasked(artifacts, [ADMIN_TOKEN]);
  const forms = [token, encodeURIComponent(token), btoa(token), btoa(`client:${token}`)];
  for (const [name, text] of Object.entries(artifacts)) {
    for (const form of [...forms, ...stretches(HASH, 8)]) {
      assert.ok(!text.includes(form), `${name} holds ${form}`);
    }
  }
}

/** Runs `flow` against a stand-in issuing a token for `scope`; asserts its words are readable. */
async function assertWordsReadable(flow: string, scope: Scope): Promise<void> {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) => route(request, scope),
  );
  const dir = await Deno.makeTempDir({ prefix: "flowrun-token-prefix-" });
  try {
    const origin = `http://127.0.0.1:${server.addr.port}`;
    const artifacts = await runFlow(flow, origin, ADMIN_TOKEN, dir);
    assertHashMasked(artifacts, tokenOf(scope));
    const { project, environment } = scope;
    const joined = `${project}:${environment}`;
    for (const name of ["report.json", "report.html", "run.har"]) {
      const text = artifacts[name].replaceAll("\\", "");
      const words = [
        `/projects/${project}/environments/${environment}?scope=${joined}`,
        `"scope":"${joined}"`,
        `"query":"${joined}"`,
        `"project":"${project}"`,
      ];
      for (const shown of words) assert.ok(text.includes(shown), `${name} lacks ${shown}`);
    }
    assert.ok(artifacts["report.json"].includes(`"name": "scope ${joined}"`));
    assert.ok(artifacts["junit.xml"].includes(`name="scope ${joined}"`));
    assert.ok(artifacts.stdout.includes(`scope ${joined}`));
    assert.ok(artifacts.stdout.includes(`?scope=${joined}`));
    assert.ok(artifacts["run.log.ndjson"].includes(`"step":"scope ${joined}"`));
    // The server's echo: the hash is masked however it is cut; the words before it are not.
    const har = artifacts["run.har"].replaceAll("\\", "");
    assert.ok(har.includes(`"cut":"${project}`), har);
    assert.match(har, /"cut":"[^"]*\*\*\*…"/);
    assert.match(har, /"hash_cut":"\*\*\*…"/);
    assert.match(har, /"tail":"…\*\*\*"/);
    assert.match(har, /"hash":"\*\*\*"/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a token's leading words stay readable where a flow or a server writes them; its hash never does", async () => {
  await assertWordsReadable("token_prefix.yaml", {
    project: "default",
    environment: "development",
  });
});

Deno.test("a token's leading ids that are no words stay readable where the answer names them in the clear", async () => {
  await assertWordsReadable("token_prefix_ids.yaml", {
    project: "team-42",
    environment: "staging-eu",
  });
});

/** A redactor that knows `secrets`, as a run that met them. */
function redactorWith(...secrets: string[]): Redactor {
  const r = new Redactor();
  for (const s of secrets) r.add(s);
  return r;
}

/** Whether any 8 characters of `secret` can be read in `text`, raw or from base64 at any offset. */
function shows(text: string, secret: string): boolean {
  const pieces = stretches(secret, 8);
  if (pieces.some((p) => text.includes(p))) return true;
  for (const [run] of text.matchAll(/[A-Za-z0-9+/_-]{4,}/g)) {
    for (let offset = 0; offset < 4; offset++) {
      const body = run.slice(offset).replaceAll("-", "+").replaceAll("_", "/");
      let decoded = "";
      try {
        decoded = atob(body.slice(0, body.length - (body.length % 4)));
      } catch {
        continue;
      }
      if (pieces.some((p) => decoded.includes(p))) return true;
    }
  }
  return false;
}

/** Texts a run writes itself that hold the token's words, whole, joined or cut. */
const WORDS = [
  "default:development",
  "GET /api/admin/projects/default/environments/development?scope=default:development",
  '{"scope":"default:development","project":"default"}',
  "step scope default:development passed",
  "defa…",
  "default:…",
  "default:dev…",
  "default:developm…",
  "default:development…",
  "default:development.…",
  "scope=default%3Adevelopment",
  "default\\u003adevelopment",
];

Deno.test("the words a token begins with are readable however a text holds them", () => {
  const r = redactorWith(TOKEN, `Bearer ${TOKEN}`);
  for (const text of WORDS) assert.equal(r.redact(text), text);
  assert.equal(r.shorten("default:development rollout", 5), "defa…");
  assert.equal(r.shorten("default:development rollout", 13), "default:deve…");
  // The token is masked whole, and its words with it.
  assert.equal(r.redact(`token=${TOKEN}&x=1`), `token=${MASK}&x=1`);
  assert.equal(r.redact(`Bearer ${TOKEN}`), MASK);
});

Deno.test("every part of a token's hash is masked: whole, any 16, cut, encoded, in base64, wrapped", () => {
  const r = redactorWith(TOKEN);
  const texts = [
    TOKEN,
    HASH,
    `development.${HASH.slice(0, 4)}`,
    ...stretches(HASH, 16),
    ...[4, 8, 12, 16, 40].map((n) => `hash ${HASH.slice(0, n)}… end`),
    ...[24, 28, 36, 60].map((n) => `token ${TOKEN.slice(0, n)}… end`),
    encodeURIComponent(TOKEN),
    JSON.stringify({ t: TOKEN }).replaceAll(":", "\\u003a"),
    `&lt;${TOKEN.replaceAll(".", "&#46;")}&gt;`,
    ...[0, 1, 2].map((p) => btoa(`${"x".repeat(p)}${TOKEN}!`)),
    btoa(JSON.stringify({ token: TOKEN })),
    // A console or a log wrapping the token: each line holds part of the hash.
    `${TOKEN.slice(0, 40)}\n${TOKEN.slice(40)}`,
  ];
  for (const text of texts) {
    const out = text.includes("\n") ? r.redactLines(text) : r.redact(text);
    assert.ok(out.includes(MASK), `${text} → ${out}`);
    assert.ok(!shows(out, HASH), `${text} → ${out}`);
  }
});

Deno.test("the words stay a secret's own where nothing random follows them, or base64 joins them", () => {
  // A passphrase: words are all it is. A random base64url token whose run starts with letters.
  // A token made of an admin wildcard and words. A prefix joined by `_` (`sk_live_`).
  const passphrase = "correct:horse.battery.staple-2024";
  const random = "Xk-9f8e7d6c5b4a3f2e1d0c9b8a7";
  const underscored = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
  const r = redactorWith(passphrase, random, underscored, ADMIN_TOKEN);
  for (const secret of [passphrase, random, underscored, ADMIN_TOKEN]) {
    assert.equal(r.redact(`a ${secret.slice(0, 16)} b`), `a ${MASK} b`, secret);
    assert.equal(r.redact(`a ${secret.slice(0, 4)}… b`), `a ${MASK}… b`, secret);
  }
  const document = `default:development.${HASH} ${"x".repeat(9000)}`;
  const plain = [passphrase, random, underscored, ADMIN_TOKEN, "a.b", "only words here", document];
  for (const value of plain) {
    assert.equal(unguessableSpan(value), undefined, value);
  }
});

Deno.test("words may lead or trail the random run; pieces take four of its characters", () => {
  const trailing = `${HASH}@eu-west.example`;
  assert.deepEqual(unguessableSpan(trailing), [0, HASH.length]);
  assert.deepEqual(unguessableSpan(`Bearer ${TOKEN}`), [27, 27 + HASH.length]);
  const r = redactorWith(trailing);
  for (const text of ["eu-west.example", "@eu-west.example", `${HASH.slice(-3)}@eu-west.exampl`]) {
    assert.equal(r.redact(`x ${text} y`), `x ${text} y`);
  }
  assert.equal(r.redact(`x ${HASH.slice(-4)}@eu-west.exa y`), `x ${MASK} y`);
  assert.equal(r.redact(`x ${trailing} y`), `x ${MASK} y`);
});

/** What `secretsInResponse` registers from a JSON answer: each value and its shown texts. */
function registered(answer: unknown, own?: ReadonlySet<string>): [string, string[]?][] {
  const found: [string, string[]?][] = [];
  const text = JSON.stringify(answer);
  secretsInResponse(
    { headers: { "content-type": "application/json" }, text, json: { ok: true, value: answer } },
    (value, shown) => void found.push(shown ? [value, [...shown].sort()] : [value]),
    own,
  );
  return found;
}

Deno.test("ids the answer or the flow writes in the clear are no part of the token's own text", () => {
  const token = tokenOf({ project: "team-42", environment: "staging-eu" });
  const answer = { secret: token, type: "client", project: "team-42", environment: "staging-eu" };
  // By the answer's own fields; by what the flow sent in the clear; by nothing.
  const byAnswer = registered(answer);
  assert.deepEqual(byAnswer, [[token, ["staging-eu", "team-42"]]]);
  assert.deepEqual(registered({ secret: token }, new Set(["staging-eu", "ci"])), [[token, [
    "staging-eu",
  ]]]);
  assert.deepEqual(registered({ secret: token }), [[token]]);
  // A clear value that only stands inside the hash (a count) is no evidence of anything.
  const inside = HASH.slice(52, 56);
  assert.match(inside, /^\d{4}$/);
  assert.deepEqual(registered({ secret: token, count: Number(inside) }), [[token]]);

  const r = new Redactor();
  for (const [value, shown] of byAnswer) r.add(value, shown);
  const bare = redactorWith(token);
  for (
    const text of ["x team-42:staging-eu y", "GET /p/team-42/e/staging-eu?s=team-42:staging-eu"]
  ) {
    assert.equal(r.redact(text), text);
    assert.notEqual(bare.redact(text), text, "without the evidence the ids are the token's");
  }
  assert.equal(r.shorten("team-42:staging-eu", 6), "team-…");
  for (
    const text of [
      token,
      `:staging-eu.${HASH.slice(0, 4)}`,
      `${HASH.slice(0, 8)}…`,
      ...stretches(HASH, 16),
    ]
  ) {
    const out = r.redact(`<${text}>`);
    assert.ok(out.includes(MASK) && !shows(out, HASH), `${text} → ${out}`);
  }
});
