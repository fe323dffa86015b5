/**
 * `pm.variables.replaceIn` of text holding placeholders and words beside them
 * (`'{{$randomFirstName}} {{$randomLastName}}'`, `'user{{$randomInt}}@example.com'`): Newman puts
 * each placeholder's value in its place and keeps the rest of the text. A demo API's own
 * collection makes a user's full name so before its create and checks the answer echoes it; the
 * converter read one placeholder alone only, so the name stayed a comment, was sent empty, the
 * server refused the create (400) and the delete of the created user never ran. Now such text is
 * its parts joined: made values as made text, variables as their values, the words as written.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runConverted, withBodySink } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** A collection whose pre-request script makes two texts of several placeholders each. */
function collection(base: string) {
  return {
    info: { name: "People", schema: V21 },
    variable: [{ key: "prefix", value: "team" }],
    item: [{
      name: "Create Person",
      event: [{
        listen: "prerequest",
        script: {
          exec: [
            "pm.collectionVariables.set('fullName', pm.variables.replaceIn('{{$randomFirstName}} {{$randomLastName}}'));",
            "pm.collectionVariables.set('tag', pm.variables.replaceIn('{{prefix}}-{{$randomInt}}'));",
            "pm.collectionVariables.set('mail', pm.variables.replaceIn('user{{$randomInt}}@example.com'));",
          ],
        },
      }, {
        listen: "test",
        script: {
          exec: [
            "pm.test('accepted', () => pm.expect(pm.response.json().ok).to.eql(true));",
          ],
        },
      }],
      request: {
        method: "POST",
        url: `${base}/people`,
        header: [{ key: "Content-Type", value: "application/json" }],
        body: {
          mode: "raw",
          raw: '{"name": "{{fullName}}", "tag": "{{tag}}", "mail": "{{mail}}"}',
        },
      },
    }],
  };
}

Deno.test("postman replaceIn: text of several placeholders is their values joined with its words", async () => {
  await withBodySink(async (base, seen, dir) => {
    const { files } = convertPostman(JSON.stringify(collection(base)));
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
    const [sent] = seen;
    // Two words made at run time, one space between them, as Newman's names are.
    assert.match(sent.name, /^\S+ \S+$/, JSON.stringify(sent));
    assert.doesNotMatch(sent.name, /[{}$]/, JSON.stringify(sent));
    // The collection's variable in its place, then a made number.
    assert.match(sent.tag, /^team-\d+$/, JSON.stringify(sent));
    // One placeholder with words beside it is text too.
    assert.match(sent.mail, /^user\d+@example\.com$/, JSON.stringify(sent));
  });
});

Deno.test("postman replaceIn: a placeholder nothing defines keeps the text untranslated", () => {
  const c = collection("http://127.0.0.1:9");
  c.item[0].event[0].script.exec = [
    "pm.collectionVariables.set('tag', pm.variables.replaceIn('{{nowhere}}-{{$randomInt}}'));",
  ];
  const { files } = convertPostman(JSON.stringify(c));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  // Newman keeps `{{nowhere}}` as written; a user may still give it, so the line stays for a person.
  assert.match(flow, /# untranslated[^\n]*\n\s*#\s+pm\.collectionVariables\.set\('tag'/, flow);
});
