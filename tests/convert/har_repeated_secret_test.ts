/**
 * `convert har` on a form that asks for a new password twice (Homebridge
 * UI's "add user": `password` and `passwordConfirm`,
 * tests/real/homebridge_har_test.ts): each secret-named field was its own
 * variable, so the summary asked for CREATE_USER_PASSWORD and
 * CREATE_USER_PASSWORD_CONFIRM, two values a user must keep equal, and
 * `--verify` with the one password set could not send the step. The
 * recording says they are one: the same value typed into both fields of
 * one body. So a secret field that repeats, in the same step, the value
 * of one already asked for is that variable; a different value stays a
 * variable of its own. Since the journey never signs in as the user it
 * adds, that one value is now no longer asked at all: the run chooses it
 * afresh (har_chosen_password_test.ts), one var sent in both fields.
 */
import assert from "node:assert/strict";
import { chromiumEntry } from "../support/chromium_entry.ts";
import { runCli } from "../support/cli.ts";

const APP = "http://127.0.0.1:8581";

/** A JSON POST of `body` to `path`, answered 201 with `answer`. */
function post(i: number, path: string, body: unknown, answer: unknown) {
  return chromiumEntry(i, {
    method: "POST",
    url: `${APP}${path}`,
    headers: [["Content-Type", "application/json"]],
    postData: { mimeType: "application/json", text: JSON.stringify(body) },
    status: 201,
    mime: "application/json",
    text: JSON.stringify(answer),
    type: "xhr",
  });
}

/** Converts a sign-in, then an "add user" whose confirmation field holds `confirm`. */
async function convert(confirm: string) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-repeated-secret-" });
  try {
    const entries = [
      post(0, "/api/auth/login", { username: "admin", password: "admin-typed-pass" }, {
        access_token: "eyJ.a.b",
      }),
      post(1, "/api/users", {
        username: "guest",
        password: "guest-typed-pass",
        passwordConfirm: confirm,
      }, { id: 2, username: "guest" }),
    ];
    await Deno.writeTextFile(`${dir}/ui.har`, JSON.stringify({ log: { version: "1.2", entries } }));
    const converted = await runCli(["convert", "har", `${dir}/ui.har`, "-o", `${dir}/ui.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    return { stderr: converted.stderr, flow: await Deno.readTextFile(`${dir}/ui.yaml`) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("convert har: a secret field repeating the value of another in the same step is one value (a new password and its confirmation)", async () => {
  const { stderr, flow } = await convert("guest-typed-pass");
  assert.match(stderr, /Set before running: LOGIN_PASSWORD\.\n/, stderr);
  assert.match(flow, /"?password"?: \$\{vars\.chosen_password\}/, flow);
  assert.match(flow, /"?passwordConfirm"?: \$\{vars\.chosen_password\}/, flow);
  assert.ok(!flow.includes("guest-typed-pass"), flow);
});

Deno.test("convert har: a secret field with a value of its own stays a variable of its own", async () => {
  const { stderr, flow } = await convert("another-typed-pass");
  assert.match(stderr, /CREATE_USER_PASSWORD_CONFIRM/, stderr);
  assert.ok(!flow.includes("another-typed-pass"), flow);
});
