/**
 * `convertCurl`: the summary's count of commands with no pasted answer. A
 * database's guide pastes each command's JSON answer under it with no status
 * line (`{"ok":true,…}`); the summary said "3 commands with no pasted answer"
 * of three commands that each had one. A pasted JSON answer is an answer:
 * those commands are counted apart, as answers that show no status, and only
 * the commands with nothing under them are "with no pasted answer".
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const DOCS = [
  "curl -X PUT http://a.test/albums",
  '{"ok":true}',
  "",
  "curl http://a.test/albums",
  "",
  '$ curl -X PUT http://a.test/albums/6e1295ed -d \'{"title":"There is Nothing Left to Lose"}\'',
  '{"ok":true,"id":"6e1295ed","rev":"1-2902191555"}',
  "",
  "curl -i http://a.test/",
  "HTTP/1.1 200 OK",
  "",
  '{"couchdb":"Welcome"}',
  "",
  "curl -X DELETE http://a.test/albums-backup",
  "",
].join("\n");

Deno.test("a pasted JSON answer without a status line is an answer, counted apart", () => {
  const { yaml, summary } = convertCurl(DOCS);
  const notes = summary.notes.join("\n");
  assert.equal(yaml.match(/status: \{ lt: 400 \}/g)?.length, 4, yaml);
  assert.match(notes, /^2 commands with no pasted answer check only that the status is below 400/m);
  assert.match(notes, /^2 commands whose pasted answer shows no status line check only that/m);
  assert.equal(summary.notes.filter((n) => n.includes("below 400")).length, 2, notes);
});

Deno.test("every answer pasted without a status: no command is said to have none", () => {
  const { summary } = convertCurl('curl http://a.test/x\n{"ok":true}\n');
  const notes = summary.notes.join("\n");
  assert.doesNotMatch(notes, /no pasted answer/, notes);
  assert.match(notes, /^1 command whose pasted answer shows no status line checks only/m, notes);
});
