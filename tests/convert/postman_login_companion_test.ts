/**
 * A login whose user name and password the files both leave empty for the user to fill, as a
 * shared collection's environment does (`"username": ""`, `"password": ""`, its README naming the
 * account). The summary asked for the password alone (`PASSWORD ({{password}}, empty unless
 * set)`): the password is a credential by where it is sent, the user name is not, so it stayed a
 * flow var with the file's empty value. Run with what the summary asked for, the login sent
 * `"username": ""` and was refused, and every request after it failed for want of its token, where
 * Newman given both values logs in. A variable the files leave empty, that no script sets, sent
 * beside such a credential (a body or query field, or a Basic auth's user name, of the request
 * that sends it) is now asked for with it, `USERNAME_VALUE ({{username}}, empty unless set)`
 * (`USERNAME` is the login's own name on Windows: `shell_env_names_test.ts`), and sent empty when
 * not given, as Newman sends it. What the files give a value, or a script sets, is as before.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runNewman } from "../support/newman_counts.ts";
import { jsonPoster } from "../support/postman_items.ts";
import { runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const ACCOUNT = { username: "admin", password: "password123" };

/** A login that answers a token to the one account, and a profile that needs the token. */
function accountServer() {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/auth") {
      const b = await req.json();
      seen.push(`/auth ${b.username}`);
      const ok = b.username === ACCOUNT.username && b.password === ACCOUNT.password;
      return Response.json(ok ? { token: "t-1" } : { reason: "Bad credentials" });
    }
    seen.push(`${url.pathname} ${req.headers.get("cookie")} ${url.searchParams.get("user")}`);
    return req.headers.get("cookie") === "token=t-1"
      ? Response.json({ ok: true })
      : Response.json({}, { status: 403 });
  });
  return { seen, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** The login, then a profile read with its token, then a search whose query is a free field. */
function collection(variables: { key: string; value: string }[]) {
  const post = jsonPoster("{{baseUrl}}");
  const token = [
    "pm.test('token', () => pm.expect(pm.response.json()).to.have.property('token'));",
    "pm.environment.set('token', pm.response.json().token);",
  ];
  const ok = ["pm.test('ok', () => pm.response.to.have.status(200));"];
  const profile = {
    name: "Profile",
    event: [{ listen: "test", script: { exec: ok } }],
    request: {
      method: "GET",
      url: "{{baseUrl}}/profile?user={{username}}&note={{note}}",
      header: [{ key: "Cookie", value: "token={{token}}" }],
    },
  };
  return {
    info: { name: "Account", schema: V21 },
    variable: variables,
    item: [
      post(
        "Login",
        "/auth",
        '{"username": "{{username}}", "password": "{{password}}", "note": "{{note}}"}',
        [{ listen: "test", script: { exec: token } }],
      ),
      profile,
    ],
  };
}

Deno.test("postman login companion: a user name left empty beside an empty password is asked for", async () => {
  const server = accountServer();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-companion-" });
  try {
    // Newman, given both values, as the collection's README says to.
    const file = `${dir}/account.json`;
    const empty = [{ key: "username", value: "" }, { key: "password", value: "" }];
    await Deno.writeTextFile(file, JSON.stringify(collection(empty)));
    const counts = await runNewman(file, { baseUrl: server.url, ...ACCOUNT });
    assert.equal(counts.failedAssertions, 0, JSON.stringify({ counts, seen: server.seen }));
    const newman = server.seen.splice(0);
    // The converted flows, from the same collection with its values in an environment file.
    const environment = {
      name: "Local",
      values: [
        { key: "baseUrl", value: server.url, enabled: true },
        { key: "username", value: "", enabled: true },
        { key: "password", value: "", enabled: true },
        { key: "note", value: "", enabled: true },
        { key: "token", value: "", enabled: true },
      ],
    };
    const { files, summary } = convertPostman(
      JSON.stringify(collection([])),
      JSON.stringify(environment),
    );
    const text = formatPostmanSummary(summary, dir);
    const asked = text.match(/^Set before running: (.*)$/m)?.[1] ?? "";
    assert.match(asked, /PASSWORD \(\{\{password\}\}, empty unless set\)/, text);
    assert.match(asked, /USERNAME_VALUE \(\{\{username\}\}, empty unless set\)/, text);
    // A field left empty beside the credential is asked for too; the token a script sets is not.
    assert.match(asked, /NOTE \(/, text);
    assert.doesNotMatch(asked, /TOKEN/, text);
    // Run with what the summary asks for, as Newman was given it.
    const { run, flow } = await runConverted(files, dir, {
      BASE_URL: server.url,
      USERNAME_VALUE: ACCOUNT.username,
      PASSWORD: ACCOUNT.password,
    });
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(server.seen, newman);
    assert.deepEqual(newman, ["/auth admin", "/profile token=t-1 admin"]);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman login companion: a Basic auth's and a form's user name are asked for, a given one is not", () => {
  const request = (name: string, over: object) => ({
    name,
    request: { method: "POST", url: "{{baseUrl}}/" + name, ...over },
  });
  const { summary } = convertPostman(
    JSON.stringify({
      info: { name: "Logins", schema: V21 },
      variable: [
        { key: "baseUrl", value: "http://127.0.0.1:9" },
        ...["basicUser", "basicPass", "formUser", "formPass", "mail", "ref"].map((key) => ({
          key,
          value: "",
        })),
        { key: "given", value: "reader" },
      ],
      item: [
        request("basic", {
          auth: {
            type: "basic",
            basic: [{ key: "username", value: "{{basicUser}}" }, {
              key: "password",
              value: "{{basicPass}}",
            }],
          },
        }),
        request("form", {
          body: {
            mode: "urlencoded",
            urlencoded: [
              { key: "login", value: "{{formUser}}" },
              { key: "pass", value: "{{formPass}}" },
              { key: "who", value: "{{given}}" },
            ],
          },
        }),
        // No credential in this request: an empty field alone is sent empty, named nowhere.
        request("subscribe", { url: "{{baseUrl}}/subscribe?mail={{mail}}&ref={{ref}}" }),
      ],
    }),
  );
  const text = formatPostmanSummary(summary, "/tmp/out");
  const asked = text.match(/^Set before running: (.*)$/m)?.[1] ?? "";
  for (const env of ["BASIC_USER", "BASIC_PASS", "FORM_USER", "FORM_PASS"]) {
    assert.match(asked, new RegExp(`\\b${env} \\(\\{\\{\\w+\\}\\}, empty unless set\\)`), text);
  }
  assert.doesNotMatch(asked, /GIVEN|MAIL|REF/, text);
});
