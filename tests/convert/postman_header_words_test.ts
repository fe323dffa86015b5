/**
 * In a credential header, only the credential is a secret: a variable the files give as an ordinary
 * word is the scheme in front of it (`Authorization: {{tokenType}} {{accessToken}}` with `tokenType`
 * = `Bearer`, as Laravel Passport's and generated collections write it) or a cookie that holds no
 * session (`Cookie: lang={{lang}}; sid={{sid}}` with `lang` = `en`). Each was asked for as a secret
 * (`TOKEN_TYPE ({{tokenType}}, a secret)`, `LANG ({{lang}}, a secret)`): run as the summary says,
 * the flow was refused for want of `TOKEN_TYPE`, and `${ENV.LANG}` read the shell's locale and sent
 * `lang=C.UTF-8`, where Newman sends `Bearer <token>` and `lang=en`. Decided by the value the files
 * give, never by the variable's name: a scheme the files do not give, or a session cookie's random
 * value, stays a secret.
 */
import assert from "node:assert/strict";
import { convertedInto, runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const SID = "s%3Aq8Zt1VbN0xK4mP2rL6wE";
const KEY = "k9Qv2LmX7pR4tZ8w";

function collection(base: string) {
  const get = (name: string, header: { key: string; value: string }[]) => ({
    name,
    request: { method: "GET", url: `{{base}}/${name}`, header },
  });
  return {
    info: { name: "Header words", schema: V21 },
    variable: [
      { key: "base", value: base },
      { key: "tokenType", value: "Bearer" },
      { key: "lang", value: "en" },
      { key: "theme", value: "dark-blue" },
      { key: "sid", value: SID },
      { key: "key", value: KEY },
    ],
    item: [
      {
        name: "login",
        request: { method: "POST", url: "{{base}}/login" },
        event: [{
          listen: "test",
          script: {
            exec: ["pm.collectionVariables.set('accessToken', pm.response.json().access_token);"],
          },
        }],
      },
      get("me", [{ key: "Authorization", value: "{{tokenType}} {{accessToken}}" }]),
      get("prefs", [{ key: "Cookie", value: "lang={{lang}}; theme = {{theme}}; sid={{sid}}" }]),
      // A scheme the files never give is the user's to fill, with the credential.
      get("other", [{ key: "Authorization", value: "{{otherScheme}} {{key}}" }]),
    ],
  };
}

Deno.test("postman credential headers: a scheme word and a word cookie are sent as the files give them", async () => {
  const seen: Record<string, string | null> = {};
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/login") return Response.json({ access_token: "at-5d1e0c9b7a3f" });
    seen[path] = req.headers.get(path === "/prefs" ? "cookie" : "authorization");
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files, text, flows } = convertedInto(
      collection(`http://127.0.0.1:${server.addr.port}`),
      dir,
    );
    // The words are the flow's vars; the credentials are asked for and never written.
    assert.doesNotMatch(text, /TOKEN_TYPE|LANG|THEME/, text);
    assert.match(text, /SID \(\{\{sid\}\}, a secret\)/, text);
    assert.match(text, /KEY \(\{\{key\}\}, a secret\)/, text);
    assert.match(text, /OTHER_SCHEME \(\{\{otherScheme\}\}\)/, text);
    assert.doesNotMatch(text + flows, new RegExp(`${SID}|${KEY}`), flows);
    assert.match(flows, /tokenType: Bearer/, flows);
    assert.match(flows, /lang: en/, flows);
    // Run as the summary says, from a shell whose LANG is its locale.
    const { run, flow } = await runConverted(files, dir, {
      LANG: "C.UTF-8",
      SID,
      KEY,
      OTHER_SCHEME: "Token",
    });
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(seen, {
      "/me": "Bearer at-5d1e0c9b7a3f",
      "/prefs": `lang=en; theme = dark-blue; sid=${SID}`,
      "/other": `Token ${KEY}`,
    });
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
