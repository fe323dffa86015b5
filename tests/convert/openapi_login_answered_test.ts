/**
 * `convert openapi`: a value the login answers that a later request sends
 * back under the same name, found on Directus 10
 * (tests/real/directus_openapi_test.ts): its login answers
 * `data.refresh_token`, and `POST /auth/refresh` and `POST /auth/logout`
 * take a body `refresh_token`; both were sent the document's example
 * (`eyJ0eXAiOiJKV...`) and the refresh was refused (401). The value is
 * captured from the login's answer; where a step in between sends it and
 * answers a new one of the same name (a refresh rotates it), the later
 * steps send that one.
 *
 * A member holding the login's answer (its `data` envelope, the tokens in
 * it) is no value of a body's text of that name: Directus's `POST /files`
 * `{data: string}` was sent the login's whole `data`, its access and
 * refresh tokens, to a call that stores what it is given. Only a value of
 * the body member's kind (a text, not an object or a list) is sent back.
 *
 * The stand-in runs on 127.0.0.1, accepts only the account the test gives
 * the run, and forgets a refresh token once it has been used.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";
import { tokenDocument } from "../support/openapi_doc_parts.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = (example: string) => ({ type: "string", example });
const answer = (props: Record<string, unknown>) => ({
  "200": {
    description: "OK",
    ...json({ type: "object", properties: { data: { type: "object", properties: props } } }),
  },
});
const tokens = {
  access_token: text("eyJhbGciOiJI..."),
  expires: { type: "integer", example: 900 },
  refresh_token: text("yuOJkjdPXMd..."),
};
const takesRefresh = json({
  type: "object",
  properties: {
    refresh_token: text("eyJ0eXAiOiJKV..."),
    mode: { type: "string", enum: ["json", "cookie"], default: "json" },
  },
});

/** A login answering a refresh token, a refresh taking and answering one, a logout taking one. */
function document(): Record<string, unknown> {
  return tokenDocument({
    tags: [{ name: "Auth" }],
    paths: {
      "/auth/login": {
        post: {
          operationId: "login",
          tags: ["Auth"],
          security: [],
          requestBody: json({
            type: "object",
            required: ["email", "password"],
            properties: {
              email: text("admin@example.com"),
              password: { type: "string", format: "password", example: "password" },
            },
          }),
          responses: answer(tokens),
        },
      },
      "/auth/refresh": {
        post: {
          operationId: "refresh",
          tags: ["Auth"],
          requestBody: takesRefresh,
          responses: answer(tokens),
        },
      },
      "/auth/logout": {
        post: {
          operationId: "logout",
          tags: ["Auth"],
          requestBody: takesRefresh,
          responses: { "200": { description: "Signed out" } },
        },
      },
    },
  });
}

const ACCOUNT = { email: "owner@example.org", password: "s3cret-Owner-pass" };

/** Hands out refresh tokens, each good once (a refresh replaces it with another). */
function standIn() {
  const live = new Set<string>();
  let next = 0;
  const issue = () => {
    const refresh = `refresh-${++next}`;
    live.add(refresh);
    return Response.json({
      data: { access_token: `tok-${next}`, expires: 900, refresh_token: refresh },
    });
  };
  const refused = (message: string) => Response.json({ errors: [{ message }] }, { status: 401 });
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = await req.json().catch(() => ({}));
    if (pathname === "/auth/login") {
      const ok = body.email === ACCOUNT.email && body.password === ACCOUNT.password;
      return ok ? issue() : refused("Invalid user credentials.");
    }
    if (!live.delete(body.refresh_token)) {
      return refused(`Invalid refresh token ${body.refresh_token}`);
    }
    if (pathname === "/auth/refresh") return issue();
    if (pathname === "/auth/logout") return new Response(null, { status: 200 });
    return new Response(null, { status: 404 });
  });
}

Deno.test("convert openapi: a refresh token the login answers is sent back by the refresh, and the rotated one by the logout", async () => {
  const { flows, run, steps } = await convertAndRunAsUser(
    document(),
    standIn(),
    (base) => ({ BASE_URL: base, LOGIN_EMAIL: ACCOUNT.email, LOGIN_PASSWORD: ACCOUNT.password }),
  );
  const flow = flows.get("auth.yaml") ?? "";
  assert.ok(flow !== "" && !flow.includes("eyJ0eXAiOiJKV..."), flow);
  assert.equal(run.code, 0, flow + run.stdout + run.stderr);
  const sent = steps.map((s) => `${s.name} ${s.status}`);
  assert.deepEqual(sent, ["login passed", "refresh passed", "logout passed"]);
});

/** {@linkcode document} and a store of notes whose body has a text member named `data`. */
function withNotes() {
  const doc = document();
  const note = json({
    type: "object",
    required: ["data"],
    properties: { data: { type: "string" } },
  });
  const stored = { "200": { description: "Stored", ...json({ type: "object" }) } };
  const paths = doc.paths as Record<string, unknown>;
  paths["/notes"] = { post: { operationId: "createNote", requestBody: note, responses: stored } };
  return doc;
}

Deno.test("convert openapi: a body text named as the login's envelope is not sent the login's answer", async () => {
  const inner = standIn();
  const notes = serveStandIn(async (req) => {
    const url = new URL(req.url);
    if (url.pathname !== "/notes") return fetch(`${inner.base}${url.pathname}`, req);
    const body = await req.json();
    const ok = typeof body.data === "string";
    return Response.json(ok ? { stored: body.data } : { error: "data is a text" }, {
      status: ok ? 200 : 400,
    });
  });
  try {
    const { flows, run, steps } = await convertAndRunAsUser(
      withNotes(),
      notes,
      (base) => ({ BASE_URL: base, LOGIN_EMAIL: ACCOUNT.email, LOGIN_PASSWORD: ACCOUNT.password }),
    );
    const all = [...flows.values()].join("\n");
    assert.doesNotMatch(all, /data: \$\{steps\.[a-z_]+\.capture\.data\}/, all);
    assert.equal(run.code, 0, all + run.stdout + run.stderr);
    assert.ok(steps.some((s) => s.name === "create_note" && s.status === "passed"), all);
  } finally {
    await inner.close();
  }
});
