/**
 * `convert openapi`: two password members of one body whose document examples differ are sent two
 * passwords, the first the run's and each later one a password the run makes. A Hapi social API's
 * `PUT /users/{id}/password` takes `oldPassword` and `newPassword`, exampled `Oldpassword1234` and
 * `Newpassword1234`; both were sent the run's password, and the server refused 400 "The new
 * password must be different from the old password!". The examples are the evidence, not the
 * names: a sign-up's `password` and its confirmation, exampled alike (or not at all), stay one
 * value, as its server compares them.
 *
 * The stand-in below keeps its accounts in memory on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers, json, text } from "../support/openapi_doc_parts.ts";

const secret = (example: string) => ({ type: "string", minLength: 8, example });
const sends = (properties: Record<string, unknown>) => ({
  required: true,
  content: json({ type: "object", required: Object.keys(properties), properties }),
});
const made = { type: "object", properties: { id: text, email: text } };
const id = [{ name: "id", in: "path", required: true, schema: { type: "string" } }];

const document = {
  openapi: "3.0.0",
  info: { title: "Accounts", version: "1" },
  paths: {
    "/users": {
      post: {
        requestBody: sends({
          email: { type: "string", format: "email" },
          password: secret("moreThan8Chars"),
          confirmPassword: secret("moreThan8Chars"),
        }),
        responses: answers(made),
      },
    },
    "/users/{id}/password": {
      put: {
        parameters: id,
        requestBody: sends({
          oldPassword: secret("Oldpassword1234"),
          newPassword: secret("Newpassword1234"),
        }),
        responses: answers({}),
      },
    },
  },
};

function accounts() {
  const users = new Map<string, string>();
  const refused = (message: string) => Response.json({ message }, { status: 400 });
  return serveStandIn(async (req) => {
    const parts = new URL(req.url).pathname.split("/").filter((p) => p !== "");
    const sent = await req.json();
    if (parts.length === 1) {
      if (sent.password !== sent.confirmPassword) return refused("Passwords do not match");
      const user = { id: crypto.randomUUID(), email: sent.email };
      users.set(user.id, sent.password);
      return Response.json(user);
    }
    const held = users.get(parts[1]);
    if (held === undefined) return Response.json({}, { status: 404 });
    if (held !== sent.oldPassword) return refused("Wrong password");
    if (sent.newPassword === sent.oldPassword) return refused("The new password must differ");
    users.set(parts[1], sent.newPassword);
    return Response.json({});
  });
}

Deno.test("password members exampled apart are sent apart; a confirmation stays the same", async () => {
  const { runs, summary } = await convertAndRunSuite(document, accounts(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
});
