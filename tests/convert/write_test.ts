import assert from "node:assert/strict";
import { correlate } from "../../lib/convert/correlate/mod.ts";
import { writeFlow } from "../../lib/convert/write.ts";
import { ymap } from "../../lib/convert/yaml_out.ts";
import { withEngines } from "../../lib/load/engines.ts";
import { loadFlow } from "../../lib/load/mod.ts";
import { recordsOf } from "../support/har_records.ts";

Deno.test("writeFlow: header, vars, steps; the variables it reads listed; no secret in the text", () => {
  const records = recordsOf([
    { url: "https://a.test/me", headers: [["x-api-key", "k3y-91ab7c3d"]], json: { ok: true } },
  ]);
  const c = correlate(records, [{ records }], "a");
  const { yaml, notes, mask } = writeFlow(c, { total: 1, ordered: records, notes: [] });
  assert.match(
    yaml,
    /^# Converted by flowrun convert har from a HAR recording of 1 entries: 1 step\./,
  );
  assert.match(yaml, /# {3}API_KEY +the value of the "x-api-key" header/);
  assert.match(yaml, /\nname: Recorded session on a\.test\n/);
  assert.match(yaml, /x-api-key: \$\{ENV\.API_KEY\}/);
  assert.ok(!yaml.includes("k3y-91ab7c3d"));
  assert.deepEqual(notes, []);
  assert.equal(mask("key k3y-91ab7c3d"), "key ***");
});

Deno.test("writeFlow: a secret left inside request data becomes RECORDED_SECRET, said in a note", () => {
  // An opaque token: a JSON Web Token is asked for as JWT by what it is (jwt_literal_test.ts).
  const token = "tok_9f8e7d6c5b4a39281706a1b2";
  const records = recordsOf([{ url: "https://a.test/me", json: {} }]);
  const c = correlate(records, [{ records }], "a");
  c.secrets.add(token);
  c.steps[0].url += `?t=${token}`;
  const { yaml, notes } = writeFlow(c, { name: "Given", total: 1, ordered: records, notes: [] });
  assert.ok(!yaml.includes(token));
  assert.match(yaml, /\?t=\$\{ENV\.RECORDED_SECRET\}/);
  assert.match(yaml, /\nname: Given\n/);
  assert.match(notes[0], /^1 recorded secret value was found inside request data/);
});

/** The flow's problems as `flowrun validate` loads it (variables unset are not problems here). */
function loadProblems(yaml: string): Promise<string[]> {
  return withEngines(() =>
    loadFlow(yaml, "flow.yaml", { checkEnv: false }).problems.map((p) => p.message)
  );
}

Deno.test("writeFlow: a secret equal to a cookie's name, a capture's name or a step's name is never masked there", async () => {
  const records = recordsOf([
    {
      method: "POST",
      url: "https://cms.test/auth/login",
      headers: [["content-type", "application/json"]],
      body: JSON.stringify({ email: "ann@cms.test" }),
      json: {},
      setCookies: [["cms_session_token", "s3ss-9f8e7d6c5b4a"]],
    },
    {
      url: "https://cms.test/users/me",
      headers: [["Cookie", "cms_session_token=s3ss-9f8e7d6c5b4a"]],
      json: {},
    },
  ]);
  const c = correlate(records, records.map((r) => ({ records: [r] })), "a");
  // However it came to be held for one (a field named like a secret held it), a name is a name.
  c.secrets.add("cms_session_token");
  c.secrets.add("get_me_users");
  c.steps[1].name = "get_me_users";
  const { yaml } = writeFlow(c, { total: 2, ordered: records, notes: [] });
  assert.deepEqual(await loadProblems(yaml), [], yaml);
  assert.match(yaml, /cms_session_token: \{ cookie: cms_session_token \}/, yaml);
  assert.match(yaml, /cookie: cms_session_token=\$\{steps\.login\.capture\.cms_session_token\}/);
  assert.match(yaml, /- name: get_me_users\n/, yaml);
  assert.ok(!yaml.includes("***") && !yaml.includes("RECORDED_SECRET"), yaml);
});

Deno.test("writeFlow: a secret found in a value is replaced in the value only, never in a key or a reference", async () => {
  const records = recordsOf([{ url: "https://a.test/me", json: {} }]);
  const c = correlate(records, [{ records }], "a");
  const secret = "hunter2hunter2";
  c.secrets.add(secret);
  c.steps[0].headers.push([`x-${secret}`, `pre-${secret}`]);
  c.steps[0].method = "POST";
  c.steps[0].body = ymap([[secret, `${secret} and \${vars.base_url}`]]);
  const { yaml } = writeFlow(c, { total: 1, ordered: records, notes: [] });
  assert.deepEqual(await loadProblems(yaml), [], yaml);
  assert.ok(yaml.includes(`x-${secret}: pre-\${ENV.RECORDED_SECRET}`), yaml);
  assert.ok(yaml.includes(`${secret}: \${ENV.RECORDED_SECRET} and \${vars.base_url}`), yaml);
});

Deno.test("writeFlow: the cookies' names a variable stands for are shown, never masked", () => {
  const records = recordsOf([{
    url: "https://a.test/me",
    headers: [[
      "Cookie",
      "app_sSessionToken=ZVZQRDI1c09wZEJkQi1ZWHpDWndIMUkw; app_sAntiCsrfToken=bMBNEsvnocdYBmF8YVzA9",
    ]],
    json: {},
  }]);
  const c = correlate(records, [{ records }], "a");
  const { yaml } = writeFlow(c, { total: 1, ordered: records, notes: [] });
  assert.match(
    yaml,
    /SESSION_COOKIE +the Cookie header of a logged-in session \("app_sSessionToken=…; app_sAntiCsrfToken=…"\)/,
    yaml,
  );
  assert.ok(!yaml.includes("ZVZQRDI1c09w") && !yaml.includes("bMBNEsvnocdY"), yaml);
});
