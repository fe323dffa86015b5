/**
 * `convert har` on cookies the page's own script wrote under names that look like a credential's:
 * `sidebar_collapsed=false` ("sid"), `keyboard_shortcuts=on` ("key"), `remember_me=1`
 * ("remember"). No answer set them, so the converter took each, by its name, for a session
 * cookie whose `Set-Cookie` the recording lost, and captured it from the login's answer: on a
 * fresh instance the login sets no such cookie and the capture failed the login, every later
 * step skipped.
 *
 * What the converter does (lib/convert/values.ts `isCredentialCookie`): a value anybody could
 * guess (`true`, `off`, a number of up to 4 digits, one short lowercase word) authenticates no
 * one, whatever the name above it, so such a cookie is sent as recorded; the name decides only
 * for a value that could be a credential. Widened: a credential-named cookie whose value is
 * opaque (`remember_token=…`) that no answer set is still asked for, and the server's own
 * session cookie is still captured. A curl command is a person's text, where a word under a
 * session's name is a placeholder for one (`-b 'session=secret'`): still a credential there.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertThenRunTwice, notesRecording, notesStandIn } from "./har_notes_app.ts";

Deno.test("convert har: cookies a script wrote with plain values are sent as recorded, whatever their names", async () => {
  const dir = await Deno.makeTempDir();
  const fresh = notesStandIn("requestId");
  try {
    const har = notesRecording(
      "requestId",
      "sidebar_collapsed=false; keyboard_shortcuts=on; remember_me=1",
    );
    const { converted, flow, first } = await convertThenRunTwice(dir, har, fresh.origin);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(
      flow,
      /sid=\$\{steps\.login\.capture\.sid\}; sidebar_collapsed=false; keyboard_shortcuts=on; remember_me=1/,
      flow,
    );
    assert.ok(!/\{ cookie: (sidebar|keyboard|remember)/.test(flow), flow);
    assert.equal(first.code, 0, `${first.stdout}\n${flow}`);
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a credential-named cookie with an opaque value no answer set is still asked for", async () => {
  const dir = await Deno.makeTempDir();
  const fresh = notesStandIn("requestId");
  try {
    const har = notesRecording("requestId", "remember_token=r7Kq2ZpX9mWd4Lb8");
    const { converted, flow } = await convertThenRunTwice(dir, har, fresh.origin);
    assert.equal(converted.code, 0, converted.stderr);
    assert.ok(!flow.includes("r7Kq2ZpX9mWd4Lb8"), flow);
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert curl: a word under a session's name in a written command is still a credential", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/docs.sh`,
      "curl -X POST http://127.0.0.1:8080/api/login -d 'username=ann&password=typed-pw'\n" +
        "curl -b 'session=secret' http://127.0.0.1:8080/api/me\n" +
        "curl -b 'sid=abc' http://127.0.0.1:8080/api/items\n",
    );
    const converted = await runCli(["convert", "curl", `${dir}/docs.sh`, "-o", `${dir}/f.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/f.yaml`);
    assert.match(flow, /cookie: session=\$\{steps\.login\.capture\.session\}/, flow);
    assert.match(flow, /cookie: \$\{ENV\.SESSION_COOKIE\}/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
