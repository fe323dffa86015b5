/**
 * `convertCurl`: a query as typed. RabbitMQ's API page lists channels with
 * `?columns=name,message_stats.publish_details.rate`: curl sends the URL's
 * bytes as typed, and the flow does on the wire, but the step's comment, which
 * says "the request as curl sends it", printed `name%2Cmessage_stats…`. The
 * comment and the wire are compared here with what curl sends, against a
 * server started here that echoes the raw request target: `,`, `;`, `:`,
 * `@`, `$`, `!`, `*`, `(`, `)`, `[`/`]` under `-g` and a typed `%2C` stay as
 * typed; a secret-named value is masked in the comment.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** What curl sends as the request target: the typed path and query. */
const TYPED = [
  "/api/channels?sort=a.b&columns=name,message_stats.rate,deliver.rate",
  "/api/x?s=x;y:z@w!u*t(r)&d=\\$v",
  "/api/y?cols=[1]&x=a%2Cb&flag",
];
const sent = (typed: string) => typed.replace("\\$", "$");

const docs = (host: string) => TYPED.map((t) => `curl -g "http://${host}${t}"`).join("\n") + "\n";

Deno.test("each step's comment shows the query as curl sends it", () => {
  const { yaml } = convertCurl(docs("a.test"));
  const comments = [...yaml.matchAll(/^ {2}# GET http:\/\/a\.test(\S*)$/gm)].map((m) => m[1]);
  assert.deepEqual(comments, TYPED.map(sent), yaml);
});

Deno.test("a secret-named query value is masked in the comment, the rest as typed", () => {
  const { yaml } = convertCurl('curl "http://a.test/x?fields=a,b&api_key=s3cr3t-v4lue&q=c:d"\n');
  assert.match(yaml, /# GET http:\/\/a\.test\/x\?fields=a,b&api_key=\*\*\*&q=c:d$/m, yaml);
  assert.ok(!yaml.includes("s3cr3t-v4lue"), yaml);
});

Deno.test("run against a server echoing the raw target: the bytes curl sends", async () => {
  const targets: string[] = [];
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const serving = (async () => {
    for await (const conn of listener) {
      const buf = new Uint8Array(8192);
      const n = await conn.read(buf);
      targets.push(new TextDecoder().decode(buf.subarray(0, n ?? 0)).split(" ")[1]);
      await conn.write(new TextEncoder().encode(
        "HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n",
      ));
      conn.close();
    }
  })();
  try {
    const host = `127.0.0.1:${listener.addr.port}`;
    await withCurlFlow(docs(host), async ({ runFlow }) => {
      const out = await runFlow();
      assert.equal(out.code, 0, out.stdout + out.stderr);
      assert.deepEqual(targets, TYPED.map(sent));
    });
  } finally {
    listener.close();
    await serving.catch(() => {});
  }
});
