/**
 * `convert har` on a query key sent with no value, as Directus's admin app
 * asks `GET /auth?sessionOnly` (tests/real/directus_har_test.ts): the
 * step's comment said `GET …/auth?sessionOnly=*** → 200`, a secret masked
 * where nothing was sent, because the key's name holds `session`. What is
 * masked is decided by the value, never by the key's name: a flag with no
 * value is shown as sent. Widened to the class: a flag next to valued keys
 * (`?page=2&sessionOnly&token`), a flag named `password`. A recorded
 * secret still never shows in a comment: a token the login answered, sent
 * back as `?token=…`, is masked there as everywhere.
 */
import assert from "node:assert/strict";
import { harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const TOKEN = "tkn_7f3a9c2e5b8d4f1a6c0e9b2d";

Deno.test("convert har: a query key sent with no value is shown as sent in its step's comment, whatever its name; a recorded secret in a query is still masked there", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-flag-query-" });
  try {
    const at = (path: string) => `http://127.0.0.1:8055${path}`;
    const { flow } = await convertHar(
      dir,
      harOf([
        { url: at("/auth?sessionOnly"), json: { data: [] } },
        { url: at("/items?page=2&sessionOnly&password"), json: { data: [] } },
        {
          method: "POST",
          url: at("/auth/login"),
          body: '{"email":"a@b.test","password":"hunter2-long"}',
          json: { data: { token: TOKEN } },
        },
        { url: at(`/feed?token=${TOKEN}&limit=5`), json: { data: [] } },
      ]),
    );
    const comments = flow.split("\n").filter((l) => /^\s*# (GET|POST) /.test(l)).join("\n");
    assert.match(comments, /# GET http:\/\/127\.0\.0\.1:8055\/auth\?sessionOnly → 200$/m, flow);
    assert.match(comments, /\/items\?page=2&sessionOnly&password → 200$/m, flow);
    assert.ok(!flow.includes(TOKEN), flow);
    assert.match(comments, /\/feed\?token=\*\*\*&limit=5 → 200$/m, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
