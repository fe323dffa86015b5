/**
 * Words under a credential-named key are the API's text, in Postman as in curl and HAR
 * (correlate/worded_fields.ts). A settings request saving a mode under `token` (`{{token}}` =
 * `display`) or its i18n labels under `password` and `secret` (`{{passwordLabel}}` = `Password`)
 * had each asked for as a secret (`TOKEN ({{token}}, a secret)`): run as the summary says, the
 * flow was refused for want of them, where Newman sends the words the collection gives. Decided
 * by the value the files give and where it is sent, never by the variable's name: a word password
 * (`admin`, `password`) sent in a login's or a sign-up's body, a Basic auth's password and an auth
 * block's token stay secrets, whatever word they are.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { bodyJudge, newmanThenFlow } from "../support/newman_then_flow.ts";
import { jsonPoster } from "../support/postman_items.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** The words a settings page saves, each under a key named like a credential. */
const WORDS = [
  { key: "token", value: "display" },
  { key: "passwordLabel", value: "Password" },
  { key: "secretHint", value: "Your secret" },
  { key: "mode", value: "compact" },
];

const SETTINGS = '{"token": "{{token}}", "login": {"password": "{{passwordLabel}}"}, ' +
  '"labels": {"secret": "{{secretHint}}", "login.password": "{{passwordLabel}}"}}';

Deno.test("postman worded fields: words under token, password and secret keys are sent as the collection gives them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-worded-" });
  // The server keeps the settings only when they hold the words themselves.
  const server = bodyJudge((b) => JSON.stringify(b) === JSON.stringify(JSON.parse(sent())));
  const sent = () =>
    SETTINGS.replace(/\{\{(\w+)\}\}/g, (_m, name) => WORDS.find((w) => w.key === name)!.value);
  try {
    const post = jsonPoster("{{baseUrl}}");
    const created = {
      listen: "test",
      script: { exec: ["pm.test('saved', () => pm.response.to.have.status(201));"] },
    };
    const collection = {
      info: { name: "Worded settings", schema: V21 },
      variable: [{ key: "baseUrl", value: server.url }, ...WORDS],
      item: [
        post("Save settings", "/settings", SETTINGS, [created]),
        post("Save mode", "/settings?token={{mode}}", SETTINGS, [created]),
      ],
    };
    const { counts, summary } = await newmanThenFlow(dir, collection, server.url);
    assert.equal(counts.failedAssertions, 0, JSON.stringify(counts));
    assert.doesNotMatch(summary, /a secret|TOKEN|PASSWORD_LABEL|SECRET_HINT|MODE/, summary);
    // Newman's two requests, then the flow's two: the same words each time.
    assert.equal(server.seen.length, 4, JSON.stringify(server.seen));
    for (const body of server.seen) assert.deepEqual(body, JSON.parse(sent()));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman worded fields: a word sent as a credential in a login, a sign-up, Basic auth or an auth block stays a secret", () => {
  const form = (name: string, url: string, pairs: [string, string][]) => ({
    name,
    request: {
      method: "POST",
      url,
      body: { mode: "urlencoded", urlencoded: pairs.map(([key, value]) => ({ key, value })) },
    },
  });
  const collection = {
    info: { name: "Word credentials", schema: V21 },
    variable: [
      { key: "baseUrl", value: "http://127.0.0.1:9" },
      { key: "pw", value: "admin" },
      { key: "signupPw", value: "Python" },
      { key: "formPw", value: "password" },
      { key: "basicPw", value: "password" },
      { key: "bearer", value: "display" },
      { key: "label", value: "Password" },
    ],
    item: [
      jsonPoster("{{baseUrl}}")("Login", "/api/login", '{"username": "ann", "password": "{{pw}}"}'),
      jsonPoster("{{baseUrl}}")(
        "Sign up",
        "/api/users",
        '{"email": "ann@example.com", "password": "{{signupPw}}"}',
      ),
      form("Form login", "{{baseUrl}}/signin", [["user", "ann"], ["password", "{{formPw}}"]]),
      {
        name: "Basic",
        request: {
          method: "GET",
          url: "{{baseUrl}}/me",
          auth: {
            type: "basic",
            basic: [{ key: "username", value: "ann" }, {
              key: "password",
              value: "{{basicPw}}",
            }],
          },
        },
      },
      {
        name: "Bearer",
        request: {
          method: "GET",
          url: "{{baseUrl}}/me",
          auth: { type: "bearer", bearer: [{ key: "token", value: "{{bearer}}" }] },
        },
      },
      // A label is text even in a form, outside a login.
      form("Form labels", "{{baseUrl}}/settings", [["password", "{{label}}"]]),
    ],
  };
  const { summary } = convertPostman(JSON.stringify(collection));
  const text = formatPostmanSummary(summary, "/tmp/out");
  for (const name of ["PW", "SIGNUP_PW", "FORM_PW", "BASIC_PW", "BEARER"]) {
    assert.match(text, new RegExp(`\\b${name} \\(\\{\\{\\w+\\}\\}, a secret\\)`), text);
  }
  assert.doesNotMatch(text, /\bLABEL\b/, text);
});
