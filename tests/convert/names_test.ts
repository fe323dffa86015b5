import assert from "node:assert/strict";
import {
  captureName,
  envName,
  isAuthPath,
  readableTitle,
  resourceNoun,
  shortName,
  singular,
  snake,
  stepName,
  UniqueNames,
} from "../../lib/convert/names.ts";

const ids = (s: string) => /^\d+$/.test(s);

Deno.test("stepName: one verb per method on a resource, an action named for itself", () => {
  assert.equal(stepName("GET", ["orders", "7"], ids), "get_order");
  assert.equal(stepName("PUT", ["orders", "7"], ids), "update_order");
  assert.equal(stepName("DELETE", ["orders", "7"], ids), "delete_order");
  assert.equal(stepName("PURGE", ["orders", "7"], ids), "purge_order");
  assert.equal(stepName("CONSTRUCTOR", ["orders", "7"], ids), "constructor_order");
  assert.equal(stepName("POST", ["jobs", "7", "cancel"], ids), "cancel_job");
  assert.equal(stepName("GET", ["jobs", "7", "result"], ids), "get_job_result");
  assert.equal(stepName("GET", [], ids), "get_root");
});

Deno.test("words: snake, singular, nouns, capture and variable names, titles", () => {
  assert.equal(snake("getSkills"), "get_skills");
  assert.equal(singular("categories"), "category");
  assert.equal(resourceNoun(["api", "orders", "7"], ids), "order");
  assert.equal(captureName(["id"], "order"), "order_id");
  assert.equal(envName("x-api key"), "X_API_KEY");
  assert.ok(isAuthPath("/api/auth/login") && !isAuthPath("/api/orders"));
  assert.equal(readableTitle("My%20Shop\n\t  Cart"), "My Shop Cart");
  assert.equal(readableTitle("x".repeat(100)).length, 80);
  assert.ok(shortName("a".repeat(200)).length < 200);
});

Deno.test("UniqueNames numbers a name taken twice", () => {
  const names = new UniqueNames();
  assert.equal(names.take("get_order"), "get_order");
  assert.equal(names.take("get_order"), "get_order_2");
});
