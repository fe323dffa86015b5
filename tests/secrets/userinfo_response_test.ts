/**
 * A password in a URL's userinfo (`scheme://user:password@host`) is a secret by what it is, as in
 * a request's URL: a server that answers one it made (a redirect's `Location` to
 * `http://admin:Srv9pw!x@…`, a `Link` header, a connection string in a JSON body) had it shown in
 * the console at `-v` and in every report, since only the request's own URL was read for one. The
 * user, the host and the path stay readable.
 */
import assert from "node:assert/strict";
import { noLeak, runWritten } from "./short_secret_artifacts.ts";

/** Answers URLs that carry passwords it made itself. */
function startIssuing(): { base: string; close: () => Promise<void> } {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { port, pathname } = new URL(req.url);
    if (pathname === "/made") {
      return new Response(null, {
        status: 302,
        headers: {
          location: `http://admin:Srv9pw!x@127.0.0.1:${port}/next`,
          link: "<https://bot:Lk8%23q2zz@mirror.test/x>; rel=next",
        },
      });
    }
    // Written as a server that escapes `/` writes JSON.
    const body = '{"dsn": "postgres://app:Db7!pw_x9@db.test:5432/app", ' +
      '"escaped": "amqp:\\/\\/queue:Mq4$wz77@mq.test\\/vhost", "plain": "https://docs.test/a@b"}';
    return new Response(body, { headers: { "content-type": "application/json" } });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

const FLOW = `name: issued
steps:
  - name: made
    request: {url: "\${ENV.BASE_URL}/made"}
    assert: {status: 302}
  - name: dsn
    request: {url: "\${ENV.BASE_URL}/dsn"}
    assert:
      json:
        - {path: $.json.dsn, equals: "no"}
`;

Deno.test("a password in a URL a server answers is masked in every artifact", async () => {
  const srv = startIssuing();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-userinfo-response-" });
  try {
    await Deno.writeTextFile(`${dir}/flow.yaml`, FLOW);
    const w = await runWritten([`${dir}/flow.yaml`], dir, { BASE_URL: srv.base });
    assert.equal(w.code, 1, w.console);
    noLeak(w, ["Srv9pw!x", "Lk8%23q2zz", "Lk8#q2zz", "Db7!pw_x9", "Mq4$wz77"]);
    assert.match(w.console, /location: http:\/\/admin:\*\*\*@127\.0\.0\.1:\d+\/next/);
    assert.match(w.console, /postgres:\/\/app:\*\*\*@db\.test:5432\/app/);
    assert.match(w.console, /https:\/\/docs\.test\/a@b/);
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
