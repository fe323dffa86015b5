/**
 * `convert curl`: a URL whose port is a word the reader fills in. A mail
 * server's admin API page (measured by hand) lists its endpoint as
 * `curl -u doveadm:password http://host:port/doveadm/v1`; pages also write
 * `http://HOST:PORT/…`, `http://localhost:PORT/…`, `http://your-server:port/…`.
 * Such a word is no port, so the command was skipped ("is not an http(s)
 * URL"), and the page's first example never ran. A URL whose port is a word
 * is a placeholder for the server's address: its origin is a base URL to
 * set (named for the host when the host is a word too, else `BASE_URL`),
 * as `http://<host>:<port>/…` already was. Run against a server started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** Each spelling, and the variable it asks. */
const SPELLINGS: [string, string][] = [
  ["http://host:port", "HOST"],
  ["http://HOST:PORT", "HOST"],
  ["https://host:port", "HOST"],
  ["http://your-server:port", "YOUR_SERVER"],
  ["http://localhost:PORT", "BASE_URL"],
  ["http://127.0.0.1:port", "BASE_URL"],
  ["http://api.example.com:port", "BASE_URL"],
];

for (const [origin, variable] of SPELLINGS) {
  Deno.test(`${origin}/…: the origin is a base URL to set (${variable})`, () => {
    const { yaml, summary } = convertCurl(
      `curl -H 'Accept: application/json' ${origin}/doveadm/v1\n`,
    );
    assert.equal(summary.steps, 1, yaml);
    assert.ok(summary.env.includes(variable), `${summary.env}\n${yaml}`);
    assert.match(yaml, new RegExp(`base_url: \\$\\{ENV\\.${variable}\\}\n`), yaml);
    assert.match(yaml, /url: \$\{vars\.base_url\}\/doveadm\/v1/, yaml);
  });
}

Deno.test("a numeric port and a word that is no port are read as before", () => {
  const plain = convertCurl("curl http://localhost:8080/doveadm/v1\n");
  assert.match(plain.yaml, /BASE_URL:-http:\/\/localhost:8080/, plain.yaml);
  // A user name and password before the host, `user:pw@host`, are no port.
  const userinfo = convertCurl("curl http://admin:pw@localhost:8080/x\n");
  assert.equal(userinfo.summary.steps, 1, userinfo.yaml);
});

Deno.test("run against a server: the placeholder's command is sent where the reader says", async () => {
  const seen: string[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(new URL(req.url).pathname);
    return Response.json([]);
  });
  const docs = "curl -H 'Accept: application/json' http://host:port/doveadm/v1\n";
  await withCurlFlow(docs, async ({ runFlow, converted }) => {
    const run = await runFlow({ HOST: `http://127.0.0.1:${s.addr.port}` });
    assert.equal(run.code, 0, `${converted.stderr}\n${run.stdout}${run.stderr}`);
  });
  assert.deepEqual(seen, ["/doveadm/v1"]);
});
