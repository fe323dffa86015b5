/**
 * `convert curl`: a login's token sent in a body as well as in headers. An identity service's
 * curl page logs in, then exchanges the token for another
 * (`-d '{"auth": {"identity": {"methods": ["token"], "token": {"id": "'$OS_TOKEN'"}}}}'`) and
 * sends it as `-H "X-Auth-Token: $OS_TOKEN"` in every later command. The headers' `$OS_TOKEN`
 * became the login's capture, the body's stayed `${ENV.OS_TOKEN}`, and the summary asked for a
 * token nobody has before the login runs. The variable the headers prove the login's token is
 * that capture in a later body too, up to the next login to the same server. Run against a
 * server that hands out a fresh token at each login and refuses any other.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** Login, a token exchange that sends the token in its body, then a read with it in a header. */
const page = (origin: string) =>
  `Get a token:

    curl -i -H "Content-Type: application/json" \\
      -d '{"auth": {"identity": {"methods": ["password"], "password": {"user": {"name": "admin", "password": "s3cret-pw"}}}}}' \\
      "${origin}/v3/auth/tokens"

    HTTP/1.1 201 Created
    X-Subject-Token: gAAAAABk7x...

Get a token from a token:

    curl -i -H "Content-Type: application/json" \\
      -d '{"auth": {"identity": {"methods": ["token"], "token": {"id": "'$OS_TOKEN'"}}}}' \\
      "${origin}/v3/auth/tokens"

List the domains:

    curl -s -H "X-Auth-Token: $OS_TOKEN" "${origin}/v3/domains"
`;

Deno.test("the token a login answers is its capture in a later body too", () => {
  const { yaml, summary } = convertCurl(page("http://a.test"));
  assert.ok(!summary.env.includes("OS_TOKEN"), summary.env.join() + yaml);
  assert.match(yaml, /id: \$\{steps\.login\.capture\.OS_TOKEN\}/, yaml);
  assert.match(yaml, /x-auth-token: \$\{steps\.login\.capture\.OS_TOKEN\}/, yaml);
});

Deno.test("a variable no header proves a token stays the reader's to set", () => {
  const text = page("http://a.test").replace(/\nList the domains:[\s\S]*$/, "\n");
  const { summary } = convertCurl(text);
  assert.ok(summary.env.includes("OS_TOKEN"), summary.env.join());
});

Deno.test("run: the exchange and the read send the token this run's login answered", async () => {
  const tokens = new Set<string>();
  const seen: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const path = new URL(req.url).pathname;
      if (req.method === "POST" && path === "/v3/auth/tokens") {
        const { auth } = await req.json();
        const ok = auth.identity.methods[0] === "password" || tokens.has(auth.identity.token?.id);
        seen.push(`exchange ${auth.identity.methods[0]} ${ok}`);
        if (!ok) return Response.json({}, { status: 401 });
        const token = `gAAAA${crypto.randomUUID()}`;
        tokens.add(token);
        return Response.json({ token: {} }, { status: 201, headers: { "X-Subject-Token": token } });
      }
      const ok = tokens.has(req.headers.get("x-auth-token") ?? "");
      seen.push(`${path} ${ok}`);
      return ok ? Response.json({ domains: [] }) : Response.json({}, { status: 401 });
    },
  );
  await withCurlFlow(page(`http://127.0.0.1:${server.addr.port}`), async ({ runFlow }) => {
    const out = await runFlow({ LOGIN_PASSWORD: "s3cret-pw" });
    assert.equal(out.code, 0, out.stdout + out.stderr);
  });
  assert.deepEqual(seen, ["exchange password true", "exchange token true", "/v3/domains true"]);
});
