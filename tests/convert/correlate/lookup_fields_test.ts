import assert from "node:assert/strict";
import { isWords, lookupFields } from "../../../lib/convert/correlate/lookup_fields.ts";
import { recordsOf } from "../../support/har_records.ts";

const FORM = "application/x-www-form-urlencoded";

Deno.test("lookupFields: a field sent with several words, in forms, queries or JSON, is a lookup", () => {
  const records = recordsOf([
    { method: "POST", url: "http://a.test/config/get", mime: FORM, body: "key=NavigationWidth" },
    { method: "POST", url: "http://a.test/config/set", mime: FORM, body: "key=Console%2FMode" },
    { url: "http://a.test/list?sort=name" },
    { url: "http://a.test/list?sort=date" },
    { method: "PUT", url: "http://a.test/x", body: JSON.stringify({ view: "grid" }) },
    { method: "PUT", url: "http://a.test/x", body: JSON.stringify({ view: "list" }) },
  ]);
  assert.deepEqual([...lookupFields(records)].sort(), ["key", "sort", "view"]);
});

Deno.test("lookupFields: one value, or a value shaped like a secret, makes no lookup", () => {
  const records = recordsOf([
    { url: "http://a.test/a?key=word&token=k3y-9f2c7e1a55" },
    { url: "http://a.test/b?key=word&token=plain" },
    { url: "http://a.test/c?api_key=one" },
  ]);
  assert.deepEqual([...lookupFields(records)], []);
  assert.ok(isWords("object:440") && isWords("menu.title") && !isWords("k3y-9f2c7e1a55"));
});
