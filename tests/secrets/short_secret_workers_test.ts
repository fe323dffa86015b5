/**
 * A short secret the run learns after a message quoted it, with flows on worker threads
 * (`--workers`): checks in three flows fail on values that a later flow's logins then receive as
 * session tokens. At least one of the three runs on a worker, whose messages were made before the
 * token was a secret there; the reports written at the end of the run mask them by every short
 * secret learnt since the flow's steps began, as for a flow run on the main thread.
 */
import assert from "node:assert/strict";
import { runWritten, unescapeXml } from "./short_secret_artifacts.ts";

/** The token each check reads first and a login hands out after. */
const TOKENS = ["k7q2zx", "m3p9wv", "p4t8rn"];

/** Logins answer once every check was answered (and a little after): the tokens are late. */
function start(): { base: string; close: () => Promise<void> } {
  let checked = 0;
  const { promise: allChecked, resolve } = Promise.withResolvers<void>();
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const [, kind, n] = /^\/(\w+?)(\d)$/.exec(new URL(req.url).pathname) ?? [];
    if (kind === "login") {
      // Bounded: the checks come at once; a run that lost one still ends.
      await Promise.race([allChecked, new Promise((r) => setTimeout(r, 10_000))]);
      await new Promise((r) => setTimeout(r, 300));
      return Response.json({ session_token: TOKENS[Number(n)] });
    }
    if (++checked === TOKENS.length) resolve();
    return Response.json({ got: TOKENS[Number(n)] ?? "none" });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

/** A check that quotes token `n`. */
const early = (n: number) =>
  `name: early ${n}
steps:
  - name: check
    request: {url: "\${BASE_URL}/a${n}"}
    assert:
      json: [{path: $.json.got, equals: nope}]
`;

/** The logins that hand every token out. */
const LATER = `name: later
steps:
${
  TOKENS.map((_, n) => `  - name: login ${n}\n    request: {url: "\${BASE_URL}/login${n}"}\n`).join(
    "",
  )
}`;

Deno.test("a flow on a worker thread masks a message by a short secret the run learns later", async () => {
  const srv = start();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-workers-" });
  try {
    const files = [...TOKENS.map((_, n) => `${dir}/early${n}.yaml`), `${dir}/later.yaml`];
    for (const [n] of TOKENS.entries()) await Deno.writeTextFile(files[n], early(n));
    await Deno.writeTextFile(files[TOKENS.length], LATER);
    const w = await runWritten(files, dir, { BASE_URL: srv.base }, [
      "--workers",
      "2",
      "--jobs",
      "4",
    ]);
    assert.equal(w.code, 1, w.console);
    const checks = w.report.flows.filter((f) => f.name.startsWith("early"));
    assert.deepEqual(
      checks.map((f) => f.steps[0].message),
      TOKENS.map(() => '$.json.got: expected "nope", got "***".'),
    );
    // Learnt by a later flow: in none of the reports written at the end of the run.
    const data = /<script type="application\/json" id="data">(.*?)<\/script>/s.exec(w.html)![1];
    for (const text of [JSON.stringify(w.report), unescapeXml(w.junit), data]) {
      for (const token of TOKENS) {
        assert.ok(!text.includes(token), `${token} in ${text.slice(0, 400)}`);
      }
    }
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
