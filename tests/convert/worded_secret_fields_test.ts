/**
 * Ordinary words asked for as secrets by their key: a settings page saves its i18n strings
 * (`"login.password": "Password"`), a display mode under `token` (`"token": "display"`), a
 * label (`"api_key.label": "API key"`). Each became a variable to set before the run, so the flow
 * did not run as printed. A value is a secret by what it is and where it is sent: words (letters
 * and spaces) under a credential-named key are the API's text, kept as written, unless the
 * field is a credential place: a login's body, or a body that sends an account's name beside
 * it (a sign-up). A password that is a word (`password`, `admin`) sent to a login, or chosen
 * at a sign-up, stays asked for. Shared by `convert curl` and `convert har`.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";
import { fullExchange } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const LABELS = {
  "login.password": "Password",
  token: "display",
  "api_key.label": "API key",
  "reset_token.hint": "Reset token",
  title: "Settings",
};
const JSON_TYPE = `-H "Content-Type: application/json"`;
const save = (host: string) =>
  `curl -X PUT ${JSON_TYPE} -d '${JSON.stringify(LABELS)}' http://${host}/api/settings/labels`;
const FORM = "curl -X POST http://HOST/api/prefs -d 'token=display&password_label=Your+password'";

Deno.test("convert curl: words under credential-named keys are sent as written, nothing asked", () => {
  for (const docs of [save("a.test"), FORM.replace("HOST", "a.test")]) {
    const { yaml, summary } = convertCurl(`${docs}\n`);
    assert.deepEqual(summary.env, [], yaml);
    assert.doesNotMatch(yaml, /ENV\.(?!BASE_URL)/, yaml);
  }
});

Deno.test("convert curl: a word sent as a login's or a sign-up's password stays a secret", () => {
  for (const pw of ["password", "admin", "Python"]) {
    const login =
      `curl -X POST ${JSON_TYPE} -d '{"username":"ann","password":"${pw}"}' http://a.test/api/login`;
    const signUp =
      `curl -X POST ${JSON_TYPE} -d '{"email":"ann@example.com","password":"${pw}"}' http://a.test/api/users`;
    const form =
      `curl -X POST http://a.test/token -d 'grant_type=password&username=ann&password=${pw}'`;
    for (const docs of [login, signUp, form]) {
      const { yaml, summary } = convertCurl(`${docs}\n`);
      assert.equal(summary.env.length, 1, yaml);
      assert.match(yaml, /^\s+password: \$\{ENV\.[A-Z_]+\}$/m, yaml);
    }
  }
});

Deno.test("convert curl: the flow runs as printed against a server that wants the words", async () => {
  const seen: unknown[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    seen.push(body);
    const ok = JSON.stringify(body) === JSON.stringify(LABELS);
    return Response.json({ ok }, { status: ok ? 200 : 422 });
  });
  await withCurlFlow(`${save(`127.0.0.1:${s.addr.port}`)}\n`, async ({ runFlow, readFlow }) => {
    const out = await runFlow();
    assert.equal(out.code, 0, `${JSON.stringify(seen)}\n${await readFlow()}\n${out.stdout}`);
    assert.deepEqual(seen, [LABELS]);
  });
});

Deno.test("convert har: a recorded settings save keeps its words; a login's word password is asked", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const entries = [
      fullExchange(
        "POST",
        "http://a.test/api/login",
        '{"username":"ann","password":"admin"}',
        '{"ok":true}',
      ),
      fullExchange(
        "PUT",
        "http://a.test/api/settings/labels",
        JSON.stringify(LABELS),
        '{"ok":true}',
      ),
    ];
    const { flow } = await convertHar(dir, JSON.stringify({ log: { version: "1.2", entries } }));
    assert.match(flow, /"login\.password": Password/, flow);
    assert.match(flow, /token: display/, flow);
    assert.match(flow, /"api_key\.label": API key/, flow);
    assert.match(flow, /password: \$\{ENV\.LOGIN_PASSWORD\}/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
