/**
 * A value to set is never named after a variable the shell or the operating system sets for
 * every process. A collection's login `{"username": "{{user}}", "pwd": "{{pwd}}"}`, its values
 * left empty to fill, asked for `USER` and `PWD` "empty unless set": run as printed, the flow sent
 * the login's name as the user and the current directory as the password, where Newman sends both
 * empty, and the directory, read from a secret, was masked in every report. The same held for a
 * `{{lang}}`, `{{path}}` or `{{home}}` credential, and for the OpenAPI converter's body secrets
 * (a `pwd` field) and the recordings' header secrets (`X-User`).
 */
import assert from "node:assert/strict";
import { AuthSchemes } from "../../lib/convert/openapi/auth.ts";
import { convertedInto, runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** What a login shell sets; `_VALUE` names are the converter's own. */
const SHELL = {
  USER: "ci-runner",
  LOGNAME: "ci-runner",
  PWD: "/home/ci-runner/work",
  HOME: "/home/ci-runner",
  LANG: "C.UTF-8",
  PATH: "/usr/bin:/bin",
};

function collection(base: string) {
  return {
    info: { name: "Shell names", schema: V21 },
    variable: [
      { key: "base", value: base },
      { key: "user", value: "" },
      { key: "pwd", value: "" },
      { key: "home", value: "k_77a9d0c2e4f6b8a1" },
    ],
    item: [{
      name: "Login",
      request: {
        method: "POST",
        url: "{{base}}/login",
        header: [{ key: "X-Api-Key", value: "{{home}}" }],
        body: {
          mode: "raw",
          raw: '{"username": "{{user}}", "pwd": "{{pwd}}"}',
          options: { raw: { language: "json" } },
        },
      },
    }],
  };
}

Deno.test("shell env names: a collection's {{user}} and {{pwd}} are never the shell's USER and PWD", async () => {
  const seen: { body: unknown; key: string | null }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen.push({ body: await req.json(), key: req.headers.get("x-api-key") });
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files, text, flows } = convertedInto(
      collection(`http://127.0.0.1:${server.addr.port}`),
      dir,
    );
    const all = text + flows;
    for (const name of Object.keys(SHELL)) {
      assert.doesNotMatch(all, new RegExp(`ENV\\.${name}\\b|\\b${name} \\(`), all);
    }
    assert.match(text, /USER_VALUE \(\{\{user\}\}, empty unless set\)/, text);
    assert.match(text, /PWD_VALUE \(\{\{pwd\}\}, empty unless set\)/, text);
    // Run as printed from a login shell, with the one secret the summary requires.
    const { run, flow } = await runConverted(files, dir, {
      ...SHELL,
      HOME_VALUE: "k_77a9d0c2e4f6b8a1",
    });
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    // As Newman sends them: the files' empty values, never the shell's.
    assert.deepEqual(seen, [{
      body: { username: "", pwd: "" },
      key: "k_77a9d0c2e4f6b8a1",
    }]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("shell env names: an OpenAPI body secret in a `pwd` field is asked as PWD_VALUE", () => {
  const auth = new AuthSchemes({ paths: {} });
  assert.equal(auth.envVar("body", "PWD", "the pwd field"), "PWD_VALUE");
  assert.equal(auth.envVar("body", "LOGIN_PASSWORD", "a password"), "LOGIN_PASSWORD");
  // A second scheme's of the same base keeps its own prefix, as before.
  assert.equal(auth.envVar("other", "PWD", "another pwd field"), "OTHER_PWD");
});
