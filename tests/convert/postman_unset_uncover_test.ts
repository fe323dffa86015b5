/**
 * `pm.environment.unset("x")` where a collection (or globals) scope also holds
 * `x`: Newman's `{{x}}` then reads that scope's value (its file's, or one a script
 * set there). The converter broke the chain by name, and the requests after it
 * sent `{{x}}` as written. Now the uncovered value is read where it is known here:
 * the file's text, or what an earlier step of the flow captured into that scope.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertPostman } from "../../lib/convert/postman/mod.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const script = (...exec: string[]) => [{ listen: "test", script: { exec } }];

function convert(items: { name: string; url: string; event?: unknown[] }[], variable: unknown[]) {
  const { files, summary } = convertPostman(JSON.stringify({
    info: { name: "Uncover", schema: V21 },
    variable,
    item: items.map((i) => ({
      name: i.name,
      event: i.event ?? [],
      request: { method: "GET", url: `http://127.0.0.1:9/${i.url}`, header: [] },
    })),
  }));
  const steps = files.filter((f) => f.path.endsWith(".yaml"))
    .flatMap((f) => parse(f.text).steps as { request: { url: string } }[]);
  return { urls: steps.map((s) => s.request.url), summary };
}

Deno.test("postman unset uncover: an environment unset uncovers the collection file's value", () => {
  const { urls, summary } = convert([
    { name: "Set", url: "a", event: script('pm.environment.set("page", "9");') },
    { name: "Read one", url: "b?page={{page}}" },
    { name: "Unset", url: "c", event: script('pm.environment.unset("page");') },
    { name: "Read two", url: "d?page={{page}}" },
  ], [{ key: "page", value: "1" }]);
  assert.match(urls[1], /b\?page=9$/);
  assert.match(urls[3], /d\?page=1$/);
  assert.deepEqual(summary.broken ?? [], []);
});

Deno.test("postman unset uncover: it uncovers what an earlier step captured into the collection scope", () => {
  const { urls, summary } = convert([
    {
      name: "Create",
      url: "items",
      event: script('pm.collectionVariables.set("id", pm.response.json().id);'),
    },
    {
      name: "Create mine",
      url: "mine",
      event: script('pm.environment.set("id", pm.response.json().id);'),
    },
    { name: "Read mine", url: "mine/{{id}}" },
    { name: "Drop mine", url: "drop", event: script('pm.environment.unset("id");') },
    { name: "Read shared", url: "items/{{id}}" },
  ], [{ key: "id", value: "" }]);
  assert.match(urls[2], /mine\/\$\{steps\.create_mine\.capture\.id\}$/);
  assert.match(urls[4], /items\/\$\{steps\.create\.capture\.id\}$/);
  assert.deepEqual(summary.broken ?? [], []);
});
