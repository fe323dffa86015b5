/**
 * An `Authorization` header whose value is only a scheme's word (`Basic`, `Bearer`), as a booking
 * tester's collection writes beside the cookie that really signs its updates. Nothing follows the
 * word, so nothing in it is a credential; the converter still took the whole value for a secret
 * and asked the user for `AUTHORIZATION` ("the Authorization header written in the collection, a
 * secret"), and run without it the header was no longer what Newman sends. The evidence is the
 * value: a scheme with no credential after it is sent as written, asked for nowhere. A scheme
 * with a credential after it is still read from the environment, its scheme kept.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** A request to `path` with an Authorization header written `value`. */
const sent = (name: string, base: string, path: string, value: string) => ({
  name,
  request: {
    method: "GET",
    url: `${base}${path}`,
    header: [{ key: "Authorization", value }, { key: "Accept", value: "application/json" }],
  },
});

Deno.test("postman bare scheme: an Authorization header holding only a scheme's word is sent as written", async () => {
  const seen: (string | null)[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(req.headers.get("authorization"));
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir();
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const { files, summary } = convertPostman(JSON.stringify({
      info: { name: "Schemes", schema: V21 },
      item: [
        sent("Basic alone", base, "/a", "Basic"),
        sent("Bearer alone", base, "/b", " bearer "),
        sent("Basic with its credential", base, "/c", "Basic dXNlcjpzZWNyZXQ="),
      ],
    }));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    const said = formatPostmanSummary(summary, dir);
    const asked = summary.env.map((e) => e.name);
    assert.deepEqual(asked.filter((n) => /AUTHORIZATION/.test(n)), ["AUTHORIZATION"], said);
    assert.match(said, /AUTHORIZATION \(the Basic Authorization header/, said);
    assert.doesNotMatch(flow.text, /dXNlcjpzZWNyZXQ=/, flow.text);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`], {
      env: { AUTHORIZATION: "dXNlcjpzZWNyZXQ=" },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(seen, ["Basic", "bearer", "Basic dXNlcjpzZWNyZXQ="]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
