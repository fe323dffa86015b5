/**
 * `convert curl`: an answer's head pasted in an indented block. An identity service's curl page
 * prints each login's answer under "Example response:" in an rST code block, indented as the
 * block's body: `  HTTP/1.1 201 Created`, `  X-Subject-Token: MIIF…`. The status line was read
 * (it may be indented), its headers were not (a header line had to start the line), so the
 * token the server answers in that header was looked for in the body, found nothing at run
 * time, and every later command sending `$OS_TOKEN` failed. A head's header lines may be
 * indented as its status line is. Run against a server that hands out a fresh token in a header
 * at each login and refuses any other.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** A login whose token comes back in `X-Subject-Token`, then a read that sends it. */
const page = (origin: string, indent: string) =>
  `Get a token:

.. code-block:: bash

    curl -i \\
      -H "Content-Type: application/json" \\
      -d '{"auth": {"user": "admin", "password": "s3cret-pw"}}' \\
      "${origin}/v3/auth/tokens" ; echo

Example response:

.. code-block:: bash

${indent}HTTP/1.1 201 Created
${indent}X-Subject-Token: gAAAAABk7x...
${indent}Vary: X-Auth-Token
${indent}Content-Type: application/json

${indent}{"token": {"methods": ["password"], "expires_at": "2030-01-01T00:00:00Z"}}

List the domains:

.. code-block:: bash

    curl -s \\
      -H "X-Auth-Token: $OS_TOKEN" \\
      "${origin}/v3/domains"
`;

Deno.test("an indented head's token header is the login's capture", () => {
  for (const indent of ["  ", "    ", "\t"]) {
    const { yaml, summary } = convertCurl(page("http://a.test", indent));
    assert.match(yaml, /OS_TOKEN: \{ header: x-subject-token \}/, JSON.stringify(indent) + yaml);
    assert.match(yaml, /x-auth-token: \$\{steps\.login\.capture\.OS_TOKEN\}/, yaml);
    assert.ok(!summary.env.includes("OS_TOKEN"), summary.env.join());
  }
});

Deno.test("run: the read sends the token this run's login answered", async () => {
  const tokens = new Set<string>();
  const seen: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => {
      const path = new URL(req.url).pathname;
      if (req.method === "POST" && path === "/v3/auth/tokens") {
        const token = `gAAAA${crypto.randomUUID()}`;
        tokens.add(token);
        return Response.json({ token: { methods: ["password"] } }, {
          status: 201,
          headers: { "X-Subject-Token": token },
        });
      }
      const ok = tokens.has(req.headers.get("x-auth-token") ?? "");
      seen.push(`${path} ${ok}`);
      return ok ? Response.json({ domains: [] }) : Response.json({}, { status: 401 });
    },
  );
  const docs = page(`http://127.0.0.1:${server.addr.port}`, "  ");
  await withCurlFlow(docs, async ({ runFlow }) => {
    const out = await runFlow({ LOGIN_PASSWORD: "s3cret-pw" });
    assert.equal(out.code, 0, out.stdout + out.stderr);
  }, { docs: "tokens.rst" });
  assert.deepEqual(seen, ["/v3/domains true"]);
});
