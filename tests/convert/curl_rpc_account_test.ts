/**
 * `convertCurl`: an account an operations API creates, named by the body, not the path. A
 * database's roles page adds a user with `POST /` and
 * `{"operation": "add_user", "username": "alice", "password": "password", …}`, then works as
 * `-u alice:password`. The accounts rule read only the path (`/users`, `/signup`) or a pasted
 * 201, so `alice` was sent as written and a second run on the same instance was refused at
 * the add (409: the name is taken). The verb an RPC body names (`"operation": "add_user"`,
 * JSON-RPC's `"method": "user.create"`, `action=createAccount`) says the same as a path: a
 * creation of an account, the run's own once a later command signs in with it.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** Each spelling of an RPC creation: the field naming the call, and its verb. */
const CREATES: Record<string, string> = {
  "operation: add_user":
    `-H "Content-Type: application/json" -d '{"operation": "add_user", "username": "alice", "password": "password", "role": "reader"}'`,
  "JSON-RPC method: user.create":
    `-H "Content-Type: application/json" -d '{"method": "user.create", "username": "alice", "password": "password"}'`,
  "form action: createAccount": `-d 'action=createAccount&username=alice&password=password'`,
};

const docs = (create: string, host: string) =>
  `curl -u admin:password -X POST http://HOST/ ${create}

curl -u alice:password -X POST http://HOST/Dog/ -H "Content-Type: application/json" -d '{"name": "Buddy"}'
`.replaceAll("HOST", host);

Deno.test("an account an RPC body creates is the run's own once a later command signs in with it", () => {
  for (const [how, create] of Object.entries(CREATES)) {
    const { yaml } = convertCurl(docs(create, "a.test"));
    assert.match(yaml, /account_name: alice-\$\{RUN_ID\}/, `${how}\n${yaml}`);
    assert.equal(yaml.match(/\$\{vars\.account_name\}/g)?.length, 2, `${how}\n${yaml}`);
  }
});

Deno.test("an RPC call that names no creation keeps the name as written", () => {
  const read =
    `-H "Content-Type: application/json" -d '{"operation": "user_info", "username": "alice", "password": "password"}'`;
  const { yaml } = convertCurl(docs(read, "a.test"));
  assert.doesNotMatch(yaml, /account_name/, yaml);
});

Deno.test("run twice on one server: the add and the work as the added user pass both times", async () => {
  const users = new Map<string, string>();
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const [user, password] = atob((req.headers.get("authorization") ?? "").slice(6)).split(":");
    const ok = user === "admin" ? password === "Adm1n-pw" : users.get(user) === password;
    if (!ok) return Response.json({ error: "invalid credentials" }, { status: 401 });
    if (new URL(req.url).pathname !== "/") return Response.json({ ok: true });
    const text = await req.text();
    const body = text.startsWith("{")
      ? JSON.parse(text)
      : Object.fromEntries(new URLSearchParams(text));
    if (users.has(body.username)) return Response.json({ error: "exists" }, { status: 409 });
    users.set(body.username, body.password);
    return Response.json({ message: "added" });
  });
  for (const [how, create] of Object.entries(CREATES)) {
    await withCurlFlow(docs(create, `127.0.0.1:${s.addr.port}`), async ({ runFlow, converted }) => {
      const asked = /Set before running: (\w+)/.exec(converted.stderr)?.[1] ?? "";
      for (const round of [1, 2]) {
        const run = await runFlow({ [asked]: "Adm1n-pw" });
        assert.equal(run.code, 0, `${how}, run ${round}: ${converted.stderr}${run.stdout}`);
      }
    });
  }
});
