/**
 * `convertCurl`: a refusal the docs show for an account the commands made. A database's roles
 * page creates `alice` (`-u admin:password … -d '{"operation": "add_user", "username":
 * "alice", "password": "password", …}'`), inserts as her (`-u alice:password`), then shows her
 * delete refused with a 403 by her role. A `-u` the docs show refused was read as a wrong
 * password and sent as written (`password`), while the account was made with the password the
 * reader set (the typed word is asked for): the server answered 401, not the 403 documented. A
 * name and password an earlier command sent together are that account's, refused or not: the
 * same variable as where it was sent first. A wrong password shown refused (a pair no command
 * sent before) is still sent as written. The one variable the typed word became says each place
 * it is sent: it named only the add's field, which reads as alice's password, not the admin's.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const CREATE = `curl -u admin:password -X POST http://HOST/ \\
  -H "Content-Type: application/json" \\
  -d '{
    "operation": "add_user",
    "username": "alice",
    "password": "password",
    "role": "dog-reader"
  }'`;

/** Each way the docs show the refusal: in prose, as a pasted status line, as `curl -i`'s head. */
const REFUSALS: Record<string, string> = {
  prose: `# allowed (insert, role permits insert)
curl -u alice:password -X POST http://HOST/Dog/ -H "Content-Type: application/json" -d '{"name": "Buddy"}'

# not allowed (delete, role does not permit delete)
curl -u alice:password -X DELETE http://HOST/Dog/1
\`\`\`

The first request succeeds with a \`200 OK\`. The second fails with a \`403 Forbidden\`.
`,
  "a pasted status line, --user":
    `curl --user alice:password -X POST http://HOST/Dog/ -H "Content-Type: application/json" -d '{"name": "Buddy"}'

curl --user 'alice:password' -X DELETE http://HOST/Dog/1
HTTP/1.1 403 Forbidden
`,
  "curl -i, 401 for a role":
    `curl -u alice:password -X POST http://HOST/Dog/ -H "Content-Type: application/json" -d '{"name": "Buddy"}'

$ curl -i -u alice:password -X DELETE http://HOST/Dog/1
HTTP/1.1 401 Unauthorized
content-type: application/json

{"error": "not permitted"}
`,
};

const docs = (refusal: string, host: string) =>
  `\`\`\`bash\n${CREATE}\n\`\`\`\n\n\`\`\`bash\n${refusal}`.replaceAll("HOST", host);

Deno.test("a refused -u of an account an earlier command made sends that account's password", () => {
  for (const [how, refusal] of Object.entries(REFUSALS)) {
    const { yaml, summary } = convertCurl(docs(refusal, "a.test"));
    assert.equal(summary.env.length, 1, `${how}: ${summary.env}\n${yaml}`);
    const asked = summary.env[0];
    const sent = [...yaml.matchAll(/password: (.*)/g)].map((m) => m[1]);
    assert.deepEqual(new Set(sent), new Set([`\${ENV.${asked}}`]), `${how}\n${yaml}`);
    assert.doesNotMatch(yaml, /BASIC_PASSWORD.*the docs show refused/, how);
  }
});

Deno.test("a wrong password shown refused, for a pair no command sent, is sent as written", () => {
  const { yaml } = convertCurl(docs(
    `curl -u alice:wrong-pass -X DELETE http://HOST/Dog/1\nHTTP/1.1 401 Unauthorized\n`,
    "a.test",
  ));
  assert.match(yaml, /password: \$\{ENV\.BASIC_PASSWORD[_0-9]*:-wrong-pass\}/, yaml);
});

Deno.test("run against a server: the made account is refused by its role, as documented", async () => {
  const users = new Map<string, string>();
  const seen: string[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const [user, password] = atob((req.headers.get("authorization") ?? "").slice(6)).split(":");
    const path = new URL(req.url).pathname;
    const known = user === "admin" ? password === "Adm1n-pw" : users.get(user) === password;
    seen.push(`${req.method} ${path} ${user} ${known}`);
    if (!known) return Response.json({ error: "invalid credentials" }, { status: 401 });
    if (path === "/") {
      const body = JSON.parse(await req.text());
      users.set(body.username, body.password);
      return Response.json({ message: `${body.username} successfully added` });
    }
    if (req.method === "DELETE" && user !== "admin") {
      return Response.json({ error: "not permitted" }, { status: 403 });
    }
    return Response.json({ ok: true });
  });
  for (const [how, refusal] of Object.entries(REFUSALS)) {
    if (how.includes("401")) continue;
    users.clear();
    seen.length = 0;
    await withCurlFlow(
      docs(refusal, `127.0.0.1:${s.addr.port}`),
      async ({ runFlow, converted }) => {
        const asked = /Set before running: (\w+)/.exec(converted.stderr)?.[1] ?? "";
        const run = await runFlow({ [asked]: "Adm1n-pw" });
        assert.equal(run.code, 0, `${how}: ${converted.stderr}${run.stdout}${run.stderr}`);
      },
      { docs: "docs.md" },
    );
    assert.deepEqual(seen.map((l) => l.split(" ").at(-1)), ["true", "true", "true"], how);
  }
});

Deno.test("the one variable a typed password became names each place it is sent", () => {
  const { yaml } = convertCurl(docs(REFUSALS.prose, "a.test"));
  const line = /^# {3}(\w+PASSWORD) +(.*)$/m.exec(yaml);
  assert.ok(line, yaml);
  assert.match(line[2], /the "password" field sent by step "\w+"/, line[2]);
  assert.match(line[2], /the password of -u for admin and alice/, line[2]);
});
