/**
 * `if (json && json.id) pm.environment.set('user_id', json.id)` kept the
 * earlier value under a `when` of ten entries (`exists`, then `notEquals`
 * false, null, 0 and "" for `$.json` and for `$.json.id`); a user reads it now
 * as one `truthy: true` per value, and `pm.expect(x).to.be.ok` as one check.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

function flowText(exec: string[]): string {
  const { files } = convertPostman(JSON.stringify({
    info: { name: "Truthy", schema: V21 },
    variable: [{ key: "user_id", value: "" }],
    item: [
      {
        name: "Register",
        event: [{ listen: "test", script: { exec } }],
        request: { method: "POST", url: "http://127.0.0.1:9/users" },
      },
      { name: "Read", request: { method: "GET", url: "http://127.0.0.1:9/users/{{user_id}}" } },
    ],
  }));
  return files.map((f) => f.text).join("\n");
}

Deno.test("postman truthy: a set under if (json && json.id) is kept under one truthy check per value", () => {
  const text = flowText([
    "var json = pm.response.json();",
    "if (json && json.id) pm.environment.set('user_id', json.id);",
  ]);
  assert.match(text, /\{ path: \$\.json, truthy: true \}/, text);
  assert.match(text, /\{ path: \$\.json\.id, truthy: true \}/, text);
  assert.doesNotMatch(text, /notEquals/, text);
});

Deno.test("postman truthy: pm.expect(x).to.be.ok is one truthy check", () => {
  const text = flowText(['pm.test("ok", () => pm.expect(pm.response.json().id).to.be.ok);']);
  assert.match(text, /\{ path: \$\.json\.id, truthy: true, name: ok \}/, text);
});
