/**
 * `convertCurl`: a token docs read from a login's answer with
 * `TOKEN=$(curl … | jq -r '.token')` and send as `$TOKEN` is captured from
 * that login's step, never asked for: the variable holds what the answer
 * held, so the flow takes it from the answer (`${steps.login.capture.token}`).
 * However the assignment is written (`export`, quotes, backticks, `\` lines,
 * `${TOKEN}`, `--raw-output`, a nested path), the same; without `-r` (jq
 * prints the string quoted) or without `jq`, the variable is the user's, as
 * before.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const LOGIN =
  `curl -s -X POST http://localhost:3000/api/login -H 'Content-Type: application/json' -d '{"username":"admin","password":"s3cr3t-pw"}'`;
const USE = `curl -H "Authorization: Bearer $TOKEN" http://localhost:3000/api/me`;

Deno.test("a token read from a login's answer with jq is captured from the login", () => {
  const texts = [
    `TOKEN=$(${LOGIN} | jq -r '.token')\n${USE}`,
    `export TOKEN=$(${LOGIN} | jq -r .token)\n${USE}`,
    `TOKEN="$(${LOGIN} | jq --raw-output '.token')"\n${USE.replace("$TOKEN", "${TOKEN}")}`,
    "TOKEN=`" + LOGIN + " | jq -r .token`\n" + USE,
    `TOKEN=$(curl -s -X POST http://localhost:3000/api/login \\\n  -d '{"username":"admin","password":"s3cr3t-pw"}' \\\n  | jq -r '.token')\n${USE}`,
  ];
  for (const text of texts) {
    const { yaml, summary } = convertCurl(`${text}\n`);
    assert.ok(!summary.env.includes("TOKEN"), `${text}\n${summary.env}\n${yaml}`);
    assert.match(yaml, /capture:\n {6}token: \$\.json\.token\n/, `${text}\n${yaml}`);
    assert.match(
      yaml,
      /authorization: Bearer \$\{steps\.login\.capture\.token\}/,
      `${text}\n${yaml}`,
    );
    assert.ok(!yaml.includes("s3cr3t-pw"), yaml);
  }
});

Deno.test("a nested path is captured at that path", () => {
  const { yaml } = convertCurl(
    `ACCESS=$(${LOGIN} | jq -r .data.session.access_token)\n${USE.replace("$TOKEN", "$ACCESS")}\n`,
  );
  assert.match(yaml, /access: \$\.json\.data\.session\.access_token\n/, yaml);
  assert.match(yaml, /Bearer \$\{steps\.login\.capture\.access\}/, yaml);
});

Deno.test("without jq -r, or without jq, the variable is the user's as before", () => {
  for (const text of [`TOKEN=$(${LOGIN} | jq '.token')\n${USE}`, `TOKEN=$(${LOGIN})\n${USE}`]) {
    const { yaml, summary } = convertCurl(`${text}\n`);
    assert.ok(summary.env.includes("TOKEN"), `${text}\n${yaml}`);
    assert.doesNotMatch(yaml, /capture\.token/, yaml);
  }
});

Deno.test("the flow sends the token the login answered, run against a server", async () => {
  const issued = `tok-${crypto.randomUUID()}`;
  const seen: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const path = new URL(req.url).pathname;
      if (path === "/api/login") {
        const body = await req.json();
        return body.password === "real-pw"
          ? Response.json({ token: issued })
          : new Response(null, { status: 401 });
      }
      seen.push(req.headers.get("authorization") ?? "");
      return req.headers.get("authorization") === `Bearer ${issued}`
        ? Response.json({ name: "admin" })
        : new Response(null, { status: 401 });
    },
  );
  await withCurlFlow(`TOKEN=$(${LOGIN} | jq -r '.token')\n${USE}\n`, async ({ runFlow }) => {
    const env = { BASE_URL: `http://127.0.0.1:${server.addr.port}`, LOGIN_PASSWORD: "real-pw" };
    const run = await runFlow(env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(seen, [`Bearer ${issued}`]);
  });
});
