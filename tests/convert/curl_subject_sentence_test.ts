/**
 * `convertCurl`: a sentence whose subject is the program ("curl
 * elaborates:", "curl tells us it connected. Again, not important if you
 * aren't…"), as a database's guide writes between its commands and the `-v`
 * output it explains (measured by hand). Each was a command: its words were
 * URLs (`http://elaborates`, `http://tells`: 24 steps and 24 base URLs to
 * set), and its apostrophe opened a quote that swallowed the commands after
 * it. A line starting with `curl` whose other words are all plain words (a
 * colon ending the last one, or two words and more) is prose; an option, a
 * URL, a host or a port keeps it a command.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const GUIDE = [
  "Let us create another database, this time verbose:",
  "",
  "curl -vX PUT http://127.0.0.1:5984/albums-backup",
  "",
  "SUBJECT",
  "",
  "Now the documents:",
  "",
  'curl -X PUT http://127.0.0.1:5984/albums/6e12 -d \'{"title":"Blackened Sky"}\'',
  "",
].join("\n");

const SENTENCES = [
  "curl elaborates:",
  "curl tells us it successfully connected to CouchDB. Again, not important if you aren't debugging.",
  "curl prints (in its verbose mode) what it sent:",
  "Curl is what we use here, since it's everywhere.",
  "curl doesn't follow redirects unless told so.",
];

Deno.test("a sentence about curl is prose: two steps, one base URL", () => {
  for (const sentence of SENTENCES) {
    const { yaml, summary } = convertCurl(GUIDE.replace("SUBJECT", sentence));
    assert.equal(summary.steps, 2, `${sentence}\n${yaml}`);
    assert.doesNotMatch(yaml, /BASE_URL_2|http:\/\/(elaborates|tells|prints|is|doesn)/, yaml);
    assert.match(yaml, /from 2 curl commands/, yaml);
  }
});

Deno.test("a command whose words are a host, a URL, an option or a variable stays one", () => {
  const commands = [
    "curl localhost:",
    "curl localhost",
    "curl api.test/items",
    "curl -s status:",
    "curl $HOST/items",
    "curl example.org",
    "curl http://a.test/x tells",
  ];
  for (const command of commands) {
    const { summary } = convertCurl(`${command}\n`);
    assert.ok(summary.steps >= 1, command);
  }
});

Deno.test("a sentence that names curl inside it is prose too", () => {
  // The guide's "We're using the curl utility again:" and "Now let's have a closer look … with
  // the curl -v flag": their apostrophes opened quotes that swallowed the command after them.
  const text = [
    "We're using the curl utility again:",
    "",
    "curl http://127.0.0.1:5984/",
    "",
    "Now let's have a closer look with the curl -v flag that was helpful before.",
    "",
    "We'll add some more albums. If you don't remember how, look it up.",
    "",
    "curl -vX PUT http://127.0.0.1:5984/albums/70b5 \\",
    '     -d \'{"title":"Blackened Sky"}\'',
    "",
  ].join("\n");
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 2, yaml);
  assert.match(yaml, /method: PUT/, yaml);
});
