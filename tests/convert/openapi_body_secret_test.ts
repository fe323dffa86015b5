/**
 * `convert openapi`: a request body's secret the server checks is asked of
 * the user as an environment variable, never written as the document's
 * example. Before, a NestJS auth API's `POST /auth/register-admin` was
 * sent `adminSecret: super-secret-admin-key` ("Admin registration secret
 * key"; its example, the server's default secret) written in the flow. The
 * schema says so: `format: password`, `writeOnly`, or, with neither, a
 * description naming a secret; one case each. A property saying none keeps
 * its example, as does one whose description names a secret only as what
 * it is for ("A reset token used to … change the password": Unleash's),
 * and a listed choice (`enum`) is never asked; an optional secret (Svix's
 * endpoint secret, made by the server when not sent) is left out. The stand-in on
 * 127.0.0.1 has its own secrets (not the examples) and refuses others 403; without the
 * variables the step is skipped, not every flow refused.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { json } from "../support/openapi_doc_parts.ts";

const props = {
  name: { type: "string", description: "The admin's name", example: "Ada" },
  level: {
    type: "string",
    enum: ["secret", "open"],
    description: "A secret level",
    example: "open",
  },
  adminSecret: {
    type: "string",
    description: "Admin registration secret key",
    example: "super-secret-admin-key",
  },
  unlockCode: { type: "string", format: "password", example: "0000-unlock" },
  inviteKey: { type: "string", writeOnly: true, example: "invite-example-key" },
  // What the value is for names a password, not what it is (Unleash's reset token): kept.
  resetToken: {
    type: "string",
    description: "A reset token used to validate that the user is allowed to change the password.",
    example: "rt-example-1",
  },
  // Optional, and the server makes one when it is not sent (Svix's endpoint secret): left out.
  signingSecret: {
    type: "string",
    description: "The endpoint's signing secret. Generated when not sent.",
    example: "whsec_example",
  },
};
const REQUIRED = Object.keys(props).filter((k) => k !== "signingSecret");
const EXAMPLES = ["super-secret-admin-key", "0000-unlock", "invite-example-key", "whsec_example"];

const document = {
  openapi: "3.0.0",
  info: { title: "secrets", version: "1" },
  paths: {
    "/admins": {
      post: {
        requestBody: {
          required: true,
          content: json({ type: "object", required: REQUIRED, properties: props }),
        },
        responses: { "201": { description: "Made", content: json({ type: "object" }) } },
      },
    },
  },
};

Deno.test("convert openapi: a body's secret (format: password, writeOnly, described as one) is asked as a variable, never the document's example", async () => {
  const own = {
    adminSecret: `a-${crypto.randomUUID()}`,
    unlockCode: `u-${crypto.randomUUID()}`,
    inviteKey: `i-${crypto.randomUUID()}`,
  };
  const sent: Record<string, unknown>[] = [];
  const server = serveStandIn(async (req) => {
    const got = await req.json();
    sent.push(got);
    const ok = Object.entries(own).every(([k, v]) => got[k] === v);
    return ok ? Response.json({}, { status: 201 }) : new Response(null, { status: 403 });
  });
  const env = {
    ADMIN_SECRET: own.adminSecret,
    UNLOCK_CODE: own.unlockCode,
    INVITE_KEY: own.inviteKey,
  };
  const { runs, summary, flows } = await convertAndRunSuite(document, server, {
    runs: 2,
    env: [{}, env],
  });
  for (const name of Object.keys(env)) assert.match(summary, new RegExp(`^  ${name}: `, "m"));
  const all = [...flows.values()].join("\n");
  for (const example of EXAMPLES) assert.ok(!all.includes(example), all);
  assert.match(all, /name: Ada/);
  assert.match(all, /level: open/);
  assert.match(all, /resetToken: rt-example-1/);
  assert.doesNotMatch(summary, /RESET_TOKEN|SIGNING_SECRET/);
  assert.doesNotMatch(all, /signingSecret/);
  // Run 1 (no secrets given) skips the step; run 2 sends the user's own, once.
  for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
  assert.match(runs[0].stdout, /skipped/);
  assert.equal(sent.length, 1);
  for (const secret of Object.values(own)) {
    assert.ok(!(runs[1].stdout + runs[1].stderr).includes(secret));
  }
});
