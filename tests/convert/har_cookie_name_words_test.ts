/**
 * `convert har` on cookies the page's own script wrote under ordinary words that merely contain a
 * credential's short name: `sidebar_width=240px` ("sid" inside "sidebar"), `author_view=Compact`
 * ("auth" inside "author"), `hockey_team=Sharks` ("key" at the end of "hockey"). No answer set
 * them and their values are no word anybody could guess, so the name decided: each was taken for
 * a session cookie whose `Set-Cookie` the recording lost and captured from the login's answer,
 * which a fresh instance does not set, failing the login and skipping every later step. A
 * credential's name is a whole word, or a word's ending, of the cookie's name (split at `_`, `-`,
 * `.` and camelCase, as the secret name rules split): those are the page's settings, sent as
 * recorded. Real session cookies still are credentials (`PHPSESSID`, `JSESSIONID`, `connect.sid`,
 * `csrftoken`, `remember_web_…`, `api_key`, `authToken`), asked when no answer set them.
 */
import assert from "node:assert/strict";
import { isCredentialCookie } from "../../lib/convert/values.ts";
import { convertThenRunTwice, notesRecording, notesStandIn } from "./har_notes_app.ts";

const PLAIN = "sidebar_width=240px; author_view=Compact; hockey_team=Sharks";

Deno.test("convert har: cookies a script wrote under ordinary words holding a credential's letters are sent as recorded", async () => {
  const dir = await Deno.makeTempDir();
  const fresh = notesStandIn("requestId");
  try {
    const har = notesRecording("requestId", PLAIN);
    const { converted, flow, first } = await convertThenRunTwice(dir, har, fresh.origin);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(flow, new RegExp(`sid=\\$\\{steps\\.login\\.capture\\.sid\\}; ${PLAIN}`), flow);
    assert.ok(!/\{ cookie: (sidebar|author|hockey)/.test(flow), flow);
    assert.equal(first.code, 0, `${first.stdout}\n${flow}`);
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a cookie is a credential by a whole word of its name, never by letters inside another word", () => {
  const opaque = "240px";
  for (
    const name of [
      "sidebar_width",
      "inside_view",
      "author_view",
      "authority",
      "hockey_team",
      "turkey",
    ]
  ) {
    assert.ok(!isCredentialCookie(name, opaque), name);
  }
  const held = [
    "PHPSESSID",
    "JSESSIONID",
    "connect.sid",
    "sid",
    "csrftoken",
    "XSRF-TOKEN",
    "remember_web_59ba36ad",
    "api_key",
    "authToken",
    "auth_tkt",
    "laravel_session",
    "SSESS4a1b",
    "_identity",
    "jwt",
    "login",
    "client_secret",
  ];
  for (const name of held) assert.ok(isCredentialCookie(name, opaque), name);
});
