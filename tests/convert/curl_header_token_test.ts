/**
 * `convertCurl`: a login that answers its token in a response header, not its body (Mattermost's
 * `Token`, Keystone's `X-Subject-Token`), as docs show it: `curl -i` and a sentence naming the
 * header, or the `-i` answer pasted (a transcript, `#` comments, bare lines) with the header in
 * it; then `-H 'Authorization: Bearer <token>'`, `$TOKEN` or the pasted token. The body's token
 * rule found nothing and the run failed, or the token was asked of the user. The header is
 * captured from the login at run time now. A token answered in a `Set-Cookie` the answer shows,
 * sent later as `-H 'Cookie: name=VALUE'` or `-b name=VALUE`, is that cookie's. Run against a
 * server started here that hands out a fresh token at each login and refuses any other.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const DOCS_TOKEN = "hyr5dmb1mbb49c44qmx4whniso";
const LOGIN =
  `curl -i -d '{"login_id":"ann@example.com","password":"d0cs-pa55"}' http://HOST/api/v4/users/login`;
const ME = (auth: string) => `curl ${auth} http://HOST/api/v4/users/me`;
const BEARER = (token: string) => ME(`-H "Authorization: Bearer ${token}"`);
const HEAD = ["HTTP/1.1 200 OK", "Content-Type: application/json", `Token: ${DOCS_TOKEN}`];
const BODY = '{"id":"u1","username":"ann"}';

/** The texts, each as docs print a header-token login and its use. */
const TEXTS: Record<string, string> = {
  prose: `# Log in; the token comes back in the \`Token\` response header.\n${LOGIN}\n\n${
    BEARER("<token>")
  }\n`,
  proseExample: `# The session token is returned in the response header "Token".\n${LOGIN}\n${
    BEARER(DOCS_TOKEN)
  }\n`,
  transcript: `$ ${LOGIN}\n${HEAD.join("\n")}\n\n${BODY}\n\n$ ${BEARER(DOCS_TOKEN)}\n`,
  comments: `${LOGIN}\n${HEAD.map((l) => `# ${l}`).join("\n")}\n\n${BEARER("$TOKEN")}\n`,
  bare: `${LOGIN}\n${HEAD.join("\n")}\n\n${BODY}\n\n${BEARER("<token>")}\n`,
  cookieHeader:
    `$ ${LOGIN}\nHTTP/1.1 200 OK\nSet-Cookie: MMAUTHTOKEN=${DOCS_TOKEN}; Path=/; HttpOnly\n\n${
      ME("-b 'MMAUTHTOKEN=" + DOCS_TOKEN + "'")
    }\n\n${ME(`-H 'Cookie: MMAUTHTOKEN=${DOCS_TOKEN}'`)}\n`,
};

Deno.test("the header the docs show the login's token in is captured, never asked", () => {
  for (const [name, text] of Object.entries(TEXTS)) {
    const { yaml, summary } = convertCurl(text);
    const why = `${name}\n${yaml}\n${summary.notes.join("\n")}`;
    assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], why);
    assert.match(yaml, /\{ (?:header: token|cookie: MMAUTHTOKEN) \}/, why);
    assert.doesNotMatch(yaml, /regex: /, why);
    assert.ok(!yaml.includes(DOCS_TOKEN), why);
    assert.equal(summary.steps, name === "cookieHeader" ? 3 : 2, why);
  }
});

Deno.test("an answer's head is no shell: its lines are not skipped commands", () => {
  const { summary } = convertCurl(TEXTS.bare);
  assert.deepEqual(summary.skipped, [], JSON.stringify(summary));
});

Deno.test("a header the commands send, or prose about no answer, names no token header", () => {
  const sent =
    `# Then send the token in the \`Authorization\` header of each request it returns.\n${LOGIN}\n${
      BEARER("<token>")
    }\n`;
  assert.match(convertCurl(sent).yaml, /regex: /);
  const silent = `${LOGIN}\n${BEARER("<token>")}\n`;
  assert.match(convertCurl(silent).yaml, /regex: /);
});

/** A server whose login answers a fresh token in `Token` and `Set-Cookie`; its `me` wants that one. */
function server(seen: string[]) {
  let current = "";
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    await req.arrayBuffer();
    const auth = req.headers.get("authorization") ?? "";
    const cookie = /MMAUTHTOKEN=([\w-]+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    seen.push(`${req.method} ${path} ${auth || "-"} ${cookie ?? "-"}`);
    if (req.method === "POST" && path === "/api/v4/users/login") {
      current = crypto.randomUUID().replaceAll("-", "");
      const headers = { token: current, "set-cookie": `MMAUTHTOKEN=${current}; Path=/` };
      return Response.json(JSON.parse(BODY), { headers });
    }
    const ok = current !== "" && (auth === `Bearer ${current}` || cookie === current);
    return ok ? Response.json({ id: "u1" }) : Response.json({ error: "stale" }, { status: 401 });
  });
}

Deno.test("run against a server: each text's flow sends the token its own login answered", async () => {
  for (const [name, text] of Object.entries(TEXTS)) {
    const seen: string[] = [];
    await using s = server(seen);
    const host = `127.0.0.1:${s.addr.port}`;
    await withCurlFlow(text.replaceAll("HOST", host), async ({ runFlow, readFlow }) => {
      const run = await runFlow({ LOGIN_PASSWORD: "pw" });
      const flow = await readFlow();
      const why = `${name}\n${flow}\n${run.stdout}${run.stderr}\n${seen.join("\n")}`;
      assert.equal(run.code, 0, why);
      assert.equal(seen.length, name === "cookieHeader" ? 3 : 2, why);
    });
  }
});

Deno.test("a bare status line with an apostrophe under a command is its answer, not an open quote", () => {
  const { summary } = convertCurl(
    "curl -I http://localhost:8000/status/418\nHTTP/1.0 418 I'M A TEAPOT\nServer: gunicorn\n",
  );
  assert.equal(summary.steps, 1);
  assert.deepEqual(summary.skipped, []);
});

Deno.test("a command that names no cookie sends none, though an answer before set one (curl keeps no jar)", () => {
  const text = `${TEXTS.cookieHeader}\ncurl http://HOST/api/v4/system/ping\n`;
  const { yaml, summary } = convertCurl(text);
  const last = yaml.slice(yaml.lastIndexOf("- name:"));
  assert.doesNotMatch(last, /cookie/i, yaml);
  assert.ok(!summary.notes.some((n) => n.includes("without their cookies")), yaml);
});
