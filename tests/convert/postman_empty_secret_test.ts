/**
 * An environment file whose `userToken` is a secret with no value (`"type": "secret", "value":
 * ""`), which the collection's login sets (`if (json.token) pm.environment.set('userToken', …)`),
 * as a course's API-testing environment declares its tokens. It was asked for as `USER_TOKEN`
 * before running, and the run refused to send anything while it was unset, though the file holds
 * no value to keep out of the flows and Newman starts from the empty one. Such a variable is now a
 * flow var whose default is the file's empty value; a secret with a value is still asked for.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman empty secret: a secret the file leaves empty and a login sets is not asked for", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(`${new URL(req.url).pathname} ${req.headers.get("authorization")}`);
    return Response.json({ token: "t-1" });
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files, summary } = convertPostman(
      JSON.stringify({
        info: { name: "Profile", schema: V21 },
        item: [
          {
            name: "Login",
            event: [{
              listen: "test",
              script: {
                exec: [
                  "var json = pm.response.json();",
                  "if (json.token) pm.environment.set('userToken', json.token);",
                ],
              },
            }],
            request: {
              method: "POST",
              url: "{{baseUrl}}/login",
              body: { mode: "raw", raw: '{"password":"{{userPassword}}"}' },
            },
          },
          {
            name: "Me",
            request: {
              method: "GET",
              url: "{{baseUrl}}/me",
              header: [{ key: "Authorization", value: "Bearer {{userToken}}" }],
            },
          },
        ],
      }),
      JSON.stringify({
        name: "Local",
        values: [
          { key: "baseUrl", value: `http://127.0.0.1:${server.addr.port}`, enabled: true },
          { key: "userPassword", value: "pw", type: "secret", enabled: true },
          { key: "userToken", value: "", type: "secret", enabled: true },
        ],
      }),
    );
    const text = formatPostmanSummary(summary, dir);
    const asked = text.match(/Set before running: (.*)/)?.[1] ?? "";
    assert.doesNotMatch(asked, /USER_TOKEN/, text);
    assert.match(asked, /USER_PASSWORD/, text);
    const { run, flow } = await runConverted(files, dir, { USER_PASSWORD: "pw" });
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(seen, ["/login null", "/me Bearer t-1"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
