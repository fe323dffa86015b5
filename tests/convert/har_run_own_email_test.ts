/**
 * `convert har` on an account a journey creates by its e-mail address, which the flow makes the
 * run's own so that a second run creates another. Seen on SQLPad 3.1 (docs/real-servers-har.md):
 * the flow sent `reader+${RUN_ID}@example.com`, and SQLPad finds a user by
 * `new RegExp(email, "i")` (a lookup many Mongo and NeDB apps write), where `+` repeats the
 * letter before it: the user was saved but not found again, the answer was `{"user": null}` and
 * the 12 steps after it were skipped, on every run. A strict address check (`[\w.-]+@…`) refuses
 * a `+` outright, and a form or query decodes a bare one as a space. The recorded address had no
 * `+`: nothing showed the app takes one. The run id now joins the local part with `-`, which
 * every address check and such a lookup take as written; an address recorded with a `+tag` (the
 * app took a `+`) keeps its `+`, the tag replaced by the run id.
 *
 * The stand-in runs on 127.0.0.1 and refuses an address it already has.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";

const RECORDED = "http://127.0.0.1:5012";
const STRICT = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+\.[a-z]{2,}$/;

/** How the stand-in checks and finds an address. */
type Check = "pattern" | "strict" | "exact";

/** The stand-in: creates users by address, found again as SQLPad finds them (a pattern). */
function standIn(check: Check) {
  const emails: string[] = [];
  const refused: string[] = [];
  const find = (email: string) =>
    emails.find((e) => check === "exact" ? e === email : new RegExp(email, "i").test(e));
  const strict = check === "strict";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const text = await req.text();
    const email = text.startsWith("{")
      ? JSON.parse(text).email
      : new URLSearchParams(text).get("email") ?? "";
    if (strict && !STRICT.test(email)) {
      refused.push(`invalid ${email}`);
      return Response.json({ error: "invalid e-mail" }, { status: 400 });
    }
    if (find(email) || emails.includes(email)) {
      refused.push(`exists ${email}`);
      return Response.json({ error: "User already exists" }, { status: 400 });
    }
    emails.push(email.toLowerCase());
    const found = find(email);
    return Response.json({ user: found ? { _id: `u${emails.length}`, email: found } : null });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    refused,
    close: () => server.shutdown(),
  };
}

/** A create of the user `email`, sent as JSON or as a form. */
function create(email: string, form: boolean): EntrySpec {
  return {
    method: "POST",
    url: `${RECORDED}/api/users`,
    ...(form
      ? {
        body: `email=${encodeURIComponent(email)}&role=editor`,
        mime: "application/x-www-form-urlencoded",
      }
      : { body: JSON.stringify({ email, role: "editor" }) }),
    json: { user: { _id: "Z0iAL8NBafqCTg6n", email } },
  };
}

/** Converts the create with default options and runs it twice on one stand-in. */
async function convertAndRunTwice(email: string, form: boolean, check: Check) {
  const { flow, runs: [first, second], server } = await convertHarThenRun(
    () => standIn(check),
    harOf([create(email, form)]),
    {},
    2,
  );
  return { flow, first, second, refused: server.refused };
}

for (const form of [false, true]) {
  for (const check of ["pattern", "strict"] as const) {
    const how = `${form ? "a form" : "JSON"}, ${
      check === "strict" ? "checked strictly" : "found by a pattern"
    }`;
    Deno.test(`convert har: a created account's address (${how}) is the run's own without a +`, async () => {
      const { flow, first, second, refused } = await convertAndRunTwice(
        "reader@example.com",
        form,
        check,
      );
      assert.match(flow, /reader-\$\{RUN_ID\}@example\.com/, flow);
      assert.equal(first.code, 0, first.stdout + flow);
      assert.equal(second.code, 0, second.stdout + flow);
      assert.deepEqual(refused, []);
    });
  }
}

Deno.test("convert har: an address recorded with a +tag keeps its +, the tag the run's own", async () => {
  const { flow, first, second, refused } = await convertAndRunTwice(
    "reader+qa@example.com",
    false,
    "exact",
  );
  assert.match(flow, /reader\+\$\{RUN_ID\}@example\.com/, flow);
  assert.equal(first.code, 0, first.stdout + flow);
  assert.equal(second.code, 0, second.stdout + flow);
  assert.deepEqual(refused, []);
});
