/**
 * `convertCurl`: a header named like a credential whose value is a switch. Parse
 * Server's REST guide signs up and logs in with `-H "X-Parse-Revocable-Session: 1"`
 * (ask for a revocable session): the name holds "session", so the `1` was taken
 * for a secret and asked as `PARSE_REVOCABLE_SESSION`, and the run then masked
 * every `1` of its report (`http://127.0.0.1` printed as
 * `http://'"$PARSE_REVOCABLE_SESSION"'27.0.0.…`). A flag (`0`, `1`, `true`,
 * `false`, `yes`, `no`, `on`, `off`) states a choice, never a credential: it is
 * sent as written. Run against a server started here that refuses a sign-up
 * without the flag.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const SIGN_UP = (flag: string) =>
  `curl -X POST -H "X-App-Session: ${flag}" -H "Content-Type: application/json" ` +
  `-d '{"username":"ann","password":"d0cs-pa55"}' http://HOST/parse/users`;

Deno.test("a session header whose value is a flag is sent as written, not asked", () => {
  for (const flag of ["1", "0", "true", "False", "yes", "off"]) {
    const { yaml, summary } = convertCurl(`${SIGN_UP(flag)}\n`);
    const why = `${flag}\n${yaml}`;
    assert.ok(!summary.env.some((name) => /SESSION/.test(name)), why);
    assert.match(yaml, new RegExp(`x-app-session: "?${flag}"?\\n`), why);
  }
});

Deno.test("a session header with a token in it is still the user's secret", () => {
  const { yaml, summary } = convertCurl(`${SIGN_UP("r:pnktnjyb996sj4p156gjtp4im")}\n`);
  assert.ok(summary.env.some((name) => /SESSION/.test(name)), yaml);
  assert.ok(!yaml.includes("pnktnjyb996sj4p156gjtp4im"), yaml);
});

Deno.test("run against a server: the flag goes out and nothing but the password is asked", async () => {
  const seen: string[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.arrayBuffer();
    const flag = req.headers.get("x-app-session") ?? "-";
    seen.push(flag);
    return flag === "1"
      ? Response.json({ objectId: "u1" }, { status: 201 })
      : Response.json({ error: "flag" }, { status: 400 });
  });
  const text = `${SIGN_UP("1")}\n`.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(text, async ({ converted, runFlow }) => {
    assert.match(converted.stderr, /Set before running: [A-Z_]*PASSWORD\.\n/, converted.stderr);
    const env = { LOGIN_PASSWORD: "pw", CREATE_USER_PASSWORD: "pw" };
    const run = await runFlow(env);
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
    assert.deepEqual(seen, ["1"]);
  });
});
