/**
 * `convertCurl`: docs print what a command answered right under it, as a
 * `# {…}` comment or a transcript's printed lines, and a later command sends
 * a value that answer handed out (a login's token pasted into an
 * `Authorization` header). The value is the docs' own, dead on any other
 * instance: the flow captures it from that step's answer at the path the
 * pasted answer holds it, never asks the user for it. Commands written here
 * in the shapes API docs print them.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const LOGIN = `curl -L http://localhost:4000/v1/session \\
  -X POST -d '{"name": "root", "password": "s3cr3t-pw"}'`;
const ANSWER = `{"header":{"revision":"1"},"token":"qWkzTbYhRnPe.7"}`;
const USE = `curl -L http://localhost:4000/v1/notes \\
  -H 'Authorization: qWkzTbYhRnPe.7' \\
  -X POST -d '{"title": "hello"}'`;

Deno.test("a token a pasted answer handed out is captured from that command's step", () => {
  const texts = [
    // A comment under the command, as one line.
    `${LOGIN}\n# ${ANSWER}\n\n${USE}\n# {"ok":true}\n`,
    // A comment over several lines, after a blank line.
    `${LOGIN}\n\n# {\n#   "header": {"revision": "1"},\n#   "token": "qWkzTbYhRnPe.7"\n# }\n${USE}\n`,
    // A transcript: the answer printed under a prompted command.
    `$ ${LOGIN}\n${ANSWER}\n\n$ ${USE}\n`,
  ];
  for (const text of texts) {
    const { yaml, summary } = convertCurl(text);
    assert.ok(!yaml.includes("qWkzTbYhRnPe"), `${text}\n${yaml}`);
    assert.ok(!summary.env.includes("API_TOKEN"), `${text}\n${summary.env}\n${yaml}`);
    assert.match(yaml, /token: \$\.json\.token\n/, `${text}\n${yaml}`);
    assert.match(yaml, /authorization: \$\{steps\.login\.capture\.token\}/, `${text}\n${yaml}`);
  }
});

Deno.test("a comment that is no answer, or an answer no later command uses, changes nothing", () => {
  const text = `# {not json\n${LOGIN}\n# {"token":"zzOtherTokenQ.1"}\n\n${USE}\n`;
  const { yaml, summary } = convertCurl(text);
  assert.ok(summary.env.includes("API_TOKEN"), `${summary.env}\n${yaml}`);
  assert.doesNotMatch(yaml, /capture:/, yaml);
});

Deno.test("the flow sends the token the server issued, run against a server", async () => {
  const issued = `tok-${crypto.randomUUID()}`;
  const seen: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const path = new URL(req.url).pathname;
      const body = await req.json();
      if (path === "/v1/session") {
        return body.password === "real-pw"
          ? Response.json({ header: { revision: "1" }, token: issued })
          : new Response(null, { status: 401 });
      }
      seen.push(req.headers.get("authorization") ?? "");
      return req.headers.get("authorization") === issued
        ? Response.json({ ok: true })
        : new Response(null, { status: 401 });
    },
  );
  await withCurlFlow(`${LOGIN}\n# ${ANSWER}\n\n${USE}\n`, async ({ runFlow }) => {
    const env = { BASE_URL: `http://127.0.0.1:${server.addr.port}`, LOGIN_PASSWORD: "real-pw" };
    const run = await runFlow(env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(seen, [issued]);
  });
});

Deno.test("what a pipe or a file took is no answer of the command's own", () => {
  for (const tail of [" | jq .header", " > out.json", " -o out.json", " >/dev/null 2>&1"]) {
    const text = `${LOGIN}${tail}\n# ${ANSWER}\n\n${USE}\n`;
    const { yaml, summary } = convertCurl(text);
    assert.ok(summary.env.includes("API_TOKEN"), `${text}\n${summary.env}\n${yaml}`);
    assert.doesNotMatch(yaml, /capture:/, yaml);
  }
});
